#include "parquetry/encoding/byte_stream_split.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "parquetry/encoding/buffer_append.h"
#include "parquetry/error.h"

namespace parquetry::encoding {

namespace {

// Value i is the little-endian composition of byte i of every stream. Written
// as whole-word shifts and ors (not byte scatters) so compilers vectorise it:
// widen a vector of bytes from each stream, shift, or, store.
template <typename Word>
void merge_words(const uint8_t* streams, int64_t stride, int64_t first, int64_t n, uint8_t* out) {
  constexpr int K = int(sizeof(Word));
  const uint8_t* s[K];
  for (int k = 0; k < K; ++k) s[k] = streams + k * stride + first;
  Word* o = reinterpret_cast<Word*>(out);
  if (reinterpret_cast<uintptr_t>(out) % alignof(Word) != 0) {
    for (int64_t i = 0; i < n; ++i) {
      Word w = 0;
      for (int k = 0; k < K; ++k) w |= Word(s[k][i]) << (8 * k);
      std::memcpy(out + i * K, &w, K);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    Word w = 0;
    for (int k = 0; k < K; ++k) w |= Word(s[k][i]) << (8 * k);
    o[i] = w;
  }
}

// Eight streams: two 32-bit halves vectorise better than one 64-bit chain.
void merge_words8(const uint8_t* streams, int64_t stride, int64_t first, int64_t n, uint8_t* out) {
  const uint8_t* s[8];
  for (int k = 0; k < 8; ++k) s[k] = streams + k * stride + first;
  constexpr int64_t kTile = 256;
  uint32_t lo[kTile], hi[kTile];
  for (int64_t i = 0; i < n; i += kTile) {
    int64_t c = std::min(kTile, n - i);
    for (int64_t j = 0; j < c; ++j) {
      lo[j] = uint32_t(s[0][i + j]) | uint32_t(s[1][i + j]) << 8 | uint32_t(s[2][i + j]) << 16 |
              uint32_t(s[3][i + j]) << 24;
      hi[j] = uint32_t(s[4][i + j]) | uint32_t(s[5][i + j]) << 8 | uint32_t(s[6][i + j]) << 16 |
              uint32_t(s[7][i + j]) << 24;
    }
    uint8_t* o = out + i * 8;
    for (int64_t j = 0; j < c; ++j) {
      uint64_t w = uint64_t(lo[j]) | uint64_t(hi[j]) << 32;
      std::memcpy(o + j * 8, &w, 8);
    }
  }
}

void merge_streams_any(const uint8_t* streams, int width, int64_t stride, int64_t first, int64_t n,
                       uint8_t* out) {
  for (int k = 0; k < width; ++k) {
    const uint8_t* s = streams + k * stride + first;
    for (int64_t i = 0; i < n; ++i) out[i * width + k] = s[i];
  }
}

template <typename Word>
void split_words(const uint8_t* in, int64_t n, uint8_t* out) {
  constexpr int K = int(sizeof(Word));
  uint8_t* s[K];
  for (int k = 0; k < K; ++k) s[k] = out + k * n;
  for (int64_t i = 0; i < n; ++i) {
    Word w;
    std::memcpy(&w, in + i * K, K);
    for (int k = 0; k < K; ++k) s[k][i] = uint8_t(w >> (8 * k));
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
    case 2: merge_words<uint16_t>(data_, count_, index_, k, o); break;
    case 4: merge_words<uint32_t>(data_, count_, index_, k, o); break;
    case 8: merge_words8(data_, count_, index_, k, o); break;
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
    case 4: split_words<uint32_t>(in, n, dst); return;
    case 8: split_words<uint64_t>(in, n, dst); return;
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
