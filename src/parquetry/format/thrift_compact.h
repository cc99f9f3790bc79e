// The Thrift compact protocol, reading and writing, by hand.
//
// Wire format facts (from the Thrift compact protocol specification):
// - integers i16/i32/i64 are zigzag-encoded ULEB128 varints; i8 is one raw byte;
//   doubles are 8 little-endian bytes; binary/string is a varint length + bytes.
// - a struct is a sequence of field headers + values ended by a 0 (STOP) byte.
//   A field header byte holds (id delta << 4) | type when the delta to the
//   previous field id is 1..15, else the type alone followed by the zigzag
//   i16 field id. Bool fields carry their value in the type (1 true, 2 false).
// - a list/set header byte holds (size << 4) | element type when size < 15,
//   else 0xF0 | element type followed by a varint size. Bool elements are one
//   byte each. A map header is a varint size, then (key type << 4 | value
//   type) when the size is not 0.
//
// The reader checks every length against the remaining input and
// parquetry::Limits, and tracks nesting depth so that hostile input cannot
// recurse without bound. Errors are kCorrupt / kLimitExceeded naming the
// byte offset within the decoded buffer.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "parquetry/error.h"
#include "parquetry/limits.h"
#include "parquetry/util/buffer.h"

namespace parquetry::thrift {

/// Compact protocol type codes.
enum CType : uint8_t {
  kStop = 0,
  kTrue = 1,
  kFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

struct FieldHeader {
  uint8_t type = kStop;
  int16_t id = 0;
};

struct ListHeader {
  uint8_t element_type = 0;
  uint32_t size = 0;
};

class CompactReader {
 public:
  CompactReader(std::span<const uint8_t> bytes, const Limits& limits)
      : begin_(bytes.data()), p_(bytes.data()), end_(bytes.data() + bytes.size()), limits_(limits) {}

  size_t position() const { return static_cast<size_t>(p_ - begin_); }
  /// The next `n` bytes, or nullptr when fewer remain (for fast paths that
  /// recognise a common byte pattern before falling back to the general code).
  const uint8_t* peek(size_t n) const { return remaining() >= n ? p_ : nullptr; }
  void consume(size_t n) { p_ += n; }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  const Limits& limits() const { return limits_; }

  // Error paths live out of line (thrift_compact.cc) so that the hot
  // readers below stay small enough to inline everywhere.
  [[noreturn, gnu::cold, gnu::noinline]] void fail(const char* message) const;
  [[noreturn, gnu::cold, gnu::noinline]] void fail(const std::string& message) const;
  [[noreturn, gnu::cold, gnu::noinline]] void fail_with_number(const char* message, uint64_t number) const;
  [[noreturn, gnu::cold, gnu::noinline]] void fail_depth() const;
  [[noreturn, gnu::cold, gnu::noinline]] void fail_string_limit(uint64_t size) const;
  [[noreturn, gnu::cold, gnu::noinline]] void fail_container_limit(uint64_t size) const;

  /// Struct/container nesting bookkeeping.
  [[gnu::always_inline]] void enter() {
    if (++depth_ > limits_.max_nesting_depth) [[unlikely]]
      fail_depth();
  }
  [[gnu::always_inline]] void leave() { --depth_; }

  [[gnu::always_inline]] uint64_t read_varint() {
    if (p_ < end_ && *p_ < 0x80) [[likely]]
      return *p_++;
#if defined(__BMI2__)
    // Footer offsets and sizes are mostly 2-5 byte varints: with 8 bytes
    // readable, find the last byte from the continuation bits and gather the
    // 7-bit groups with one pext instead of a loop of dependent shifts.
    if (remaining() >= 8) [[likely]] {
      uint64_t word;
      std::memcpy(&word, p_, 8);
      uint64_t stops = ~word & 0x8080808080808080ull;
      if (stops != 0) [[likely]] {
        int bits = std::countr_zero(stops) + 1;  // through the last byte's top bit
        p_ += bits / 8;
        return _pext_u64(_bzhi_u64(word, static_cast<unsigned>(bits)), 0x7f7f7f7f7f7f7f7full);
      }
    }
#endif
    return read_varint_slow();
  }

  [[gnu::always_inline]] FieldHeader read_field_header(int16_t& last_id) {
    if (p_ >= end_) [[unlikely]]
      fail("truncated struct (no field header or stop)");
    uint8_t byte = *p_++;
    FieldHeader h;
    h.type = byte & 0x0f;
    if (h.type == kStop) {
      if (byte != 0) [[unlikely]]
        fail("malformed stop byte");
      return h;
    }
    if (h.type > kStruct) [[unlikely]]
      fail_with_number("unknown field type", h.type);
    int delta = byte >> 4;
    if (delta != 0) [[likely]] {
      int id = last_id + delta;
      if (id > INT16_MAX) [[unlikely]]
        fail("field id overflows i16");
      h.id = static_cast<int16_t>(id);
    } else {
      h.id = read_i16();
    }
    last_id = h.id;
    return h;
  }

