// ZSTD (RFC 8878). Decompression is one-shot into the page's buffer, so zstd
// uses the output itself as its window and allocates nothing per page; a
// page may hold several frames, which zstd decodes in sequence.
#include <zstd.h>
#include <zstd_errors.h>

#include <new>
#include <string>

#include "parquetry/compression/codec_impl.h"
#include "parquetry/error.h"

namespace parquetry::compression_detail {
namespace {

constexpr auto kZstd = CompressionCodec::ZSTD;

class ZstdCodec final : public Codec {
 public:
  explicit ZstdCodec(int level) : Codec(kZstd, level) {}
  ~ZstdCodec() override {
    ZSTD_freeDCtx(dctx_);
    ZSTD_freeCCtx(cctx_);
  }
  ZstdCodec(const ZstdCodec&) = delete;
  ZstdCodec& operator=(const ZstdCodec&) = delete;

  void decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    if (handle_empty_input(kZstd, input, output)) return;
    if (dctx_ == nullptr) {
      dctx_ = ZSTD_createDCtx();
      if (dctx_ == nullptr) throw std::bad_alloc();
    }
    size_t n = ZSTD_decompressDCtx(dctx_, output_pointer(output), output.size(), input.data(), input.size());
    if (ZSTD_isError(n)) {
      if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall) throw_output_too_small(kZstd, output.size());
      throw_codec_corrupt(kZstd, ZSTD_getErrorName(n));
    }
    if (n != output.size()) throw_size_mismatch(kZstd, n, output.size());
  }

  size_t compress(std::span<const uint8_t> input, Buffer& out) override {
    if (cctx_ == nullptr) {
      cctx_ = ZSTD_createCCtx();
      if (cctx_ == nullptr) throw std::bad_alloc();
      check_compress(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, level()));
    }
    size_t max_len = max_compressed_length(input.size());
    uint8_t* dst = begin_append(out, max_len);
    size_t written = ZSTD_compress2(cctx_, dst, max_len, input_pointer(input), input.size());
    if (ZSTD_isError(written)) {
      finish_append(out, max_len, 0);
      check_compress(written);
    }
    finish_append(out, max_len, written);
    return written;
  }

  size_t max_compressed_length(size_t input_size) const override {
    size_t bound = ZSTD_compressBound(input_size);
    if (ZSTD_isError(bound)) {
      throw_limit("ZSTD: cannot compress " + std::to_string(input_size) + " bytes at once");
    }
    return bound;
  }

 private:
  static void check_compress(size_t code) {
    if (ZSTD_isError(code)) {
      throw Error(ErrorCode::kInternal, std::string("ZSTD: compression failed: ") + ZSTD_getErrorName(code));
    }
  }

  ZSTD_DCtx* dctx_ = nullptr;
  ZSTD_CCtx* cctx_ = nullptr;
};

}  // namespace

std::unique_ptr<Codec> make_zstd(int level) {
  if (level == kDefaultCompressionLevel) level = default_compression_level(kZstd);
  if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
    throw_invalid("ZSTD level " + std::to_string(level) + " is outside " + std::to_string(ZSTD_minCLevel()) +
                  ".." + std::to_string(ZSTD_maxCLevel()));
  }
  return std::make_unique<ZstdCodec>(level);
}

}  // namespace parquetry::compression_detail
