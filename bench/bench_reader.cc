// parquetry's readers in the full-scan table of BENCHMARKS.md §1: decode
// every value of every column of the DuckDB-written taxi and metrics files
// and fold it into count/min/max (lists: element count and sum). The harness
// checks the fold against DuckDB's aggregate query before the time counts.
// parquetry_columnar gathers every value; parquetry_dictionary reads
// dictionary-encoded chunks as dictionary arrays and folds min/max per used
// dictionary entry (ReaderOptions::dictionary_arrays).
// The table full_scan_parquetry_written runs both readers on the same rows
// written by parquetry (datasets::ensure_parquetry_copy), with DuckDB reading
// that file as the peer: readers are measured on both writers' files.
#include "datasets.h"
#include "harness.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"
#include "scan_summary_result.h"

namespace parquetry::bench {
namespace {

void full_scan_of(CaseContext& ctx, const std::string& path, bool dictionary_arrays) {
  ReaderOptions options;
  options.threads = int(ctx.param_int("threads"));
  options.dictionary_arrays = dictionary_arrays;
  ScanSummary summary;
  ctx.measure([&] {
    summary = scan_file(path, options);
    benchmark::DoNotOptimize(summary);
  });
  ctx.set_result(to_scan_result(summary));
}

std::string duckdb_file(CaseContext& ctx) {
  return datasets::duckdb_parquet_path(data_dir(), ctx.param("dataset"));
}
std::string parquetry_file(CaseContext& ctx) {
  return datasets::parquetry_parquet_path(data_dir(), ctx.param("dataset"));
}

void columnar_full_scan(CaseContext& ctx) { full_scan_of(ctx, duckdb_file(ctx), false); }
void dictionary_full_scan(CaseContext& ctx) { full_scan_of(ctx, duckdb_file(ctx), true); }
void columnar_own_file(CaseContext& ctx) { full_scan_of(ctx, parquetry_file(ctx), false); }
void dictionary_own_file(CaseContext& ctx) { full_scan_of(ctx, parquetry_file(ctx), true); }

}  // namespace

PARQUETRY_BENCH_CASE(reader_columnar_full_scan,
                     add_case("reader", "full_scan", "parquetry_columnar", columnar_full_scan)
                         .param("dataset", {"taxi", "metrics"})
                         .param("threads", {"1", "2"})
                         .cold());
PARQUETRY_BENCH_CASE(reader_dictionary_full_scan,
                     add_case("reader", "full_scan", "parquetry_dictionary", dictionary_full_scan)
                         .param("dataset", {"taxi", "metrics"})
                         .param("threads", {"1", "2"})
                         .cold());

PARQUETRY_BENCH_CASE(reader_own_file_peer,
                     set_table_peer("reader", "full_scan_parquetry_written",
                                    PeerSpec{"duckdb",
                                             "full_scan.js",
                                             {"--file", "{data_dir}/{dataset}.parquetry.parquet", "--threads",
                                              "{threads}"}}));
PARQUETRY_BENCH_CASE(reader_columnar_own_file, add_case("reader", "full_scan_parquetry_written",
                                                        "parquetry_columnar", columnar_own_file)
                                                   .param("dataset", {"taxi", "metrics"})
                                                   .param("threads", {"1", "2"})
                                                   .cold());
PARQUETRY_BENCH_CASE(reader_dictionary_own_file, add_case("reader", "full_scan_parquetry_written",
                                                          "parquetry_dictionary", dictionary_own_file)
                                                     .param("dataset", {"taxi", "metrics"})
                                                     .param("threads", {"1", "2"})
                                                     .cold());

}  // namespace parquetry::bench
