// LZ4_RAW: one LZ4 block (the LZ4 block format, nothing around it).
//
// LZ4 (deprecated): the Hadoop framing parquet-mr wrote: a sequence of blocks,
// each [4-byte big-endian uncompressed size] followed by one or more
// [4-byte big-endian compressed size][raw LZ4 block] chunks that together
// inflate to that size. Other writers (older parquet-cpp) wrote a bare LZ4
// block or an LZ4 frame under the same codec, so reading tries, in order:
// Hadoop blocks that exactly fill the page, one raw block, an LZ4 frame.
// Writing uses the Hadoop framing with 128 KiB blocks: each block fits the
// 256 KiB buffer Hadoop's Lz4Decompressor uses by default, and blocks of
// this size keep nearly all of one whole-page block's ratio (measured on
// bench_compression's pages: 3.40 vs 3.44; 64 KiB blocks fell to 2.6).
#include <lz4.h>
#include <lz4frame.h>
#include <lz4hc.h>

#include <climits>
#include <memory>
#include <new>
#include <string>

#include "parquetry/compression/codec_impl.h"
#include "parquetry/error.h"

namespace parquetry::compression_detail {
namespace {

constexpr int kMinLevel = 1;
constexpr int kMaxLevel = LZ4HC_CLEVEL_MAX;
constexpr int kFirstHcLevel = 3;
constexpr size_t kHadoopBlockSize = 128 << 10;
constexpr size_t kHadoopHeaderSize = 8;

uint32_t load_be32(const uint8_t* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}
void store_be32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24);
  p[1] = uint8_t(v >> 16);
  p[2] = uint8_t(v >> 8);
  p[3] = uint8_t(v);
}

// Decodes one raw block of at most `capacity` bytes; -1 when malformed.
int64_t decode_block(const uint8_t* src, size_t src_size, uint8_t* dst, size_t capacity) {
  if (src_size > size_t(LZ4_MAX_INPUT_SIZE) || capacity > size_t(INT_MAX)) return -1;
  int n = LZ4_decompress_safe(reinterpret_cast<const char*>(src), reinterpret_cast<char*>(dst), int(src_size),
                              int(capacity));
  return n < 0 ? -1 : n;
}

class Lz4Codec final : public Codec {
 public:
  Lz4Codec(CompressionCodec kind, int level) : Codec(kind, level) {}
  ~Lz4Codec() override {
    if (frame_ != nullptr) LZ4F_freeDecompressionContext(frame_);
  }
  Lz4Codec(const Lz4Codec&) = delete;
  Lz4Codec& operator=(const Lz4Codec&) = delete;

