// ULEB128 varints and zigzag, as used by the RLE/bit-packed hybrid run headers
// and the DELTA_BINARY_PACKED headers. Readers are bounds-checked: a varint
// that runs off the end of its input, or that does not fit its target type,
// is corrupt input.
#pragma once

#include <cstdint>
#include <string>

#include "parquetry/error.h"
#include "parquetry/util/buffer.h"

namespace parquetry::encoding {

/// Reads a ULEB128 value of at most `max_bits` significant bits from [*pos, end)
/// and advances *pos. `what` names the field in the error message.
inline uint64_t read_uleb128(const uint8_t*& pos, const uint8_t* end, int max_bits, const char* what) {
  uint64_t result = 0;
  int shift = 0;
  const uint8_t* p = pos;
  while (true) {
    if (p == end) throw_corrupt(std::string("truncated varint for ") + what);
    uint8_t byte = *p++;
    uint64_t bits = byte & 0x7f;
    if (shift >= 64 || (shift > 0 && (bits >> (64 - shift)) != 0)) {
      throw_corrupt(std::string("varint for ") + what + " overflows 64 bits");
    }
    result |= bits << shift;
    shift += 7;
    if ((byte & 0x80) == 0) break;
  }
  if (max_bits < 64 && (result >> max_bits) != 0) {
    throw_corrupt(std::string("varint for ") + what + " does not fit in " + std::to_string(max_bits) +
                  " bits");
  }
  pos = p;
  return result;
}

constexpr int64_t zigzag_decode(uint64_t v) { return int64_t((v >> 1) ^ (~(v & 1) + 1)); }
constexpr uint64_t zigzag_encode(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }

/// Writes `value` as ULEB128 into `out` (at most 10 bytes); returns the byte count.
inline int write_uleb128(uint8_t* out, uint64_t value) {
  int n = 0;
  while (value >= 0x80) {
    out[n++] = uint8_t(value | 0x80);
    value >>= 7;
  }
  out[n++] = uint8_t(value);
  return n;
}

/// Appends `value` as ULEB128 to `out`.
inline void append_uleb128(Buffer& out, uint64_t value) {
  uint8_t tmp[10];
  out.append(tmp, size_t(write_uleb128(tmp, value)));
}

}  // namespace parquetry::encoding
