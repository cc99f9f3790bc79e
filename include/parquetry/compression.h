// Compression codecs and their levels, as a writer's options name them.
//
// The codec machinery itself (src/parquetry/compression/codec.h) is internal;
// this header holds what a user chooses: which codec, at which level.
//
// Default levels, and why (numbers: bench_compression, 1 MiB pages of
// doubles / strings, one core of the shared dev machine):
//   GZIP    6   the level zlib and every gzip tool default to (libdeflate: 0..12);
//               ratio 5.3 / 5.6 at ~75 MB/s (level 1: 4.4 / 4.3 at ~350 MB/s)
//   ZSTD    3   zstd's own default: ratio 5.4 / 5.1 at ~440 MB/s, decoding at
//               ~1.3-1.6 GB/s (any level zstd accepts, ZSTD_minCLevel()..22;
//               0 means 3)
//   BROTLI  5   ratio 5.1 / 5.7 at ~65 MB/s. Brotli only earns its place over
//               zstd by ratio on text; at level 1 (4.96 / 4.66, ~350 MB/s)
//               zstd 3 is both faster and smaller, so a default there would
//               make choosing brotli pointless (0..11; brotli's own default,
//               11, is slower still by orders of magnitude)
//   LZ4_RAW 1   the fast LZ4 compressor (levels 1 and 2); 3..12 select LZ4HC
//               at that level
//   LZ4     1   as LZ4_RAW, written with the Hadoop framing
//   SNAPPY, UNCOMPRESSED: no levels; a level given for them is ignored.
//   LZO: neither read nor written (kUnsupported).
#pragma once

#include <climits>

#include "parquetry/export.h"
#include "parquetry/types.h"

namespace parquetry {

/// Pass as a level to mean "this codec's default level" (see the table above).
inline constexpr int kDefaultCompressionLevel = INT_MIN;

/// The level `kDefaultCompressionLevel` stands for (0 for codecs without levels).
PARQUETRY_API int default_compression_level(CompressionCodec codec);

/// Whether pages compressed with `codec` can be read (everything but LZO).
PARQUETRY_API bool can_decompress(CompressionCodec codec);
/// Whether pages can be written with `codec` (everything but LZO).
PARQUETRY_API bool can_compress(CompressionCodec codec);

}  // namespace parquetry
