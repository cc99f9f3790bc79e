// Builds Variant metadata + value bytes (VariantEncoding.md).
//
//   VariantBuilder b;
//   b.start_object();
//   b.field("id");   b.append_int(7);
//   b.field("tags"); b.start_array(); b.append_string("x"); b.finish_array();
//   b.finish_object();
//   write(b.metadata(), b.value());
//   b.clear();  // next row; buffers and the key table keep their capacity
//
// Encoding choices:
//  - offsets, field ids and the dictionary use the smallest width (1-4 bytes)
//    that holds their largest value; `is_large` is set only above 255
//    elements; strings under 64 bytes use the short-string form;
//    append_int() and append_decimal() pick the narrowest type.
//  - object fields are written in the order they were added (child bytes are
//    never reordered) and the id/offset tables are sorted by key bytes, as the
//    spec requires. Duplicate keys: the LAST value added for a key wins; the
//    bytes of earlier values are removed from the object.
//  - the dictionary lists keys in first-use order; sorted_strings is set when
//    that order happens to be strictly ascending (an empty dictionary is
//    written as the canonical `01 00 00`, flag clear).
//
// Two ways to use the dictionary:
//  - per-row metadata: clear() before each row; metadata() then holds only
//    that row's keys;
//  - shared metadata: clear_value() between rows keeps the dictionary, so many
//    values reference one metadata(); keys are only ever appended, so values
//    built earlier stay valid against the final metadata. load_dictionary()
//    starts from an existing metadata so new values reference its ids.
//
// No heap allocation happens in steady state: the value bytes, the open
// container stack, the field table and the key hash table are reused.
// Misuse (a value without field() inside an object, finish without start, a
// second top-level value) throws kInvalidArgument.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parquetry/export.h"
#include "parquetry/variant.h"

namespace parquetry {

class PARQUETRY_API VariantBuilder {
 public:
  VariantBuilder();

  /// Forgets the value and the dictionary (capacity is kept).
  void clear();
  /// Forgets the value only; the dictionary keeps growing across values.
  void clear_value();
  /// Replaces the dictionary with the keys of `metadata`, in its id order
  /// (keys must be unique). Clears the value. Until the next clear(), objects
  /// and arrays whose metadata has the same bytes are copied verbatim by
  /// append_variant() (no re-encoding).
  void load_dictionary(const VariantMetadata& metadata);
  /// Interns `key`; returns its id.
  uint32_t add_key(std::string_view key);
  uint32_t num_keys() const { return uint32_t(key_offsets_.size() - 1); }
  std::string_view key(uint32_t id) const {
    return {key_bytes_.data() + key_offsets_[id], key_offsets_[id + 1] - key_offsets_[id]};
  }

  // Scalars. Each one is the next top-level value, array element, or the
  // value of the field named by the preceding field().
  void append_null();
  void append_boolean(bool value);
  void append_int8(int8_t value);
  void append_int16(int16_t value);
  void append_int32(int32_t value);
  void append_int64(int64_t value);
  /// The narrowest of int8/16/32/64 that holds `value`.
  void append_int(int64_t value);
  void append_double(double value);
  void append_float(float value);
  /// scale must be 0..38 (kInvalidArgument otherwise).
  void append_decimal4(int32_t unscaled, uint8_t scale);
  void append_decimal8(int64_t unscaled, uint8_t scale);
  void append_decimal16(__int128 unscaled, uint8_t scale);
  /// decimal4/8/16 chosen by the precision max(digits of unscaled, scale):
  /// <= 9, <= 18, else 16 bytes (precision above 38 is rejected).
  void append_decimal(VariantDecimal value);
  void append_date(int32_t days_since_epoch);
  void append_timestamp_micros(int64_t micros_utc);
  void append_timestamp_ntz_micros(int64_t micros);
  void append_timestamp_nanos(int64_t nanos_utc);
  void append_timestamp_ntz_nanos(int64_t nanos);
  void append_time_ntz_micros(int64_t micros_since_midnight);
  void append_binary(std::span<const uint8_t> bytes);
  /// Short string below 64 bytes, else the long form. The bytes are not
  /// checked for UTF-8 (the caller's contract).
  void append_string(std::string_view utf8);
  /// Always the long string form (id 16), whatever the length.
  void append_long_string(std::string_view utf8);
  /// The 16 bytes in big-endian (RFC 4122) order.
  void append_uuid(std::span<const uint8_t, 16> bytes);
  /// Copies `value` (any type): scalars byte for byte; objects and arrays
  /// byte for byte when `value`'s metadata is the one given to
  /// load_dictionary() (bounds-checked, not re-validated: validate an
  /// untrusted source first), otherwise rebuilt with keys re-interned into
  /// this builder's dictionary (which also normalizes child order, widths and
  /// duplicate keys).
  void append_variant(const Variant& value, int32_t max_depth = kVariantMaxDepth);

