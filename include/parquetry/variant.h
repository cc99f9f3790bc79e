// Zero-copy views over the Parquet Variant binary encoding (VariantEncoding.md).
//
// A variant is two byte buffers: the metadata (a dictionary of object keys)
// and the value (a self-describing tree of primitives, strings, objects and
// arrays). The classes here never copy those bytes; they hold pointers, so the
// caller keeps both buffers alive while views are in use.
//
// Checking is split in two so that hot accessors stay cheap:
//  - constructors and accessors do O(1) checks: every offset, length and count
//    they read is bounds-checked before use, so any byte string is safe to
//    navigate (a bad one throws parquetry::Error, it never reads out of range);
//  - validate() walks the whole value once (recursive, depth-bounded) and
//    checks everything else the spec requires: UTF-8 of keys and strings,
//    dictionary order when sorted_strings is set, monotonic dictionary
//    offsets, field ids in range, object keys strictly ascending by unsigned
//    bytes (hence unique), decimal scale <= 38, known primitive ids, and that
//    every child fits inside its container.
// Field lookup by name relies on the spec's rule that an object's fields are
// stored in ascending key order; on a value that was not validated, a lookup
// may miss a key but never misbehaves.
//
// Errors: a type mismatch (get_int32() on a string) throws kInvalidArgument;
// bytes that violate the format throw kCorrupt; a primitive type id this
// version does not know throws kUnsupported; nesting deeper than the limit
// throws kLimitExceeded.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "parquetry/export.h"

namespace parquetry {

/// Default bound on the nesting depth of objects and arrays accepted by
/// validate(), to_json() and the builder's copy; matches Limits::max_nesting_depth.
inline constexpr int32_t kVariantMaxDepth = 64;

/// The two low bits of a value header.
enum class VariantBasicType : uint8_t { kPrimitive = 0, kShortString = 1, kObject = 2, kArray = 3 };

/// Primitive type ids as stored on the wire (value header bits 2-7 when the
/// basic type is kPrimitive).
enum class VariantPrimitive : uint8_t {
  kNull = 0,
  kTrue = 1,
  kFalse = 2,
  kInt8 = 3,
  kInt16 = 4,
  kInt32 = 5,
  kInt64 = 6,
  kDouble = 7,
  kDecimal4 = 8,
  kDecimal8 = 9,
  kDecimal16 = 10,
  kDate = 11,
  kTimestampMicros = 12,     ///< adjusted to UTC
  kTimestampNtzMicros = 13,  ///< no time zone
  kFloat = 14,
  kBinary = 15,
  kString = 16,
  kTimeNtzMicros = 17,
  kTimestampNanos = 18,
  kTimestampNtzNanos = 19,
  kUuid = 20,
};
inline constexpr uint8_t kVariantMaxPrimitiveId = 20;

/// The logical type of a value: short strings report kString, both boolean
/// ids report kBoolean.
enum class VariantValueType : uint8_t {
  kNull,
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kDouble,
  kDecimal4,
  kDecimal8,
  kDecimal16,
  kDate,
  kTimestampMicros,
  kTimestampNtzMicros,
  kFloat,
  kBinary,
  kString,
  kTimeNtzMicros,
  kTimestampNanos,
  kTimestampNtzNanos,
  kUuid,
  kObject,
  kArray,
};

/// Lowercase name of a type ("int32", "timestamp_ntz_nanos", "object"...).
PARQUETRY_API const char* variant_type_name(VariantValueType type);

/// A decimal of any of the three widths: value = unscaled / 10^scale.
struct VariantDecimal {
  __int128 unscaled = 0;
  uint8_t scale = 0;  ///< 0..38
  friend bool operator==(const VariantDecimal&, const VariantDecimal&) = default;
};

/// The key dictionary. Trivially copyable (a pointer, a length and parsed
/// header fields).
class PARQUETRY_API VariantMetadata {
 public:
  /// The empty dictionary `01 00 00`.
  VariantMetadata();
  /// Parses the header and checks that the offset table and the string bytes
  /// it announces lie inside `bytes`. Trailing bytes after the encoded
  /// metadata are allowed (see encoded_size()), which lets a caller split a
  /// concatenated metadata+value buffer.
  explicit VariantMetadata(std::span<const uint8_t> bytes);

  /// Full check: offsets start at 0 and never decrease, every key is UTF-8,
  /// and with sorted_strings set the keys are strictly ascending.
  void validate() const;

  /// Number of keys.
  uint32_t size() const { return dictionary_size_; }
  bool sorted_strings() const { return sorted_; }
  /// Bytes per offset (1..4).
  int offset_size() const { return offset_size_; }
  /// Length of the encoded metadata (header, offsets and strings).
  size_t encoded_size() const { return size_t(strings_ - data_) + strings_size_; }
  std::span<const uint8_t> bytes() const { return {data_, encoded_size()}; }

