// BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY).
//
// N values of K bytes are stored as K streams of N bytes: stream k holds byte
// k of every value, and the streams follow each other. The section carries
// no count: N is the section size / K, and a size that is not a multiple of
// K is corrupt.
#pragma once

#include <cstdint>
#include <span>

#include "parquetry/util/buffer.h"

namespace parquetry::encoding {

class ByteStreamSplitDecoder {
 public:
  ByteStreamSplitDecoder() = default;
  ByteStreamSplitDecoder(std::span<const uint8_t> data, int width) { reset(data, width); }

  /// `width` is K (4 for FLOAT/INT32, 8 for DOUBLE/INT64, the FLBA length).
  void reset(std::span<const uint8_t> data, int width);
  int64_t total_values() const { return count_; }
  int64_t values_left() const { return count_ - index_; }

  /// Reassembles up to n values of `width` bytes into `out`; returns how many.
  int64_t decode(void* out, int64_t n);
  int64_t skip(int64_t n);
  /// Bytes consumed: the whole section once it is set up.
  int64_t bytes_consumed() const { return count_ * width_; }

 private:
  const uint8_t* data_ = nullptr;
  int width_ = 0;
  int64_t count_ = 0;
  int64_t index_ = 0;
};

/// Appends n values of `width` bytes, split into streams. The writer calls
/// it once per page with all the page's values.
void byte_stream_split_encode(const void* values, int width, int64_t n, Buffer& out);

/// Accumulates values across calls and splits them at flush_to().
class ByteStreamSplitEncoder {
 public:
  explicit ByteStreamSplitEncoder(int width = 4) : width_(width) {}
  void put(const void* values, int64_t n);
  void flush_to(Buffer& out);
  void reset() { values_.clear(); }
  /// Changes the value width; drops buffered values.
  void reset(int width) {
    width_ = width;
    values_.clear();
  }
  int64_t value_count() const { return int64_t(values_.size()) / width_; }
  /// Bytes flush_to() would append now.
  int64_t estimated_size() const { return int64_t(values_.size()); }

 private:
  int width_;
  Buffer values_;
};

}  // namespace parquetry::encoding
