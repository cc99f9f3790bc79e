// parquetry's readers in the full-scan table of BENCHMARKS.md §1: decode
// every value of every column of the DuckDB-written taxi and metrics files
// and fold it into count/min/max (lists: element count and sum). The harness
// checks the fold against DuckDB's aggregate query before the time counts.
#include "datasets.h"
#include "harness.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"

namespace parquetry::bench {
namespace {

ValueKind kind_of(const DataType& type) {
  switch (type.id) {
    case TypeId::kFloat32:
    case TypeId::kFloat64: return ValueKind::kDouble;
    case TypeId::kString:
    case TypeId::kLargeString: return ValueKind::kString;
    case TypeId::kTimestamp: return ValueKind::kTimestamp;
    case TypeId::kList:
    case TypeId::kLargeList: {
      const TypeId item = type.children[0].type.id;
      return item == TypeId::kFloat32 || item == TypeId::kFloat64 ? ValueKind::kListDouble
                                                                  : ValueKind::kListInt64;
    }
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

/// The harness's result form of a parquetry scan.
ScanResult to_scan_result(const ScanSummary& summary) {
  ScanResult result;
  result.rows = summary.rows;
  for (const ColumnScanSummary& column : summary.columns) {
    ColumnStats stats;
    stats.name = column.name;
    stats.kind = kind_of(column.type);
    stats.count = column.count;
    stats.nulls = column.nulls;
    if (is_list(stats.kind)) {
      stats.sum_int = column.sum_int;
      stats.sum_double = column.sum_double;
    } else {
      stats.min = to_scalar(column.min, column.type);
      stats.max = to_scalar(column.max, column.type);
    }
    result.columns.push_back(std::move(stats));
  }
  return result;
}

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
