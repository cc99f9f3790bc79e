// Filtered scans on the DuckDB-written taxi file: the full-scan fold
// (count/min/max of every column) over only the rows a predicate keeps,
// against DuckDB's same aggregate query with the WHERE clause. Selective
// filters (one pickup zone, rare payment types, one day of pickups) show
// what pruning and late materialization save; `fare_amount > 0` keeps almost
// every row and shows their overhead.
#include <map>

#include "datasets.h"
#include "harness.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/scan.h"

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

ValueKind kind_of(const DataType& type) {
  switch (type.id) {
    case TypeId::kFloat32:
    case TypeId::kFloat64: return ValueKind::kDouble;
    case TypeId::kString:
    case TypeId::kLargeString: return ValueKind::kString;
    case TypeId::kTimestamp: return ValueKind::kTimestamp;
    default: return ValueKind::kInt64;
  }
}

int64_t to_micros(int64_t value, ArrowTimeUnit unit) {
  switch (unit) {
    case ArrowTimeUnit::kSecond: return value * 1000000;
    case ArrowTimeUnit::kMilli: return value * 1000;
    case ArrowTimeUnit::kMicro: return value;
    case ArrowTimeUnit::kNano: return value / 1000;
  }
  return value;
}

ScalarValue to_scalar(const ScanScalar& value, const DataType& type) {
  if (std::holds_alternative<int64_t>(value)) {
    int64_t v = std::get<int64_t>(value);
    return type.id == TypeId::kTimestamp ? to_micros(v, type.unit) : v;
  }
  if (std::holds_alternative<uint64_t>(value)) return int64_t(std::get<uint64_t>(value));
  if (std::holds_alternative<double>(value)) return std::get<double>(value);
  if (std::holds_alternative<std::string>(value)) return std::get<std::string>(value);
  return std::monostate{};
}

ScanResult to_scan_result(const ScanSummary& summary) {
  ScanResult result;
  result.rows = summary.rows;
  for (const ColumnScanSummary& column : summary.columns) {
    ColumnStats stats;
    stats.name = column.name;
    stats.kind = kind_of(column.type);
    stats.count = column.count;
    stats.nulls = column.nulls;
    stats.min = to_scalar(column.min, column.type);
    stats.max = to_scalar(column.max, column.type);
    result.columns.push_back(std::move(stats));
  }
  return result;
}

void filtered_scan(CaseContext& ctx) {
  const std::string path = datasets::duckdb_parquet_path(data_dir(), "taxi");
  FilteredScanOptions options;
  options.threads = int(ctx.param_int("threads"));
  options.filter = parse_predicate(filters().at(ctx.param("filter")));
  ScanSummary summary;
  ctx.measure([&] {
    auto scan = FilteredScan::open(path, options);
    ScanAccumulator accumulator(*scan->schema());
    RecordBatch batch;
    while (scan->next(batch)) accumulator.add(batch, options.threads);
    summary = accumulator.summary();
  });
  ctx.set_result(to_scan_result(summary));
}

}  // namespace

PARQUETRY_BENCH_CASE(scan_filtered_scan,
                     add_case("scan", "filtered_scan", "parquetry_filtered", filtered_scan)
                         .param("filter", {"pu_132", "payment_3_4", "one_day", "fare_gt_0"})
                         .param("threads", {"1", "2"}));
PARQUETRY_BENCH_CASE(scan_filtered_scan_peer,
                     set_table_peer("scan", "filtered_scan",
                                    PeerSpec{"duckdb",
                                             "filtered_scan.js",
                                             {"--dataset", "taxi", "--data-dir", "{data_dir}", "--filter",
                                              "{filter}", "--threads", "{threads}"}}));

}  // namespace parquetry::bench
