// Compression codecs and their levels, as a writer's options name them.
//
// The codec machinery itself (src/parquetry/compression/codec.h) is internal;
// this header holds what a user chooses: which codec, at which level.
//
// Default levels, and why:
//   GZIP    6   the level zlib and every gzip tool default to (libdeflate: 0..12)
//   ZSTD    3   zstd's own default: ~2x snappy's ratio at several hundred MB/s
//               (any level zstd accepts, ZSTD_minCLevel()..22; 0 means 3)
//   BROTLI  5   brotli's own default (11) is ~100x slower to write; 5 keeps
//               most of the ratio at zstd-like speed (0..11)
//   LZ4_RAW 1   the fast LZ4 compressor; 3..12 select LZ4HC at that level
//   LZ4     1   as LZ4_RAW (written with the Hadoop framing)
//   SNAPPY, UNCOMPRESSED: no levels; a level given for them is ignored.
//   LZO: neither read nor written (kUnsupported).
#pragma once

#include <climits>

#include "parquetry/types.h"

namespace parquetry {

/// Pass as a level to mean "this codec's default level" (see the table above).
inline constexpr int kDefaultCompressionLevel = INT_MIN;

/// The level `kDefaultCompressionLevel` stands for (0 for codecs without levels).
int default_compression_level(CompressionCodec codec);

/// Whether pages compressed with `codec` can be read (everything but LZO).
bool can_decompress(CompressionCodec codec);
/// Whether pages can be written with `codec` (everything but LZO).
bool can_compress(CompressionCodec codec);

}  // namespace parquetry
