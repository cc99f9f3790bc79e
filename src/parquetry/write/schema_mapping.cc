// Arrow schema -> Parquet schema elements: the inverse of nested/arrow_mapping.
//
// Lists are written in the standard 3-level form (LogicalTypes.md):
//   <repetition> group <name> (LIST) { repeated group list { <repetition> <element> } }
// and maps as
//   <repetition> group <name> (MAP) { repeated group key_value { required <key>; <repetition> <value> } }
// Leaves carry both the LogicalType and, where the format defines one that
// means the same thing, the legacy ConvertedType for older readers.
#include <string>

#include "parquetry/error.h"
#include "parquetry/write/write_internal.h"

namespace parquetry::write {
namespace {

TimeUnit parquet_unit(ArrowTimeUnit unit) {
  switch (unit) {
    case ArrowTimeUnit::kSecond:
    case ArrowTimeUnit::kMilli: return TimeUnit::MILLIS;
    case ArrowTimeUnit::kMicro: return TimeUnit::MICROS;
    case ArrowTimeUnit::kNano: return TimeUnit::NANOS;
  }
  return TimeUnit::MICROS;
}

// Smallest FLBA width holding a decimal of `precision` digits.
int32_t decimal_bytes(int32_t precision) {
  // 10^precision - 1 must fit in 8 * n - 1 bits.
  int32_t bytes = 1;
  while (true) {
    double max_digits = (8.0 * bytes - 1) * 0.30102999566398120;  // log10(2)
    if (max_digits >= precision) return bytes;
    ++bytes;
  }
}

bool bare_repeated(const Field& field) {
  for (const auto& [key, value] : field.metadata) {
    if (key == kRepeatedLayoutKey) return value == kRepeatedLayoutBare;
  }
  return false;
}

class Planner {
 public:
  SchemaPlan plan;

  void add_field(const Field& field, FieldRepetitionType repetition) {
    const DataType& type = field.type.id == TypeId::kDictionary && field.type.dictionary_value
                               ? *field.type.dictionary_value
                               : field.type;
    SchemaElement element;
    element.name = field.name;
    element.repetition_type = repetition;
    if (field.field_id >= 0) element.field_id = field.field_id;
    switch (type.id) {
      case TypeId::kList:
      case TypeId::kLargeList: {
        if (type.children.size() != 1) throw_invalid("list field " + field.name + " needs one item field");
        if (bare_repeated(field)) {
          // Legacy layout: the item itself is the repeated field, under the list's name and id.
          if (field.nullable || type.children[0].nullable) {
            throw_invalid("list field " + field.name +
                          " in the bare repeated layout must be non-nullable, "
                          "and so must its items");
          }
          Field item = type.children[0];
          item.name = field.name;
          item.field_id = field.field_id;
          add_field(item, FieldRepetitionType::REPEATED);
          return;
        }
        element.num_children = 1;
        element.logical_type = LogicalType{ListType{}};
        element.converted_type = ConvertedType::LIST;
        plan.elements.push_back(std::move(element));
        SchemaElement repeated;
        repeated.name = "list";
        repeated.repetition_type = FieldRepetitionType::REPEATED;
        repeated.num_children = 1;
        plan.elements.push_back(std::move(repeated));
        Field item = type.children[0];
        item.name = "element";
        add_field(item, item.nullable ? FieldRepetitionType::OPTIONAL : FieldRepetitionType::REQUIRED);
        return;
      }
      case TypeId::kMap: {
        if (type.children.size() != 1 || type.children[0].type.id != TypeId::kStruct ||
            type.children[0].type.children.size() != 2) {
          throw_invalid("map field " + field.name + " needs one entries struct of key and value");
        }
        element.num_children = 1;
        element.logical_type = LogicalType{MapType{}};
        element.converted_type = ConvertedType::MAP;
        plan.elements.push_back(std::move(element));
        SchemaElement repeated;
        repeated.name = "key_value";
        repeated.repetition_type = FieldRepetitionType::REPEATED;
        repeated.num_children = 2;
        plan.elements.push_back(std::move(repeated));
        const auto& entries = type.children[0].type.children;
        Field key = entries[0];
        if (key.type.id == TypeId::kNull) throw_invalid("map field " + field.name + " has a null-typed key");
        add_field(key, FieldRepetitionType::REQUIRED);
        const Field& value = entries[1];
        add_field(value, value.nullable ? FieldRepetitionType::OPTIONAL : FieldRepetitionType::REQUIRED);
        return;
      }
      case TypeId::kStruct: {
        if (type.children.empty()) {
          throw_invalid("struct field " + field.name + " has no fields; Parquet groups need at least one");
        }
        element.num_children = int32_t(type.children.size());
        if (type.extension_name == kVariantExtensionName) check_variant(field, element);
        plan.elements.push_back(std::move(element));
        for (const Field& child : type.children) {
          add_field(child, child.nullable ? FieldRepetitionType::OPTIONAL : FieldRepetitionType::REQUIRED);
        }
        return;
      }
      default: break;
    }
    LeafPlan leaf;
    leaf.source_width = type.fixed_width();
    set_leaf_type(field, type, element, leaf);
    plan.elements.push_back(std::move(element));
    plan.leaves.push_back(std::move(leaf));
  }

