#include "parquetry/encoding/bit_unpack.h"

#include <array>
#include <bit>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::encoding {
namespace {

// Value I of a 32-value group of width W, extracted from the group's W
// little-endian 32-bit words. Everything but the loads is a compile-time
// constant, so each value costs a shift, an optional or and a mask.
template <typename T, int W, int I>
inline T extract(const uint32_t* words) {
  constexpr int kBit = I * W;
  constexpr int kWord = kBit / 32;
  constexpr int kShift = kBit % 32;
  uint64_t v = uint64_t(words[kWord]) >> kShift;
  if constexpr (kShift + W > 32) v |= uint64_t(words[kWord + 1]) << (32 - kShift);
  if constexpr (kShift + W > 64) v |= uint64_t(words[kWord + 2]) << (64 - kShift);
  if constexpr (W < 64) v &= (uint64_t(1) << W) - 1;
  return T(v);
}

template <typename T, int W>
inline void unpack_group(const uint8_t* in, T* out) {
  if constexpr (W == 0) {
    for (int i = 0; i < 32; ++i) out[i] = 0;
  } else {
    uint32_t words[W];
    std::memcpy(words, in, sizeof(words));
    [&]<int... I>(std::integer_sequence<int, I...>) { ((out[I] = extract<T, W, I>(words)), ...); }
    (std::make_integer_sequence<int, 32>{});
  }
}

template <typename T, int W, int I>
inline void deposit(const T* in, uint32_t* words) {
  constexpr int kBit = I * W;
  constexpr int kWord = kBit / 32;
  constexpr int kShift = kBit % 32;
  uint64_t v = uint64_t(in[I]);
  if constexpr (W < 64) v &= (uint64_t(1) << W) - 1;
  words[kWord] |= uint32_t(v << kShift);
  if constexpr (kShift + W > 32) words[kWord + 1] |= uint32_t(v >> (32 - kShift));
  if constexpr (kShift + W > 64) words[kWord + 2] |= uint32_t(v >> (64 - kShift));
}

template <typename T, int W>
inline void pack_group(const T* in, uint8_t* out) {
  if constexpr (W != 0) {
    uint32_t words[W] = {};
    [&]<int... I>(std::integer_sequence<int, I...>) { (deposit<T, W, I>(in, words), ...); }
    (std::make_integer_sequence<int, 32>{});
    std::memcpy(out, words, sizeof(words));
  }
}

// Byte b expanded to eight 0/1 bytes, least significant bit first.
constexpr std::array<uint64_t, 256> make_bit_spread() {
  std::array<uint64_t, 256> table{};
  for (int b = 0; b < 256; ++b) {
    for (int i = 0; i < 8; ++i) table[size_t(b)] |= uint64_t((b >> i) & 1) << (8 * i);
  }
  return table;
}
constexpr std::array<uint64_t, 256> kBitSpread = make_bit_spread();

// Byte b expanded to eight 0/1 uint16 values (levels of max level 1).
struct Spread16 {
  uint16_t v[8];
};
constexpr std::array<Spread16, 256> make_bit_spread16() {
  std::array<Spread16, 256> table{};
  for (int b = 0; b < 256; ++b) {
    for (int i = 0; i < 8; ++i) table[size_t(b)].v[i] = uint16_t((b >> i) & 1);
  }
  return table;
}
constexpr std::array<Spread16, 256> kBitSpread16 = make_bit_spread16();

template <typename T, int W>
void unpack_width(const uint8_t* in, T* out, int64_t count) {
  int64_t groups = count / 32;
  if constexpr (std::is_same_v<T, uint8_t> && W == 1) {
    // Booleans and 1-bit levels: one table lookup turns a byte into eight outputs.
    for (int64_t b = 0; b < groups * 4; ++b) std::memcpy(out + b * 8, &kBitSpread[in[b]], 8);
  } else if constexpr (std::is_same_v<T, uint16_t> && W == 1) {
    for (int64_t b = 0; b < groups * 4; ++b) std::memcpy(out + b * 8, kBitSpread16[in[b]].v, 16);
  } else {
    for (int64_t g = 0; g < groups; ++g) unpack_group<T, W>(in + g * 4 * W, out + g * 32);
  }
  int64_t rest = count - groups * 32;
  if (rest != 0) {
    // The last group is partial: stage its bytes in a zeroed copy so the
    // kernel never reads past the input.
    uint8_t staged[4 * W + 4] = {};
    std::memcpy(staged, in + groups * 4 * W, size_t(bits::bytes_for_bits(rest * W)));
    T values[32];
    unpack_group<T, W>(staged, values);
    std::memcpy(out + groups * 32, values, size_t(rest) * sizeof(T));
  }
}

template <typename T, int W>
void pack_width(const T* in, uint8_t* out, int64_t count) {
  int64_t groups = count / 32;
  for (int64_t g = 0; g < groups; ++g) pack_group<T, W>(in + g * 32, out + g * 4 * W);
  int64_t rest = count - groups * 32;
  if (rest != 0) {
    T values[32] = {};
    std::memcpy(values, in + groups * 32, size_t(rest) * sizeof(T));
    uint8_t staged[4 * W + 4];
    pack_group<T, W>(values, staged);
    std::memcpy(out + groups * 4 * W, staged, size_t(bits::bytes_for_bits(rest * W)));
  }
}

template <typename T>
using UnpackFn = void (*)(const uint8_t*, T*, int64_t);
template <typename T>
using PackFn = void (*)(const T*, uint8_t*, int64_t);

template <typename T, int... W>
constexpr std::array<UnpackFn<T>, sizeof...(W)> unpack_table(std::integer_sequence<int, W...>) {
  return {&unpack_width<T, W>...};
}
template <typename T, int... W>
constexpr std::array<PackFn<T>, sizeof...(W)> pack_table(std::integer_sequence<int, W...>) {
  return {&pack_width<T, W>...};
}

template <typename T>
constexpr int kMaxWidth = int(sizeof(T) * 8);

template <typename T>
constexpr auto kUnpackTable = unpack_table<T>(std::make_integer_sequence<int, kMaxWidth<T> + 1>{});
template <typename T>
constexpr auto kPackTable = pack_table<T>(std::make_integer_sequence<int, kMaxWidth<T> + 1>{});

template <typename T>
void check_width(int bit_width) {
  if (bit_width < 0 || bit_width > kMaxWidth<T>) {
    throw_invalid("bit width " + std::to_string(bit_width) + " is outside 0.." +
                  std::to_string(kMaxWidth<T>) + " for this output type");
  }
}

}  // namespace

