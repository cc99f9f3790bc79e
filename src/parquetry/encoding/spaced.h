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

#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::encoding {

/// `values` holds `dense_count` decoded values at its front and has room for
/// n. Bits [bit_offset, bit_offset + n) of `validity` say which slots are
/// valid; their number must equal dense_count (else kInvalidArgument).
template <typename T>
void expand_spaced(T* values, int64_t n, int64_t dense_count, const uint8_t* validity, int64_t bit_offset) {
  int64_t dense = dense_count;
  for (int64_t i = n - 1; i >= 0; --i) {
    if (bits::get_bit(validity, bit_offset + i)) {
      if (dense == 0) throw_invalid("more valid slots than decoded values");
      values[i] = values[--dense];
    } else {
      std::memset(static_cast<void*>(values + i), 0, sizeof(T));
    }
  }
  if (dense != 0) throw_invalid("fewer valid slots than decoded values");
}

}  // namespace parquetry::encoding
