#include "parquetry/encoding/byte_stream_split.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "parquetry/encoding/buffer_append.h"
#include "parquetry/error.h"

namespace parquetry::encoding {

namespace {

// Gathers byte k of value i from stream k; K is a compile-time constant for
// the common widths so the inner loop unrolls and vectorises.
template <int K>
void merge_streams(const uint8_t* streams, int64_t stride, int64_t first, int64_t n, uint8_t* out) {
  constexpr int64_t kTile = 64;
  int64_t i = 0;
  for (; i + kTile <= n; i += kTile) {
    for (int k = 0; k < K; ++k) {
      const uint8_t* s = streams + k * stride + first + i;
      uint8_t* o = out + i * K + k;
      for (int64_t j = 0; j < kTile; ++j) o[j * K] = s[j];
    }
  }
  for (; i < n; ++i) {
    for (int k = 0; k < K; ++k) out[i * K + k] = streams[k * stride + first + i];
  }
}

void merge_streams_any(const uint8_t* streams, int width, int64_t stride, int64_t first, int64_t n,
                       uint8_t* out) {
  for (int k = 0; k < width; ++k) {
    const uint8_t* s = streams + k * stride + first;
    for (int64_t i = 0; i < n; ++i) out[i * width + k] = s[i];
  }
}

template <int K>
void split_streams(const uint8_t* in, int64_t n, uint8_t* out) {
  for (int k = 0; k < K; ++k) {
    uint8_t* s = out + k * n;
    for (int64_t i = 0; i < n; ++i) s[i] = in[i * K + k];
  }
}

}  // namespace

void ByteStreamSplitDecoder::reset(std::span<const uint8_t> data, int width) {
  if (width <= 0) throw_invalid("BYTE_STREAM_SPLIT width must be positive");
  if (data.size() % size_t(width) != 0) {
    throw_corrupt("BYTE_STREAM_SPLIT section of " + std::to_string(data.size()) +
                  " bytes is not a multiple of the value width " + std::to_string(width));
  }
  data_ = data.data();
  width_ = width;
  count_ = int64_t(data.size()) / width;
  index_ = 0;
}

int64_t ByteStreamSplitDecoder::decode(void* out, int64_t n) {
  int64_t k = std::min(n, values_left());
  if (k <= 0) return 0;
  uint8_t* o = static_cast<uint8_t*>(out);
  switch (width_) {
    case 2: merge_streams<2>(data_, count_, index_, k, o); break;
    case 4: merge_streams<4>(data_, count_, index_, k, o); break;
    case 8: merge_streams<8>(data_, count_, index_, k, o); break;
    case 16: merge_streams<16>(data_, count_, index_, k, o); break;
    default: merge_streams_any(data_, width_, count_, index_, k, o); break;
  }
  index_ += k;
  return k;
}

int64_t ByteStreamSplitDecoder::skip(int64_t n) {
  int64_t k = std::min(n, values_left());
  if (k <= 0) return 0;
  index_ += k;
  return k;
}

void byte_stream_split_encode(const void* values, int width, int64_t n, Buffer& out) {
  if (width <= 0) throw_invalid("BYTE_STREAM_SPLIT width must be positive");
  if (n <= 0) return;
  const uint8_t* in = static_cast<const uint8_t*>(values);
  uint8_t* dst = extend(out, size_t(n * width));
  switch (width) {
    case 4: split_streams<4>(in, n, dst); return;
    case 8: split_streams<8>(in, n, dst); return;
    default:
      for (int k = 0; k < width; ++k) {
        uint8_t* s = dst + k * n;
        for (int64_t i = 0; i < n; ++i) s[i] = in[i * width + k];
      }
  }
}

void ByteStreamSplitEncoder::put(const void* values, int64_t n) {
  if (n <= 0) return;
  std::memcpy(extend(values_, size_t(n * width_)), values, size_t(n * width_));
}

void ByteStreamSplitEncoder::flush_to(Buffer& out) {
  byte_stream_split_encode(values_.data(), width_, value_count(), out);
  values_.clear();
}

}  // namespace parquetry::encoding
