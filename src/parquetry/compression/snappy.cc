// SNAPPY: the raw snappy format (a varint uncompressed length, then tags).
// libsnappy compresses; pages are decoded by snappy_decompress.cc.
#include <snappy.h>

#include <cstdint>
#include <string>

#include "parquetry/compression/codec_impl.h"
#include "parquetry/compression/snappy_decompress.h"
#include "parquetry/error.h"

namespace parquetry::compression_detail {
namespace {

constexpr auto kSnappy = CompressionCodec::SNAPPY;

class SnappyCodec final : public Codec {
 public:
  SnappyCodec() : Codec(kSnappy, 0) {}

  void decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    if (handle_empty_input(kSnappy, input, output)) return;
    // The stream starts with its own uncompressed length; it must agree with
    // the page header before a byte is written.
    uint64_t stated = 0;
    const SnappyStatus status = snappy_decompress(input, output, &stated);
    if (status == SnappyStatus::kLengthMismatch) throw_size_mismatch(kSnappy, size_t(stated), output.size());
    if (status != SnappyStatus::kOk) throw_codec_corrupt(kSnappy, describe(status));
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
