// ValueRef: typed access to one value of an Arrow-layout array. Each
// accessor switches on the type once and reads the value in place.
#include <cstring>
#include <limits>
#include <string>

#include "parquetry/error.h"
#include "parquetry/record.h"
#include "parquetry/schema/value_text.h"
#include "parquetry/table/json_values.h"
#include "parquetry/util/bit_util.h"
#include "parquetry/util/json_writer.h"

namespace parquetry {
using namespace bits;  // NOLINT: bit helpers used throughout

namespace {

[[noreturn]] void wrong_type(const ArrayData& array, const char* wanted) {
  throw_invalid("value of type " + array.type->to_string() + " cannot be read as " + wanted);
}

template <typename T>
T fixed_value(const ArrayData& array, int64_t i) {
  return load<T>(array.buffers[1].data + (array.offset + i) * int64_t(sizeof(T)));
}

// The dictionary entry a dictionary-encoded value points at.
ValueRef resolve(const ArrayData& array, int64_t i) {
  if (array.type->id != TypeId::kDictionary) return ValueRef(&array, i);
  const int32_t index = fixed_value<int32_t>(array, i);
  if (!array.dictionary || index < 0 || index >= array.dictionary->length) {
    throw_invalid("dictionary index " + std::to_string(index) + " out of range");
  }
  return ValueRef(array.dictionary.get(), index);
}

void require_value(const ValueRef& v) {
  if (v.is_null()) throw_invalid("null value of type " + v.type().to_string() + " read as a scalar");
}

// [begin, end) of list element `i` (list, large list, map).
std::pair<int64_t, int64_t> list_bounds(const ArrayData& array, int64_t i) {
  const int64_t at = array.offset + i;
  if (array.type->id == TypeId::kLargeList) {
    return {load<int64_t>(array.buffers[1].data + at * 8),
            load<int64_t>(array.buffers[1].data + (at + 1) * 8)};
  }
  return {load<int32_t>(array.buffers[1].data + at * 4), load<int32_t>(array.buffers[1].data + (at + 1) * 4)};
}

}  // namespace

TypeId ValueRef::value_type_id() const {
  return array_->type->id == TypeId::kDictionary ? array_->type->dictionary_value->id : array_->type->id;
}

bool ValueRef::as_bool() const {
  const ValueRef v = resolve(*array_, index_);
  require_value(v);
  if (v.type().id != TypeId::kBool) wrong_type(v.array(), "bool");
  return get_bit(v.array().buffers[1].data, v.array().offset + v.index());
}

int64_t ValueRef::as_int64_any() const {
  const ValueRef v = resolve(*array_, index_);
  require_value(v);
  const ArrayData& a = v.array();
  const int64_t i = v.index();
  switch (a.type->id) {
    case TypeId::kInt8: return fixed_value<int8_t>(a, i);
    case TypeId::kInt16: return fixed_value<int16_t>(a, i);
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: return fixed_value<int32_t>(a, i);
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: return fixed_value<int64_t>(a, i);
    case TypeId::kUInt8: return fixed_value<uint8_t>(a, i);
    case TypeId::kUInt16: return fixed_value<uint16_t>(a, i);
    case TypeId::kUInt32: return fixed_value<uint32_t>(a, i);
    case TypeId::kUInt64: {
      const uint64_t value = fixed_value<uint64_t>(a, i);
      if (value > uint64_t(std::numeric_limits<int64_t>::max())) {
        throw_invalid("uint64 value " + std::to_string(value) + " does not fit int64");
      }
      return int64_t(value);
    }
    case TypeId::kDecimal128: {
      if (a.type->scale != 0) wrong_type(a, "int64 (decimal with a fractional part)");
      const uint8_t* bytes = a.buffers[1].data + (a.offset + i) * 16;
      const int64_t low = load<int64_t>(bytes);
      const int64_t high = load<int64_t>(bytes + 8);
      if (high != (low < 0 ? -1 : 0)) throw_invalid("decimal value does not fit int64");
      return low;
    }
    default: wrong_type(a, "int64");
  }
}

uint64_t ValueRef::as_uint64() const {
  const ValueRef v = resolve(*array_, index_);
  if (!v.is_null() && v.type().id == TypeId::kUInt64) {
    return fixed_value<uint64_t>(v.array(), v.index());
  }
  const int64_t value = as_int64();
  if (value < 0) throw_invalid("negative value " + std::to_string(value) + " read as uint64");
  return uint64_t(value);
}

double ValueRef::as_double_any() const {
  const ValueRef v = resolve(*array_, index_);
  require_value(v);
  switch (v.type().id) {
    case TypeId::kFloat16: return half_to_double(fixed_value<uint16_t>(v.array(), v.index()));
    case TypeId::kFloat32: return fixed_value<float>(v.array(), v.index());
    case TypeId::kFloat64: return fixed_value<double>(v.array(), v.index());
    case TypeId::kUInt64: return double(fixed_value<uint64_t>(v.array(), v.index()));
    default: return double(as_int64());
  }
}

std::string_view ValueRef::as_bytes_any() const {
  const ValueRef v = resolve(*array_, index_);
  require_value(v);
  const ArrayData& a = v.array();
  const int64_t at = a.offset + v.index();
  switch (a.type->id) {
    case TypeId::kBinary:
    case TypeId::kString: {
      const int32_t begin = load<int32_t>(a.buffers[1].data + at * 4);
      const int32_t end = load<int32_t>(a.buffers[1].data + (at + 1) * 4);
      return {reinterpret_cast<const char*>(a.buffers[2].data) + begin, size_t(end - begin)};
    }
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: {
      const int64_t begin = load<int64_t>(a.buffers[1].data + at * 8);
      const int64_t end = load<int64_t>(a.buffers[1].data + (at + 1) * 8);
      return {reinterpret_cast<const char*>(a.buffers[2].data) + begin, size_t(end - begin)};
    }
    case TypeId::kBinaryView:
    case TypeId::kStringView: {
      // 16-byte views: length, then either the bytes inline (<= 12) or a
      // 4-byte prefix, the data buffer's index and the offset in it.
      const uint8_t* view = a.buffers[1].data + at * 16;
      const int32_t length = load<int32_t>(view);
      if (length <= 12) return {reinterpret_cast<const char*>(view + 4), size_t(length)};
      const int32_t buffer = load<int32_t>(view + 8);
      const int32_t offset = load<int32_t>(view + 12);
      if (buffer < 0 || size_t(buffer) + 2 >= a.buffers.size()) {
        throw_invalid("string view names a missing data buffer");
      }
      return {reinterpret_cast<const char*>(a.buffers[size_t(buffer) + 2].data) + offset, size_t(length)};
    }
    case TypeId::kFixedSizeBinary:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const int64_t width = a.type->id == TypeId::kFixedSizeBinary ? a.type->byte_width
                            : a.type->id == TypeId::kDecimal128    ? 16
                                                                   : 32;
      return {reinterpret_cast<const char*>(a.buffers[1].data) + at * width, size_t(width)};
    }
    default: wrong_type(a, "bytes");
  }
}

