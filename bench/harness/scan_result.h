// What a full-scan workload computes, on our side and on the peer's side, so
// the two can be checked for equality before a timing counts: per column the
// number of values, the nulls, min and max (for list columns: the number of
// elements and their sum).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace parquetry::bench {

enum class ValueKind { kInt64, kDouble, kString, kTimestamp, kListInt64, kListDouble };

std::string_view kind_name(ValueKind kind);
/// Inverse of kind_name(); throws std::runtime_error on an unknown name.
ValueKind kind_from_name(std::string_view name);
inline bool is_list(ValueKind kind) {
  return kind == ValueKind::kListInt64 || kind == ValueKind::kListDouble;
}

/// A min or max: empty when the column holds no value. Timestamps are int64
/// microseconds since the epoch.
using ScalarValue = std::variant<std::monostate, int64_t, double, std::string>;

struct ColumnStats {
  std::string name;
  ValueKind kind = ValueKind::kInt64;
  int64_t count = 0;  ///< non-null values; for lists the elements of all non-null lists
  int64_t nulls = 0;  ///< null values (null lists for list columns)
  ScalarValue min;    ///< scalar columns only
  ScalarValue max;
  int64_t sum_int = 0;    ///< kListInt64: sum of all elements
  double sum_double = 0;  ///< kListDouble: sum of all elements
};

struct ScanResult {
  int64_t rows = 0;
  std::vector<ColumnStats> columns;
};

/// One line per difference ("column fare_amount: max 12.5 (ours) != 13 (peer)");
/// empty when the results agree. Everything must match exactly except sums
/// of doubles, which agree to a relative 1e-9 (summation order differs).
std::vector<std::string> compare_scan_results(const ScanResult& ours, const ScanResult& peer);

/// JSON form shared with the peer scripts (docs/benchmarks.md): integers as
/// decimal strings (exact beyond 2^53), doubles as numbers.
std::string scan_result_to_json(const ScanResult& result);
/// Parses the JSON form; throws std::runtime_error when malformed.
ScanResult scan_result_from_json(std::string_view json);

}  // namespace parquetry::bench