 private:
  // A struct marked as a variant becomes a group annotated VARIANT(1). Only
  // the top-level shape is checked here (a required binary metadata, a
  // binary value, optional typed_value); the shredding below typed_value is
  // the caller's (VariantShredder builds valid ones).
  static void check_variant(const Field& field, SchemaElement& element) {
    bool metadata = false;
    bool value = false;
    for (const Field& child : field.type.children) {
      const bool binary = child.type.id == TypeId::kBinary || child.type.id == TypeId::kLargeBinary ||
                          child.type.id == TypeId::kBinaryView;
      if (child.name == "metadata" && binary && !child.nullable) {
        metadata = true;
      } else if (child.name == "value" && binary) {
        value = true;
      } else if (child.name != "typed_value") {
        throw_invalid("variant field " + field.name + " has child " + child.name + " of type " +
                      child.type.to_string() +
                      "; a variant is struct<metadata: binary not null, value: binary, typed_value>");
      }
    }
    if (!metadata)
      throw_invalid("variant field " + field.name + " needs a non-nullable binary metadata child");
    if (!value && field.type.children.size() < 2) {
      throw_invalid("variant field " + field.name + " needs a value or a typed_value child");
    }
    element.logical_type = LogicalType{VariantType{int8_t(1)}};
  }

  static void set_int(SchemaElement& element, Type physical, int8_t bits, bool is_signed) {
    element.type = physical;
    element.logical_type = LogicalType{IntType{bits, is_signed}};
    static constexpr ConvertedType kSigned[] = {ConvertedType::INT_8, ConvertedType::INT_16,
                                                ConvertedType::INT_32, ConvertedType::INT_64};
    static constexpr ConvertedType kUnsigned[] = {ConvertedType::UINT_8, ConvertedType::UINT_16,
                                                  ConvertedType::UINT_32, ConvertedType::UINT_64};
    int index = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
    element.converted_type = is_signed ? kSigned[index] : kUnsigned[index];
  }

