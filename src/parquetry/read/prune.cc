// What statistics prove about a leaf predicate: min/max bounds of a chunk or
// a page (PLAIN-encoded) decoded in the column's sort order, compared with the
// literal bound to the same domain.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "parquetry/error.h"
#include "parquetry/predicate.h"
#include "parquetry/read/predicate_bind.h"

namespace parquetry {
namespace {

// A statistics value decoded into the domain of a bound literal.
struct Key {
  bool ok = false;
  __int128 integer = 0;  ///< kInt / kInt128 (unsigned values fit too)
  double real = 0;
  std::string_view bytes;
};

template <typename T>
T load(std::string_view bytes) {
  T value;
  std::memcpy(&value, bytes.data(), sizeof(T));
  return value;
}

// Big-endian two's complement (decimals in byte arrays) to a wide integer.
std::optional<__int128> big_endian_signed(std::string_view bytes) {
  if (bytes.empty() || bytes.size() > 16) return std::nullopt;
  unsigned __int128 value =
      (static_cast<unsigned char>(bytes[0]) & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
  for (char c : bytes) value = (value << 8) | static_cast<unsigned char>(c);
  return static_cast<__int128>(value);
}

Key decode(const ColumnDescriptor& column, const ValueKind& kind, const BoundLiteral& literal,
           std::string_view bytes) {
  Key key;
  __int128 integer = 0;
  double real = 0;
  bool is_real = false;
  switch (column.physical_type) {
    case Type::BOOLEAN:
      if (bytes.size() != 1) return key;
      integer = bytes[0] != 0;
      break;
    case Type::INT32:
      if (bytes.size() != 4) return key;
      integer = kind.kind == ValueKind::kUnsigned ? __int128(load<uint32_t>(bytes))
                                                  : __int128(load<int32_t>(bytes));
      break;
    case Type::INT64:
      if (bytes.size() != 8) return key;
      integer = kind.kind == ValueKind::kUnsigned ? __int128(load<uint64_t>(bytes))
                                                  : __int128(load<int64_t>(bytes));
      break;
    case Type::FLOAT:
      if (bytes.size() != 4) return key;
      real = load<float>(bytes);
      is_real = true;
      break;
    case Type::DOUBLE:
      if (bytes.size() != 8) return key;
      real = load<double>(bytes);
      is_real = true;
      break;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (kind.kind == ValueKind::kDecimal) {
        auto value = big_endian_signed(bytes);
        if (!value) return key;
        integer = *value;
        break;
      }
      if (literal.domain != BoundLiteral::kBytes) return key;
      key.bytes = bytes;
      key.ok = true;
      return key;
    case Type::INT96: return key;
  }
  if (is_real) {
    if (std::isnan(real)) return key;
    key.real = real;
  } else if (literal.domain == BoundLiteral::kDouble) {
    key.real = kind.kind == ValueKind::kDecimal ? static_cast<double>(integer) / pow10(kind.scale)
                                                : static_cast<double>(integer);
  } else {
    key.integer = integer;
  }
  key.ok = true;
  return key;
}

// <0, 0, >0 as the statistics value compares with the literal.
int compare(const Key& key, const BoundLiteral& literal) {
  switch (literal.domain) {
    case BoundLiteral::kInt:
      return key.integer < literal.int_value ? -1 : key.integer > literal.int_value ? 1 : 0;
    case BoundLiteral::kInt128:
      return key.integer < literal.int128_value ? -1 : key.integer > literal.int128_value ? 1 : 0;
    case BoundLiteral::kDouble: {
      return key.real < literal.double_value ? -1 : key.real > literal.double_value ? 1 : 0;
    }
    case BoundLiteral::kBytes: {
      int c = key.bytes.compare(literal.bytes);
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    case BoundLiteral::kNone: return 0;
  }
  return 0;
}

// True when no value within [min, max] can satisfy `op literal`.
bool excluded(CompareOp op, const Key& min, const Key& max, const BoundLiteral& literal) {
  switch (op) {
    case CompareOp::kEq: return compare(min, literal) > 0 || compare(max, literal) < 0;
    case CompareOp::kNe: return compare(min, literal) == 0 && compare(max, literal) == 0;
    case CompareOp::kLt: return compare(min, literal) >= 0;
    case CompareOp::kLe: return compare(min, literal) > 0;
    case CompareOp::kGt: return compare(max, literal) <= 0;
    case CompareOp::kGe: return compare(max, literal) < 0;
  }
  return false;
}

}  // namespace

ValueBounds usable_bounds(const ColumnDescriptor& column, const Statistics& statistics, int64_t num_values,
                          const StatisticsTrust& trust) {
  ValueBounds out;
  out.num_values = num_values;
  if (trust.null_count_usable()) out.null_count = statistics.null_count;
  StatisticsTrust values = trust;
  values.defects |= statistics_value_trust(column, statistics).defects;
  if (!values.min_max_usable()) return out;
  if (statistics.min_value && statistics.max_value) {
    out.min = std::string(*statistics.min_value);
    out.max = std::string(*statistics.max_value);
  } else if (statistics.min && statistics.max) {
    out.min = std::string(*statistics.min);
    out.max = std::string(*statistics.max);
  }
  return out;
}

bool bounds_exclude(const Predicate& leaf, const ColumnDescriptor& column, const ValueBounds& bounds) {
  using Kind = Predicate::Kind;
  const bool all_null = bounds.all_null || (bounds.null_count && bounds.num_values >= 0 &&
                                            *bounds.null_count == bounds.num_values);
  switch (leaf.kind) {
    case Kind::kTrue: return false;
    case Kind::kFalse: return true;
    case Kind::kIsNull: return !bounds.all_null && bounds.null_count && *bounds.null_count == 0;
    case Kind::kIsNotNull: return all_null;
    case Kind::kCompare:
    case Kind::kIn: break;
    default: return false;
  }
  if (all_null) return true;  // comparisons never hold for nulls
  if (!bounds.min || !bounds.max) return false;
  const ValueKind kind = value_kind(column);
  if (kind.kind == ValueKind::kUnsupported) return false;
  auto one = [&](CompareOp op, const Literal& value) {
    BoundLiteral literal;
    try {
      literal = bind_literal(kind, value, column.path);
    } catch (const Error&) {
      return false;  // evaluation reports it
    }
    if (literal.domain == BoundLiteral::kNone) return true;
    if (literal.domain == BoundLiteral::kDouble && std::isnan(literal.double_value)) {
      return op != CompareOp::kNe;  // NaN compares false
    }
    Key min = decode(column, kind, literal, *bounds.min);
    Key max = decode(column, kind, literal, *bounds.max);
    if (!min.ok || !max.ok) return false;
    return excluded(op, min, max, literal);
  };
  if (leaf.kind == Kind::kCompare) return one(leaf.op, leaf.values.at(0));
  for (const Literal& value : leaf.values) {
    if (!one(CompareOp::kEq, value)) return false;
  }
  return true;
}

std::optional<std::string> plain_encode_literal(const ColumnDescriptor& column, const Literal& value) {
  const ValueKind kind = value_kind(column);
  if (kind.kind == ValueKind::kUnsupported) return std::nullopt;
  BoundLiteral literal;
  try {
    literal = bind_literal(kind, value, column.path);
  } catch (const Error&) {
    return std::nullopt;
  }
  auto bytes_of = [](const auto& v) { return std::string(reinterpret_cast<const char*>(&v), sizeof(v)); };
  switch (column.physical_type) {
    case Type::INT32: {
      if (literal.domain == BoundLiteral::kInt128) {
        if (literal.int128_value < INT32_MIN || literal.int128_value > INT32_MAX) return std::nullopt;
        return bytes_of(static_cast<int32_t>(literal.int128_value));
      }
      if (literal.domain != BoundLiteral::kInt) return std::nullopt;
      const bool fits = kind.kind == ValueKind::kUnsigned
                            ? literal.int_value >= 0 && literal.int_value <= int64_t(UINT32_MAX)
                            : literal.int_value >= INT32_MIN && literal.int_value <= INT32_MAX;
      if (!fits) return std::nullopt;
      return bytes_of(static_cast<uint32_t>(literal.int_value));
    }
    case Type::INT64:
      if (literal.domain == BoundLiteral::kInt128) {
        if (literal.int128_value < INT64_MIN || literal.int128_value > INT64_MAX) return std::nullopt;
        return bytes_of(static_cast<int64_t>(literal.int128_value));
      }
      if (literal.domain != BoundLiteral::kInt) return std::nullopt;
      return bytes_of(literal.int_value);
    case Type::FLOAT: {
      float f = static_cast<float>(literal.double_value);
      if (literal.domain != BoundLiteral::kDouble || static_cast<double>(f) != literal.double_value)
        return std::nullopt;
      return bytes_of(f);
    }
    case Type::DOUBLE:
      if (literal.domain != BoundLiteral::kDouble) return std::nullopt;
      return bytes_of(literal.double_value);
    case Type::BYTE_ARRAY:
      if (literal.domain != BoundLiteral::kBytes) return std::nullopt;
      return literal.bytes;
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (literal.domain != BoundLiteral::kBytes) return std::nullopt;
      if (static_cast<int32_t>(literal.bytes.size()) != column.type_length) return std::nullopt;
      return literal.bytes;
    default: return std::nullopt;
  }
}

bool predicate_excluded(const Predicate& p, const std::function<bool(const Predicate&)>& leaf_excluded) {
  switch (p.kind) {
    case Predicate::Kind::kTrue: return false;
    case Predicate::Kind::kFalse: return true;
    case Predicate::Kind::kAnd:
      return std::any_of(p.children.begin(), p.children.end(),
                         [&](const Predicate& c) { return predicate_excluded(c, leaf_excluded); });
    case Predicate::Kind::kOr:
      return std::all_of(p.children.begin(), p.children.end(),
                         [&](const Predicate& c) { return predicate_excluded(c, leaf_excluded); });
    case Predicate::Kind::kNot: return false;  // pushed down before pruning
    default: return leaf_excluded(p);
  }
}

bool row_group_excluded_by_statistics(const Predicate& predicate, const Schema& schema, const RowGroup& group,
                                      const StatisticsCatalogue& catalogue) {
  return predicate_excluded(predicate, [&](const Predicate& leaf) {
    const ColumnDescriptor* column = schema.find_column(leaf.column);
    if (column == nullptr) throw_invalid("filter: no leaf column " + leaf.column);
    if (size_t(column->index) >= group.columns.size()) return false;
    const ColumnChunk& chunk = group.columns[size_t(column->index)];
    if (!chunk.meta_data || !chunk.meta_data->statistics) return false;
    // Repeated leaves count values, not rows; their null counts still bound them.
    const ValueBounds bounds =
        usable_bounds(*column, *chunk.meta_data->statistics, chunk.meta_data->num_values,
                      catalogue.chunk_trust(*column, *chunk.meta_data));
    return bounds_exclude(leaf, *column, bounds);
  });
}

}  // namespace parquetry
