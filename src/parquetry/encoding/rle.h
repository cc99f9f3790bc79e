// The RLE / bit-packed hybrid (Encoding::RLE): repetition and definition
// levels, RLE booleans and dictionary indices; plus the deprecated BIT_PACKED
// level encoding and the level-section framing of data pages v1 and v2.
//
// Grammar (Encodings.md): a sequence of runs, each a ULEB128 header h.
//   h & 1 == 1: bit-packed run of (h >> 1) * 8 values, (h >> 1) * bit_width bytes, LSB-first;
//   h & 1 == 0: RLE run of (h >> 1) copies of one value stored in ceil(bit_width / 8) bytes.
// The stream carries no value count: the page header says how many values to
// read, and the last bit-packed run may hold padding values beyond it.
#pragma once

#include <cstdint>
#include <span>

#include "parquetry/types.h"
#include "parquetry/util/buffer.h"

namespace parquetry::encoding {

/// Streaming decoder of one RLE/bit-packed hybrid section. Decoding may be
/// split across any number of calls; state is kept between them. Corrupt
/// input (truncated run, overlong header, run value wider than bit_width)
/// throws kCorrupt; running out of runs simply returns fewer values.
class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;
  /// `data` is the encoded runs (no length prefix); bit_width 0..32.
  RleBitPackedDecoder(std::span<const uint8_t> data, int bit_width) { reset(data, bit_width); }

  /// Starts decoding a new section. bit_width > 32 or < 0 throws kCorrupt.
  void reset(std::span<const uint8_t> data, int bit_width);

  /// Decodes up to `n` values into `out`; returns how many were decoded (less
  /// than n only when the data ends). The last bit-packed run may carry up to
  /// 7 padding values, so callers bound n by the count the page header gives.
  /// T is uint8_t (bit_width <= 8), int16_t or uint16_t (<= 16), int32_t or
  /// uint32_t; a bit_width wider than T throws kInvalidArgument.
  template <typename T>
  int64_t decode(T* out, int64_t n);

  /// As decode() for levels, and throws kCorrupt when a level exceeds `max_level`.
  int64_t decode_levels(int16_t* out, int64_t n, int16_t max_level);

  /// Skips up to `n` values; returns how many were skipped.
  int64_t skip(int64_t n);

  /// Decodes only the values at `positions[0..k)`, counted from the current
  /// position and strictly ascending, into `out[0..k)`; the decoder is left
  /// after the last of them. A bit-packed value is read straight from its
  /// bits and the runs in between are stepped over by their headers, so a
  /// sparse selection costs per run and per wanted value, not per value.
  /// Returns how many were decoded (fewer only when the data ends first).
  /// Positions that do not ascend throw kInvalidArgument.
  int64_t decode_at(const uint32_t* positions, int64_t k, uint32_t* out);

  /// Definition levels of a column with max_def_level == 1 (bit_width 1)
  /// straight to an Arrow validity bitmap: writes bits [bit_offset,
  /// bit_offset + returned count) of `bitmap` (1 = defined), other bits are
  /// preserved, and adds the number of nulls to *null_count. Bit-packed runs
  /// are copied bit for bit and RLE runs are filled, so no level is ever
  /// materialised. bit_width other than 1 throws kInvalidArgument.
  int64_t decode_validity(uint8_t* bitmap, int64_t bit_offset, int64_t n, int64_t* null_count) {
    return decode_bitmap(bitmap, bit_offset, n, null_count);
  }
  /// The same for any bit-width-1 stream, e.g. RLE-encoded BOOLEAN values to
  /// an Arrow boolean bitmap; *zero_count receives the number of 0 bits.
  int64_t decode_bitmap(uint8_t* bitmap, int64_t bit_offset, int64_t n, int64_t* zero_count);

  /// Bytes of the input taken by the runs started so far.
  int64_t bytes_consumed() const { return pos_ - begin_; }
  int bit_width() const { return bit_width_; }

 private:
  // Reads the next run header; false when the data is exhausted.
  bool next_run();
  template <typename T>
  int64_t decode_unsigned(T* out, int64_t n);

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int bit_width_ = 0;
  // Current run: RLE (repeat_left_ copies of repeat_value_) or bit-packed
  // (packed_values_ values from packed_start_, packed_pos_ consumed).
  int64_t repeat_left_ = 0;
  uint32_t repeat_value_ = 0;
  const uint8_t* packed_start_ = nullptr;
  int64_t packed_values_ = 0;
  int64_t packed_pos_ = 0;
};

