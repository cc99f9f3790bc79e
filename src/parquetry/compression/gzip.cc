// GZIP (RFC 1952) through libdeflate, which works on whole buffers exactly as
// pages need. A page may hold several concatenated gzip members (the format
// asks readers to accept them); zlib-wrapped deflate (RFC 1950), which some
// writers emitted under the GZIP name, is accepted too.
#include <libdeflate.h>

#include <new>
#include <string>

#include "parquetry/compression/codec_impl.h"
#include "parquetry/error.h"

namespace parquetry::compression_detail {
namespace {

constexpr auto kGzip = CompressionCodec::GZIP;
constexpr int kMinLevel = 0;
constexpr int kMaxLevel = 12;

bool looks_like_zlib(std::span<const uint8_t> input) {
  if (input.size() < 2) return false;
  // RFC 1950: method 8 (deflate), window <= 32 KiB, header checksum.
  return (input[0] & 0x0f) == 8 && (input[0] >> 4) <= 7 && ((input[0] << 8) | input[1]) % 31 == 0;
}

class GzipCodec final : public Codec {
 public:
  explicit GzipCodec(int level) : Codec(kGzip, level) {}
  ~GzipCodec() override {
    if (decompressor_ != nullptr) libdeflate_free_decompressor(decompressor_);
    if (compressor_ != nullptr) libdeflate_free_compressor(compressor_);
  }
  GzipCodec(const GzipCodec&) = delete;
  GzipCodec& operator=(const GzipCodec&) = delete;

  void decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    if (handle_empty_input(kGzip, input, output)) return;
    libdeflate_decompressor* d = decompressor();
    uint8_t* out = output_pointer(output);
    const bool is_gzip = input.size() >= 2 && input[0] == 0x1f && input[1] == 0x8b;
    if (!is_gzip && looks_like_zlib(input)) {
      size_t in_used = 0, out_used = 0;
      check(libdeflate_zlib_decompress_ex(d, input.data(), input.size(), out, output.size(), &in_used,
                                          &out_used),
            0);
      if (in_used != input.size()) {
        throw_codec_corrupt(kGzip,
                            std::to_string(input.size() - in_used) + " trailing bytes after the zlib stream");
      }
      if (out_used != output.size()) throw_size_mismatch(kGzip, out_used, output.size());
      return;
    }
    // One member after another until the input is used up; each member may
    // only fill what the earlier ones left of the declared size.
    size_t in_pos = 0, out_pos = 0;
    while (in_pos < input.size()) {
      size_t in_used = 0, out_used = 0;
      check(libdeflate_gzip_decompress_ex(d, input.data() + in_pos, input.size() - in_pos, out + out_pos,
                                          output.size() - out_pos, &in_used, &out_used),
            in_pos);
      in_pos += in_used;
      out_pos += out_used;
    }
    if (out_pos != output.size()) throw_size_mismatch(kGzip, out_pos, output.size());
  }

  size_t compress(std::span<const uint8_t> input, Buffer& out) override {
    libdeflate_compressor* c = compressor();
    size_t max_len = libdeflate_gzip_compress_bound(c, input.size());
    uint8_t* dst = begin_append(out, max_len);
    const uint8_t* src = input_pointer(input);
    size_t written = libdeflate_gzip_compress(c, src, input.size(), dst, max_len);
    if (written == 0) {
      finish_append(out, max_len, 0);
      throw Error(ErrorCode::kInternal, "GZIP: libdeflate could not compress within its own bound");
    }
    finish_append(out, max_len, written);
    return written;
  }

  size_t max_compressed_length(size_t input_size) const override {
    // libdeflate's bound; a null compressor asks for the bound of any level.
    return libdeflate_gzip_compress_bound(nullptr, input_size);
  }

 private:
  void check(libdeflate_result result, size_t member_offset) {
    switch (result) {
      case LIBDEFLATE_SUCCESS: return;
      case LIBDEFLATE_INSUFFICIENT_SPACE: {
        // Bounded by the declared size: a bomb stops here.
        throw_codec_corrupt(kGzip, "page decompresses to more bytes than its header declares");
      }
      default:
        throw_codec_corrupt(
            kGzip, "malformed compressed data in the member at byte " + std::to_string(member_offset));
    }
  }

  libdeflate_decompressor* decompressor() {
    if (decompressor_ == nullptr) {
      decompressor_ = libdeflate_alloc_decompressor();
      if (decompressor_ == nullptr) throw std::bad_alloc();
    }
    return decompressor_;
  }
  libdeflate_compressor* compressor() {
    if (compressor_ == nullptr) {
      compressor_ = libdeflate_alloc_compressor(level());
      if (compressor_ == nullptr) throw std::bad_alloc();
    }
    return compressor_;
  }

  libdeflate_decompressor* decompressor_ = nullptr;
  libdeflate_compressor* compressor_ = nullptr;
};

}  // namespace

std::unique_ptr<Codec> make_gzip(int level) {
  if (level == kDefaultCompressionLevel) level = default_compression_level(kGzip);
  if (level < kMinLevel || level > kMaxLevel) {
    throw_invalid("GZIP level " + std::to_string(level) + " is outside 0..12");
  }
  return std::make_unique<GzipCodec>(level);
}

}  // namespace parquetry::compression_detail
