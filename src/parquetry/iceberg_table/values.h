// Typed single values of the planner: partition tuple values, column bounds
// (single-value binary serialization), predicate literals and
// `initial-default`s, all brought to one form per Iceberg type so they compare
// directly; and the partition transforms applied to them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parquetry/iceberg_table.h"

namespace parquetry::iceberg {

/// One value of an Iceberg primitive type:
/// - boolean, int, long, date, time, timestamps: `i` (timestamps in their
///   own unit: micros, or nanos for the _ns types);
/// - float, double: `d`;
/// - decimal: `i128` (unscaled);
/// - string, binary, fixed, uuid: `bytes` (uuid as 16 big-endian bytes).
struct Value {
  enum class Kind : uint8_t { kNull, kInt, kDouble, kDecimal, kBytes };
  Kind kind = Kind::kNull;
  int64_t i = 0;
  double d = 0;
  __int128 i128 = 0;
  std::string bytes;

  bool is_null() const { return kind == Kind::kNull; }
  static Value null() { return {}; }
  static Value integer(int64_t v) {
    Value out;
    out.kind = Kind::kInt;
    out.i = v;
    return out;
  }
};

/// -1, 0, 1 comparing two non-null values of the same kind; nullopt when
/// they are not comparable (kinds differ, NaN).
std::optional<int> compare_values(const Value& a, const Value& b);

/// A bound in the single-value binary serialization of `type`; nullopt when
/// its length does not fit the type (such bounds are not used).
std::optional<Value> decode_bound(const IcebergType& type, std::string_view bytes);

/// A manifest partition value of result type `type`.
Value from_partition(const IcebergType& type, const PartitionValue& value);

/// A predicate literal typed by `type`; nullopt when it has no exact value
/// of that type (the planner then does not prune on it).
std::optional<Value> from_literal(const IcebergType& type, const Literal& literal);

/// An `initial-default` (its JSON text) typed by `type`. Throws kCorrupt
/// when it does not fit the type.
Value from_default_json(const IcebergType& type, std::string_view json, const std::string& what);

/// T(value) for a transform of a source column of type `source`; nullopt
/// when the transform does not apply to the type.
std::optional<Value> apply_transform(const Transform& transform, const IcebergType& source, const Value& value);

/// Big-endian minimal two's complement bytes of an unscaled decimal.
std::string decimal_bytes(__int128 unscaled);
__int128 decimal_from_bytes(std::string_view big_endian);

}  // namespace parquetry::iceberg
