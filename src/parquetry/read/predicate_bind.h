// Internal: literals bound to a column's value domain, shared by row
// evaluation (Arrow types) and pruning (Parquet physical/logical types).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parquetry/predicate.h"

namespace parquetry {

/// What a column's values mean for comparisons.
struct ValueKind {
  enum Kind : uint8_t {
    kSigned,
    kUnsigned,
    kFloat,
    kBool,
    kDate,
    kTimestamp,
    kTime,
    kDecimal,
    kBytes,
    kUnsupported
  };
  Kind kind = kUnsupported;
  int64_t units_per_second = 1;  ///< timestamps and times
  int32_t scale = 0;             ///< decimals
};

ValueKind value_kind(const ColumnDescriptor& column);
ValueKind value_kind(const DataType& type);

/// A literal in a column's comparison domain. kNone: a NULL literal, which
/// no row satisfies.
struct BoundLiteral {
  enum Domain : uint8_t { kNone, kInt, kInt128, kDouble, kBytes };
  Domain domain = kNone;
  int64_t int_value = 0;      ///< integers, dates, timestamps/times in the column's unit, booleans
  __int128 int128_value = 0;  ///< decimals: unscaled at the column's scale
  double double_value = 0;    ///< floats; integer/decimal columns met by a non-integral literal
  std::string bytes;          ///< strings and binaries
};

/// Throws kInvalidArgument when the literal cannot be a value of the column.
BoundLiteral bind_literal(const ValueKind& kind, const Literal& literal, const std::string& column);

int64_t units_per_second(TimeUnit unit);
std::optional<int64_t> parse_timestamp_nanos_per(std::string_view text, int64_t units_per_second);
std::optional<int64_t> parse_time_of_day(std::string_view text, int64_t units_per_second);
double pow10(int32_t scale);

}  // namespace parquetry