  // Containers.
  void start_object();
  /// Names the next value of the innermost open object.
  void field(std::string_view key);
  void finish_object();
  void start_array();
  void finish_array();

  /// True once a complete top-level value is built.
  bool done() const { return done_; }
  /// The value bytes; kInvalidArgument until done(). The span points into the
  /// builder and stays valid until the next append, clear or clear_value.
  std::span<const uint8_t> value() const;
  /// The metadata bytes for the current dictionary (encoded on demand, cached
  /// until a key is added). The span stays valid until metadata() is called
  /// again after the dictionary changed.
  std::span<const uint8_t> metadata();

 private:
  struct Frame {
    uint32_t start;        // where the container's children begin in value_
    uint32_t first_entry;  // its first entry in entries_
    bool is_object;
    bool field_pending;  // field() was called, its value not yet appended
  };
  struct Entry {
    uint32_t key_id;
    uint32_t offset;  // relative to the frame's start
    uint32_t size;    // filled by finish_object
    uint32_t seq;     // order of addition, for last-wins on duplicate keys
  };

  void begin_value();
  void end_value() {
    if (frames_.empty()) done_ = true;
  }
  uint8_t* extend(size_t n);
  void append_primitive(VariantPrimitive id, const void* payload, size_t n);
  void append_variant_at(const Variant& value, int32_t depth_left);
  uint64_t hash_key(std::string_view key) const;
  /// Key order by unsigned bytes; distinct ids are distinct keys.
  bool key_less(uint32_t a, uint32_t b) const {
    if (key_prefixes_[a] != key_prefixes_[b]) return key_prefixes_[a] < key_prefixes_[b];
    return key(a) < key(b);
  }
  void grow_table();

  // Growable bytes that, unlike std::vector, do not zero-fill on growth.
  class ByteBuffer {
   public:
    uint8_t* data() { return data_.get(); }
    const uint8_t* data() const { return data_.get(); }
    size_t size() const { return size_; }
    void clear() { size_ = 0; }
    /// New bytes are uninitialised.
    void resize(size_t n) {
      if (n > capacity_) grow(n);
      size_ = n;
    }

   private:
    void grow(size_t min_capacity);
    std::unique_ptr<uint8_t[]> data_;
    size_t size_ = 0;
    size_t capacity_ = 0;
  };

  ByteBuffer value_;
  std::vector<Frame> frames_;
  std::vector<Entry> entries_;
  std::vector<uint32_t> scratch_;
  bool done_ = false;

  // Dictionary: key i is key_bytes_[key_offsets_[i], key_offsets_[i+1]).
  std::string key_bytes_;
  std::vector<uint32_t> key_offsets_;
  std::vector<uint32_t> key_slots_;     // slot of each key in table_, to clear cheaply
  std::vector<uint64_t> key_prefixes_;  // first 8 key bytes, big-endian, for fast ordering
  std::vector<uint32_t> table_;         // open addressing: id + 1, 0 = empty
  std::vector<uint8_t> metadata_;
  std::vector<uint8_t> loaded_metadata_;  // bytes given to load_dictionary(), for verbatim copies
  bool metadata_valid_ = false;
};

}  // namespace parquetry
