// Record readers against the columnar reader on the taxi full scan: the same
// fold (count / nulls / min / max of every column) computed from the
// columnar batches, from generic rows (RowReader + ValueRef) and from typed
// structs (TypedReader). The targets: rows within 3x of the
// columnar scan, typed structs within 2x, so the columnar case is the
// table's baseline; each record fold is checked value for value against the
// columnar one (itself checked against DuckDB in the reader suite).
#include <optional>
#include <stdexcept>
#include <string>

#include "datasets.h"
#include "harness.h"
#include "parquetry/record.h"
#include "parquetry/scan.h"
#include "parquetry/typed_record.h"
#include "scan_summary_result.h"

namespace parquetry::bench {
namespace {

// One column's fold, kept in native form while scanning.
struct Fold {
  int64_t count = 0;
  int64_t nulls = 0;
  int64_t int_min = 0, int_max = 0;
  double double_min = 0, double_max = 0;
  std::string text_min, text_max;

  void add(int64_t v) {
    if (count++ == 0 || v < int_min) int_min = v;
    if (count == 1 || v > int_max) int_max = v;
  }
  void add(double v) {
    if (count++ == 0 || v < double_min) double_min = v;
    if (count == 1 || v > double_max) double_max = v;
  }
  void add(std::string_view v) {
    if (count++ == 0 || v < text_min) text_min.assign(v);
    if (count == 1 || v > text_max) text_max.assign(v);
  }
  template <typename T>
  void add(const std::optional<T>& v) {
    if (v) {
      add(*v);
    } else {
      ++nulls;
    }
  }
};

enum class Kind { kInt, kDouble, kText };

Kind kind_of(const DataType& type) {
  if (type.id == TypeId::kFloat64 || type.id == TypeId::kFloat32) return Kind::kDouble;
  if (type.is_binary_like()) return Kind::kText;
  return Kind::kInt;
}

ScanSummary summarize(const BatchSchema& schema, const std::vector<Fold>& folds, int64_t rows) {
  ScanSummary summary;
  summary.rows = rows;
  for (size_t c = 0; c < folds.size(); ++c) {
    const Fold& f = folds[c];
    ColumnScanSummary column;
    column.name = schema.fields[c].name;
    column.type = schema.fields[c].type;
    column.count = f.count;
    column.nulls = f.nulls;
    if (f.count > 0) {
      switch (kind_of(column.type)) {
        case Kind::kInt: column.min = f.int_min, column.max = f.int_max; break;
        case Kind::kDouble: column.min = f.double_min, column.max = f.double_max; break;
        case Kind::kText: column.min = f.text_min, column.max = f.text_max; break;
      }
    }
    summary.columns.push_back(std::move(column));
  }
  return summary;
}

// Fails the case when a record reader's fold differs from the columnar one.
void check_against_columnar(const ScanSummary& summary) {
  const ScanResult expected =
      to_scan_result(scan_file(datasets::duckdb_parquet_path(data_dir(), "taxi"), {}));
  const std::vector<std::string> diffs = compare_scan_results(to_scan_result(summary), expected);
  if (!diffs.empty())
    throw std::runtime_error("record fold differs from the columnar scan: " + diffs.front());
}

void columnar(CaseContext& ctx) {
  const std::string path = datasets::duckdb_parquet_path(data_dir(), "taxi");
  ScanSummary summary;
  ctx.measure([&] {
    summary = scan_file(path, ReaderOptions{});
    benchmark::DoNotOptimize(summary);
  });
  ctx.set_result(to_scan_result(summary));
}

void generic_rows(CaseContext& ctx) {
  const std::string path = datasets::duckdb_parquet_path(data_dir(), "taxi");
  ScanSummary summary;
  ctx.measure([&] {
    auto rows = RowReader::open(path);
    const BatchSchema& schema = *rows->schema();
    std::vector<Kind> kinds;
    for (const Field& field : schema.fields) kinds.push_back(kind_of(field.type));
    std::vector<Fold> folds(kinds.size());
    Row row;
    while (rows->next(row)) {
      for (size_t c = 0; c < kinds.size(); ++c) {
        const ValueRef value = row[int(c)];
        if (value.is_null()) {
          ++folds[c].nulls;
          continue;
        }
        switch (kinds[c]) {
          case Kind::kInt: folds[c].add(value.as_int64()); break;
          case Kind::kDouble: folds[c].add(value.as_double()); break;
          case Kind::kText: folds[c].add(value.as_string()); break;
        }
      }
    }
    summary = summarize(schema, folds, rows->rows_read());
  });
  check_against_columnar(summary);
  ctx.set_result(to_scan_result(summary));
}

// The taxi schema as a C++ struct (every DuckDB column is nullable).
struct Trip {
  std::optional<int64_t> vendor_id, pickup, dropoff;
  std::optional<double> passenger_count, trip_distance, ratecode_id;
  std::optional<std::string> store_and_fwd_flag;
  std::optional<int64_t> pu_location, do_location, payment_type;
  std::optional<double> fare, extra, mta_tax, tip, tolls, improvement, total, congestion, airport_fee;
};

RecordLayout<Trip> trip_layout() {
  return RecordLayout<Trip>()
      .field("VendorID", &Trip::vendor_id)
      .field("tpep_pickup_datetime", &Trip::pickup)
      .field("tpep_dropoff_datetime", &Trip::dropoff)
      .field("passenger_count", &Trip::passenger_count)
      .field("trip_distance", &Trip::trip_distance)
      .field("RatecodeID", &Trip::ratecode_id)
      .field("store_and_fwd_flag", &Trip::store_and_fwd_flag)
      .field("PULocationID", &Trip::pu_location)
      .field("DOLocationID", &Trip::do_location)
      .field("payment_type", &Trip::payment_type)
      .field("fare_amount", &Trip::fare)
      .field("extra", &Trip::extra)
      .field("mta_tax", &Trip::mta_tax)
      .field("tip_amount", &Trip::tip)
      .field("tolls_amount", &Trip::tolls)
      .field("improvement_surcharge", &Trip::improvement)
      .field("total_amount", &Trip::total)
      .field("congestion_surcharge", &Trip::congestion)
      .field("airport_fee", &Trip::airport_fee);
}

void typed_structs(CaseContext& ctx) {
  const std::string path = datasets::duckdb_parquet_path(data_dir(), "taxi");
  const RecordLayout<Trip> layout = trip_layout();
  ScanSummary summary;
  ctx.measure([&] {
    auto reader = TypedReader<Trip>::open(path, layout);
    std::vector<Fold> folds(19);
    std::vector<Trip> trips;
    int64_t rows = 0;
    while (reader->next_batch(trips)) {
      rows += int64_t(trips.size());
      for (const Trip& t : trips) {
        folds[0].add(t.vendor_id), folds[1].add(t.pickup), folds[2].add(t.dropoff);
        folds[3].add(t.passenger_count), folds[4].add(t.trip_distance), folds[5].add(t.ratecode_id);
        folds[6].add(t.store_and_fwd_flag);
        folds[7].add(t.pu_location), folds[8].add(t.do_location), folds[9].add(t.payment_type);
        folds[10].add(t.fare), folds[11].add(t.extra), folds[12].add(t.mta_tax), folds[13].add(t.tip);
        folds[14].add(t.tolls), folds[15].add(t.improvement), folds[16].add(t.total);
        folds[17].add(t.congestion), folds[18].add(t.airport_fee);
      }
    }
    // The file's own schema names and types the columns of the summary.
    auto file = FileReader::open(path);
    summary = summarize(*file->batch_schema(), folds, rows);
  });
  check_against_columnar(summary);
  ctx.set_result(to_scan_result(summary));
}

}  // namespace

PARQUETRY_BENCH_CASE(record_columnar,
                     add_case("record", "taxi_full_scan", "parquetry_columnar", columnar).baseline().cold());
PARQUETRY_BENCH_CASE(record_rows,
                     add_case("record", "taxi_full_scan", "parquetry_rows", generic_rows).cold());
PARQUETRY_BENCH_CASE(record_typed,
                     add_case("record", "taxi_full_scan", "parquetry_typed", typed_structs).cold());

}  // namespace parquetry::bench
