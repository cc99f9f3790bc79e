#include "parquetry/variant_builder.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "parquetry/error.h"
#include "parquetry/variant/variant_internal.h"

namespace parquetry {

using variant_internal::width_for;
using variant_internal::write_le;

namespace {

constexpr uint32_t kInitialTableSize = 64;

int decimal_digits(unsigned __int128 magnitude) {
  int digits = 1;
  while (magnitude >= 10) {
    magnitude /= 10;
    ++digits;
  }
  return digits;
}

void check_scale(uint8_t scale) {
  if (scale > 38) throw_invalid("variant decimal scale " + std::to_string(scale) + " exceeds 38");
}

}  // namespace

VariantBuilder::VariantBuilder() : key_offsets_{0}, table_(kInitialTableSize, 0) {}

void VariantBuilder::clear() {
  clear_value();
  for (uint32_t slot : key_slots_) table_[slot] = 0;
  key_slots_.clear();
  key_prefixes_.clear();
  key_bytes_.clear();
  key_offsets_.resize(1);
  loaded_metadata_.clear();
  metadata_valid_ = false;
}

void VariantBuilder::clear_value() {
  value_.clear();
  frames_.clear();
  entries_.clear();
  done_ = false;
}

void VariantBuilder::load_dictionary(const VariantMetadata& metadata) {
  clear();
  for (uint32_t id = 0; id < metadata.size(); ++id) {
    const std::string_view k = metadata.key(id);
    if (add_key(k) != id)
      throw_invalid("variant metadata to load has the duplicate key \"" + std::string(k) + "\"");
  }
  const auto bytes = metadata.bytes();
  loaded_metadata_.assign(bytes.begin(), bytes.end());
}

uint64_t VariantBuilder::hash_key(std::string_view key) const {
  // 64-bit multiply-xorshift over 8-byte words; keys are short, so this beats
  // a general-purpose hash on latency. The tail is read with plain loads
  // (overlapping where possible) rather than a memcpy into a local, which
  // would stall on store forwarding.
  const char* p = key.data();
  const size_t n = key.size();
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  auto load64 = [](const char* q) {
    uint64_t w;
    std::memcpy(&w, q, 8);
    return w;
  };
  auto load32 = [](const char* q) {
    uint32_t w;
    std::memcpy(&w, q, 4);
    return uint64_t(w);
  };
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    h = (h ^ load64(p + i)) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  uint64_t tail = 0;
  const size_t rest = n - i;
  if (n >= 8) {
    if (rest != 0) tail = load64(p + n - 8);
  } else if (rest >= 4) {
    tail = load32(p) | load32(p + rest - 4) << 32;
  } else if (rest != 0) {
    tail =
        uint64_t(uint8_t(p[0])) | uint64_t(uint8_t(p[rest / 2])) << 8 | uint64_t(uint8_t(p[rest - 1])) << 16;
  }
  h = (h ^ tail) * 0x94D049BB133111EBull;
  h ^= h >> 29;
  return h;
}

void VariantBuilder::grow_table() {
  std::vector<uint32_t> bigger(table_.size() * 2, 0);
  const uint64_t mask = bigger.size() - 1;
  for (uint32_t id = 0; id < num_keys(); ++id) {
    uint64_t slot = hash_key(key(id)) & mask;
    while (bigger[slot] != 0) slot = (slot + 1) & mask;
    bigger[slot] = id + 1;
    key_slots_[id] = uint32_t(slot);
  }
  table_.swap(bigger);
}

uint32_t VariantBuilder::add_key(std::string_view k) {
  const uint64_t mask = table_.size() - 1;
  uint64_t slot = hash_key(k) & mask;
  while (table_[slot] != 0) {
    const uint32_t id = table_[slot] - 1;
    if (key(id) == k) return id;
    slot = (slot + 1) & mask;
  }
  const uint32_t id = num_keys();
  if (key_bytes_.size() + k.size() > 0xFFFFFFFFull || id == 0xFFFFFFFEu) {
    throw_limit("variant dictionary exceeds 4 GiB of keys");
  }
  key_bytes_.append(k);
  key_offsets_.push_back(uint32_t(key_bytes_.size()));
  // First 8 bytes, big-endian, zero-padded: comparing these as integers
  // orders keys like memcmp does on those bytes.
  uint64_t prefix = 0;
  for (size_t i = 0; i < 8; ++i) prefix = prefix << 8 | (i < k.size() ? uint8_t(k[i]) : 0);
  key_prefixes_.push_back(prefix);
  table_[slot] = id + 1;
  key_slots_.push_back(uint32_t(slot));
  metadata_valid_ = false;
  if (uint64_t(num_keys()) * 2 > table_.size()) grow_table();
  return id;
}

std::span<const uint8_t> VariantBuilder::metadata() {
  if (metadata_valid_) return metadata_;
  const uint32_t n = num_keys();
  const uint32_t total = uint32_t(key_bytes_.size());
  const int width = width_for(std::max(n, total));
  // The empty dictionary stays the canonical `01 00 00`.
  bool sorted = n > 0;
  for (uint32_t i = 1; i < n && sorted; ++i) sorted = key(i - 1) < key(i);
  metadata_.resize(1 + size_t(width) * (n + 2) + total);
  uint8_t* p = metadata_.data();
  *p++ = uint8_t(1 | (sorted ? 0x10 : 0) | ((width - 1) << 6));
  write_le(p, n, width);
  p += width;
  for (uint32_t i = 0; i <= n; ++i, p += width) write_le(p, key_offsets_[i], width);
  if (total != 0) std::memcpy(p, key_bytes_.data(), total);
  metadata_valid_ = true;
  return metadata_;
}

std::span<const uint8_t> VariantBuilder::value() const {
  if (!done_) throw_invalid("variant builder has no complete value");
  return {value_.data(), value_.size()};
}

void VariantBuilder::ByteBuffer::grow(size_t min_capacity) {
  const size_t capacity = std::max(min_capacity, std::max<size_t>(capacity_ * 2, 256));
  auto bigger = std::make_unique_for_overwrite<uint8_t[]>(capacity);
  if (size_ != 0) std::memcpy(bigger.get(), data_.get(), size_);
  data_ = std::move(bigger);
  capacity_ = capacity;
}

uint8_t* VariantBuilder::extend(size_t n) {
  const size_t old = value_.size();
  if (old + n > 0xFFFFFFFFull) throw_limit("variant value exceeds 4 GiB");
  value_.resize(old + n);
  return value_.data() + old;
}

void VariantBuilder::begin_value() {
  if (frames_.empty()) {
    if (done_) throw_invalid("variant builder already holds a complete value; call clear_value() first");
    return;
  }
  Frame& frame = frames_.back();
  if (frame.is_object) {
    if (!frame.field_pending) throw_invalid("variant object value appended without a field() name");
    frame.field_pending = false;
    return;
  }
  entries_.push_back({0, uint32_t(value_.size() - frame.start), 0, 0});
}

void VariantBuilder::append_primitive(VariantPrimitive id, const void* payload, size_t n) {
  begin_value();
  uint8_t* p = extend(1 + n);
  p[0] = uint8_t(uint8_t(id) << 2);
  if (n != 0) std::memcpy(p + 1, payload, n);
  end_value();
}

void VariantBuilder::append_null() { append_primitive(VariantPrimitive::kNull, nullptr, 0); }
void VariantBuilder::append_boolean(bool v) {
  append_primitive(v ? VariantPrimitive::kTrue : VariantPrimitive::kFalse, nullptr, 0);
}
void VariantBuilder::append_int8(int8_t v) { append_primitive(VariantPrimitive::kInt8, &v, 1); }
void VariantBuilder::append_int16(int16_t v) { append_primitive(VariantPrimitive::kInt16, &v, 2); }
void VariantBuilder::append_int32(int32_t v) { append_primitive(VariantPrimitive::kInt32, &v, 4); }
void VariantBuilder::append_int64(int64_t v) { append_primitive(VariantPrimitive::kInt64, &v, 8); }

void VariantBuilder::append_int(int64_t v) {
  if (v >= INT8_MIN && v <= INT8_MAX) return append_int8(int8_t(v));
  if (v >= INT16_MIN && v <= INT16_MAX) return append_int16(int16_t(v));
  if (v >= INT32_MIN && v <= INT32_MAX) return append_int32(int32_t(v));
  append_int64(v);
}

void VariantBuilder::append_double(double v) { append_primitive(VariantPrimitive::kDouble, &v, 8); }
void VariantBuilder::append_float(float v) { append_primitive(VariantPrimitive::kFloat, &v, 4); }

void VariantBuilder::append_decimal4(int32_t unscaled, uint8_t scale) {
  check_scale(scale);
  uint8_t payload[5] = {scale};
  std::memcpy(payload + 1, &unscaled, 4);
  append_primitive(VariantPrimitive::kDecimal4, payload, 5);
}

void VariantBuilder::append_decimal8(int64_t unscaled, uint8_t scale) {
  check_scale(scale);
  uint8_t payload[9] = {scale};
  std::memcpy(payload + 1, &unscaled, 8);
  append_primitive(VariantPrimitive::kDecimal8, payload, 9);
}

void VariantBuilder::append_decimal16(__int128 unscaled, uint8_t scale) {
  check_scale(scale);
  uint8_t payload[17] = {scale};
  std::memcpy(payload + 1, &unscaled, 16);
  append_primitive(VariantPrimitive::kDecimal16, payload, 17);
}

void VariantBuilder::append_decimal(VariantDecimal v) {
  check_scale(v.scale);
  const unsigned __int128 magnitude = v.unscaled < 0 ? -static_cast<unsigned __int128>(v.unscaled)
                                                     : static_cast<unsigned __int128>(v.unscaled);
  const int precision = std::max(decimal_digits(magnitude), int(v.scale));
  if (precision <= 9) return append_decimal4(int32_t(v.unscaled), v.scale);
  if (precision <= 18) return append_decimal8(int64_t(v.unscaled), v.scale);
  if (precision <= 38) return append_decimal16(v.unscaled, v.scale);
  throw_invalid("variant decimal precision " + std::to_string(precision) + " exceeds 38");
}

void VariantBuilder::append_date(int32_t days) { append_primitive(VariantPrimitive::kDate, &days, 4); }
void VariantBuilder::append_timestamp_micros(int64_t v) {
  append_primitive(VariantPrimitive::kTimestampMicros, &v, 8);
}
void VariantBuilder::append_timestamp_ntz_micros(int64_t v) {
  append_primitive(VariantPrimitive::kTimestampNtzMicros, &v, 8);
}
void VariantBuilder::append_timestamp_nanos(int64_t v) {
  append_primitive(VariantPrimitive::kTimestampNanos, &v, 8);
}
void VariantBuilder::append_timestamp_ntz_nanos(int64_t v) {
  append_primitive(VariantPrimitive::kTimestampNtzNanos, &v, 8);
}
void VariantBuilder::append_time_ntz_micros(int64_t v) {
  append_primitive(VariantPrimitive::kTimeNtzMicros, &v, 8);
}

void VariantBuilder::append_binary(std::span<const uint8_t> bytes) {
  if (bytes.size() > 0xFFFFFFFFull) throw_limit("variant binary exceeds 4 GiB");
  begin_value();
  uint8_t* p = extend(5 + bytes.size());
  p[0] = uint8_t(uint8_t(VariantPrimitive::kBinary) << 2);
  write_le(p + 1, uint32_t(bytes.size()), 4);
  if (!bytes.empty()) std::memcpy(p + 5, bytes.data(), bytes.size());
  end_value();
}

void VariantBuilder::append_string(std::string_view s) {
  if (s.size() >= 64) return append_long_string(s);
  begin_value();
  uint8_t* p = extend(1 + s.size());
  p[0] = uint8_t(uint8_t(VariantBasicType::kShortString) | (s.size() << 2));
  if (!s.empty()) std::memcpy(p + 1, s.data(), s.size());
  end_value();
}

void VariantBuilder::append_long_string(std::string_view s) {
  if (s.size() > 0xFFFFFFFFull) throw_limit("variant string exceeds 4 GiB");
  begin_value();
  uint8_t* p = extend(5 + s.size());
  p[0] = uint8_t(uint8_t(VariantPrimitive::kString) << 2);
  write_le(p + 1, uint32_t(s.size()), 4);
  if (!s.empty()) std::memcpy(p + 5, s.data(), s.size());
  end_value();
}

void VariantBuilder::append_uuid(std::span<const uint8_t, 16> bytes) {
  append_primitive(VariantPrimitive::kUuid, bytes.data(), 16);
}

void VariantBuilder::start_object() {
  begin_value();
  frames_.push_back({uint32_t(value_.size()), uint32_t(entries_.size()), true, false});
}

void VariantBuilder::field(std::string_view k) {
  if (frames_.empty() || !frames_.back().is_object) throw_invalid("variant field() outside an object");
  Frame& frame = frames_.back();
  if (frame.field_pending) throw_invalid("variant field() called twice without a value");
  const uint32_t id = add_key(k);
  const uint32_t seq = uint32_t(entries_.size() - frame.first_entry);
  entries_.push_back({id, uint32_t(value_.size() - frame.start), 0, seq});
  frame.field_pending = true;
}

void VariantBuilder::start_array() {
  begin_value();
  frames_.push_back({uint32_t(value_.size()), uint32_t(entries_.size()), false, false});
}

void VariantBuilder::finish_object() {
  if (frames_.empty() || !frames_.back().is_object)
    throw_invalid("variant finish_object() without start_object()");
  const Frame frame = frames_.back();
  if (frame.field_pending) throw_invalid("variant object field has no value");
  Entry* entries = entries_.data() + frame.first_entry;
  uint32_t n = uint32_t(entries_.size() - frame.first_entry);
  uint32_t data_size = uint32_t(value_.size() - frame.start);

  // Sizes from the order of addition (children are contiguous in that order).
  for (uint32_t i = 0; i < n; ++i)
    entries[i].size = (i + 1 < n ? entries[i + 1].offset : data_size) - entries[i].offset;

  bool sorted = true;
  for (uint32_t i = 1; i < n && sorted; ++i) sorted = key_less(entries[i - 1].key_id, entries[i].key_id);
  if (!sorted) {
    std::sort(entries, entries + n, [this](const Entry& a, const Entry& b) {
      if (a.key_id == b.key_id) return a.seq < b.seq;
      return key_less(a.key_id, b.key_id);
    });
    // Equal keys have equal ids (the dictionary interns them); keep the last.
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; ++i) {
      if (i + 1 < n && entries[i + 1].key_id == entries[i].key_id) continue;
      entries[kept++] = entries[i];
    }
    if (kept != n) {
      // Drop the overwritten values' bytes: slide the survivors down in
      // their original order.
      n = kept;
      scratch_.resize(n);
      for (uint32_t i = 0; i < n; ++i) scratch_[i] = i;
      std::sort(scratch_.begin(), scratch_.end(),
                [entries](uint32_t a, uint32_t b) { return entries[a].offset < entries[b].offset; });
      uint32_t cursor = 0;
      uint8_t* base = value_.data() + frame.start;
      for (uint32_t i : scratch_) {
        if (entries[i].offset != cursor)
          std::memmove(base + cursor, base + entries[i].offset, entries[i].size);
        entries[i].offset = cursor;
        cursor += entries[i].size;
      }
      data_size = cursor;
      value_.resize(frame.start + size_t(data_size));
    }
  }

