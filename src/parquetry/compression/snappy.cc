// SNAPPY: the raw snappy format (a varint uncompressed length, then tags).
#include <snappy.h>

#include <cstdint>
#include <string>

#include "parquetry/compression/codec_impl.h"
#include "parquetry/error.h"

namespace parquetry::compression_detail {
namespace {

constexpr auto kSnappy = CompressionCodec::SNAPPY;

class SnappyCodec final : public Codec {
 public:
  SnappyCodec() : Codec(kSnappy, 0) {}

  void decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    if (handle_empty_input(kSnappy, input, output)) return;
    const auto* in = reinterpret_cast<const char*>(input.data());
    // The stream starts with its own uncompressed length; it must agree with
    // the page header before snappy writes a byte.
    size_t stated = 0;
    if (!snappy::GetUncompressedLength(in, input.size(), &stated)) {
      throw_codec_corrupt(kSnappy, "invalid uncompressed length prefix");
    }
    if (stated != output.size()) throw_size_mismatch(kSnappy, stated, output.size());
    if (!snappy::RawUncompress(in, input.size(), reinterpret_cast<char*>(output_pointer(output)))) {
      throw_codec_corrupt(kSnappy, "malformed compressed data");
    }
  }

  size_t compress(std::span<const uint8_t> input, Buffer& out) override {
    size_t max_len = max_compressed_length(input.size());
    uint8_t* dst = begin_append(out, max_len);
    size_t written = 0;
    snappy::RawCompress(reinterpret_cast<const char*>(input.data()), input.size(),
                        reinterpret_cast<char*>(dst), &written);
    finish_append(out, max_len, written);
    return written;
  }

  size_t max_compressed_length(size_t input_size) const override {
    // The stream's length prefix is a 32-bit varint.
    if (input_size > UINT32_MAX) {
      throw_limit("SNAPPY: cannot compress " + std::to_string(input_size) + " bytes at once (4 GiB at most)");
    }
    return snappy::MaxCompressedLength(input_size);
  }
};

}  // namespace

std::unique_ptr<Codec> make_snappy() { return std::make_unique<SnappyCodec>(); }

}  // namespace parquetry::compression_detail