  /// Key `id`; throws kCorrupt when id >= size() or its offsets are out of range.
  std::string_view key(uint32_t id) const;
  /// Id of `key`: binary search when sorted_strings is set, else a linear scan
  /// (first match).
  std::optional<uint32_t> find(std::string_view key) const;

 private:
  uint32_t offset_at(uint32_t i) const;

  const uint8_t* data_;
  const uint8_t* offsets_;
  const uint8_t* strings_;
  uint32_t dictionary_size_ = 0;
  uint32_t strings_size_ = 0;
  uint8_t offset_size_ = 1;
  bool sorted_ = false;
};

class VariantObject;
class VariantArray;

/// One value (the whole variant or any nested child) paired with its metadata.
/// The view spans from the value's header byte to the end of the enclosing
/// buffer or container, so `bytes()` may be longer than encoded_size().
class PARQUETRY_API Variant {
 public:
  /// Throws kCorrupt when `value` is empty.
  Variant(const VariantMetadata& metadata, std::span<const uint8_t> value);

  /// Recursively checks the whole value (see the file comment) and the
  /// metadata; also requires that the value ends exactly at the end of the
  /// buffer given to the constructor when `exact_size` is true.
  void validate(int32_t max_depth = kVariantMaxDepth, bool exact_size = false) const;

  const VariantMetadata& metadata() const { return metadata_; }
  /// From the header byte to the end of the enclosing buffer.
  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  /// Exact encoded length of this value, computed from its header (and, for
  /// containers, their last offset). Throws if it does not fit in bytes().
  size_t encoded_size() const;
  /// bytes() trimmed to encoded_size().
  std::span<const uint8_t> encoded_bytes() const { return {data_, encoded_size()}; }

  VariantBasicType basic_type() const { return VariantBasicType(data_[0] & 3); }
  /// The wire primitive id; only meaningful when basic_type() is kPrimitive.
  uint8_t primitive_id() const { return data_[0] >> 2; }
  /// Logical type; throws kUnsupported for an unknown primitive id.
  VariantValueType type() const;

  bool is_null() const { return data_[0] == 0; }
  bool is_object() const { return basic_type() == VariantBasicType::kObject; }
  bool is_array() const { return basic_type() == VariantBasicType::kArray; }
  bool is_string() const {
    return basic_type() == VariantBasicType::kShortString || data_[0] == uint8_t(16 << 2);
  }

  // Typed accessors: each throws kInvalidArgument when the stored type differs
  // (no implicit conversions except where noted) and kCorrupt when the
  // payload is truncated.
  bool get_boolean() const;
  int8_t get_int8() const;
  int16_t get_int16() const;
  int32_t get_int32() const;
  int64_t get_int64() const;
  /// Any of int8/16/32/64, widened.
  int64_t get_int() const;
  double get_double() const;
  float get_float() const;
  /// decimal4, decimal8 or decimal16; kCorrupt when the scale exceeds 38.
  VariantDecimal get_decimal() const;
  /// Days since 1970-01-01.
  int32_t get_date() const;
  /// Microseconds since the epoch, UTC (id 12).
  int64_t get_timestamp_micros() const;
  /// Microseconds since the epoch, no time zone (id 13).
  int64_t get_timestamp_ntz_micros() const;
  /// Nanoseconds since the epoch, UTC (id 18).
  int64_t get_timestamp_nanos() const;
  /// Nanoseconds since the epoch, no time zone (id 19).
  int64_t get_timestamp_ntz_nanos() const;
  /// Microseconds since midnight (id 17).
  int64_t get_time_ntz_micros() const;
  /// Short or long string, zero-copy. UTF-8 is checked by validate(), not here.
  std::string_view get_string() const;
  std::span<const uint8_t> get_binary() const;
  /// The 16 bytes in the stored (big-endian, RFC 4122) order.
  std::span<const uint8_t, 16> get_uuid() const;

  /// Object view; throws kInvalidArgument when this is not an object.
  VariantObject get_object() const;
  /// Array view; throws kInvalidArgument when this is not an array.
  VariantArray get_array() const;
  /// Field `key` of an object (see VariantObject::find); nullopt when absent or when
  /// this is not an object.
  std::optional<Variant> get_field(std::string_view key) const;
  /// Element `index` of an array; nullopt when out of range or not an array.
  std::optional<Variant> get_element(uint32_t index) const;

