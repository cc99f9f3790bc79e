// parquetry's readers in the full-scan table of BENCHMARKS.md §1: decode
// every value of every column of the DuckDB-written taxi and metrics files
// and fold it into count/min/max (lists: element count and sum). The harness
// checks the fold against DuckDB's aggregate query before the time counts.
#include "datasets.h"
#include "harness.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"
#include "scan_summary_result.h"

namespace parquetry::bench {
namespace {

void columnar_full_scan(CaseContext& ctx) {
  const std::string path = datasets::duckdb_parquet_path(data_dir(), ctx.param("dataset"));
  ReaderOptions options;
  options.threads = int(ctx.param_int("threads"));
  ScanSummary summary;
  ctx.measure([&] {
    summary = scan_file(path, options);
    benchmark::DoNotOptimize(summary);
  });
  ctx.set_result(to_scan_result(summary));
}

}  // namespace

PARQUETRY_BENCH_CASE(reader_columnar_full_scan,
                     add_case("reader", "full_scan", "parquetry_columnar", columnar_full_scan)
                         .param("dataset", {"taxi", "metrics"})
                         .param("threads", {"1", "2"}));

}  // namespace parquetry::bench