  uint32_t max_id = 0;
  for (uint32_t i = 0; i < n; ++i) max_id = std::max(max_id, entries[i].key_id);
  const int id_size = width_for(max_id);
  const int offset_size = width_for(data_size);
  const bool is_large = n > 255;
  const size_t header_size = 1 + (is_large ? 4 : 1) + size_t(n) * id_size + (size_t(n) + 1) * offset_size;
  extend(header_size);
  uint8_t* p = value_.data() + frame.start;
  std::memmove(p + header_size, p, data_size);
  *p++ = uint8_t(uint8_t(VariantBasicType::kObject) | (offset_size - 1) << 2 | (id_size - 1) << 4 |
                 (is_large ? 1 : 0) << 6);
  write_le(p, n, is_large ? 4 : 1);
  p += is_large ? 4 : 1;
  for (uint32_t i = 0; i < n; ++i, p += id_size) write_le(p, entries[i].key_id, id_size);
  for (uint32_t i = 0; i < n; ++i, p += offset_size) write_le(p, entries[i].offset, offset_size);
  write_le(p, data_size, offset_size);

  entries_.resize(frame.first_entry);
  frames_.pop_back();
  end_value();
}

void VariantBuilder::finish_array() {
  if (frames_.empty() || frames_.back().is_object)
    throw_invalid("variant finish_array() without start_array()");
  const Frame frame = frames_.back();
  const Entry* entries = entries_.data() + frame.first_entry;
  const uint32_t n = uint32_t(entries_.size() - frame.first_entry);
  const uint32_t data_size = uint32_t(value_.size() - frame.start);
  const int offset_size = width_for(data_size);
  const bool is_large = n > 255;
  const size_t header_size = 1 + (is_large ? 4 : 1) + (size_t(n) + 1) * offset_size;
  extend(header_size);
  uint8_t* p = value_.data() + frame.start;
  std::memmove(p + header_size, p, data_size);
  *p++ = uint8_t(uint8_t(VariantBasicType::kArray) | (offset_size - 1) << 2 | (is_large ? 1 : 0) << 4);
  write_le(p, n, is_large ? 4 : 1);
  p += is_large ? 4 : 1;
  for (uint32_t i = 0; i < n; ++i, p += offset_size) write_le(p, entries[i].offset, offset_size);
  write_le(p, data_size, offset_size);

  entries_.resize(frame.first_entry);
  frames_.pop_back();
  end_value();
}

