// Mapping of legacy ConvertedTypes to LogicalTypes, the text form of
// annotations, and sort orders.
#include <string>

#include "parquetry/schema.h"

namespace parquetry {
namespace {

std::string_view time_unit_name(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return "MILLIS";
    case TimeUnit::MICROS: return "MICROS";
    case TimeUnit::NANOS: return "NANOS";
  }
  return {};
}

std::string time_unit_text(TimeUnit unit) {
  std::string_view name = time_unit_name(unit);
  if (!name.empty()) return std::string(name);
  return "UNIT_" + std::to_string(static_cast<int>(unit));
}

std::string_view edge_algorithm_name(EdgeInterpolationAlgorithm algorithm) {
  switch (algorithm) {
    case EdgeInterpolationAlgorithm::SPHERICAL: return "SPHERICAL";
    case EdgeInterpolationAlgorithm::VINCENTY: return "VINCENTY";
    case EdgeInterpolationAlgorithm::THOMAS: return "THOMAS";
    case EdgeInterpolationAlgorithm::ANDOYER: return "ANDOYER";
    case EdgeInterpolationAlgorithm::KARNEY: return "KARNEY";
  }
  return "UNKNOWN_ALGORITHM";
}

LogicalType make(LogicalType::Value value) { return LogicalType{std::move(value)}; }

}  // namespace

std::string_view node_kind_name(NodeKind kind) {
  switch (kind) {
    case NodeKind::kLeaf: return "leaf";
    case NodeKind::kStruct: return "struct";
    case NodeKind::kList: return "list";
    case NodeKind::kMap: return "map";
  }
  return "unknown";
}

std::optional<LogicalType> logical_type_from_converted(ConvertedType type, int32_t precision, int32_t scale) {
  switch (type) {
    case ConvertedType::UTF8: return make(StringType{});
    case ConvertedType::MAP: return make(MapType{});
    case ConvertedType::LIST: return make(ListType{});
    case ConvertedType::ENUM: return make(EnumType{});
    case ConvertedType::DECIMAL: return make(DecimalType{scale, precision});
    case ConvertedType::DATE: return make(DateType{});
    case ConvertedType::TIME_MILLIS: return make(TimeType{true, TimeUnit::MILLIS});
    case ConvertedType::TIME_MICROS: return make(TimeType{true, TimeUnit::MICROS});
    case ConvertedType::TIMESTAMP_MILLIS: return make(TimestampType{true, TimeUnit::MILLIS});
    case ConvertedType::TIMESTAMP_MICROS: return make(TimestampType{true, TimeUnit::MICROS});
    case ConvertedType::UINT_8: return make(IntType{8, false});
    case ConvertedType::UINT_16: return make(IntType{16, false});
    case ConvertedType::UINT_32: return make(IntType{32, false});
    case ConvertedType::UINT_64: return make(IntType{64, false});
    case ConvertedType::INT_8: return make(IntType{8, true});
    case ConvertedType::INT_16: return make(IntType{16, true});
    case ConvertedType::INT_32: return make(IntType{32, true});
    case ConvertedType::INT_64: return make(IntType{64, true});
    case ConvertedType::JSON: return make(JsonType{});
    case ConvertedType::BSON: return make(BsonType{});
    case ConvertedType::MAP_KEY_VALUE:
    case ConvertedType::INTERVAL: return std::nullopt;
  }
  return std::nullopt;
}

std::string logical_type_to_string(const LogicalType& type) {
  struct Printer {
    std::string operator()(const StringType&) const { return "STRING"; }
    std::string operator()(const MapType&) const { return "MAP"; }
    std::string operator()(const ListType&) const { return "LIST"; }
    std::string operator()(const EnumType&) const { return "ENUM"; }
    std::string operator()(const DecimalType& t) const {
      return "DECIMAL(" + std::to_string(t.precision) + "," + std::to_string(t.scale) + ")";
    }
    std::string operator()(const DateType&) const { return "DATE"; }
    std::string operator()(const TimeType& t) const {
      return "TIME(" + time_unit_text(t.unit) + "," + (t.is_adjusted_to_utc ? "true" : "false") + ")";
    }
    std::string operator()(const TimestampType& t) const {
      return "TIMESTAMP(" + time_unit_text(t.unit) + "," + (t.is_adjusted_to_utc ? "true" : "false") + ")";
    }
    std::string operator()(const IntType& t) const {
      return "INTEGER(" + std::to_string(t.bit_width) + "," + (t.is_signed ? "true" : "false") + ")";
    }
    std::string operator()(const NullType&) const { return "UNKNOWN"; }
    std::string operator()(const JsonType&) const { return "JSON"; }
    std::string operator()(const BsonType&) const { return "BSON"; }
    std::string operator()(const UuidType&) const { return "UUID"; }
    std::string operator()(const Float16Type&) const { return "FLOAT16"; }
    std::string operator()(const VariantType& t) const {
      if (!t.specification_version) return "VARIANT";
      return "VARIANT(" + std::to_string(*t.specification_version) + ")";
    }
    std::string operator()(const GeometryType& t) const {
      if (!t.crs) return "GEOMETRY";
      return "GEOMETRY(" + *t.crs + ")";
    }
    std::string operator()(const GeographyType& t) const {
      if (!t.crs && !t.algorithm) return "GEOGRAPHY";
      std::string text = "GEOGRAPHY(" + t.crs.value_or("");
      if (t.algorithm) text += "," + std::string(edge_algorithm_name(*t.algorithm));
      return text + ")";
    }
    std::string operator()(const VectorType&) const { return "VECTOR"; }
    std::string operator()(const UnrecognizedLogicalType& t) const {
      return "UNRECOGNIZED(" + std::to_string(t.field_id) + ")";
    }
  };
  return std::visit(Printer{}, type.value);
}

SortOrder column_sort_order(Type physical_type, const std::optional<LogicalType>& logical_type,
                            std::optional<ConvertedType> converted_type) {
  if (logical_type) {
    const LogicalType& t = *logical_type;
    if (t.is<StringType>() || t.is<EnumType>() || t.is<JsonType>() || t.is<BsonType>() || t.is<UuidType>()) {
      return SortOrder::kUnsigned;
    }
    if (const auto* integer = t.get_if<IntType>()) {
      return integer->is_signed ? SortOrder::kSigned : SortOrder::kUnsigned;
    }
    if (t.is<DecimalType>() || t.is<DateType>() || t.is<TimeType>() || t.is<TimestampType>() ||
        t.is<Float16Type>()) {
      return SortOrder::kSigned;
    }
    if (t.is<GeometryType>() || t.is<GeographyType>() || t.is<VariantType>() || t.is<VectorType>()) {
      return SortOrder::kUnknown;
    }
    // NullType (all values null) and LIST/MAP carry no ordering of their own:
    // fall through to the physical type.
  } else if (converted_type == ConvertedType::INTERVAL) {
    return SortOrder::kUnknown;
  }
  switch (physical_type) {
    case Type::BOOLEAN: return SortOrder::kUnsigned;
    case Type::INT32:
    case Type::INT64:
    case Type::FLOAT:
    case Type::DOUBLE: return SortOrder::kSigned;
    case Type::INT96: return SortOrder::kUnknown;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY: return SortOrder::kUnsigned;
  }
  return SortOrder::kUnknown;
}

}  // namespace parquetry
