// Value decoding of one page section into the dense layout of ChunkValues.
// Dispatch happens once per page; the loops inside are per type and width.
#pragma once

#include <cstdint>
#include <span>

#include "parquetry/column/chunk_decoder.h"

namespace parquetry {

/// Decodes `count` PLAIN values, appending to `values` (and `offsets` for
/// byte arrays; booleans are written at bit `values_so_far`). Returns the
/// bytes consumed.
size_t decode_plain(const LeafSpec& spec, std::span<const uint8_t> data, int64_t count, Buffer& values,
                    Buffer* offsets, int64_t values_so_far);

/// Appends dictionary entries `indices[0..count)`; every index is checked
/// against `dictionary_size` first.
void gather(const LeafSpec& spec, const uint32_t* indices, int64_t count, const Buffer& dictionary_values,
            const Buffer& dictionary_offsets, int64_t dictionary_size, Buffer& values, Buffer* offsets,
            int64_t values_so_far);

/// The other encodings: RLE booleans, the DELTA family, BYTE_STREAM_SPLIT.
void decode_other(const LeafSpec& spec, Encoding encoding, std::span<const uint8_t> data, int64_t count,
                  Buffer& values, Buffer* offsets, int64_t values_so_far, Buffer& scratch);

}  // namespace parquetry
