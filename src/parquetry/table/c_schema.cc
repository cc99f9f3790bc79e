// ArrowSchema export and import: type <-> format string, names, flags and
// the binary-encoded key/value metadata of the C Data Interface.
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "parquetry/arrow_export.h"
#include "parquetry/error.h"

namespace parquetry {
namespace {

constexpr std::string_view kFieldIdKey = "PARQUET:field_id";
constexpr std::string_view kExtensionKey = "ARROW:extension:name";
constexpr std::string_view kExtensionMetadataKey = "ARROW:extension:metadata";

char unit_char(ArrowTimeUnit unit) {
  switch (unit) {
    case ArrowTimeUnit::kSecond: return 's';
    case ArrowTimeUnit::kMilli: return 'm';
    case ArrowTimeUnit::kMicro: return 'u';
    case ArrowTimeUnit::kNano: return 'n';
  }
  return 'u';
}

ArrowTimeUnit parse_unit(char c, std::string_view format) {
  switch (c) {
    case 's': return ArrowTimeUnit::kSecond;
    case 'm': return ArrowTimeUnit::kMilli;
    case 'u': return ArrowTimeUnit::kMicro;
    case 'n': return ArrowTimeUnit::kNano;
  }
  throw_invalid("unknown time unit in Arrow format '" + std::string(format) + "'");
}

// Everything an exported ArrowSchema points to lives here.
struct SchemaPrivate {
  std::string format;
  std::string name;
  std::string metadata;
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
  ArrowSchema dictionary{};
};

void release_schema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  auto* priv = static_cast<SchemaPrivate*>(schema->private_data);
  for (ArrowSchema& child : priv->children) {
    if (child.release != nullptr) child.release(&child);
  }
  if (priv->dictionary.release != nullptr) priv->dictionary.release(&priv->dictionary);
  delete priv;
  schema->release = nullptr;
}

void append_int32(std::string& out, int32_t value) { out.append(reinterpret_cast<const char*>(&value), 4); }

std::string encode_metadata(const std::vector<std::pair<std::string, std::string>>& pairs) {
  if (pairs.empty()) return {};
  std::string out;
  append_int32(out, int32_t(pairs.size()));
  for (const auto& [key, value] : pairs) {
    append_int32(out, int32_t(key.size()));
    out += key;
    append_int32(out, int32_t(value.size()));
    out += value;
  }
  return out;
}

void export_type(const DataType& type, const std::string& name, bool nullable,
                 std::vector<std::pair<std::string, std::string>> metadata, ArrowSchema* out) {
  auto* priv = new SchemaPrivate();
  priv->name = name;
  priv->format = arrow_format(type);
  if (!type.extension_name.empty()) {
    metadata.emplace_back(std::string(kExtensionKey), type.extension_name);
    metadata.emplace_back(std::string(kExtensionMetadataKey), "");
  }
  priv->metadata = encode_metadata(metadata);
  const std::vector<Field>* children = &type.children;
  priv->children.resize(children->size());
  priv->child_pointers.resize(children->size());
  for (size_t i = 0; i < children->size(); ++i) {
    export_field((*children)[i], &priv->children[i]);
    priv->child_pointers[i] = &priv->children[i];
  }
  int64_t flags = nullable ? ARROW_FLAG_NULLABLE : 0;
  if (type.id == TypeId::kMap && type.keys_sorted) flags |= ARROW_FLAG_MAP_KEYS_SORTED;
  ArrowSchema* dictionary = nullptr;
  if (type.id == TypeId::kDictionary) {
    export_type(*type.dictionary_value, "", true, {}, &priv->dictionary);
    dictionary = &priv->dictionary;
  }
  *out = ArrowSchema{priv->format.c_str(),
                     priv->name.c_str(),
                     priv->metadata.empty() ? nullptr : priv->metadata.data(),
                     flags,
                     int64_t(priv->children.size()),
                     priv->child_pointers.empty() ? nullptr : priv->child_pointers.data(),
                     dictionary,
                     &release_schema,
                     priv};
}

std::vector<std::pair<std::string, std::string>> decode_metadata(const char* bytes) {
  std::vector<std::pair<std::string, std::string>> out;
  if (bytes == nullptr) return out;
  auto read_int32 = [&bytes]() {
    int32_t value;
    std::memcpy(&value, bytes, 4);
    bytes += 4;
    if (value < 0) throw_invalid("negative length in Arrow schema metadata");
    return value;
  };
  int32_t count = read_int32();
  for (int32_t i = 0; i < count; ++i) {
    int32_t key_length = read_int32();
    std::string key(bytes, size_t(key_length));
    bytes += key_length;
    int32_t value_length = read_int32();
    std::string value(bytes, size_t(value_length));
    bytes += value_length;
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

DataType parse_format(std::string_view format, const ArrowSchema* schema);

Field import_field_no_release(const ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr || schema->format == nullptr) {
    throw_invalid("imported ArrowSchema is released or incomplete");
  }
  Field field;
  field.name = schema->name != nullptr ? schema->name : "";
  field.nullable = (schema->flags & ARROW_FLAG_NULLABLE) != 0;
  field.type = parse_format(schema->format, schema);
  for (auto& [key, value] : decode_metadata(schema->metadata)) {
    if (key == kFieldIdKey) {
      field.field_id = std::stoi(value);
    } else if (key == kExtensionKey) {
      field.type.extension_name = value;
    } else if (key != kExtensionMetadataKey) {
      field.metadata.emplace_back(std::move(key), std::move(value));
    }
  }
  return field;
}

std::vector<Field> import_children(const ArrowSchema* schema) {
  std::vector<Field> children;
  if (schema->n_children < 0 || (schema->n_children > 0 && schema->children == nullptr)) {
    throw_invalid("imported ArrowSchema has an invalid child list");
  }
  for (int64_t i = 0; i < schema->n_children; ++i)
    children.push_back(import_field_no_release(schema->children[i]));
  return children;
}

DataType parse_format(std::string_view format, const ArrowSchema* schema) {
  if (schema->dictionary != nullptr) {
    if (format != "i") throw_unsupported("dictionary index type '" + std::string(format) + "' (only int32)");
    return DataType::dictionary(import_field_no_release(schema->dictionary).type);
  }
  auto unsupported = [&]() -> DataType { throw_unsupported("Arrow format '" + std::string(format) + "'"); };
  if (format.size() == 1) {
    switch (format[0]) {
      case 'n': return DataType::make(TypeId::kNull);
      case 'b': return DataType::make(TypeId::kBool);
      case 'c': return DataType::make(TypeId::kInt8);
      case 'C': return DataType::make(TypeId::kUInt8);
      case 's': return DataType::make(TypeId::kInt16);
      case 'S': return DataType::make(TypeId::kUInt16);
      case 'i': return DataType::make(TypeId::kInt32);
      case 'I': return DataType::make(TypeId::kUInt32);
      case 'l': return DataType::make(TypeId::kInt64);
      case 'L': return DataType::make(TypeId::kUInt64);
      case 'e': return DataType::make(TypeId::kFloat16);
      case 'f': return DataType::make(TypeId::kFloat32);
      case 'g': return DataType::make(TypeId::kFloat64);
      case 'z': return DataType::make(TypeId::kBinary);
      case 'Z': return DataType::make(TypeId::kLargeBinary);
      case 'u': return DataType::make(TypeId::kString);
      case 'U': return DataType::make(TypeId::kLargeString);
      default: return unsupported();
    }
  }
  if (format == "vz") return DataType::make(TypeId::kBinaryView);
  if (format == "vu") return DataType::make(TypeId::kStringView);
  if (format == "tdD") return DataType::make(TypeId::kDate32);
  if (format.size() == 3 && format.substr(0, 2) == "tt") return DataType::time(parse_unit(format[2], format));
  if (format.size() >= 4 && format.substr(0, 2) == "ts" && format[3] == ':') {
    return DataType::timestamp(parse_unit(format[2], format), std::string(format.substr(4)));
  }
  if (format.substr(0, 2) == "w:")
    return DataType::fixed_size_binary(std::stoi(std::string(format.substr(2))));
  if (format.substr(0, 2) == "d:") {
    std::string rest(format.substr(2));
    int precision = 0, scale = 0, bits = 128;
    int parsed = std::sscanf(rest.c_str(), "%d,%d,%d", &precision, &scale, &bits);
    if (parsed < 2) return unsupported();
    DataType type = DataType::make(bits == 256 ? TypeId::kDecimal256 : TypeId::kDecimal128);
    type.precision = precision;
    type.scale = scale;
    return type;
  }
  if (format == "+l" || format == "+L") {
    std::vector<Field> children = import_children(schema);
    if (children.size() != 1) throw_invalid("list schema needs exactly one child");
    return format == "+l" ? DataType::list(std::move(children[0]))
                          : DataType::large_list(std::move(children[0]));
  }
  if (format == "+s") return DataType::struct_(import_children(schema));
  if (format == "+m") {
    std::vector<Field> children = import_children(schema);
    if (children.size() != 1 || children[0].type.id != TypeId::kStruct ||
        children[0].type.children.size() != 2) {
      throw_invalid("map schema needs one struct child with two fields");
    }
    DataType type = DataType::make(TypeId::kMap);
    type.keys_sorted = (schema->flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0;
    type.children = std::move(children);
    return type;
  }
  return unsupported();
}

}  // namespace

std::string arrow_format(const DataType& type) {
  switch (type.id) {
    case TypeId::kNull: return "n";
    case TypeId::kBool: return "b";
    case TypeId::kInt8: return "c";
    case TypeId::kInt16: return "s";
    case TypeId::kInt32: return "i";
    case TypeId::kInt64: return "l";
    case TypeId::kUInt8: return "C";
    case TypeId::kUInt16: return "S";
    case TypeId::kUInt32: return "I";
    case TypeId::kUInt64: return "L";
    case TypeId::kFloat16: return "e";
    case TypeId::kFloat32: return "f";
    case TypeId::kFloat64: return "g";
    case TypeId::kDate32: return "tdD";
    case TypeId::kTime32:
    case TypeId::kTime64: return std::string("tt") + unit_char(type.unit);
    case TypeId::kTimestamp: return std::string("ts") + unit_char(type.unit) + ":" + type.timezone;
    case TypeId::kDecimal128: return "d:" + std::to_string(type.precision) + "," + std::to_string(type.scale);
    case TypeId::kDecimal256:
      return "d:" + std::to_string(type.precision) + "," + std::to_string(type.scale) + ",256";
    case TypeId::kBinary: return "z";
    case TypeId::kString: return "u";
    case TypeId::kLargeBinary: return "Z";
    case TypeId::kLargeString: return "U";
    case TypeId::kBinaryView: return "vz";
    case TypeId::kStringView: return "vu";
    case TypeId::kFixedSizeBinary: return "w:" + std::to_string(type.byte_width);
    case TypeId::kList: return "+l";
    case TypeId::kLargeList: return "+L";
    case TypeId::kStruct: return "+s";
    case TypeId::kMap: return "+m";
    case TypeId::kDictionary: return "i";
  }
  return "n";
}

void export_field(const Field& field, ArrowSchema* out) {
  auto metadata = field.metadata;
  if (field.field_id >= 0) metadata.emplace_back(std::string(kFieldIdKey), std::to_string(field.field_id));
  export_type(field.type, field.name, field.nullable, std::move(metadata), out);
}

void export_schema(const BatchSchema& schema, ArrowSchema* out) {
  Field root{"", DataType::struct_(schema.fields), false, -1, schema.metadata};
  export_field(root, out);
}

Field import_field(ArrowSchema* schema) {
  struct Releaser {
    ArrowSchema* schema;
    ~Releaser() {
      if (schema->release != nullptr) schema->release(schema);
    }
  } releaser{schema};
  return import_field_no_release(schema);
}

BatchSchema import_schema(ArrowSchema* schema) {
  Field root = import_field(schema);
  if (root.type.id != TypeId::kStruct)
    throw_invalid("an imported schema must be a struct, got " + root.type.to_string());
  BatchSchema out;
  out.fields = std::move(root.type.children);
  out.metadata = std::move(root.metadata);
  return out;
}

}  // namespace parquetry