  int8_t read_byte() {
    if (p_ >= end_) [[unlikely]]
      fail("truncated i8");
    return static_cast<int8_t>(*p_++);
  }
  int16_t read_i16() {
    int32_t v = read_i32();
    if (v < INT16_MIN || v > INT16_MAX) [[unlikely]]
      fail("i16 out of range");
    return static_cast<int16_t>(v);
  }
  [[gnu::always_inline]] int32_t read_i32() {
    uint64_t n = read_varint();
    if (n > 0xffffffffu) [[unlikely]]
      fail("i32 varint out of range");
    uint32_t u = static_cast<uint32_t>(n);
    return static_cast<int32_t>((u >> 1) ^ (~(u & 1) + 1));
  }
  [[gnu::always_inline]] int64_t read_i64() {
    uint64_t u = read_varint();
    return static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
  }
  double read_double() {
    if (remaining() < 8) [[unlikely]]
      fail("truncated double");
    double v;
    std::memcpy(&v, p_, 8);
    p_ += 8;
    return v;
  }
  [[gnu::always_inline]] std::string_view read_binary() {
    uint64_t n = read_varint();
    if (n > static_cast<uint64_t>(limits_.max_thrift_string_size)) [[unlikely]]
      fail_string_limit(n);
    if (n > remaining()) [[unlikely]]
      fail_with_number("string runs past the end; its length is", n);
    std::string_view out(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
    p_ += n;
    return out;
  }
  void read_string(std::string& out) {
    std::string_view v = read_binary();
    out.assign(v.data(), v.size());
  }
  /// Constructs the string in place (cheaper than assigning to an empty one).
  template <typename Optional>
  [[gnu::always_inline]] void read_string_into(Optional& out) {
    std::string_view v = read_binary();
    out.emplace(v.data(), v.size());
  }
  /// A bool that is a list element (one byte: 1 true, anything else false).
  bool read_bool_element() {
    if (p_ >= end_) [[unlikely]]
      fail("truncated bool");
    return *p_++ == kTrue;
  }

  /// Reads a list or set header. Every element takes at least one byte, so a
  /// size above the remaining bytes is corrupt before anything is allocated.
  [[gnu::always_inline]] ListHeader read_list_header() {
    if (p_ >= end_) [[unlikely]]
      fail("truncated list header");
    uint8_t byte = *p_++;
    ListHeader h;
    h.element_type = byte & 0x0f;
    uint64_t size = byte >> 4;
    if (size == 15) size = read_varint();
    check_container_size(size, 1);
    if (h.element_type == kStop || h.element_type > kStruct) {
      if (size != 0) [[unlikely]]
        fail_with_number("unknown list element type", h.element_type);
    }
    h.size = static_cast<uint32_t>(size);
    return h;
  }

  /// Skips one value of `type`; `element` tells whether it sits in a
  /// container (where bools take a byte) or is a struct field (where they
  /// live in the field header).
  void skip(uint8_t type, bool element = false) {
    switch (type) {
      case kTrue:
      case kFalse:
        if (element) advance(1);
        return;
      case kByte: advance(1); return;
      case kI16:
      case kI32:
      case kI64: read_varint(); return;
      case kDouble: advance(8); return;
      case kBinary: read_binary(); return;
      case kList:
      case kSet: {
        enter();
        ListHeader h = read_list_header();
        for (uint32_t i = 0; i < h.size; ++i) skip(h.element_type, true);
        leave();
        return;
      }
      case kMap: {
        enter();
        uint64_t size = read_varint();
        if (size != 0) {
          check_container_size(size, 2);
          if (p_ >= end_) fail("truncated map header");
          uint8_t types = *p_++;
          uint8_t key = types >> 4, value = types & 0x0f;
          if (key == kStop || key > kStruct || value == kStop || value > kStruct)
            fail("unknown map element type");
          for (uint64_t i = 0; i < size; ++i) {
            skip(key, true);
            skip(value, true);
          }
        }
        leave();
        return;
      }
      case kStruct: skip_struct(); return;
      default: fail_with_number("cannot skip unknown type", type);
    }
  }

  void skip_struct() {
    enter();
    int16_t last = 0;
    for (;;) {
      FieldHeader h = read_field_header(last);
      if (h.type == kStop) break;
      skip(h.type);
    }
    leave();
  }

 private:
  void advance(size_t n) {
    if (remaining() < n) [[unlikely]]
      fail("truncated value");
    p_ += n;
  }

  [[gnu::always_inline]] void check_container_size(uint64_t size, uint64_t min_bytes_per_element) {
    if (size > static_cast<uint64_t>(limits_.max_thrift_container_size)) [[unlikely]]
      fail_container_limit(size);
    if (size > remaining() / min_bytes_per_element) [[unlikely]]
      fail_with_number("container runs past the end; its element count is", size);
  }

  [[gnu::noinline]] uint64_t read_varint_slow() {
    // With ten bytes available no per-byte bounds check is needed.
    if (remaining() >= 10) [[likely]] {
      uint64_t result = 0;
      for (int i = 0; i < 9; ++i) {
        uint8_t byte = p_[i];
        result |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
        if (byte < 0x80) {
          p_ += i + 1;
          return result;
        }
      }
      // The tenth byte may only contribute the 64th bit.
      if (p_[9] > 1) fail("varint overflows 64 bits");
      p_ += 10;
      return result | static_cast<uint64_t>(p_[-1]) << 63;
    }
    uint64_t result = 0;
    for (int shift = 0;; shift += 7) {
      if (p_ >= end_) fail("truncated varint");
      uint8_t byte = *p_++;
      if (shift == 63 && byte > 1) fail("varint overflows 64 bits");
      result |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return result;
    }
  }

  const uint8_t* begin_;
  const uint8_t* p_;
  const uint8_t* end_;
  const Limits limits_;  // a copy: readers are often built from a temporary Limits{}
  int depth_ = 0;
};

/// Appends compact-protocol bytes to a Buffer, writing straight into its
/// storage (Buffer::append would re-zero the padding on every byte).
class CompactWriter {
 public:
  explicit CompactWriter(Buffer& out) : out_(out), pos_(out.size()) {}
  CompactWriter(const CompactWriter&) = delete;
  CompactWriter& operator=(const CompactWriter&) = delete;
  /// Sets the buffer's size to what was written.
  ~CompactWriter() { out_.resize(pos_); }

