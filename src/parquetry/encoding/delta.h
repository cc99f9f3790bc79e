// The delta encodings: DELTA_BINARY_PACKED (INT32, INT64),
// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY (BYTE_ARRAY, FLBA).
//
// DELTA_BINARY_PACKED layout (Encodings.md):
//   header: <block size> <miniblocks per block> <total count> <first value (zigzag)>, all ULEB128
//   block:  <min delta (zigzag ULEB128)> <one bit-width byte per miniblock> <miniblocks>
// Each miniblock holds (block size / miniblocks) deltas minus the min delta,
// bit-packed LSB-first. All arithmetic wraps (done on unsigned integers).
// Only the miniblocks that hold values are present in the last block; the
// bit widths of absent miniblocks may be anything and are ignored.
//
// Decoders keep their state between calls, so a page can be decoded in any
// number of batches, and report the bytes they consumed (the byte-array
// encodings place data after the delta-encoded lengths).
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "parquetry/encoding/plain.h"
#include "parquetry/util/buffer.h"

namespace parquetry::encoding {

/// Decoder of DELTA_BINARY_PACKED; T is int32_t or int64_t.
template <typename T>
class DeltaBinaryPackedDecoder {
 public:
  using U = std::make_unsigned_t<T>;
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>);

  DeltaBinaryPackedDecoder() = default;
  explicit DeltaBinaryPackedDecoder(std::span<const uint8_t> data) { reset(data); }

  /// Parses the header. A block size that is not a positive multiple of 128
  /// (or above 2^20), a miniblock size that is not a multiple of 32, or a
  /// truncated header throws kCorrupt.
  void reset(std::span<const uint8_t> data);

  /// The value count declared by the header.
  int64_t total_values() const { return total_; }
  /// Values not yet decoded.
  int64_t values_left() const { return left_; }

  /// Decodes up to n values; returns how many (fewer only at the end).
  int64_t decode(T* out, int64_t n);
  /// Skips up to n values; returns how many.
  int64_t skip(int64_t n);

  /// Bytes consumed so far. Once every value is decoded this is the exact
  /// size of the encoded stream.
  int64_t bytes_consumed() const { return pos_ - begin_; }

 private:
  // Reads the next miniblock's deltas into `dest` (values_per_miniblock_ room).
  void load_miniblock(U* dest);

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int64_t values_per_block_ = 0;
  int64_t miniblocks_ = 0;
  int64_t values_per_miniblock_ = 0;
  int64_t total_ = 0;
  int64_t left_ = 0;
  bool first_pending_ = false;
  U last_ = 0;
  U min_delta_ = 0;
  int64_t miniblock_index_ = 0;  // next miniblock of the current block
  std::vector<uint8_t> widths_;
  std::vector<U> staged_;       // the current miniblock's unpacked deltas
  std::vector<uint64_t> wide_;  // INT32 deltas wider than 32 bits, before truncation
  int64_t staged_pos_ = 0;
  int64_t staged_count_ = 0;
};

extern template class DeltaBinaryPackedDecoder<int32_t>;
extern template class DeltaBinaryPackedDecoder<int64_t>;

/// Encoder of DELTA_BINARY_PACKED with blocks of 128 values in 4 miniblocks
/// of 32. put() may be called any number of times; flush_to() appends the
/// header and blocks and empties the encoder.
template <typename T>
class DeltaBinaryPackedEncoder {
 public:
  using U = std::make_unsigned_t<T>;
  static constexpr int kBlockSize = 128;
  static constexpr int kMiniblocks = 4;
  static constexpr int kMiniblockSize = kBlockSize / kMiniblocks;

  void put(const T* values, int64_t n);
  void flush_to(Buffer& out);
  void reset();
  int64_t value_count() const { return count_; }
  /// An upper bound of the bytes flush_to() would append now: the header,
  /// finished blocks, and the open block at its worst case (its used
  /// miniblocks at full width).
  int64_t estimated_size() const {
    int64_t used = (pending_ + kMiniblockSize - 1) / kMiniblockSize;
    return 40 + int64_t(blocks_.size()) +
           (pending_ == 0 ? 0 : 10 + kMiniblocks + used * kMiniblockSize * int64_t(sizeof(T)));
  }

 private:
  void flush_block();

  int64_t count_ = 0;
  U first_ = 0;
  U last_ = 0;
  U deltas_[kBlockSize] = {};
  int pending_ = 0;
  Buffer blocks_;
};

extern template class DeltaBinaryPackedEncoder<int32_t>;
extern template class DeltaBinaryPackedEncoder<int64_t>;

