#include "parquetry/compression/codec.h"

#include <cstring>
#include <string>

#include "parquetry/compression/codec_impl.h"
#include "parquetry/error.h"

namespace parquetry {

namespace compression_detail {

void throw_codec_corrupt(CompressionCodec codec, const std::string& what) {
  throw_corrupt(std::string(codec_name(codec)) + ": " + what);
}

void throw_size_mismatch(CompressionCodec codec, size_t actual, size_t declared) {
  throw_codec_corrupt(codec, "page decompresses to " + std::to_string(actual) +
                                 " bytes but its header declares " + std::to_string(declared));
}

void throw_output_too_small(CompressionCodec codec, size_t declared) {
  throw_codec_corrupt(
      codec, "page decompresses to more than the " + std::to_string(declared) + " bytes its header declares");
}

bool handle_empty_input(CompressionCodec codec, std::span<const uint8_t> input, std::span<uint8_t> output) {
  if (!input.empty()) return false;
  if (!output.empty()) {
    throw_codec_corrupt(codec, "empty compressed page body but its header declares " +
                                   std::to_string(output.size()) + " uncompressed bytes");
  }
  return true;
}

namespace {

// Pages stored as they are: the body is the page.
class UncompressedCodec final : public Codec {
 public:
  UncompressedCodec() : Codec(CompressionCodec::UNCOMPRESSED, 0) {}

  void decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    if (input.size() != output.size()) {
      throw_size_mismatch(CompressionCodec::UNCOMPRESSED, input.size(), output.size());
    }
    if (!input.empty()) std::memcpy(output.data(), input.data(), input.size());
  }

  size_t compress(std::span<const uint8_t> input, Buffer& out) override {
    out.append(input.data(), input.size());
    return input.size();
  }

  size_t max_compressed_length(size_t input_size) const override { return input_size; }
};

}  // namespace

std::unique_ptr<Codec> make_uncompressed() { return std::make_unique<UncompressedCodec>(); }

}  // namespace compression_detail

using namespace compression_detail;

int default_compression_level(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::GZIP: return 6;
    case CompressionCodec::ZSTD: return 3;
    case CompressionCodec::BROTLI: return 5;
    case CompressionCodec::LZ4:
    case CompressionCodec::LZ4_RAW: return 1;
    default: return 0;
  }
}

bool can_decompress(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED:
    case CompressionCodec::SNAPPY:
    case CompressionCodec::GZIP:
    case CompressionCodec::BROTLI:
    case CompressionCodec::LZ4:
    case CompressionCodec::ZSTD:
    case CompressionCodec::LZ4_RAW: return true;
    case CompressionCodec::LZO: return false;
  }
  return false;
}

bool can_compress(CompressionCodec codec) { return can_decompress(codec); }

std::unique_ptr<Codec> make_codec(CompressionCodec codec, int level) {
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED: return make_uncompressed();
    case CompressionCodec::SNAPPY: return make_snappy();
    case CompressionCodec::GZIP: return make_gzip(level);
    case CompressionCodec::ZSTD: return make_zstd(level);
    case CompressionCodec::LZ4_RAW: return make_lz4_raw(level);
    case CompressionCodec::LZ4: return make_lz4_hadoop(level);
    case CompressionCodec::BROTLI: return make_brotli(level);
    case CompressionCodec::LZO: throw_unsupported("LZO codec is not supported");
  }
  throw_corrupt("unknown compression codec " + std::to_string(static_cast<int32_t>(codec)));
}

Codec& CodecCache::get(CompressionCodec codec) {
  auto index = static_cast<uint32_t>(codec);
  if (index >= codecs_.size()) {
    throw_corrupt("unknown compression codec " + std::to_string(static_cast<int32_t>(codec)));
  }
  auto& slot = codecs_[index];
  if (!slot) slot = make_codec(codec);
  return *slot;
}

Codec& thread_codec(CompressionCodec codec) {
  static thread_local CodecCache cache;
  return cache.get(codec);
}

std::span<const uint8_t> decompress_page(Codec& codec, std::span<const uint8_t> compressed,
                                         int64_t uncompressed_size, Buffer& scratch, const Limits& limits) {
  if (uncompressed_size < 0) {
    throw_corrupt("negative uncompressed page size " + std::to_string(uncompressed_size));
  }
  if (uncompressed_size > limits.max_page_size) {
    throw_limit("page declares " + std::to_string(uncompressed_size) +
                " uncompressed bytes, more than Limits::max_page_size (" +
                std::to_string(limits.max_page_size) + ")");
  }
  auto size = static_cast<size_t>(uncompressed_size);
  if (codec.kind() == CompressionCodec::UNCOMPRESSED) {
    if (compressed.size() != size) {
      throw_size_mismatch(CompressionCodec::UNCOMPRESSED, compressed.size(), size);
    }
    return compressed;
  }
  scratch.resize(size);
  codec.decompress(compressed, {scratch.data(), size});
  return {scratch.data(), size};
}

}  // namespace parquetry
