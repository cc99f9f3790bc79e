#include "parquetry/variant.h"

#include <simdjson.h>

#include <cstring>
#include <string>

#include "parquetry/error.h"
#include "parquetry/variant/variant_internal.h"

namespace parquetry {

using variant_internal::read_le;

namespace {

// `01 00 00`: version 1, one-byte offsets, no keys.
constexpr uint8_t kEmptyMetadata[3] = {0x01, 0x00, 0x00};

// Payload bytes after the header for fixed-size primitives; -1 = variable
// (binary, string: 4-byte length + bytes).
constexpr int8_t kPrimitivePayload[kVariantMaxPrimitiveId + 1] = {
    0, 0, 0, 1, 2, 4, 8, 8, 5, 9, 17, 4, 8, 8, 4, -1, -1, 8, 8, 8, 16,
};

constexpr VariantValueType kPrimitiveType[kVariantMaxPrimitiveId + 1] = {
    VariantValueType::kNull,
    VariantValueType::kBoolean,
    VariantValueType::kBoolean,
    VariantValueType::kInt8,
    VariantValueType::kInt16,
    VariantValueType::kInt32,
    VariantValueType::kInt64,
    VariantValueType::kDouble,
    VariantValueType::kDecimal4,
    VariantValueType::kDecimal8,
    VariantValueType::kDecimal16,
    VariantValueType::kDate,
    VariantValueType::kTimestampMicros,
    VariantValueType::kTimestampNtzMicros,
    VariantValueType::kFloat,
    VariantValueType::kBinary,
    VariantValueType::kString,
    VariantValueType::kTimeNtzMicros,
    VariantValueType::kTimestampNanos,
    VariantValueType::kTimestampNtzNanos,
    VariantValueType::kUuid,
};

[[noreturn]] void throw_type_mismatch(const Variant& v, const char* wanted) {
  std::string have;
  if (v.basic_type() == VariantBasicType::kPrimitive && v.primitive_id() > kVariantMaxPrimitiveId) {
    have = "unknown primitive id " + std::to_string(v.primitive_id());
  } else {
    have = variant_type_name(v.type());
  }
  throw_invalid(std::string("variant value is ") + have + ", not " + wanted);
}

bool is_ascii(const uint8_t* p, size_t n) {
  uint64_t high = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) high |= variant_internal::load<uint64_t>(p + i);
  for (; i < n; ++i) high |= p[i];
  return (high & 0x8080808080808080ull) == 0;
}

void check_utf8(const uint8_t* p, size_t n, const char* what) {
  // Keys and short strings are mostly ASCII: skip simdjson's dispatched
  // validator for them.
  if (is_ascii(p, n)) return;
  if (!simdjson::validate_utf8(reinterpret_cast<const char*>(p), n)) {
    throw_corrupt(std::string("variant ") + what + " is not valid UTF-8");
  }
}

}  // namespace

const char* variant_type_name(VariantValueType type) {
  switch (type) {
    case VariantValueType::kNull: return "null";
    case VariantValueType::kBoolean: return "boolean";
    case VariantValueType::kInt8: return "int8";
    case VariantValueType::kInt16: return "int16";
    case VariantValueType::kInt32: return "int32";
    case VariantValueType::kInt64: return "int64";
    case VariantValueType::kDouble: return "double";
    case VariantValueType::kDecimal4: return "decimal4";
    case VariantValueType::kDecimal8: return "decimal8";
    case VariantValueType::kDecimal16: return "decimal16";
    case VariantValueType::kDate: return "date";
    case VariantValueType::kTimestampMicros: return "timestamp_micros";
    case VariantValueType::kTimestampNtzMicros: return "timestamp_ntz_micros";
    case VariantValueType::kFloat: return "float";
    case VariantValueType::kBinary: return "binary";
    case VariantValueType::kString: return "string";
    case VariantValueType::kTimeNtzMicros: return "time_ntz_micros";
    case VariantValueType::kTimestampNanos: return "timestamp_nanos";
    case VariantValueType::kTimestampNtzNanos: return "timestamp_ntz_nanos";
    case VariantValueType::kUuid: return "uuid";
    case VariantValueType::kObject: return "object";
    case VariantValueType::kArray: return "array";
  }
  return "unknown";
}

// ---------------------------------------------------------------- metadata

