// Small bit and byte helpers shared by every layer.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace parquetry::bits {

constexpr int64_t ceil_div(int64_t value, int64_t divisor) { return (value + divisor - 1) / divisor; }
constexpr int64_t bytes_for_bits(int64_t bits) { return (bits + 7) >> 3; }

inline bool get_bit(const uint8_t* bitmap, int64_t i) { return (bitmap[i >> 3] >> (i & 7)) & 1; }
inline void set_bit(uint8_t* bitmap, int64_t i) { bitmap[i >> 3] |= uint8_t(1u << (i & 7)); }
inline void clear_bit(uint8_t* bitmap, int64_t i) { bitmap[i >> 3] &= uint8_t(~(1u << (i & 7))); }
inline void set_bit_to(uint8_t* bitmap, int64_t i, bool value) {
  bitmap[i >> 3] = uint8_t((bitmap[i >> 3] & ~(1u << (i & 7))) | (uint32_t(value) << (i & 7)));
}

/// Number of bits needed to represent values up to `max_value` (0 -> 0).
constexpr int bit_width(uint64_t max_value) { return max_value == 0 ? 0 : 64 - std::countl_zero(max_value); }

/// Unaligned little-endian load/store (the machine is little-endian; memcpy
/// compiles to a single move).
template <typename T>
inline T load(const void* p) {
  static_assert(std::is_trivially_copyable_v<T>);
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
inline void store(void* p, T v) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::memcpy(p, &v, sizeof(T));
}

/// Bits [start, start + n) of `bitmap` (n in 1..64) as a word, bit 0 = bit
/// `start`; reads only the bytes holding those bits. A null bitmap reads as
/// all ones (every row valid / selected).
inline uint64_t word_at(const uint8_t* bitmap, int64_t start, int64_t n) {
  const uint64_t mask = n >= 64 ? ~uint64_t(0) : ((uint64_t(1) << n) - 1);
  if (bitmap == nullptr) return mask;
  const uint8_t* first = bitmap + (start >> 3);
  const int shift = int(start & 7);
  if (shift == 0 && n == 64) return load<uint64_t>(first);
  const int64_t bytes = (shift + n + 7) >> 3;  // 1..9
  uint64_t low = 0;
  std::memcpy(&low, first, size_t(bytes < 8 ? bytes : 8));
  uint64_t word = low >> shift;
  if (bytes == 9) word |= uint64_t(first[8]) << (64 - shift);
  return word & mask;
}

static_assert(std::endian::native == std::endian::little, "parquetry assumes a little-endian machine");

}  // namespace parquetry::bits
