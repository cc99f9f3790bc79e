// One interface over every Parquet compression codec.
//
// Pages are compressed whole and their header states both sizes, so a codec
// decompresses into a caller-provided output of exactly the declared size and
// never writes, or allocates for output, past it: a page whose body inflates
// to more (or fewer) bytes than declared is a kCorrupt error. That bound is
// what defeats decompression bombs; callers check the declared size against
// Limits::max_page_size before sizing the output (decompress_page does both).
//
// A Codec keeps its library contexts (ZSTD_DCtx/CCtx, libdeflate
// (de)compressors, LZ4 states) across calls: create one per column reader or
// writer, or use CodecCache / thread_codec(), and call it once per page. A
// Codec is not thread-safe; use one per thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "parquetry/compression.h"
#include "parquetry/limits.h"
#include "parquetry/types.h"
#include "parquetry/util/buffer.h"

namespace parquetry {

class Codec {
 public:
  virtual ~Codec() = default;

  CompressionCodec kind() const { return kind_; }
  /// The level compress() uses (0 for codecs without levels).
  int level() const { return level_; }

  /// Decompresses `input` into all of `output`; output.size() is the page's
  /// declared uncompressed size. Throws kCorrupt when the input is malformed or
  /// does not decompress to exactly output.size() bytes. Empty input with empty
  /// output succeeds without calling the library.
  virtual void decompress(std::span<const uint8_t> input, std::span<uint8_t> output) = 0;

  /// Appends the compressed form of `input` to `out` and returns its length.
  /// `out` grows by at most max_compressed_length(input.size()) bytes.
  virtual size_t compress(std::span<const uint8_t> input, Buffer& out) = 0;

  /// Upper bound of compress()'s output for `input_size` bytes of input.
  /// Throws kLimitExceeded when the codec cannot compress that much at once.
  virtual size_t max_compressed_length(size_t input_size) const = 0;

 protected:
  Codec(CompressionCodec kind, int level) : kind_(kind), level_(level) {}

 private:
  CompressionCodec kind_;
  int level_;
};

/// Creates a codec. `level` is validated against the codec's range
/// (kInvalidArgument) and ignored by codecs without levels. LZO throws
/// kUnsupported ("LZO codec is not supported"); a value outside the enum
/// throws kCorrupt (it came from a file).
std::unique_ptr<Codec> make_codec(CompressionCodec codec, int level = kDefaultCompressionLevel);

/// Lazily created default-level codecs, one per kind; owned by one reader
/// (or thread). get() is an array lookup after the first call.
class CodecCache {
 public:
  Codec& get(CompressionCodec codec);

 private:
  std::array<std::unique_ptr<Codec>, 8> codecs_;
};

/// This thread's CodecCache entry for `codec` (default level).
Codec& thread_codec(CompressionCodec codec);

/// Decompresses one page body: checks `uncompressed_size` against
/// limits.max_page_size (kLimitExceeded) and for sanity (kCorrupt if
/// negative), then returns the page's bytes. For UNCOMPRESSED pages that is
/// `compressed` itself (no copy, after checking the sizes agree); otherwise
/// `scratch` is resized and filled, and the result points into it.
std::span<const uint8_t> decompress_page(Codec& codec, std::span<const uint8_t> compressed,
                                         int64_t uncompressed_size, Buffer& scratch,
                                         const Limits& limits = {});

}  // namespace parquetry