VariantMetadata::VariantMetadata()
    : data_(kEmptyMetadata), offsets_(kEmptyMetadata + 2), strings_(kEmptyMetadata + 3) {}

VariantMetadata::VariantMetadata(std::span<const uint8_t> bytes) {
  if (bytes.empty()) throw_corrupt("variant metadata is empty");
  const uint8_t header = bytes[0];
  if ((header & 0x0F) != 1) {
    throw_corrupt("variant metadata version is " + std::to_string(header & 0x0F) + ", expected 1");
  }
  sorted_ = (header >> 4) & 1;
  offset_size_ = uint8_t((header >> 6) + 1);
  const uint64_t size = bytes.size();
  if (size < 1 + uint64_t(offset_size_)) throw_corrupt("variant metadata truncated in dictionary size");
  data_ = bytes.data();
  dictionary_size_ = read_le(data_ + 1, offset_size_);
  offsets_ = data_ + 1 + offset_size_;
  const uint64_t strings_start = 1 + uint64_t(offset_size_) * (uint64_t(dictionary_size_) + 2);
  if (strings_start > size) {
    throw_corrupt("variant metadata offset table (" + std::to_string(dictionary_size_) +
                  " keys) exceeds its " + std::to_string(size) + " bytes");
  }
  strings_ = data_ + strings_start;
  strings_size_ = read_le(offsets_ + uint64_t(offset_size_) * dictionary_size_, offset_size_);
  if (strings_size_ > size - strings_start) {
    throw_corrupt("variant metadata key bytes (" + std::to_string(strings_size_) + ") exceed the buffer");
  }
}

uint32_t VariantMetadata::offset_at(uint32_t i) const {
  return read_le(offsets_ + uint64_t(i) * offset_size_, offset_size_);
}

std::string_view VariantMetadata::key(uint32_t id) const {
  if (id >= dictionary_size_) {
    throw_corrupt("variant field id " + std::to_string(id) + " is outside the dictionary of " +
                  std::to_string(dictionary_size_) + " keys");
  }
  const uint32_t begin = offset_at(id);
  const uint32_t end = offset_at(id + 1);
  if (begin > end || end > strings_size_) {
    throw_corrupt("variant metadata offsets of key " + std::to_string(id) + " are out of range");
  }
  return {reinterpret_cast<const char*>(strings_) + begin, end - begin};
}

void VariantMetadata::validate() const {
  if (offset_at(0) != 0) throw_corrupt("variant metadata first offset is not 0");
  uint32_t previous = 0;
  for (uint32_t i = 1; i <= dictionary_size_; ++i) {
    const uint32_t offset = offset_at(i);
    if (offset < previous) throw_corrupt("variant metadata offsets decrease at key " + std::to_string(i));
    previous = offset;
  }
  // The last offset is strings_size_, already checked against the buffer.
  check_utf8(strings_, strings_size_, "metadata key");
  if (sorted_) {
    for (uint32_t i = 1; i < dictionary_size_; ++i) {
      if (!(key(i - 1) < key(i))) {
        throw_corrupt("variant metadata has sorted_strings set but key " + std::to_string(i) +
                      " is not greater than the previous one");
      }
    }
  }
}

