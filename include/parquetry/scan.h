// The full-scan workload: decode every selected value and fold it into
// count / nulls / min / max per column (for lists of numbers: element count
// and sum). It is what `parquetry scan` prints and what the benchmark suite
// times against DuckDB's equivalent aggregate query.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "parquetry/export.h"
#include "parquetry/reader.h"
#include "parquetry/table.h"

namespace parquetry {

/// A min or max; empty when the column holds no value. Integers, dates,
/// times and timestamps fold as their stored int64 (timestamps in the
/// column's unit), floats as double, strings and binaries as bytes.
using ScanScalar = std::variant<std::monostate, int64_t, uint64_t, double, std::string>;

struct ColumnScanSummary {
  std::string name;
  DataType type;
  int64_t count = 0;  ///< non-null values; for lists, the elements of the non-null lists
  int64_t nulls = 0;  ///< null values (null lists for list columns)
  ScanScalar min;     ///< scalar columns
  ScanScalar max;
  int64_t sum_int = 0;    ///< lists of integers: sum of the elements (wrapping)
  double sum_double = 0;  ///< lists of floats: sum of the elements
};

struct ScanSummary {
  int64_t rows = 0;
  std::vector<ColumnScanSummary> columns;
};

/// Folds batches of one schema into a ScanSummary.
class PARQUETRY_API ScanAccumulator {
 public:
  explicit ScanAccumulator(const BatchSchema& schema);
  /// Folds every column of `batch`, columns spread over `threads` threads.
  void add(const RecordBatch& batch, int threads = 1);
  /// Folds only the rows of `batch` whose bit is set in `selection` (bit i =
  /// row i; (num_rows + 7) / 8 bytes; null = every row), visiting just those
  /// rows in place: the way to fold a filtered scan's survivors without
  /// copying them out (FilteredScan::next_selection).
  void add(const RecordBatch& batch, const uint8_t* selection, int threads = 1);
  /// Adds the fold of another accumulator of the same schema (row groups
  /// folded on several threads, then combined).
  void merge(const ScanSummary& other);
  const ScanSummary& summary() const { return summary_; }

 private:
  ScanSummary summary_;
};

/// Reads the file with `options` (columns, threads, ...) and folds every value.
/// With threads > 1 on a local file of at least four selected row groups per
/// thread, each thread streams its share of the row groups (every n-th)
/// through a reader of its own and the folds are merged; otherwise the
/// threads decode and fold the columns of each batch side by side. Sums of
/// floats (lists of floats) may then differ in their last bits between
/// thread counts, as any sum taken in another order.
PARQUETRY_API ScanSummary scan_file(const std::string& path, const ReaderOptions& options);

}  // namespace parquetry
