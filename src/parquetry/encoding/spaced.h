// Placing densely decoded values into their slots of a nullable column.
//
// Decoders produce only the non-null values of a page; an Arrow array wants a
// slot per row. expand_spaced() moves the values, in place and back to front,
// to the slots whose validity bit is set and zeroes the null slots (so the
// output is deterministic).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "parquetry/encoding/bit_unpack.h"
#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::encoding {

/// `values` holds `dense_count` decoded values at its front and has room for
/// n. Bits [bit_offset, bit_offset + n) of `validity` say which slots are
/// valid; their number must equal dense_count (else kInvalidArgument). T is
/// trivially copyable (null slots become T{}).
template <typename T>
void expand_spaced(T* values, int64_t n, int64_t dense_count, const uint8_t* validity, int64_t bit_offset) {
  if (count_set_bits(validity, bit_offset, n) != dense_count) {
    throw_invalid("the validity bitmap does not have one valid slot per decoded value");
  }
  int64_t dense = dense_count;
  int64_t end = n;
  // Back to front, 56 slots per step: all-valid steps are one memmove,
  // all-null steps one memset, mixed steps a branch-free select per slot.
  while (end > 0) {
    const int c = int(end < 56 ? end : 56);
    const int64_t start = end - c;
    const uint64_t word = read_bits(validity, bit_offset + start, c);
    if (word == (uint64_t(1) << c) - 1) {
      dense -= c;
      std::memmove(static_cast<void*>(values + start), values + dense, size_t(c) * sizeof(T));
    } else if (word == 0) {
      std::memset(static_cast<void*>(values + start), 0, size_t(c) * sizeof(T));
    } else {
      for (int b = c - 1; b >= 0; --b) {
        const int64_t valid = int64_t((word >> b) & 1);
        // For a null slot i, at most i values remain, so values[dense] is
        // in bounds (and discarded).
        const T x = values[dense - valid];
        values[start + b] = valid ? x : T{};
        dense -= valid;
      }
    }
    end = start;
  }
}

}  // namespace parquetry::encoding
