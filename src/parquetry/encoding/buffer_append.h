// Growth helper for encoders and decoders that append to a parquetry::Buffer.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "parquetry/util/buffer.h"

namespace parquetry::encoding {

/// Grows `buffer` by `n` bytes (geometrically, so repeated small appends stay
/// amortised O(1)) and returns a pointer to the new, uninitialised bytes.
inline uint8_t* extend(Buffer& buffer, size_t n) {
  size_t old = buffer.size();
  if (old + n > buffer.capacity()) buffer.reserve(std::max(old + n, buffer.capacity() * 2));
  buffer.resize(old + n);
  return buffer.data() + old;
}

/// Ensures room for `n` more bytes without changing the size.
inline void reserve_more(Buffer& buffer, size_t n) {
  size_t need = buffer.size() + n;
  if (need > buffer.capacity()) buffer.reserve(std::max(need, buffer.capacity() * 2));
}

}  // namespace parquetry::encoding