  void put_byte(uint8_t b) {
    ensure(1);
    out_.data()[pos_++] = b;
  }
  void put_varint(uint64_t v) {
    ensure(10);
    uint8_t* d = out_.data() + pos_;
    size_t n = 0;
    while (v >= 0x80) {
      d[n++] = static_cast<uint8_t>(v | 0x80);
      v >>= 7;
    }
    d[n++] = static_cast<uint8_t>(v);
    pos_ += n;
  }
  void put_i32(int32_t v) { put_varint((static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31)); }
  void put_i64(int64_t v) { put_varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void put_double(double v) {
    ensure(8);
    std::memcpy(out_.data() + pos_, &v, 8);
    pos_ += 8;
  }
  void put_binary(std::string_view v) {
    put_varint(v.size());
    ensure(v.size());
    if (!v.empty()) std::memcpy(out_.data() + pos_, v.data(), v.size());
    pos_ += v.size();
  }
  void put_bool_element(bool v) { put_byte(v ? kTrue : kFalse); }

  void list_header(uint8_t element_type, size_t size) {
    if (size < 15) {
      put_byte(static_cast<uint8_t>(size << 4 | element_type));
    } else {
      put_byte(static_cast<uint8_t>(0xf0 | element_type));
      put_varint(size);
    }
  }

  /// A field header; ids must increase within a struct for the short form.
  void field(uint8_t type, int16_t id) {
    int delta = id - last_id_;
    if (delta > 0 && delta <= 15) {
      put_byte(static_cast<uint8_t>(delta << 4 | type));
    } else {
      put_byte(type);
      put_i32(id);
    }
    last_id_ = id;
  }
  void struct_begin() {
    saved_ids_[depth_++] = last_id_;
    last_id_ = 0;
  }
  void struct_end() {
    put_byte(kStop);
    last_id_ = saved_ids_[--depth_];
  }

  void field_bool(int16_t id, bool v) { field(v ? kTrue : kFalse, id); }
  void field_byte(int16_t id, int8_t v) {
    field(kByte, id);
    put_byte(static_cast<uint8_t>(v));
  }
  void field_i16(int16_t id, int16_t v) {
    field(kI16, id);
    put_i32(v);
  }
  void field_i32(int16_t id, int32_t v) {
    field(kI32, id);
    put_i32(v);
  }
  void field_i64(int16_t id, int64_t v) {
    field(kI64, id);
    put_i64(v);
  }
  void field_double(int16_t id, double v) {
    field(kDouble, id);
    put_double(v);
  }
  void field_binary(int16_t id, std::string_view v) {
    field(kBinary, id);
    put_binary(v);
  }
  void field_struct_begin(int16_t id) {
    field(kStruct, id);
    struct_begin();
  }
  /// An empty struct as a field (the members of unions of empty structs).
  void field_empty_struct(int16_t id) {
    field(kStruct, id);
    put_byte(kStop);
  }
  void field_list(int16_t id, uint8_t element_type, size_t size) {
    field(kList, id);
    list_header(element_type, size);
  }

 private:
  void ensure(size_t n) {
    if (pos_ + n > out_.capacity()) {
      out_.resize(pos_);
      out_.reserve(std::max(out_.capacity() * 2, pos_ + n + 256));
    }
  }

  Buffer& out_;
  size_t pos_;
  int16_t last_id_ = 0;
  int depth_ = 0;
  std::array<int16_t, 32> saved_ids_{};
};

}  // namespace parquetry::thrift
