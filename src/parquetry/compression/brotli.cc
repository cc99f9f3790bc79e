// BROTLI (RFC 7932). The brotli decoder has no reset, so each page gets a
// fresh decoder state; it streams into the page buffer with its capacity set
// to the declared size, so output can never run past it.
#include <brotli/decode.h>
#include <brotli/encode.h>

#include <memory>
#include <new>
#include <string>

#include "parquetry/compression/codec_impl.h"
#include "parquetry/error.h"

namespace parquetry::compression_detail {
namespace {

constexpr auto kBrotli = CompressionCodec::BROTLI;

struct DecoderDeleter {
  void operator()(BrotliDecoderState* state) const { BrotliDecoderDestroyInstance(state); }
};

class BrotliCodec final : public Codec {
 public:
  explicit BrotliCodec(int level) : Codec(kBrotli, level) {}

  void decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    if (handle_empty_input(kBrotli, input, output)) return;
    std::unique_ptr<BrotliDecoderState, DecoderDeleter> state(
        BrotliDecoderCreateInstance(nullptr, nullptr, nullptr));
    if (!state) throw std::bad_alloc();
    size_t available_in = input.size();
    const uint8_t* next_in = input.data();
    size_t available_out = output.size();
    uint8_t* next_out = output_pointer(output);
    BrotliDecoderResult result = BrotliDecoderDecompressStream(state.get(), &available_in, &next_in,
                                                               &available_out, &next_out, nullptr);
    switch (result) {
      case BROTLI_DECODER_RESULT_SUCCESS: break;
      case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: throw_output_too_small(kBrotli, output.size());
      case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
        throw_codec_corrupt(kBrotli, "truncated stream (it ends after " +
                                         std::to_string(output.size() - available_out) + " bytes of output)");
      default:
        throw_codec_corrupt(kBrotli, std::string("malformed stream: ") +
                                         BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state.get())));
    }
    if (available_in != 0) {
      throw_codec_corrupt(kBrotli, std::to_string(available_in) + " trailing bytes after the stream");
    }
    if (available_out != 0) throw_size_mismatch(kBrotli, output.size() - available_out, output.size());
  }

  size_t compress(std::span<const uint8_t> input, Buffer& out) override {
    size_t max_len = max_compressed_length(input.size());
    uint8_t* dst = begin_append(out, max_len);
    size_t written = max_len;
    if (!BrotliEncoderCompress(level(), BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, input.size(),
                               input_pointer(input), &written, dst)) {
      finish_append(out, max_len, 0);
      throw Error(ErrorCode::kInternal, "BROTLI: compression failed within its own bound");
    }
    finish_append(out, max_len, written);
    return written;
  }

  size_t max_compressed_length(size_t input_size) const override {
    size_t bound = BrotliEncoderMaxCompressedSize(input_size);
    if (bound == 0) throw_limit("BROTLI: cannot compress " + std::to_string(input_size) + " bytes at once");
    return bound;
  }
};

}  // namespace

std::unique_ptr<Codec> make_brotli(int level) {
  if (level == kDefaultCompressionLevel) level = default_compression_level(kBrotli);
  if (level < BROTLI_MIN_QUALITY || level > BROTLI_MAX_QUALITY) {
    throw_invalid("BROTLI level " + std::to_string(level) + " is outside 0..11");
  }
  return std::make_unique<BrotliCodec>(level);
}

}  // namespace parquetry::compression_detail
