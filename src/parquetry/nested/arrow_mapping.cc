#include "parquetry/nested/arrow_mapping.h"

#include "parquetry/error.h"

namespace parquetry {
namespace {

ArrowTimeUnit arrow_unit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return ArrowTimeUnit::kMilli;
    case TimeUnit::MICROS: return ArrowTimeUnit::kMicro;
    case TimeUnit::NANOS: return ArrowTimeUnit::kNano;
  }
  return ArrowTimeUnit::kMicro;
}

DataType decimal_type(const SchemaNode& node, int32_t precision, int32_t scale) {
  if (precision <= 0) {
    throw_corrupt("column " + node.dotted_path() + " has DECIMAL with precision " +
                  std::to_string(precision));
  }
  return DataType::decimal(precision, scale);
}

DataType leaf_type(const SchemaNode& node, const ArrowMappingOptions& options) {
  const Type physical = node.physical_type();
  const LogicalType* logical = node.logical_type() ? &*node.logical_type() : nullptr;
  if (logical != nullptr) {
    if (logical->is<NullType>()) return DataType::make(TypeId::kNull);
    if (const auto* decimal = logical->get_if<DecimalType>();
        decimal != nullptr && decimal->precision <= kMaxArrowDecimalPrecision) {
      return decimal_type(node, decimal->precision, decimal->scale);
    }
    // Wider decimals have no Arrow decimal type: they stay the bytes they
    // are stored as (big-endian two's complement), exact, with precision
    // and scale in the field's metadata (make_field).
  }
  switch (physical) {
    case Type::BOOLEAN: return DataType::make(TypeId::kBool);
    case Type::INT32:
      if (logical != nullptr) {
        if (const auto* integer = logical->get_if<IntType>()) {
          switch (integer->bit_width) {
            case 8: return DataType::make(integer->is_signed ? TypeId::kInt8 : TypeId::kUInt8);
            case 16: return DataType::make(integer->is_signed ? TypeId::kInt16 : TypeId::kUInt16);
            default: return DataType::make(integer->is_signed ? TypeId::kInt32 : TypeId::kUInt32);
          }
        }
        if (logical->is<DateType>()) return DataType::make(TypeId::kDate32);
        if (const auto* time = logical->get_if<TimeType>()) return DataType::time(arrow_unit(time->unit));
      }
      return DataType::make(TypeId::kInt32);
    case Type::INT64:
      if (logical != nullptr) {
        if (const auto* integer = logical->get_if<IntType>()) {
          return DataType::make(integer->is_signed ? TypeId::kInt64 : TypeId::kUInt64);
        }
        if (const auto* ts = logical->get_if<TimestampType>()) {
          return DataType::timestamp(arrow_unit(ts->unit), ts->is_adjusted_to_utc ? "UTC" : "");
        }
        if (const auto* time = logical->get_if<TimeType>()) return DataType::time(arrow_unit(time->unit));
      }
      return DataType::make(TypeId::kInt64);
    case Type::INT96:
      if (options.int96_as_binary) {
        DataType type = DataType::fixed_size_binary(12);
        type.extension_name = "parquet.int96";
        return type;
      }
      return DataType::timestamp(options.int96_unit, "");
    case Type::FLOAT: return DataType::make(TypeId::kFloat32);
    case Type::DOUBLE: return DataType::make(TypeId::kFloat64);
    case Type::BYTE_ARRAY:
      if (logical != nullptr &&
          (logical->is<StringType>() || logical->is<EnumType>() || logical->is<JsonType>())) {
        DataType type = DataType::make(TypeId::kString);
        if (logical->is<JsonType>()) type.extension_name = "arrow.json";
        return type;
      }
      return DataType::make(TypeId::kBinary);
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (logical != nullptr && logical->is<Float16Type>() && node.type_length() == 2) {
        return DataType::make(TypeId::kFloat16);
      }
      if (logical != nullptr && logical->is<UuidType>() && node.type_length() == 16) {
        DataType type = DataType::fixed_size_binary(16);
        type.extension_name = "arrow.uuid";
        return type;
      }
      return DataType::fixed_size_binary(node.type_length());
  }
  return DataType::make(TypeId::kNull);
}

Field make_field(const SchemaNode& node, DataType type, bool nullable) {
  Field field;
  field.name = node.name();
  field.type = std::move(type);
  field.nullable = nullable;
  field.field_id = node.field_id().value_or(-1);
  if (node.is_leaf() && node.logical_type() && node.logical_type()->is<DecimalType>() &&
      node.precision() > kMaxArrowDecimalPrecision) {
    field.metadata.emplace_back(kWideDecimalPrecisionKey, std::to_string(node.precision()));
    field.metadata.emplace_back(kWideDecimalScaleKey, std::to_string(node.scale()));
  }
  return field;
}

}  // namespace

DataType arrow_element_type_for(const SchemaNode& node, const ArrowMappingOptions& options) {
  switch (node.kind()) {
    case NodeKind::kLeaf: return leaf_type(node, options);
    case NodeKind::kList: {
      const SchemaNode* element = node.list_element();
      Field item =
          make_field(*element, arrow_element_type_for(*element, options), node.list_element_nullable());
      return DataType::list(std::move(item));
    }
    case NodeKind::kMap: {
      Field key = make_field(*node.map_key(), arrow_element_type_for(*node.map_key(), options), false);
      const SchemaNode* value_node = node.map_value();
      Field value;
      if (value_node != nullptr) {
        value = make_field(*value_node, arrow_element_type_for(*value_node, options),
                           value_node->repetition() != FieldRepetitionType::REQUIRED);
      } else {
        value = Field{"value", DataType::make(TypeId::kNull), true, -1, {}};
      }
      return DataType::map(std::move(key), std::move(value));
    }
    case NodeKind::kStruct: {
      std::vector<Field> fields;
      for (const SchemaNode* child : node.children()) fields.push_back(arrow_field_for(*child, options));
      DataType type = DataType::struct_(std::move(fields));
      // A VARIANT group stays a struct of its binary children, marked so that
      // the writer (and Arrow consumers) know to annotate it again.
      if (node.logical_type() && node.logical_type()->is<VariantType>()) {
        type.extension_name = kVariantExtensionName;
      }
      return type;
    }
  }
  return DataType::make(TypeId::kNull);
}

Field arrow_field_for(const SchemaNode& node, const ArrowMappingOptions& options) {
  DataType element = arrow_element_type_for(node, options);
  if (node.is_bare_repeated()) {
    // A repeated field outside a LIST is a list of required elements.
    Field item = make_field(node, std::move(element), false);
    item.field_id = -1;
    return make_field(node, DataType::list(std::move(item)), false);
  }
  return make_field(node, std::move(element), node.repetition() == FieldRepetitionType::OPTIONAL);
}

}  // namespace parquetry
