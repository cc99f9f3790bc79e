// Deterministic benchmark datasets (docs/benchmarks.md, BENCHMARKS.md §1).
//
// A generator fills a `Table`: plain std::vectors per column, the form the
// parquetry writer consumes and the full-scan workloads fold:
//   - every column has `rows` entries; `valid` holds one byte per row
//     (1 = value present) and is empty for non-nullable columns; a null row
//     still occupies its slot (0 / empty) in the value vectors;
//   - kInt64 / kTimestampMicros: `ints[row]` (timestamps: microseconds since
//     the epoch, no time zone); kDouble: `doubles[row]`;
//   - kString: bytes of row r are chars[offsets[r] .. offsets[r+1]);
//   - kListInt64 / kListDouble: elements of row r are
//     ints/doubles[offsets[r] .. offsets[r+1]) (an empty range is an empty list).
// The same seed and parameters always give the same bytes.
//
// ensure_dataset() also has DuckDB write the Parquet file (snappy) through
// bench/peers/write_dataset.js, and keeps it with a stamp so later runs reuse
// it while generator version, parameters and checksums are unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scan_result.h"

namespace parquetry::bench::datasets {

enum class ColumnType { kInt64, kDouble, kTimestampMicros, kString, kListInt64, kListDouble };

struct Column {
  std::string name;
  ColumnType type = ColumnType::kInt64;
  bool nullable = false;
  std::vector<uint8_t> valid;
  std::vector<int64_t> ints;
  std::vector<double> doubles;
  std::vector<int64_t> offsets;
  std::string chars;

  bool is_valid(int64_t row) const { return valid.empty() || valid[static_cast<size_t>(row)] != 0; }
};

struct Table {
  std::string name;
  int64_t rows = 0;
  std::vector<Column> columns;
};

/// Bumped whenever a generator's output changes; part of the cache stamp.
constexpr int kGeneratorVersion = 1;
constexpr int64_t kTaxiRows = 2'463'931;
constexpr int64_t kMetricsRows = 1'000;
constexpr uint64_t kDefaultSeed = 20220101;

/// NYC TLC yellow taxi, January 2022 schema (19 columns).
Table generate_taxi(int64_t rows = kTaxiRows, uint64_t seed = kDefaultSeed);
/// 41 string tag columns + 4 list columns (ts, sums_double, sums_long, count).
Table generate_metrics(int64_t rows = kMetricsRows, uint64_t seed = kDefaultSeed);
/// "taxi" or "metrics" with their default size and seed; throws on another name.
Table generate(const std::string& name);
std::vector<std::string> dataset_names();

/// The full-scan fold of one column of `rows` rows.
ColumnStats fold_column(const Column& column, int64_t rows);
/// The full-scan fold over every value (what every reader must reproduce).
ScanResult fold_table(const Table& table);
/// A checksum over every value, validity bit and offset (xxh64, hex).
std::string content_checksum(const Table& table);
/// Writes the table as CSV with a header (the hand-off to DuckDB): doubles in
/// shortest round-trip form, timestamps as ISO text, lists as [a, b], nulls empty.
void write_csv(const Table& table, const std::string& path);
/// DuckDB column types for write_dataset.js ("BIGINT", "DOUBLE", "TIMESTAMP", "VARCHAR", "BIGINT[]",
/// "DOUBLE[]").
std::string duckdb_type(ColumnType type);

struct DatasetFile {
  std::string name;
  std::string path;  ///< the Parquet file DuckDB wrote
  int64_t rows = 0;
  int64_t bytes = 0;
  std::string params_key;        ///< generator version + rows + seed
  std::string content_checksum;  ///< of the generated Table
  std::string file_checksum;     ///< xxh64 of the Parquet file
  bool reused = false;
};

/// Where datasets go: /dev/shm/parquetry-bench when tmpfs has room, else <fallback>.
std::string default_data_dir(const std::string& fallback);
/// Generates `name` and has DuckDB write it, unless a valid stamp says the file is current.
DatasetFile ensure_dataset(const std::string& name, const std::string& data_dir, const std::string& peers_dir,
                           const std::string& node);
/// The stamp of a dataset written earlier; `path` is empty when there is none.
DatasetFile read_stamp(const std::string& data_dir, const std::string& name);
/// <data_dir>/<name>.duckdb.parquet
std::string duckdb_parquet_path(const std::string& data_dir, const std::string& name);
/// <data_dir>/<name>.parquetry.parquet: the same rows written by parquetry.
std::string parquetry_parquet_path(const std::string& data_dir, const std::string& name);
/// Reads `source` (the DuckDB file of a dataset) and writes it again with
/// parquetry's FileWriter (defaults, snappy), unless a stamp says the copy was
/// made from the same source by the same writer version. A new copy must fold
/// (scan_file) exactly as the source does.
DatasetFile ensure_parquetry_copy(const DatasetFile& source, const std::string& data_dir);
/// xxh64 of a file's bytes, hex.
std::string file_checksum(const std::string& path);

}  // namespace parquetry::bench::datasets
