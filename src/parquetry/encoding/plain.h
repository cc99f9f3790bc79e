// PLAIN encoding (Encoding::PLAIN) for every physical type.
//
// BOOLEAN: bit-packed LSB-first; INT32/INT64/FLOAT/DOUBLE: little-endian
// values back to back; INT96: 12 bytes; FIXED_LEN_BYTE_ARRAY: `width` bytes;
// BYTE_ARRAY: a 4-byte little-endian length followed by the bytes.
//
// Decoders read one page section, possibly over several calls, and write
// Arrow layouts: plain arrays for fixed-width values, a validity-style bitmap
// or bytes for booleans, offsets + data (32- or 64-bit offsets) or
// (pointer, length) views into the page for byte arrays. Asking for more
// values than the section holds, or a byte-array length running past the
// end, throws kCorrupt. After an exception the output buffers hold a partial,
// meaningless tail and the decoder must be reset.
#pragma once

#include <cstdint>
#include <span>

#include "parquetry/util/buffer.h"

namespace parquetry::encoding {

/// A byte array inside a page (or a dictionary): no copy, valid as long as
/// the page buffer lives.
struct ByteArrayView {
  const uint8_t* data = nullptr;
  uint32_t length = 0;
};

class PlainDecoder {
 public:
  PlainDecoder() = default;
  explicit PlainDecoder(std::span<const uint8_t> data) { reset(data); }
  void reset(std::span<const uint8_t> data);

  /// Copies n values of `width` bytes (INT32 4, INT64 8, INT96 12, FLOAT 4,
  /// DOUBLE 8, FIXED_LEN_BYTE_ARRAY its type length) into `out`.
  void decode_fixed(int width, void* out, int64_t n);
  template <typename T>
  void decode(T* out, int64_t n) {
    decode_fixed(int(sizeof(T)), out, n);
  }

  /// BOOLEAN as one byte (0 or 1) per value.
  void decode_booleans(uint8_t* out, int64_t n);
  /// BOOLEAN into bits [bit_offset, bit_offset + n) of an Arrow boolean bitmap.
  void decode_boolean_bitmap(uint8_t* bitmap, int64_t bit_offset, int64_t n);

  /// BYTE_ARRAY to Arrow binary: appends n offsets to `offsets` (int32; an
  /// empty buffer first receives the leading 0, otherwise its last offset must
  /// equal data.size()) and the bytes to `data`. Data growing past 2^31 - 1
  /// bytes throws kLimitExceeded.
  void decode_byte_arrays(Buffer& offsets, Buffer& data, int64_t n);
  /// As decode_byte_arrays with int64 offsets (Arrow large binary).
  void decode_byte_arrays_large(Buffer& offsets, Buffer& data, int64_t n);
  /// BYTE_ARRAY as views pointing into the page (zero copy).
  void decode_byte_array_views(ByteArrayView* out, int64_t n);

  void skip_fixed(int width, int64_t n);
  void skip_booleans(int64_t n);
  void skip_byte_arrays(int64_t n);

  /// Bytes of the section consumed so far (a partly read boolean byte counts).
  int64_t bytes_consumed() const { return (pos_ - begin_) + ((bit_pos_ + 7) >> 3); }
  int64_t bytes_remaining() const { return end_ - pos_; }

 private:
  template <typename Offset>
  void decode_byte_arrays_impl(Buffer& offsets, Buffer& data, int64_t n);
  void need_booleans(int64_t n) const;

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int64_t bit_pos_ = 0;  // booleans: bits consumed past pos_
};

/// Appends n values of `width` bytes each.
void plain_encode_fixed(const void* values, int width, int64_t n, Buffer& out);
template <typename T>
void plain_encode(const T* values, int64_t n, Buffer& out) {
  plain_encode_fixed(values, int(sizeof(T)), n, out);
}
/// Appends n byte arrays given as Arrow offsets (n + 1 entries) into `data`.
/// Decreasing offsets or a value of 4 GiB or more throw kInvalidArgument.
void plain_encode_byte_arrays(const int32_t* offsets, const uint8_t* data, int64_t n, Buffer& out);
void plain_encode_byte_arrays(const int64_t* offsets, const uint8_t* data, int64_t n, Buffer& out);
void plain_encode_byte_arrays(const ByteArrayView* values, int64_t n, Buffer& out);

/// PLAIN BOOLEAN encoder: bits accumulate across put calls; flush_to()
/// appends the zero-padded bytes and empties the encoder.
class PlainBooleanEncoder {
 public:
  /// Values given one byte each (non-zero = true).
  void put(const uint8_t* values, int64_t n);
  /// Values given as bits [bit_offset, bit_offset + n) of a bitmap.
  void put_bitmap(const uint8_t* bitmap, int64_t bit_offset, int64_t n);
  void flush_to(Buffer& out);
  void reset();
  int64_t value_count() const { return bit_count_; }
  /// Bytes flush_to() would append now.
  int64_t estimated_size() const { return (bit_count_ + 7) / 8; }

 private:
  Buffer bits_;
  int64_t bit_count_ = 0;
};

}  // namespace parquetry::encoding