 private:
  friend class VariantObject;
  friend class VariantArray;
  Variant(const VariantMetadata& metadata, const uint8_t* data, size_t size)
      : metadata_(metadata), data_(data), size_(size) {}
  const uint8_t* payload(VariantPrimitive id, size_t n) const;
  void validate_at(int32_t depth_left) const;

  VariantMetadata metadata_;
  const uint8_t* data_;
  size_t size_;
};

/// An object: fields in ascending key order.
class PARQUETRY_API VariantObject {
 public:
  /// Parses the header; checks that the id and offset tables and the data size
  /// announced by the last offset fit in `value`.
  explicit VariantObject(const Variant& value);

  uint32_t size() const { return num_elements_; }
  bool empty() const { return num_elements_ == 0; }
  uint32_t field_id(uint32_t i) const;
  /// Key of field i (dictionary lookup).
  std::string_view key(uint32_t i) const { return metadata_.key(field_id(i)); }
  /// Value of field i.
  Variant value(uint32_t i) const;
  /// Field by name: a linear scan comparing lengths first for up to 8 fields,
  /// else a binary search over the key order.
  std::optional<Variant> find(std::string_view key) const;
  /// Field whose dictionary id is `id`, for callers that resolved a key to its
  /// id once (VariantMetadata::find) and look it up in many objects sharing
  /// that metadata: integer compares instead of key compares. With
  /// sorted_strings set, ids ascend with the keys and the id list is binary
  /// searched; otherwise it is scanned (prefer find() on large objects then).
  /// Only exact when the key occurs once in the dictionary, which sorted
  /// dictionaries guarantee.
  std::optional<Variant> find_id(uint32_t id) const;
  /// Bytes from the header to the end of the last child.
  size_t encoded_size() const { return size_t(data_ - start_) + data_size_; }
  int id_size() const { return id_size_; }
  int offset_size() const { return offset_size_; }
  bool is_large() const { return (start_[0] >> 6) & 1; }

  struct Field {
    std::string_view key;
    Variant value;
  };
  Field field(uint32_t i) const { return {key(i), value(i)}; }

  class Iterator {
   public:
    Iterator(const VariantObject* object, uint32_t i) : object_(object), i_(i) {}
    Field operator*() const { return object_->field(i_); }
    Iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const Iterator& other) const { return i_ == other.i_; }

   private:
    const VariantObject* object_;
    uint32_t i_;
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, num_elements_}; }

 private:
  friend class Variant;
  uint32_t offset_at(uint32_t i) const;

  VariantMetadata metadata_;
  const uint8_t* start_;
  const uint8_t* ids_;
  const uint8_t* offsets_;
  const uint8_t* data_;
  uint32_t num_elements_;
  uint32_t data_size_;
  uint8_t id_size_;
  uint8_t offset_size_;
};

/// The field with dictionary id `id` of the object encoded at the start of
/// `object`: its bytes from the field's header to the end of the object's
/// data, or an empty span when `object` is not an object or has no such
/// field. For scans that resolved a key to its id once per metadata
/// (VariantMetadata::find) and look it up row after row: working on bytes,
/// they copy no view objects. `ids_ascend` is the metadata's sorted_strings
/// (ids then ascend with the keys and are binary searched; otherwise the id
/// list is scanned). Bounds-checked like VariantObject (kCorrupt).
PARQUETRY_API std::span<const uint8_t> variant_field_bytes_by_id(std::span<const uint8_t> object, uint32_t id,
                                                                 bool ids_ascend);

/// An array.
class PARQUETRY_API VariantArray {
 public:
  /// Parses the header; checks that the offset table and the data size fit.
  explicit VariantArray(const Variant& value);

  uint32_t size() const { return num_elements_; }
  bool empty() const { return num_elements_ == 0; }
  /// Element i; throws kInvalidArgument when i >= size().
  Variant operator[](uint32_t i) const;
  size_t encoded_size() const { return size_t(data_ - start_) + data_size_; }
  int offset_size() const { return offset_size_; }
  bool is_large() const { return (start_[0] >> 4) & 1; }

  class Iterator {
   public:
    Iterator(const VariantArray* array, uint32_t i) : array_(array), i_(i) {}
    Variant operator*() const { return (*array_)[i_]; }
    Iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const Iterator& other) const { return i_ == other.i_; }

   private:
    const VariantArray* array_;
    uint32_t i_;
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, num_elements_}; }

 private:
  friend class Variant;
  uint32_t offset_at(uint32_t i) const;

  VariantMetadata metadata_;
  const uint8_t* start_;
  const uint8_t* offsets_;
  const uint8_t* data_;
  uint32_t num_elements_;
  uint32_t data_size_;
  uint8_t offset_size_;
};

}  // namespace parquetry