std::optional<uint32_t> VariantMetadata::find(std::string_view wanted) const {
  if (sorted_) {
    uint32_t lo = 0, hi = dictionary_size_;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      const int c = key(mid).compare(wanted);
      if (c == 0) return mid;
      if (c < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return std::nullopt;
  }
  for (uint32_t i = 0; i < dictionary_size_; ++i) {
    if (key(i) == wanted) return i;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- value

Variant::Variant(const VariantMetadata& metadata, std::span<const uint8_t> value)
    : metadata_(metadata), data_(value.data()), size_(value.size()) {
  if (value.empty()) throw_corrupt("variant value is empty");
}

VariantValueType Variant::type() const {
  switch (basic_type()) {
    case VariantBasicType::kPrimitive: {
      const uint8_t id = primitive_id();
      if (id > kVariantMaxPrimitiveId) {
        throw_unsupported("variant primitive type id " + std::to_string(id) + " is not supported");
      }
      return kPrimitiveType[id];
    }
    case VariantBasicType::kShortString: return VariantValueType::kString;
    case VariantBasicType::kObject: return VariantValueType::kObject;
    case VariantBasicType::kArray: return VariantValueType::kArray;
  }
  return VariantValueType::kNull;
}

size_t Variant::encoded_size() const {
  size_t n = 0;
  switch (basic_type()) {
    case VariantBasicType::kPrimitive: {
      const uint8_t id = primitive_id();
      if (id > kVariantMaxPrimitiveId) {
        throw_unsupported("variant primitive type id " + std::to_string(id) + " is not supported");
      }
      const int8_t fixed = kPrimitivePayload[id];
      if (fixed >= 0) {
        n = 1 + size_t(fixed);
      } else {
        if (size_ < 5) throw_corrupt("variant string/binary length is truncated");
        n = 5 + size_t(read_le(data_ + 1, 4));
      }
      break;
    }
    case VariantBasicType::kShortString: n = 1 + size_t(data_[0] >> 2); break;
    case VariantBasicType::kObject: return VariantObject(*this).encoded_size();
    case VariantBasicType::kArray: return VariantArray(*this).encoded_size();
  }
  if (n > size_) {
    throw_corrupt("variant value needs " + std::to_string(n) + " bytes but only " + std::to_string(size_) +
                  " remain");
  }
  return n;
}

const uint8_t* Variant::payload(VariantPrimitive id, size_t n) const {
  if (data_[0] != uint8_t(uint8_t(id) << 2)) {
    throw_type_mismatch(*this, variant_type_name(kPrimitiveType[uint8_t(id)]));
  }
  if (size_ < 1 + n) throw_corrupt("variant primitive payload is truncated");
  return data_ + 1;
}

bool Variant::get_boolean() const {
  if (data_[0] == uint8_t(1 << 2)) return true;
  if (data_[0] == uint8_t(2 << 2)) return false;
  throw_type_mismatch(*this, "boolean");
}

int8_t Variant::get_int8() const { return int8_t(*payload(VariantPrimitive::kInt8, 1)); }
int16_t Variant::get_int16() const {
  return variant_internal::load<int16_t>(payload(VariantPrimitive::kInt16, 2));
}
int32_t Variant::get_int32() const {
  return variant_internal::load<int32_t>(payload(VariantPrimitive::kInt32, 4));
}
int64_t Variant::get_int64() const {
  return variant_internal::load<int64_t>(payload(VariantPrimitive::kInt64, 8));
}

int64_t Variant::get_int() const {
  switch (data_[0] >> 2) {
    case 3:
      if (basic_type() == VariantBasicType::kPrimitive) return get_int8();
      break;
    case 4:
      if (basic_type() == VariantBasicType::kPrimitive) return get_int16();
      break;
    case 5:
      if (basic_type() == VariantBasicType::kPrimitive) return get_int32();
      break;
    case 6:
      if (basic_type() == VariantBasicType::kPrimitive) return get_int64();
      break;
    default: break;
  }
  throw_type_mismatch(*this, "an integer");
}

double Variant::get_double() const {
  return variant_internal::load<double>(payload(VariantPrimitive::kDouble, 8));
}
float Variant::get_float() const {
  return variant_internal::load<float>(payload(VariantPrimitive::kFloat, 4));
}

VariantDecimal Variant::get_decimal() const {
  VariantDecimal out;
  const uint8_t* p;
  if (data_[0] == uint8_t(uint8_t(VariantPrimitive::kDecimal4) << 2)) {
    p = payload(VariantPrimitive::kDecimal4, 5);
    out.unscaled = variant_internal::load<int32_t>(p + 1);
  } else if (data_[0] == uint8_t(uint8_t(VariantPrimitive::kDecimal8) << 2)) {
    p = payload(VariantPrimitive::kDecimal8, 9);
    out.unscaled = variant_internal::load<int64_t>(p + 1);
  } else if (data_[0] == uint8_t(uint8_t(VariantPrimitive::kDecimal16) << 2)) {
    p = payload(VariantPrimitive::kDecimal16, 17);
    out.unscaled = variant_internal::load<__int128>(p + 1);
  } else {
    throw_type_mismatch(*this, "a decimal");
  }
  if (p[0] > 38) throw_corrupt("variant decimal scale " + std::to_string(p[0]) + " exceeds 38");
  out.scale = p[0];
  return out;
}

int32_t Variant::get_date() const {
  return variant_internal::load<int32_t>(payload(VariantPrimitive::kDate, 4));
}
int64_t Variant::get_timestamp_micros() const {
  return variant_internal::load<int64_t>(payload(VariantPrimitive::kTimestampMicros, 8));
}
int64_t Variant::get_timestamp_ntz_micros() const {
  return variant_internal::load<int64_t>(payload(VariantPrimitive::kTimestampNtzMicros, 8));
}
int64_t Variant::get_timestamp_nanos() const {
  return variant_internal::load<int64_t>(payload(VariantPrimitive::kTimestampNanos, 8));
}
int64_t Variant::get_timestamp_ntz_nanos() const {
  return variant_internal::load<int64_t>(payload(VariantPrimitive::kTimestampNtzNanos, 8));
}
int64_t Variant::get_time_ntz_micros() const {
  return variant_internal::load<int64_t>(payload(VariantPrimitive::kTimeNtzMicros, 8));
}

std::string_view Variant::get_string() const {
  if (basic_type() == VariantBasicType::kShortString) {
    const size_t n = data_[0] >> 2;
    if (size_ < 1 + n) throw_corrupt("variant short string is truncated");
    return {reinterpret_cast<const char*>(data_ + 1), n};
  }
  const uint8_t* p = payload(VariantPrimitive::kString, 4);
  const uint32_t n = read_le(p, 4);
  if (size_ - 5 < n) throw_corrupt("variant string of " + std::to_string(n) + " bytes is truncated");
  return {reinterpret_cast<const char*>(p + 4), n};
}

std::span<const uint8_t> Variant::get_binary() const {
  const uint8_t* p = payload(VariantPrimitive::kBinary, 4);
  const uint32_t n = read_le(p, 4);
  if (size_ - 5 < n) throw_corrupt("variant binary of " + std::to_string(n) + " bytes is truncated");
  return {p + 4, n};
}

std::span<const uint8_t, 16> Variant::get_uuid() const {
  return std::span<const uint8_t, 16>(payload(VariantPrimitive::kUuid, 16), 16);
}

VariantObject Variant::get_object() const {
  if (!is_object()) throw_type_mismatch(*this, "object");
  return VariantObject(*this);
}

VariantArray Variant::get_array() const {
  if (!is_array()) throw_type_mismatch(*this, "array");
  return VariantArray(*this);
}

std::optional<Variant> Variant::get_field(std::string_view key) const {
  if (!is_object()) return std::nullopt;
  return VariantObject(*this).find(key);
}

std::optional<Variant> Variant::get_element(uint32_t index) const {
  if (!is_array()) return std::nullopt;
  VariantArray array(*this);
  if (index >= array.size()) return std::nullopt;
  return array[index];
}

void Variant::validate(int32_t max_depth, bool exact_size) const {
  metadata_.validate();
  validate_at(max_depth);
  if (exact_size && encoded_size() != size_) {
    throw_corrupt("variant value occupies " + std::to_string(encoded_size()) + " of its " +
                  std::to_string(size_) + " bytes");
  }
}

void Variant::validate_at(int32_t depth_left) const {
  switch (basic_type()) {
    case VariantBasicType::kPrimitive: {
      encoded_size();  // rejects unknown ids and truncation
      const auto id = VariantPrimitive(primitive_id());
      if (id == VariantPrimitive::kDecimal4 || id == VariantPrimitive::kDecimal8 ||
          id == VariantPrimitive::kDecimal16) {
        get_decimal();
      } else if (id == VariantPrimitive::kString) {
        const std::string_view s = get_string();
        check_utf8(reinterpret_cast<const uint8_t*>(s.data()), s.size(), "string");
      } else if (id == VariantPrimitive::kTimeNtzMicros) {
        // A time of day: a value past midnight has no text form, so it is
        // rejected here rather than when it is rendered.
        const int64_t micros = get_time_ntz_micros();
        if (micros < 0 || micros >= 86'400'000'000LL) {
          throw_corrupt("variant time " + std::to_string(micros) + " is outside one day");
        }
      }
      return;
    }
    case VariantBasicType::kShortString: {
      const std::string_view s = get_string();
      check_utf8(reinterpret_cast<const uint8_t*>(s.data()), s.size(), "string");
      return;
    }
    case VariantBasicType::kObject: {
      if (depth_left <= 0) throw_limit("variant nesting is deeper than the limit");
      const VariantObject object(*this);
      std::string_view previous;
      for (uint32_t i = 0; i < object.size(); ++i) {
        const std::string_view key = object.key(i);
        if (i > 0 && !(previous < key)) {
          throw_corrupt("variant object keys are not strictly ascending at field " + std::to_string(i) +
                        (previous == key ? " (duplicate key)" : ""));
        }
        previous = key;
        object.value(i).validate_at(depth_left - 1);
      }
      return;
    }
    case VariantBasicType::kArray: {
      if (depth_left <= 0) throw_limit("variant nesting is deeper than the limit");
      const VariantArray array(*this);
      for (uint32_t i = 0; i < array.size(); ++i) array[i].validate_at(depth_left - 1);
      return;
    }
  }
}

// ---------------------------------------------------------------- object

VariantObject::VariantObject(const Variant& value) : metadata_(value.metadata_), start_(value.data_) {
  const uint8_t header = start_[0];
  if ((header & 3) != uint8_t(VariantBasicType::kObject)) throw_invalid("variant value is not an object");
  offset_size_ = uint8_t(((header >> 2) & 3) + 1);
  id_size_ = uint8_t(((header >> 4) & 3) + 1);
  const int count_size = (header >> 6) & 1 ? 4 : 1;
  const uint64_t size = value.size_;
  if (size < 1 + uint64_t(count_size)) throw_corrupt("variant object truncated in element count");
  num_elements_ = read_le(start_ + 1, count_size);
  ids_ = start_ + 1 + count_size;
  const uint64_t ids_bytes = uint64_t(num_elements_) * id_size_;
  const uint64_t data_start =
      1 + uint64_t(count_size) + ids_bytes + (uint64_t(num_elements_) + 1) * offset_size_;
  if (data_start > size) {
    throw_corrupt("variant object of " + std::to_string(num_elements_) + " fields exceeds its " +
                  std::to_string(size) + " bytes");
  }
  offsets_ = ids_ + ids_bytes;
  data_ = start_ + data_start;
  data_size_ = offset_at(num_elements_);
  if (data_size_ > size - data_start) {
    throw_corrupt("variant object data (" + std::to_string(data_size_) + " bytes) exceeds the buffer");
  }
}

uint32_t VariantObject::offset_at(uint32_t i) const {
  return read_le(offsets_ + uint64_t(i) * offset_size_, offset_size_);
}

uint32_t VariantObject::field_id(uint32_t i) const {
  if (i >= num_elements_) throw_invalid("variant object field index out of range");
  return read_le(ids_ + uint64_t(i) * id_size_, id_size_);
}

Variant VariantObject::value(uint32_t i) const {
  if (i >= num_elements_) throw_invalid("variant object field index out of range");
  const uint32_t offset = offset_at(i);
  if (offset >= data_size_) {
    throw_corrupt("variant object field offset " + std::to_string(offset) + " is outside its " +
                  std::to_string(data_size_) + " data bytes");
  }
  return Variant(metadata_, data_ + offset, data_size_ - offset);
}

std::optional<Variant> VariantObject::find(std::string_view wanted) const {
  if (num_elements_ <= 8) {
    // Small objects: a linear scan that compares lengths first beats the
    // binary search's ordered memcmp calls.
    for (uint32_t i = 0; i < num_elements_; ++i) {
      const std::string_view k = metadata_.key(read_le(ids_ + uint64_t(i) * id_size_, id_size_));
      if (k.size() == wanted.size() && std::memcmp(k.data(), wanted.data(), k.size()) == 0) return value(i);
    }
    return std::nullopt;
  }
  uint32_t lo = 0, hi = num_elements_;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    const int c = metadata_.key(read_le(ids_ + uint64_t(mid) * id_size_, id_size_)).compare(wanted);
    if (c == 0) return value(mid);
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}

std::optional<Variant> VariantObject::find_id(uint32_t id) const {
  const std::span<const uint8_t> child =
      variant_field_bytes_by_id({start_, encoded_size()}, id, metadata_.sorted_strings());
  if (child.empty()) return std::nullopt;
  return Variant(metadata_, child);
}

std::span<const uint8_t> variant_field_bytes_by_id(std::span<const uint8_t> object, uint32_t id,
                                                   bool ids_ascend) {
  if (object.empty() || (object[0] & 3) != uint8_t(VariantBasicType::kObject)) return {};
  // The header checks of VariantObject's constructor, on bytes: a scan
  // calling this per row copies no view objects around.
  const uint8_t header = object[0];
  const int offset_size = ((header >> 2) & 3) + 1;
  const int width = ((header >> 4) & 3) + 1;
  const int count_size = (header >> 6) & 1 ? 4 : 1;
  const uint64_t size = object.size();
  if (size < 1 + uint64_t(count_size)) throw_corrupt("variant object truncated in element count");
  const uint8_t* start = object.data();
  const uint32_t n = read_le(start + 1, count_size);
  const uint8_t* ids = start + 1 + count_size;
  const uint64_t data_start =
      1 + uint64_t(count_size) + uint64_t(n) * width + (uint64_t(n) + 1) * offset_size;
  if (data_start > size) {
    throw_corrupt("variant object of " + std::to_string(n) + " fields exceeds its " + std::to_string(size) +
                  " bytes");
  }
  const uint8_t* offsets = ids + uint64_t(n) * width;
  const uint32_t data_size = read_le(offsets + uint64_t(n) * offset_size, offset_size);
  if (data_size > size - data_start) {
    throw_corrupt("variant object data (" + std::to_string(data_size) + " bytes) exceeds the buffer");
  }
  uint32_t i = n;
  if (ids_ascend) {
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      const uint32_t at = read_le(ids + uint64_t(mid) * width, width);
      if (at == id) {
        i = mid;
        break;
      }
      if (at < id) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
  } else if (width == 1) {
    // The common case (dictionaries under 256 keys): a byte scan.
    if (id > 0xFF) return {};
    if (n <= 16) {
      for (uint32_t k = 0; k < n; ++k) {
        if (ids[k] == id) {
          i = k;
          break;
        }
      }
    } else if (const void* hit = std::memchr(ids, int(id), n)) {
      i = uint32_t(static_cast<const uint8_t*>(hit) - ids);
    }
  } else {
    for (uint32_t k = 0; k < n; ++k) {
      if (read_le(ids + uint64_t(k) * width, width) == id) {
        i = k;
        break;
      }
    }
  }
  if (i == n) return {};
  const uint32_t offset = read_le(offsets + uint64_t(i) * offset_size, offset_size);
  if (offset >= data_size) {
    throw_corrupt("variant object field offset " + std::to_string(offset) + " is outside its " +
                  std::to_string(data_size) + " data bytes");
  }
  return {start + data_start + offset, data_size - offset};
}

// ---------------------------------------------------------------- array

VariantArray::VariantArray(const Variant& value) : metadata_(value.metadata_), start_(value.data_) {
  const uint8_t header = start_[0];
  if ((header & 3) != uint8_t(VariantBasicType::kArray)) throw_invalid("variant value is not an array");
  offset_size_ = uint8_t(((header >> 2) & 3) + 1);
  const int count_size = (header >> 4) & 1 ? 4 : 1;
  const uint64_t size = value.size_;
  if (size < 1 + uint64_t(count_size)) throw_corrupt("variant array truncated in element count");
  num_elements_ = read_le(start_ + 1, count_size);
  offsets_ = start_ + 1 + count_size;
  const uint64_t data_start = 1 + uint64_t(count_size) + (uint64_t(num_elements_) + 1) * offset_size_;
  if (data_start > size) {
    throw_corrupt("variant array of " + std::to_string(num_elements_) + " elements exceeds its " +
                  std::to_string(size) + " bytes");
  }
  data_ = start_ + data_start;
  data_size_ = offset_at(num_elements_);
  if (data_size_ > size - data_start) {
    throw_corrupt("variant array data (" + std::to_string(data_size_) + " bytes) exceeds the buffer");
  }
}

uint32_t VariantArray::offset_at(uint32_t i) const {
  return read_le(offsets_ + uint64_t(i) * offset_size_, offset_size_);
}

Variant VariantArray::operator[](uint32_t i) const {
  if (i >= num_elements_) throw_invalid("variant array index out of range");
  const uint32_t offset = offset_at(i);
  if (offset >= data_size_) {
    throw_corrupt("variant array element offset " + std::to_string(offset) + " is outside its " +
                  std::to_string(data_size_) + " data bytes");
  }
  return Variant(metadata_, data_ + offset, data_size_ - offset);
}

}  // namespace parquetry