  void decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    if (handle_empty_input(kind(), input, output)) return;
    if (output.size() > size_t(INT_MAX)) {
      throw_limit(std::string(codec_name(kind())) + ": pages over 2 GiB cannot be LZ4-decompressed");
    }
    uint8_t* out = output_pointer(output);
    if (kind() == CompressionCodec::LZ4_RAW) {
      int64_t n = decode_block(input.data(), input.size(), out, output.size());
      if (n < 0) throw_codec_corrupt(kind(), "malformed LZ4 block (or it inflates past the declared size)");
      if (size_t(n) != output.size()) throw_size_mismatch(kind(), size_t(n), output.size());
      return;
    }
    if (try_hadoop(input, output)) return;
    int64_t n = decode_block(input.data(), input.size(), out, output.size());
    if (n >= 0 && size_t(n) == output.size()) return;
    if (try_frame(input, output)) return;
    throw_codec_corrupt(kind(),
                        "page is neither Hadoop-framed LZ4, a raw LZ4 block nor an LZ4 frame of the " +
                            std::to_string(output.size()) + " bytes its header declares");
  }

  size_t compress(std::span<const uint8_t> input, Buffer& out) override {
    size_t max_len = max_compressed_length(input.size());
    uint8_t* dst = begin_append(out, max_len);
    size_t written = 0;
    if (kind() == CompressionCodec::LZ4_RAW) {
      written = compress_block(input_pointer(input), input.size(), dst, max_len);
    } else {
      // At least one block, so an empty page is still a valid Hadoop stream.
      size_t pos = 0;
      do {
        size_t chunk = std::min(kHadoopBlockSize, input.size() - pos);
        uint8_t* header = dst + written;
        size_t c = compress_block(input_pointer(input) + pos, chunk, header + kHadoopHeaderSize,
                                  max_len - written - kHadoopHeaderSize);
        store_be32(header, uint32_t(chunk));
        store_be32(header + 4, uint32_t(c));
        written += kHadoopHeaderSize + c;
        pos += chunk;
      } while (pos < input.size());
    }
    finish_append(out, max_len, written);
    return written;
  }

  size_t max_compressed_length(size_t input_size) const override {
    if (input_size > size_t(LZ4_MAX_INPUT_SIZE)) {
      throw_limit(std::string(codec_name(kind())) + ": cannot compress " + std::to_string(input_size) +
                  " bytes at once (LZ4 blocks hold under 2 GiB)");
    }
    if (kind() == CompressionCodec::LZ4_RAW) return size_t(LZ4_compressBound(int(input_size)));
    size_t full_blocks = input_size / kHadoopBlockSize;
    size_t rest = input_size % kHadoopBlockSize;
    size_t bound = full_blocks * (kHadoopHeaderSize + size_t(LZ4_compressBound(int(kHadoopBlockSize))));
    if (rest != 0 || full_blocks == 0) bound += kHadoopHeaderSize + size_t(LZ4_compressBound(int(rest)));
    return bound;
  }

 private:
  // Hadoop blocks that consume all input and fill all output, or false. A
  // raw block or frame almost never parses this way: its first bytes would
  // have to be sizes that fit the page exactly.
  bool try_hadoop(std::span<const uint8_t> input, std::span<uint8_t> output) {
    const uint8_t* in = input.data();
    size_t in_size = input.size(), ip = 0, op = 0;
    while (ip < in_size) {
      if (in_size - ip < kHadoopHeaderSize) return false;
      uint32_t block_size = load_be32(in + ip);
      ip += 4;
      if (block_size > output.size() - op) return false;
      size_t block_end = op + block_size;
      do {
        if (in_size - ip < 4) return false;
        uint32_t chunk_size = load_be32(in + ip);
        ip += 4;
        if (chunk_size > in_size - ip) return false;
        int64_t n = decode_block(in + ip, chunk_size, output_pointer(output) + op, block_end - op);
        if (n < 0) return false;
        ip += chunk_size;
        op += size_t(n);
      } while (op < block_end);
    }
    return op == output.size();
  }

  // LZ4 frames (one or more, back to back) that fill the output exactly.
  bool try_frame(std::span<const uint8_t> input, std::span<uint8_t> output) {
    if (frame_ == nullptr) {
      if (LZ4F_isError(LZ4F_createDecompressionContext(&frame_, LZ4F_VERSION))) throw std::bad_alloc();
    } else {
      LZ4F_resetDecompressionContext(frame_);
    }
    size_t ip = 0, op = 0;
    bool frame_done = false;
    while (ip < input.size()) {
      size_t src_size = input.size() - ip;
      size_t dst_size = output.size() - op;
      size_t hint = LZ4F_decompress(frame_, output_pointer(output) + op, &dst_size, input.data() + ip,
                                    &src_size, nullptr);
      if (LZ4F_isError(hint)) {
        LZ4F_resetDecompressionContext(frame_);
        return false;
      }
      ip += src_size;
      op += dst_size;
      frame_done = hint == 0;
      // No progress means the output is full while the frame wants more room.
      if (src_size == 0 && dst_size == 0 && !frame_done) {
        LZ4F_resetDecompressionContext(frame_);
        return false;
      }
    }
    if (!frame_done) LZ4F_resetDecompressionContext(frame_);
    return frame_done && op == output.size();
  }

  size_t compress_block(const uint8_t* src, size_t size, uint8_t* dst, size_t capacity) {
    const auto* s = reinterpret_cast<const char*>(src);
    auto* d = reinterpret_cast<char*>(dst);
    int cap = int(std::min(capacity, size_t(INT_MAX)));
    int n;
    if (level() >= kFirstHcLevel) {
      n = LZ4_compress_HC_extStateHC(state(LZ4_sizeofStateHC()), s, d, int(size), cap, level());
    } else {
      n = LZ4_compress_fast_extState(state(LZ4_sizeofState()), s, d, int(size), cap, 1);
    }
    if (n <= 0) throw Error(ErrorCode::kInternal, "LZ4: compression failed within its own bound");
    return size_t(n);
  }

  // The compressor's scratch state, kept across pages (8-byte aligned).
  void* state(int bytes) {
    if (!state_) state_ = std::make_unique<uint64_t[]>((size_t(bytes) + 7) / 8);
    return state_.get();
  }

  LZ4F_dctx* frame_ = nullptr;
  std::unique_ptr<uint64_t[]> state_;
};

std::unique_ptr<Codec> make_lz4(CompressionCodec kind, int level) {
  if (level == kDefaultCompressionLevel) level = default_compression_level(kind);
  if (level < kMinLevel || level > kMaxLevel) {
    throw_invalid(std::string(codec_name(kind)) + " level " + std::to_string(level) + " is outside 1..12");
  }
  return std::make_unique<Lz4Codec>(kind, level);
}

}  // namespace

std::unique_ptr<Codec> make_lz4_raw(int level) { return make_lz4(CompressionCodec::LZ4_RAW, level); }
std::unique_ptr<Codec> make_lz4_hadoop(int level) { return make_lz4(CompressionCodec::LZ4, level); }

}  // namespace parquetry::compression_detail
