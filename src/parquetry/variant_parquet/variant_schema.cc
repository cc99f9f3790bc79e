// Recognising VARIANT groups in a Parquet schema and describing how they are
// shredded (VariantShredding.md).
#include <cctype>

#include "parquetry/error.h"
#include "parquetry/schema.h"
#include "parquetry/variant.h"
#include "parquetry/variant_parquet.h"

namespace parquetry {
namespace {

// Wire primitive ids (VariantPrimitive in variant.h).
constexpr uint8_t kIdBoolean = 1;
constexpr uint8_t kIdInt8 = 3;
constexpr uint8_t kIdInt16 = 4;
constexpr uint8_t kIdInt32 = 5;
constexpr uint8_t kIdInt64 = 6;
constexpr uint8_t kIdDouble = 7;
constexpr uint8_t kIdDecimal4 = 8;
constexpr uint8_t kIdDecimal8 = 9;
constexpr uint8_t kIdDecimal16 = 10;
constexpr uint8_t kIdDate = 11;
constexpr uint8_t kIdTimestampMicros = 12;
constexpr uint8_t kIdTimestampNtzMicros = 13;
constexpr uint8_t kIdFloat = 14;
constexpr uint8_t kIdBinary = 15;
constexpr uint8_t kIdString = 16;
constexpr uint8_t kIdTimeNtzMicros = 17;
constexpr uint8_t kIdTimestampNanos = 18;
constexpr uint8_t kIdTimestampNtzNanos = 19;
constexpr uint8_t kIdUuid = 20;

bool is_binary_leaf(const SchemaNode* node) {
  return node != nullptr && node->is_leaf() && node->physical_type() == Type::BYTE_ARRAY;
}

std::string type_text(const SchemaNode& node) {
  std::string text = node.logical_type() ? logical_type_to_string(*node.logical_type()) : std::string();
  if (!text.empty()) return text;
  std::string physical = std::string(type_name(node.physical_type()));
  for (char& c : physical) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (node.physical_type() == Type::FIXED_LEN_BYTE_ARRAY)
    physical += "(" + std::to_string(node.type_length()) + ")";
  return physical;
}

[[noreturn]] void unsupported_type(const SchemaNode& node) {
  throw_unsupported("unsupported shredded value type " + type_text(node) + " for " + node.dotted_path());
}

// The variant type a primitive typed_value column produces.
uint8_t primitive_type(const SchemaNode& node, int32_t& scale) {
  const LogicalType* logical = node.logical_type() ? &*node.logical_type() : nullptr;
  if (logical != nullptr) {
    if (const auto* decimal = logical->get_if<DecimalType>()) {
      if (decimal->precision < 1 || decimal->precision > 38 || decimal->scale < 0 ||
          decimal->scale > decimal->precision) {
        unsupported_type(node);
      }
      scale = decimal->scale;
      if (decimal->precision <= 9) return kIdDecimal4;
      if (decimal->precision <= 18) return kIdDecimal8;
      return kIdDecimal16;
    }
  }
  switch (node.physical_type()) {
    case Type::BOOLEAN:
      if (logical == nullptr) return kIdBoolean;
      break;
    case Type::INT32:
      if (logical == nullptr) return kIdInt32;
      if (const auto* integer = logical->get_if<IntType>()) {
        if (!integer->is_signed) break;
        if (integer->bit_width == 8) return kIdInt8;
        if (integer->bit_width == 16) return kIdInt16;
        if (integer->bit_width == 32) return kIdInt32;
        break;
      }
      if (logical->is<DateType>()) return kIdDate;
      break;
    case Type::INT64:
      if (logical == nullptr) return kIdInt64;
      if (const auto* integer = logical->get_if<IntType>()) {
        if (integer->is_signed && integer->bit_width == 64) return kIdInt64;
        break;
      }
      if (const auto* time = logical->get_if<TimeType>()) {
        if (time->unit == TimeUnit::MICROS && !time->is_adjusted_to_utc) return kIdTimeNtzMicros;
        break;
      }
      if (const auto* ts = logical->get_if<TimestampType>()) {
        if (ts->unit == TimeUnit::MICROS) {
          return ts->is_adjusted_to_utc ? kIdTimestampMicros : kIdTimestampNtzMicros;
        }
        if (ts->unit == TimeUnit::NANOS) {
          return ts->is_adjusted_to_utc ? kIdTimestampNanos : kIdTimestampNtzNanos;
        }
      }
      break;
    case Type::FLOAT:
      if (logical == nullptr) return kIdFloat;
      break;
    case Type::DOUBLE:
      if (logical == nullptr) return kIdDouble;
      break;
    case Type::BYTE_ARRAY:
      if (logical == nullptr) return kIdBinary;
      if (logical->is<StringType>()) return kIdString;
      break;
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (logical != nullptr && logical->is<UuidType>() && node.type_length() == 16) return kIdUuid;
      break;
    default: break;
  }
  unsupported_type(node);
}

void describe_level(const SchemaNode& group, VariantShredNode& out, int depth);

// typed_value's own shape: primitive leaf, LIST, or a group of field groups.
void describe_typed(const SchemaNode& typed, VariantShredNode& out, int depth) {
  if (typed.repetition() == FieldRepetitionType::REPEATED) {
    throw_corrupt("variant column " + typed.dotted_path() + " is repeated outside a LIST");
  }
  if (typed.is_leaf()) {
    out.kind = VariantShredKind::kPrimitive;
    out.primitive_id = primitive_type(typed, out.scale);
    return;
  }
  if (typed.kind() == NodeKind::kList) {
    const SchemaNode* element = typed.list_element();
    if (element == nullptr || element->is_leaf() || element == typed.list_repeated()) {
      throw_corrupt("shredded array " + typed.dotted_path() +
                    " must hold element groups of value/typed_value");
    }
    out.kind = VariantShredKind::kArray;
    out.element = std::make_unique<VariantShredNode>();
    describe_level(*element, *out.element, depth + 1);
    return;
  }
  if (typed.kind() != NodeKind::kStruct || typed.logical_type().has_value()) unsupported_type(typed);
  if (typed.children().empty()) throw_corrupt("shredded object " + typed.dotted_path() + " has no fields");
  out.kind = VariantShredKind::kObject;
  for (const SchemaNode* field : typed.children()) {
    if (field->is_leaf()) {
      throw_corrupt("shredded object field " + field->dotted_path() +
                    " must be a group of value/typed_value");
    }
    if (out.field(field->name()) != nullptr) {
      throw_corrupt("shredded object " + typed.dotted_path() + " repeats the field " + field->name());
    }
    // Field groups should be required (the spec); an optional one reads as
    // "absent when null", which parquet-testing case 84 expects to work.
    VariantShredNode child;
    describe_level(*field, child, depth + 1);
    out.fields.emplace_back(field->name(), std::move(child));
  }
}

void describe_level(const SchemaNode& group, VariantShredNode& out, int depth) {
  if (depth > kVariantMaxDepth) throw_limit("shredded variant " + group.dotted_path() + " nests too deeply");
  out.path = group.dotted_path();
  const SchemaNode* value = nullptr;
  const SchemaNode* typed = nullptr;
  for (const SchemaNode* child : group.children()) {
    if (child->name() == "value") {
      value = child;
    } else if (child->name() == "typed_value") {
      typed = child;
    } else if (child->name() != "metadata" || depth != 0) {
      throw_corrupt("variant group " + group.dotted_path() + " has an unexpected field " + child->name());
    }
  }
  if (value != nullptr) {
    if (!is_binary_leaf(value) || value->repetition() == FieldRepetitionType::REPEATED) {
      throw_corrupt("variant field " + value->dotted_path() + " must be a binary column");
    }
    out.has_value = true;
  }
  if (typed != nullptr) describe_typed(*typed, out, depth);
  if (value == nullptr && typed == nullptr && depth == 0) {
    throw_corrupt("variant group " + group.dotted_path() + " has neither value nor typed_value");
  }
}

bool has_variant_shape(const SchemaNode& node) {
  if (!node.is_group() || node.kind() != NodeKind::kStruct) return false;
  const SchemaNode* metadata = node.child("metadata");
  const SchemaNode* value = node.child("value");
  if (!is_binary_leaf(metadata) || !is_binary_leaf(value)) return false;
  if (metadata->logical_type().has_value() || value->logical_type().has_value()) return false;
  for (const SchemaNode* child : node.children()) {
    if (child != metadata && child != value && child->name() != "typed_value") return false;
  }
  return true;
}

}  // namespace

const VariantShredNode* VariantShredNode::field(std::string_view key) const {
  for (const auto& [name, node] : fields) {
    if (name == key) return &node;
  }
  return nullptr;
}

VariantColumn describe_variant_column(const SchemaNode& node) {
  VariantColumn column;
  column.path = node.dotted_path();
  column.node = &node;
  column.annotated = node.logical_type().has_value() && node.logical_type()->is<VariantType>();
  if (!node.is_group()) throw_corrupt("VARIANT column " + column.path + " is not a group");
  const SchemaNode* metadata = node.child("metadata");
  if (!is_binary_leaf(metadata) || metadata->repetition() != FieldRepetitionType::REQUIRED) {
    throw_corrupt("VARIANT column " + column.path + " needs a required binary metadata field");
  }
  describe_level(node, column.root, 0);
  return column;
}

std::vector<VariantColumn> find_variant_columns(const Schema& schema) {
  std::vector<VariantColumn> out;
  for (const SchemaNode& node : schema.nodes()) {
    if (node.is_root() || !node.is_group()) continue;
    // Skip groups nested inside a variant already found (shredded fields).
    bool inside = false;
    for (const VariantColumn& found : out) {
      for (const SchemaNode* up = node.parent(); up != nullptr; up = up->parent()) {
        if (up == found.node) inside = true;
      }
    }
    if (inside) continue;
    const bool annotated = node.logical_type().has_value() && node.logical_type()->is<VariantType>();
    if (annotated || has_variant_shape(node)) out.push_back(describe_variant_column(node));
  }
  return out;
}

}  // namespace parquetry
