// Bit packing kernels (LSB-first, the order of the RLE/bit-packed hybrid,
// PLAIN booleans and DELTA_BINARY_PACKED miniblocks) and bitmap helpers.
//
// Value i of width w occupies bits [i*w, (i+1)*w) of the input, bit 0 being
// the least significant bit of byte 0. Kernels are specialised per bit width
// and unpack groups of 32 values (exactly 4*w bytes) with compile-time shifts;
// a final partial group goes through a zero-padded local copy.
//
// Memory contract: unpack() reads exactly bytes_for_bits(count * bit_width)
// bytes from `in` and never more, so it is safe on an exact-size input span
// (no padding needed). pack() writes exactly bytes_for_bits(count * bit_width)
// bytes; the unused high bits of the last byte are zero.
#pragma once

#include <cstdint>

namespace parquetry::encoding {

/// Unpacks `count` values of `bit_width` bits into `out`. T is uint8_t,
/// uint16_t, uint32_t or uint64_t and bit_width is 0..8*sizeof(T) (else
/// kInvalidArgument). bit_width 0 yields zeros and reads nothing.
template <typename T>
void unpack(const uint8_t* in, int bit_width, T* out, int64_t count);

/// Packs the low `bit_width` bits of `count` values into `out` (higher bits
/// of each value are ignored). T and bit_width as for unpack().
template <typename T>
void pack(const T* in, int bit_width, uint8_t* out, int64_t count);

/// Reads up to 57 bits (`nbits` <= 57) starting at bit `bit_pos` of `src`;
/// touches only the bytes covering those bits.
uint64_t read_bits(const uint8_t* src, int64_t bit_pos, int nbits);

/// Copies `n` bits from `src` at bit `src_pos` to `dst` at bit `dst_pos`.
/// Reads only the source bytes covering the copied bits; bits of `dst` outside
/// [dst_pos, dst_pos + n) are preserved. Returns the number of set bits copied.
int64_t copy_bits(const uint8_t* src, int64_t src_pos, uint8_t* dst, int64_t dst_pos, int64_t n);

/// Sets bits [pos, pos + n) of `dst` to `value`, preserving the other bits.
void fill_bits(uint8_t* dst, int64_t pos, int64_t n, bool value);

/// Number of set bits in bits [pos, pos + n) of `bitmap`.
int64_t count_set_bits(const uint8_t* bitmap, int64_t pos, int64_t n);

}  // namespace parquetry::encoding