template <typename T>
void unpack(const uint8_t* in, int bit_width, T* out, int64_t count) {
  check_width<T>(bit_width);
  if (count <= 0) return;
  kUnpackTable<T>[size_t(bit_width)](in, out, count);
}

template <typename T>
void pack(const T* in, int bit_width, uint8_t* out, int64_t count) {
  check_width<T>(bit_width);
  if (count <= 0) return;
  kPackTable<T>[size_t(bit_width)](in, out, count);
}

template void unpack<uint8_t>(const uint8_t*, int, uint8_t*, int64_t);
template void unpack<uint16_t>(const uint8_t*, int, uint16_t*, int64_t);
template void unpack<uint32_t>(const uint8_t*, int, uint32_t*, int64_t);
template void unpack<uint64_t>(const uint8_t*, int, uint64_t*, int64_t);
template void pack<uint8_t>(const uint8_t*, int, uint8_t*, int64_t);
template void pack<uint16_t>(const uint16_t*, int, uint8_t*, int64_t);
template void pack<uint32_t>(const uint32_t*, int, uint8_t*, int64_t);
template void pack<uint64_t>(const uint64_t*, int, uint8_t*, int64_t);

uint64_t read_bits(const uint8_t* src, int64_t bit_pos, int nbits) {
  const uint8_t* p = src + (bit_pos >> 3);
  int shift = int(bit_pos & 7);
  int nbytes = (shift + nbits + 7) >> 3;
  uint64_t v = 0;
  if (nbytes == 8) {
    std::memcpy(&v, p, 8);
  } else {
    for (int i = 0; i < nbytes; ++i) v |= uint64_t(p[i]) << (8 * i);
  }
  v >>= shift;
  return nbits >= 64 ? v : v & ((uint64_t(1) << nbits) - 1);
}