  void set_leaf_type(const Field& field, const DataType& type, SchemaElement& element, LeafPlan& leaf) {
    leaf.conversion = Conversion::kCopy;
    switch (type.id) {
      case TypeId::kNull:
        if (element.repetition_type == FieldRepetitionType::REQUIRED) {
          throw_invalid("null-typed field " + field.name + " must be nullable");
        }
        element.type = Type::INT32;
        element.logical_type = LogicalType{NullType{}};
        leaf.conversion = Conversion::kNull;
        return;
      case TypeId::kBool:
        element.type = Type::BOOLEAN;
        leaf.conversion = Conversion::kBool;
        return;
      case TypeId::kInt8:
        set_int(element, Type::INT32, 8, true);
        leaf.conversion = Conversion::kInt8;
        return;
      case TypeId::kInt16:
        set_int(element, Type::INT32, 16, true);
        leaf.conversion = Conversion::kInt16;
        return;
      case TypeId::kInt32: element.type = Type::INT32; return;
      case TypeId::kInt64: element.type = Type::INT64; return;
      case TypeId::kUInt8:
        set_int(element, Type::INT32, 8, false);
        leaf.conversion = Conversion::kUInt8;
        return;
      case TypeId::kUInt16:
        set_int(element, Type::INT32, 16, false);
        leaf.conversion = Conversion::kUInt16;
        return;
      case TypeId::kUInt32: set_int(element, Type::INT32, 32, false); return;
      case TypeId::kUInt64: set_int(element, Type::INT64, 64, false); return;
      case TypeId::kFloat16:
        element.type = Type::FIXED_LEN_BYTE_ARRAY;
        element.type_length = 2;
        element.logical_type = LogicalType{Float16Type{}};
        return;
      case TypeId::kFloat32: element.type = Type::FLOAT; return;
      case TypeId::kFloat64: element.type = Type::DOUBLE; return;
      case TypeId::kDate32:
        element.type = Type::INT32;
        element.logical_type = LogicalType{DateType{}};
        element.converted_type = ConvertedType::DATE;
        return;
      case TypeId::kTime32:
        element.type = Type::INT32;
        element.logical_type = LogicalType{TimeType{false, TimeUnit::MILLIS}};
        if (type.unit == ArrowTimeUnit::kSecond) leaf.conversion = Conversion::kMillisFrom32;
        return;
      case TypeId::kTime64:
        element.type = Type::INT64;
        element.logical_type = LogicalType{TimeType{false, parquet_unit(type.unit)}};
        return;
      case TypeId::kTimestamp: {
        element.type = Type::INT64;
        const bool utc = !type.timezone.empty();
        const TimeUnit unit = parquet_unit(type.unit);
        element.logical_type = LogicalType{TimestampType{utc, unit}};
        // The converted types TIMESTAMP_* mean "adjusted to UTC"; naive timestamps get none.
        if (utc && unit == TimeUnit::MILLIS) element.converted_type = ConvertedType::TIMESTAMP_MILLIS;
        if (utc && unit == TimeUnit::MICROS) element.converted_type = ConvertedType::TIMESTAMP_MICROS;
        if (type.unit == ArrowTimeUnit::kSecond) leaf.conversion = Conversion::kMillisFrom64;
        return;
      }
      case TypeId::kDecimal128:
      case TypeId::kDecimal256: {
        if (type.precision < 1) throw_invalid("decimal field " + field.name + " has precision < 1");
        element.logical_type = LogicalType{DecimalType{type.scale, type.precision}};
        element.converted_type = ConvertedType::DECIMAL;
        element.precision = type.precision;
        element.scale = type.scale;
        if (type.id == TypeId::kDecimal128 && type.precision <= 9) {
          element.type = Type::INT32;
          leaf.conversion = Conversion::kDecimalInt32;
        } else if (type.id == TypeId::kDecimal128 && type.precision <= 18) {
          element.type = Type::INT64;
          leaf.conversion = Conversion::kDecimalInt64;
        } else {
          element.type = Type::FIXED_LEN_BYTE_ARRAY;
          element.type_length = decimal_bytes(type.precision);
          leaf.conversion = Conversion::kDecimalFlba;
        }
        return;
      }
      case TypeId::kString:
      case TypeId::kLargeString:
      case TypeId::kStringView:
        element.type = Type::BYTE_ARRAY;
        if (type.extension_name == "arrow.json") {
          element.logical_type = LogicalType{JsonType{}};
          element.converted_type = ConvertedType::JSON;
        } else if (type.extension_name == kEnumExtension) {
          element.logical_type = LogicalType{EnumType{}};
          element.converted_type = ConvertedType::ENUM;
        } else {
          element.logical_type = LogicalType{StringType{}};
          element.converted_type = ConvertedType::UTF8;
        }
        leaf.conversion = type.id == TypeId::kString        ? Conversion::kBinary
                          : type.id == TypeId::kLargeString ? Conversion::kLargeBinary
                                                            : Conversion::kView;
        return;
      case TypeId::kBinary:
      case TypeId::kLargeBinary:
      case TypeId::kBinaryView:
        element.type = Type::BYTE_ARRAY;
        leaf.conversion = type.id == TypeId::kBinary        ? Conversion::kBinary
                          : type.id == TypeId::kLargeBinary ? Conversion::kLargeBinary
                                                            : Conversion::kView;
        return;
      case TypeId::kFixedSizeBinary:
        if (type.byte_width <= 0) {
          throw_invalid("fixed_size_binary field " + field.name + " needs a positive width");
        }
        if (type.extension_name == kInt96Extension && type.byte_width == 12) {
          element.type = Type::INT96;  // stored INT96 bytes, as FileReader's int96_as_binary gives them
          return;
        }
        element.type = Type::FIXED_LEN_BYTE_ARRAY;
        element.type_length = type.byte_width;
        if (type.extension_name == "arrow.uuid" && type.byte_width == 16) {
          element.logical_type = LogicalType{UuidType{}};
        }
        return;
      default:
        throw_unsupported("field " + field.name + " of type " + type.to_string() + " cannot be written");
    }
  }
};

}  // namespace

SchemaPlan plan_schema(const BatchSchema& schema) {
  if (schema.fields.empty()) throw_invalid("a Parquet file needs at least one column");
  Planner planner;
  planner.plan.shred_fields = schema.fields;
  SchemaElement root;
  root.name = "schema";
  root.num_children = int32_t(schema.fields.size());
  planner.plan.elements.push_back(std::move(root));
  for (const Field& field : schema.fields) {
    planner.add_field(field, field.nullable ? FieldRepetitionType::OPTIONAL : FieldRepetitionType::REQUIRED);
  }
  // Let the schema layer validate the tree and derive levels and sort orders.
  Schema parsed = Schema::from_elements(planner.plan.elements);
  if (parsed.num_columns() != planner.plan.leaves.size()) {
    throw Error(ErrorCode::kInternal, "schema planning produced a different number of leaves");
  }
  for (size_t i = 0; i < parsed.num_columns(); ++i) {
    planner.plan.leaves[i].column = parsed.column(i);
    planner.plan.leaves[i].column.node = nullptr;  // `parsed` dies here
  }
  return std::move(planner.plan);
}

}  // namespace parquetry::write

namespace parquetry {

std::vector<SchemaElement> parquet_schema_for(const BatchSchema& schema) {
  return write::plan_schema(schema).elements;
}

}  // namespace parquetry
