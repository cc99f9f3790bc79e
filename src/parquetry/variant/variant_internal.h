// Byte helpers shared by the variant reader, builder and JSON code.
#pragma once

#include <cstdint>
#include <cstring>

#include "parquetry/util/bit_util.h"

namespace parquetry::variant_internal {

/// Unsigned little-endian integer of `width` (1..4) bytes.
inline uint32_t read_le(const uint8_t* p, int width) {
  switch (width) {
    case 1: return p[0];
    case 2: return uint32_t(p[0]) | uint32_t(p[1]) << 8;
    case 3: return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16;
    default: return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  }
}

/// Writes the low `width` (1..4) bytes of `value`, little-endian.
inline void write_le(uint8_t* p, uint32_t value, int width) {
  for (int i = 0; i < width; ++i) p[i] = uint8_t(value >> (8 * i));
}

/// Bytes (1..4) needed to store `value` unsigned.
inline int width_for(uint32_t value) {
  return value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFFFF ? 3 : 4;
}

/// Unaligned little-endian load of a fixed-width value.
using bits::load;

}  // namespace parquetry::variant_internal