std::string ValueRef::to_json() const {
  JsonWriter out;
  write_json_value(out, *array_, index_);
  return out.take();
}

int64_t ValueRef::size() const {
  const ValueRef v = resolve(*array_, index_);
  switch (v.type().id) {
    case TypeId::kStruct: return int64_t(v.array().children.size());
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kMap: {
      if (v.is_null()) return 0;
      const auto [begin, end] = list_bounds(v.array(), v.index());
      return end - begin;
    }
    default: wrong_type(v.array(), "a list, map or struct");
  }
}

ValueRef ValueRef::operator[](int64_t i) const {
  const ValueRef v = resolve(*array_, index_);
  const ArrayData& a = v.array();
  switch (a.type->id) {
    case TypeId::kStruct:
      if (i < 0 || i >= int64_t(a.children.size())) {
        throw_invalid("struct field " + std::to_string(i) + " out of range for " + a.type->to_string());
      }
      // Struct children share the parent's row numbering (plus their own offset).
      return ValueRef(a.children[size_t(i)].get(), a.offset + v.index());
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kMap: {
      require_value(v);
      const auto [begin, end] = list_bounds(a, v.index());
      if (i < 0 || i >= end - begin) {
        throw_invalid("element " + std::to_string(i) + " out of range (list of " +
                      std::to_string(end - begin) + ")");
      }
      return ValueRef(a.children[0].get(), begin + i);
    }
    default: wrong_type(a, "a list or struct");
  }
}

ValueRef ValueRef::operator[](std::string_view name) const {
  const ValueRef v = resolve(*array_, index_);
  if (v.type().id != TypeId::kStruct) wrong_type(v.array(), "a struct");
  const std::vector<Field>& fields = v.type().children;
  for (size_t f = 0; f < fields.size(); ++f) {
    if (fields[f].name == name) return v[int64_t(f)];
  }
  throw_invalid("struct " + v.type().to_string() + " has no field '" + std::string(name) + "'");
}

ValueRef ValueRef::key(int64_t i) const {
  if (value_type_id() != TypeId::kMap) wrong_type(*array_, "a map");
  return (*this)[i][int64_t(0)];
}

ValueRef ValueRef::value(int64_t i) const {
  if (value_type_id() != TypeId::kMap) wrong_type(*array_, "a map");
  return (*this)[i][int64_t(1)];
}

Datum ValueRef::to_datum() const {
  if (is_null()) return Datum();
  const ValueRef v = resolve(*array_, index_);
  switch (v.type().id) {
    case TypeId::kNull: return Datum();
    case TypeId::kBool: return Datum(v.as_bool());
    case TypeId::kUInt64: return Datum(v.as_uint64());
    case TypeId::kFloat16:
    case TypeId::kFloat32:
    case TypeId::kFloat64: return Datum(v.as_double());
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const std::string_view bytes = v.as_bytes();
      return Datum(decimal_to_string(reinterpret_cast<const uint8_t*>(bytes.data()), int(bytes.size()),
                                     v.type().scale));
    }
    case TypeId::kBinary:
    case TypeId::kString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeString:
    case TypeId::kBinaryView:
    case TypeId::kStringView:
    case TypeId::kFixedSizeBinary: return Datum(v.as_bytes());
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kLargeList: {
      Datum::List items;
      const int64_t n = v.size();
      items.reserve(size_t(n));
      for (int64_t k = 0; k < n; ++k) items.push_back(v[k].to_datum());
      return Datum(std::move(items));
    }
    case TypeId::kMap: {
      Datum::List entries;
      const int64_t n = v.size();
      entries.reserve(size_t(n));
      for (int64_t k = 0; k < n; ++k)
        entries.push_back(Datum::list({v.key(k).to_datum(), v.value(k).to_datum()}));
      return Datum(std::move(entries));
    }
    default: return Datum(v.as_int64());
  }
}

}  // namespace parquetry
