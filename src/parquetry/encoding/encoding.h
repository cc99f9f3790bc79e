// The encoding layer in one include, and which encodings apply to which
// physical types.
//
//   bit_unpack.h         LSB-first pack/unpack kernels, bitmap helpers
//   rle.h                RLE/bit-packed hybrid (levels, booleans, indices), BIT_PACKED levels, level framing
//   plain.h              PLAIN for every physical type
//   dictionary.h         RLE_DICTIONARY / PLAIN_DICTIONARY indices, gather, dictionary builders
//   delta.h              DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY
//   byte_stream_split.h  BYTE_STREAM_SPLIT
//   spaced.h             dense values -> nullable slots
//
// The layer knows nothing of the metadata structs: inputs are the bytes of one
// decompressed page section, outputs are caller arrays or Buffer appends.
#pragma once

#include "parquetry/encoding/bit_unpack.h"
#include "parquetry/encoding/byte_stream_split.h"
#include "parquetry/encoding/delta.h"
#include "parquetry/encoding/dictionary.h"
#include "parquetry/encoding/plain.h"
#include "parquetry/encoding/rle.h"
#include "parquetry/encoding/spaced.h"
#include "parquetry/types.h"

namespace parquetry::encoding {

/// Whether `encoding` may encode the values (not the levels) of a column of
/// physical type `type` (Encodings.md). BIT_PACKED is for levels only and
/// RLE for values only applies to BOOLEAN.
constexpr bool encoding_applies(Encoding encoding, Type type) {
  switch (encoding) {
    case Encoding::PLAIN:
    case Encoding::PLAIN_DICTIONARY:
    case Encoding::RLE_DICTIONARY: return true;
    case Encoding::RLE: return type == Type::BOOLEAN;
    case Encoding::BIT_PACKED: return false;
    case Encoding::DELTA_BINARY_PACKED: return type == Type::INT32 || type == Type::INT64;
    case Encoding::DELTA_LENGTH_BYTE_ARRAY: return type == Type::BYTE_ARRAY;
    case Encoding::DELTA_BYTE_ARRAY: return type == Type::BYTE_ARRAY || type == Type::FIXED_LEN_BYTE_ARRAY;
    case Encoding::BYTE_STREAM_SPLIT:
      return type == Type::FLOAT || type == Type::DOUBLE || type == Type::INT32 || type == Type::INT64 ||
             type == Type::FIXED_LEN_BYTE_ARRAY;
  }
  return false;
}

}  // namespace parquetry::encoding
