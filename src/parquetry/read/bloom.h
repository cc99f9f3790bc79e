// Internal: split-block Bloom filter probes that read only the header and the
// one 32-byte block a value hashes to.
#pragma once

#include <cstdint>
#include <string_view>

#include "parquetry/io.h"
#include "parquetry/metadata.h"

namespace parquetry {

/// xxhash64 (seed 0) of a PLAIN-encoded value, as Bloom filters hash it.
uint64_t bloom_hash(std::string_view plain_value);

/// True when the filter bitset (num_bytes, a multiple of 32) has every bit
/// of `hash` set in its block.
bool bloom_block_contains(const uint8_t* block, uint64_t hash);

class ModuleCrypto;

/// Probes the chunk's filter for `hash`; false proves the value absent.
/// Adds the bytes it read to *bytes_read. True (maybe present) when the chunk
/// has no usable filter. With `crypto` (an encrypted chunk) the header and
/// the bitset are encrypted modules: both are read whole and decrypted.
bool bloom_might_contain(RandomAccessSource& source, const ColumnMetaData& chunk, uint64_t hash,
                         int64_t* bytes_read, const ModuleCrypto* crypto = nullptr);

}  // namespace parquetry