/// Encoder of the RLE/bit-packed hybrid. Runs of 8 or more equal values
/// become RLE runs, everything else is bit-packed in multiples of 8 values
/// (the last group is zero-padded). Reusable through reset().
class RleBitPackedEncoder {
 public:
  explicit RleBitPackedEncoder(int bit_width = 1) { reset(bit_width); }

  /// Drops buffered state and sets the bit width (0..32).
  void reset(int bit_width);

  /// Adds `n` values; each must fit in bit_width bits (higher bits are dropped).
  template <typename T>
  void put(const T* values, int64_t n);
  /// Adds `n` copies of `value`.
  void put_repeated(uint32_t value, int64_t n);

  /// Finishes the stream and appends it to `out`, preceded by its 4-byte
  /// little-endian length when `length_prefix` (data page v1 levels, RLE
  /// booleans). The encoder is then empty and reusable with the same width.
  void flush_to(Buffer& out, bool length_prefix = false);

  /// Values added since the last reset/flush.
  int64_t value_count() const { return value_count_; }
  /// An upper bound of the bytes flush_to() would append now (without prefix),
  /// for page-size decisions without flushing.
  int64_t estimated_size() const;
  /// An upper bound of the encoded size of `n` values at `bit_width`, without prefix.
  static int64_t max_encoded_size(int bit_width, int64_t n);

 private:
  void commit_run();
  template <typename T>
  void stage_literals(const T* values, int64_t n, uint32_t mask);
  void flush_literals(bool final);
  void emit_repeat(uint32_t value, int64_t count);

  int bit_width_ = 1;
  int64_t value_count_ = 0;
  uint32_t run_value_ = 0;
  int64_t run_length_ = 0;
  Buffer literals_;  // uint32 values awaiting bit packing
  int64_t literal_count_ = 0;
  Buffer encoded_;
};

/// Decoder of the deprecated BIT_PACKED level encoding: values packed back to
/// back MSB-first with no header; the section holds
/// bit_packed_levels_size(num_values, bit_width) bytes.
class BitPackedLevelDecoder {
 public:
  BitPackedLevelDecoder() = default;
  BitPackedLevelDecoder(std::span<const uint8_t> data, int bit_width) { reset(data, bit_width); }
  /// bit_width 0..16, else kCorrupt.
  void reset(std::span<const uint8_t> data, int bit_width);
  /// Decodes up to n levels (fewer when the data ends); levels above max_level throw kCorrupt.
  int64_t decode(int16_t* out, int64_t n, int16_t max_level);

 private:
  std::span<const uint8_t> data_;
  int bit_width_ = 0;
  int64_t bit_pos_ = 0;
};

/// Byte size of a BIT_PACKED level section holding `num_values` levels.
constexpr int64_t bit_packed_levels_size(int64_t num_values, int bit_width) {
  return (num_values * bit_width + 7) / 8;
}

/// A section split off the front of a page body.
struct Section {
  std::span<const uint8_t> data;  ///< the section's encoded bytes
  int64_t consumed = 0;           ///< bytes of the page taken, framing included
};

/// Data page v1 levels: the RLE section is preceded by its 4-byte length.
/// Returns the section and checks it lies within `page`.
Section read_length_prefixed(std::span<const uint8_t> page);

/// Levels of one data page, v1 (RLE with length prefix, or BIT_PACKED) or v2
/// (RLE, length from the page header), behind one interface. Dispatch is
/// per call, not per value.
class LevelDecoder {
 public:
  /// v1 page: `encoding` is RLE or BIT_PACKED; reads the section from the
  /// front of `page` for `num_values` levels and returns the bytes it took.
  int64_t reset_v1(Encoding encoding, std::span<const uint8_t> page, int16_t max_level, int64_t num_values);
  /// v2 page: `section` is exactly the level bytes named by the page header.
  void reset_v2(std::span<const uint8_t> section, int16_t max_level);

  /// Decodes up to n levels; returns how many.
  int64_t decode(int16_t* out, int64_t n);
  /// For max_level == 1 with RLE: levels straight to a validity bitmap
  /// (see RleBitPackedDecoder::decode_validity); other cases decode levels in
  /// chunks and set bit i when level i == max_level.
  int64_t decode_validity(uint8_t* bitmap, int64_t bit_offset, int64_t n, int64_t* null_count);

 private:
  bool legacy_ = false;
  int16_t max_level_ = 0;
  RleBitPackedDecoder rle_;
  BitPackedLevelDecoder packed_;
};

}  // namespace parquetry::encoding
