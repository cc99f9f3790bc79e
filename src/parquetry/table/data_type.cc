#include <string>

#include "parquetry/error.h"
#include "parquetry/table.h"

namespace parquetry {

const BufferRef ArrayData::kNoBuffer{};

bool DataType::operator==(const DataType& other) const {
  if (id != other.id || byte_width != other.byte_width || precision != other.precision ||
      scale != other.scale || keys_sorted != other.keys_sorted || extension_name != other.extension_name ||
      children != other.children) {
    return false;
  }
  bool has_unit = id == TypeId::kTime32 || id == TypeId::kTime64 || id == TypeId::kTimestamp;
  if (has_unit && unit != other.unit) return false;
  if (id == TypeId::kTimestamp && timezone != other.timezone) return false;
  if (id == TypeId::kDictionary) {
    if (!dictionary_value || !other.dictionary_value) return dictionary_value == other.dictionary_value;
    return *dictionary_value == *other.dictionary_value;
  }
  return true;
}

namespace {

const char* unit_name(ArrowTimeUnit unit) {
  switch (unit) {
    case ArrowTimeUnit::kSecond: return "s";
    case ArrowTimeUnit::kMilli: return "ms";
    case ArrowTimeUnit::kMicro: return "us";
    case ArrowTimeUnit::kNano: return "ns";
  }
  return "?";
}

}  // namespace

std::string DataType::to_string() const {
  std::string out;
  switch (id) {
    case TypeId::kNull: out = "null"; break;
    case TypeId::kBool: out = "bool"; break;
    case TypeId::kInt8: out = "int8"; break;
    case TypeId::kInt16: out = "int16"; break;
    case TypeId::kInt32: out = "int32"; break;
    case TypeId::kInt64: out = "int64"; break;
    case TypeId::kUInt8: out = "uint8"; break;
    case TypeId::kUInt16: out = "uint16"; break;
    case TypeId::kUInt32: out = "uint32"; break;
    case TypeId::kUInt64: out = "uint64"; break;
    case TypeId::kFloat16: out = "halffloat"; break;
    case TypeId::kFloat32: out = "float"; break;
    case TypeId::kFloat64: out = "double"; break;
    case TypeId::kDate32: out = "date32"; break;
    case TypeId::kTime32: out = std::string("time32[") + unit_name(unit) + "]"; break;
    case TypeId::kTime64: out = std::string("time64[") + unit_name(unit) + "]"; break;
    case TypeId::kTimestamp:
      out = std::string("timestamp[") + unit_name(unit) + (timezone.empty() ? "" : ", " + timezone) + "]";
      break;
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      out = std::string(id == TypeId::kDecimal128 ? "decimal128(" : "decimal256(") +
            std::to_string(precision) + ", " + std::to_string(scale) + ")";
      break;
    case TypeId::kBinary: out = "binary"; break;
    case TypeId::kString: out = "string"; break;
    case TypeId::kLargeBinary: out = "large_binary"; break;
    case TypeId::kLargeString: out = "large_string"; break;
    case TypeId::kBinaryView: out = "binary_view"; break;
    case TypeId::kStringView: out = "string_view"; break;
    case TypeId::kFixedSizeBinary: out = "fixed_size_binary[" + std::to_string(byte_width) + "]"; break;
    case TypeId::kList:
    case TypeId::kLargeList:
      out = id == TypeId::kList ? "list<" : "large_list<";
      if (!children.empty()) out += children[0].name + ": " + children[0].type.to_string();
      out += ">";
      break;
    case TypeId::kStruct: {
      out = "struct<";
      for (size_t i = 0; i < children.size(); ++i) {
        if (i != 0) out += ", ";
        out += children[i].name + ": " + children[i].type.to_string();
      }
      out += ">";
      break;
    }
    case TypeId::kMap: {
      out = "map<";
      if (!children.empty() && children[0].type.children.size() == 2) {
        out += children[0].type.children[0].type.to_string() + ", " +
               children[0].type.children[1].type.to_string();
      }
      out += ">";
      break;
    }
    case TypeId::kDictionary:
      out = "dictionary<values=" + (dictionary_value ? dictionary_value->to_string() : "?") +
            ", indices=int32>";
      break;
  }
  if (!extension_name.empty()) out = "extension<" + extension_name + ">[" + out + "]";
  return out;
}

int32_t DataType::fixed_width() const {
  switch (id) {
    case TypeId::kInt8:
    case TypeId::kUInt8: return 1;
    case TypeId::kInt16:
    case TypeId::kUInt16:
    case TypeId::kFloat16: return 2;
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kFloat32:
    case TypeId::kDate32:
    case TypeId::kTime32:
    case TypeId::kDictionary: return 4;
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: return 8;
    case TypeId::kDecimal128: return 16;
    case TypeId::kDecimal256: return 32;
    case TypeId::kFixedSizeBinary: return byte_width;
    default: return 0;
  }
}

bool DataType::is_binary_like() const {
  switch (id) {
    case TypeId::kBinary:
    case TypeId::kString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeString:
    case TypeId::kBinaryView:
    case TypeId::kStringView: return true;
    default: return false;
  }
}

DataType DataType::make(TypeId id) {
  DataType type;
  type.id = id;
  return type;
}

DataType DataType::fixed_size_binary(int32_t width) {
  if (width < 0) throw_invalid("fixed_size_binary width must not be negative");
  DataType type = make(TypeId::kFixedSizeBinary);
  type.byte_width = width;
  return type;
}

DataType DataType::decimal(int32_t precision, int32_t scale) {
  if (precision < 1 || precision > 76)
    throw_invalid("decimal precision " + std::to_string(precision) + " outside 1..76");
  DataType type = make(precision <= 38 ? TypeId::kDecimal128 : TypeId::kDecimal256);
  type.precision = precision;
  type.scale = scale;
  return type;
}

DataType DataType::time(ArrowTimeUnit unit) {
  DataType type =
      make(unit == ArrowTimeUnit::kSecond || unit == ArrowTimeUnit::kMilli ? TypeId::kTime32 : TypeId::kTime64);
  type.unit = unit;
  return type;
}

DataType DataType::timestamp(ArrowTimeUnit unit, std::string timezone) {
  DataType type = make(TypeId::kTimestamp);
  type.unit = unit;
  type.timezone = std::move(timezone);
  return type;
}

DataType DataType::list(Field item) {
  DataType type = make(TypeId::kList);
  type.children.push_back(std::move(item));
  return type;
}

DataType DataType::large_list(Field item) {
  DataType type = make(TypeId::kLargeList);
  type.children.push_back(std::move(item));
  return type;
}

DataType DataType::struct_(std::vector<Field> fields) {
  DataType type = make(TypeId::kStruct);
  type.children = std::move(fields);
  return type;
}

DataType DataType::map(Field key, Field value, bool keys_sorted) {
  key.nullable = false;
  DataType entries = struct_({std::move(key), std::move(value)});
  DataType type = make(TypeId::kMap);
  type.keys_sorted = keys_sorted;
  type.children.push_back(Field{"entries", std::move(entries), false, -1, {}});
  return type;
}

DataType DataType::dictionary(DataType value_type) {
  DataType type = make(TypeId::kDictionary);
  type.dictionary_value = std::make_shared<const DataType>(std::move(value_type));
  return type;
}

int BatchSchema::field_index(const std::string& name) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == name) return int(i);
  }
  return -1;
}

BufferRef BufferRef::adopt(Buffer&& buffer) { return share(std::make_shared<Buffer>(std::move(buffer))); }

BufferRef BufferRef::share(std::shared_ptr<Buffer> buffer) {
  BufferRef ref;
  ref.data = buffer->data();
  ref.size = int64_t(buffer->size());
  ref.owner = std::move(buffer);
  return ref;
}

}  // namespace parquetry