void VariantBuilder::append_variant(const Variant& value, int32_t max_depth) {
  if (!loaded_metadata_.empty() && (value.is_object() || value.is_array())) {
    // Same dictionary as the one loaded (ids only ever get appended, so they
    // all still mean the same keys): the encoded bytes are copied as they are.
    const auto m = value.metadata().bytes();
    if (m.size() == loaded_metadata_.size() &&
        std::memcmp(m.data(), loaded_metadata_.data(), m.size()) == 0) {
      const size_t n = value.encoded_size();  // bounds-checked against the source buffer
      begin_value();
      std::memcpy(extend(n), value.bytes().data(), n);
      end_value();
      return;
    }
  }
  append_variant_at(value, max_depth);
}

void VariantBuilder::append_variant_at(const Variant& value, int32_t depth_left) {
  switch (value.basic_type()) {
    case VariantBasicType::kPrimitive:
    case VariantBasicType::kShortString: {
      const size_t n = value.encoded_size();  // bounds- and id-checked
      begin_value();
      uint8_t* p = extend(n);
      std::memcpy(p, value.bytes().data(), n);
      end_value();
      return;
    }
    case VariantBasicType::kObject: {
      if (depth_left <= 0) throw_limit("variant nesting is deeper than the limit");
      const VariantObject object(value);
      start_object();
      for (uint32_t i = 0; i < object.size(); ++i) {
        field(object.key(i));
        append_variant_at(object.value(i), depth_left - 1);
      }
      finish_object();
      return;
    }
    case VariantBasicType::kArray: {
      if (depth_left <= 0) throw_limit("variant nesting is deeper than the limit");
      const VariantArray array(value);
      start_array();
      for (uint32_t i = 0; i < array.size(); ++i) append_variant_at(array[i], depth_left - 1);
      finish_array();
      return;
    }
  }
}

}  // namespace parquetry
