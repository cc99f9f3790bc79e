// Filtered scans on the DuckDB-written taxi file: the full-scan fold
// (count/min/max of every column) over only the rows a predicate keeps,
// against DuckDB's same aggregate query with the WHERE clause. Selective
// filters (one pickup zone, rare payment types, one day of pickups) show
// what pruning and late materialization save; `fare_amount > 0` keeps almost
// every row and shows their overhead. The _dictionary case outputs
// dictionary-encoded columns as dictionary arrays (no gather of values).
// Both fold through FilteredScan::fold: the survivors are folded in place
// through a selection bitmap, row groups split over the threads.
#include <map>

#include "datasets.h"
#include "harness.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/scan.h"
#include "scan_summary_result.h"

namespace parquetry::bench {
namespace {

// Filter names shared with bench/peers/filtered_scan.js, and their SQL.
const std::map<std::string, std::string>& filters() {
  static const std::map<std::string, std::string> kFilters = {
      {"pu_132", "PULocationID = 132"},
      {"payment_3_4", "payment_type IN (3, 4)"},
      {"one_day",
       "tpep_pickup_datetime >= '2022-01-15 00:00:00' AND tpep_pickup_datetime < '2022-01-16 00:00:00'"},
      {"fare_gt_0", "fare_amount > 0"},
  };
  return kFilters;
}

void filtered_scan(CaseContext& ctx, bool dictionary_arrays) {
  const std::string path = datasets::duckdb_parquet_path(data_dir(), "taxi");
  FilteredScanOptions options;
  options.dictionary_arrays = dictionary_arrays;
  options.threads = int(ctx.param_int("threads"));
  options.filter = parse_predicate(filters().at(ctx.param("filter")));
  ScanSummary summary;
  ctx.measure([&] { summary = FilteredScan::fold(path, options); });
  ctx.set_result(to_scan_result(summary));
}

void values_scan(CaseContext& ctx) { filtered_scan(ctx, false); }
void dictionary_scan(CaseContext& ctx) { filtered_scan(ctx, true); }

}  // namespace

PARQUETRY_BENCH_CASE(scan_filtered_scan,
                     add_case("scan", "filtered_scan", "parquetry_filtered", values_scan)
                         .param("filter", {"pu_132", "payment_3_4", "one_day", "fare_gt_0"})
                         .param("threads", {"1", "2"})
                         .cold());
PARQUETRY_BENCH_CASE(scan_filtered_scan_dictionary,
                     add_case("scan", "filtered_scan", "parquetry_filtered_dictionary", dictionary_scan)
                         .param("filter", {"pu_132", "payment_3_4", "one_day", "fare_gt_0"})
                         .param("threads", {"1", "2"})
                         .cold());
PARQUETRY_BENCH_CASE(scan_filtered_scan_peer,
                     set_table_peer("scan", "filtered_scan",
                                    PeerSpec{"duckdb",
                                             "filtered_scan.js",
                                             {"--dataset", "taxi", "--data-dir", "{data_dir}", "--filter",
                                              "{filter}", "--threads", "{threads}"}}));

}  // namespace parquetry::bench