/// DELTA_LENGTH_BYTE_ARRAY: DELTA_BINARY_PACKED lengths, then all bytes back to back.
class DeltaLengthByteArrayDecoder {
 public:
  /// Decodes the lengths (more than `max_values` of them, a negative length,
  /// or lengths summing past the data throw kCorrupt) and locates the data.
  void reset(std::span<const uint8_t> data, int64_t max_values);
  int64_t total_values() const { return int64_t(lengths_.size()); }
  int64_t values_left() const { return int64_t(lengths_.size()) - index_; }

  /// As PlainDecoder::decode_byte_arrays (int32 offsets); returns the count decoded.
  int64_t decode(Buffer& offsets, Buffer& data, int64_t n);
  int64_t decode_large(Buffer& offsets, Buffer& data, int64_t n);
  /// Views into the page.
  int64_t decode_views(ByteArrayView* out, int64_t n);
  int64_t skip(int64_t n);

  /// Size of the whole encoded stream (lengths and data).
  int64_t bytes_consumed() const { return consumed_; }

 private:
  template <typename Offset>
  int64_t decode_impl(Buffer& offsets, Buffer& data, int64_t n);

  std::vector<int32_t> lengths_;
  const uint8_t* data_ = nullptr;  // bytes of value index_
  int64_t index_ = 0;
  int64_t consumed_ = 0;
};

/// DELTA_BYTE_ARRAY: DELTA_BINARY_PACKED prefix lengths, then the suffixes as
/// DELTA_LENGTH_BYTE_ARRAY. Value i = first prefix_i bytes of value i-1 + suffix i.
class DeltaByteArrayDecoder {
 public:
  /// Counts of prefixes and suffixes must agree and not exceed max_values.
  void reset(std::span<const uint8_t> data, int64_t max_values);
  int64_t total_values() const { return int64_t(prefixes_.size()); }
  int64_t values_left() const { return int64_t(prefixes_.size()) - index_; }

  /// Appends values as Arrow binary (see PlainDecoder::decode_byte_arrays). A
  /// prefix longer than the previous value throws kCorrupt; a batch whose
  /// values total 2^31 bytes or more throws kLimitExceeded.
  int64_t decode(Buffer& offsets, Buffer& data, int64_t n);
  int64_t decode_large(Buffer& offsets, Buffer& data, int64_t n);
  /// FIXED_LEN_BYTE_ARRAY: every value must be `width` bytes.
  int64_t decode_fixed(uint8_t* out, int width, int64_t n);
  int64_t skip(int64_t n);

  int64_t bytes_consumed() const { return consumed_; }

 private:
  // Materialises the next n values (n <= values_left()) through `sink`.
  template <typename Sink>
  void run(int64_t n, Sink&& sink);
  template <typename Offset>
  int64_t decode_impl(Buffer& offsets, Buffer& data, int64_t n);

  std::vector<int32_t> prefixes_;
  DeltaLengthByteArrayDecoder suffixes_;
  std::vector<ByteArrayView> suffix_views_;
  Buffer previous_;  // the last value of the previous batch
  Buffer scratch_;
  int64_t index_ = 0;
  int64_t consumed_ = 0;
};

/// Encoder of DELTA_LENGTH_BYTE_ARRAY.
class DeltaLengthByteArrayEncoder {
 public:
  void put(const ByteArrayView* values, int64_t n);
  void put(const int32_t* offsets, const uint8_t* data, int64_t n);
  void flush_to(Buffer& out);
  void reset();
  int64_t value_count() const { return lengths_.value_count(); }
  /// An upper bound of the bytes flush_to() would append now.
  int64_t estimated_size() const { return lengths_.estimated_size() + int64_t(data_.size()); }

 private:
  DeltaBinaryPackedEncoder<int32_t> lengths_;
  Buffer data_;
};

/// Encoder of DELTA_BYTE_ARRAY (BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY).
class DeltaByteArrayEncoder {
 public:
  void put(const ByteArrayView* values, int64_t n);
  void put(const int32_t* offsets, const uint8_t* data, int64_t n);
  /// FLBA values back to back, `width` bytes each.
  void put_fixed(const uint8_t* values, int width, int64_t n);
  void flush_to(Buffer& out);
  void reset();
  int64_t value_count() const { return prefixes_.value_count(); }
  /// An upper bound of the bytes flush_to() would append now.
  int64_t estimated_size() const { return prefixes_.estimated_size() + suffixes_.estimated_size(); }

 private:
  void put_one(const uint8_t* bytes, int64_t len);

  DeltaBinaryPackedEncoder<int32_t> prefixes_;
  DeltaLengthByteArrayEncoder suffixes_;
  Buffer previous_;
};

}  // namespace parquetry::encoding