namespace {
// Writes the low `nbits` (<= 57) bits of `v` at bit `bit_pos`, preserving
// neighbouring bits.
inline void write_bits(uint8_t* dst, int64_t bit_pos, uint64_t v, int nbits) {
  uint8_t* p = dst + (bit_pos >> 3);
  int shift = int(bit_pos & 7);
  int nbytes = (shift + nbits + 7) >> 3;
  uint64_t mask = ((uint64_t(1) << nbits) - 1) << shift;
  uint64_t word = 0;
  if (nbytes == 8) {
    std::memcpy(&word, p, 8);
    word = (word & ~mask) | ((v << shift) & mask);
    std::memcpy(p, &word, 8);
  } else {
    for (int i = 0; i < nbytes; ++i) word |= uint64_t(p[i]) << (8 * i);
    word = (word & ~mask) | ((v << shift) & mask);
    for (int i = 0; i < nbytes; ++i) p[i] = uint8_t(word >> (8 * i));
  }
}
}  // namespace

int64_t copy_bits(const uint8_t* src, int64_t src_pos, uint8_t* dst, int64_t dst_pos, int64_t n) {
  int64_t set = 0;
  if (((src_pos | dst_pos) & 7) == 0) {
    // Byte-aligned: bulk copy and count, then the trailing bits.
    int64_t whole = n >> 3;
    const uint8_t* s = src + (src_pos >> 3);
    uint8_t* d = dst + (dst_pos >> 3);
    // memcpy's pointers must be valid even for 0 bytes; an empty output
    // buffer has none.
    if (whole > 0) std::memcpy(d, s, size_t(whole));
    int64_t i = 0;
    for (; i + 8 <= whole; i += 8) set += std::popcount(bits::load<uint64_t>(s + i));
    for (; i < whole; ++i) set += std::popcount(unsigned(s[i]));
    int rest = int(n & 7);
    if (rest != 0) {
      uint64_t v = s[whole] & ((1u << rest) - 1);
      write_bits(d + whole, 0, v, rest);
      set += std::popcount(v);
    }
    return set;
  }
  // Unaligned: move 56 bits per step (56 + 7 shift bits fit one 64-bit word).
  while (n > 0) {
    int k = int(n < 56 ? n : 56);
    uint64_t v = read_bits(src, src_pos, k);
    write_bits(dst, dst_pos, v, k);
    set += std::popcount(v);
    src_pos += k;
    dst_pos += k;
    n -= k;
  }
  return set;
}

void fill_bits(uint8_t* dst, int64_t pos, int64_t n, bool value) {
  if (n <= 0) return;
  int64_t end = pos + n;
  int64_t first_full = (pos + 7) & ~int64_t(7);
  int64_t last_full = end & ~int64_t(7);
  if (first_full >= end || first_full > last_full) {
    // Within one byte.
    uint8_t mask = uint8_t(((1u << (end - pos)) - 1) << (pos & 7));
    uint8_t& b = dst[pos >> 3];
    b = value ? uint8_t(b | mask) : uint8_t(b & ~mask);
    return;
  }
  if (pos != first_full) {
    uint8_t mask = uint8_t(0xff << (pos & 7));
    uint8_t& b = dst[pos >> 3];
    b = value ? uint8_t(b | mask) : uint8_t(b & ~mask);
  }
  std::memset(dst + (first_full >> 3), value ? 0xff : 0, size_t((last_full - first_full) >> 3));
  if (end != last_full) {
    uint8_t mask = uint8_t((1u << (end & 7)) - 1);
    uint8_t& b = dst[end >> 3];
    b = value ? uint8_t(b | mask) : uint8_t(b & ~mask);
  }
}

int64_t count_set_bits(const uint8_t* bitmap, int64_t pos, int64_t n) {
  int64_t set = 0;
  while (n > 0 && (pos & 7) != 0) {
    set += bits::get_bit(bitmap, pos);
    ++pos;
    --n;
  }
  const uint8_t* p = bitmap + (pos >> 3);
  int64_t whole = n >> 3, i = 0;
  for (; i + 8 <= whole; i += 8) set += std::popcount(bits::load<uint64_t>(p + i));
  for (; i < whole; ++i) set += std::popcount(unsigned(p[i]));
  for (int64_t b = whole * 8; b < n; ++b) set += bits::get_bit(p, b);
  return set;
}

}  // namespace parquetry::encoding
