// Internal to the compression layer: each codec family's factory and the
// error helpers they share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "parquetry/compression/codec.h"

namespace parquetry::compression_detail {

std::unique_ptr<Codec> make_uncompressed();
std::unique_ptr<Codec> make_snappy();
std::unique_ptr<Codec> make_gzip(int level);
std::unique_ptr<Codec> make_zstd(int level);
std::unique_ptr<Codec> make_lz4_raw(int level);
std::unique_ptr<Codec> make_lz4_hadoop(int level);
std::unique_ptr<Codec> make_brotli(int level);

/// kCorrupt: "<CODEC>: <what>".
[[noreturn]] void throw_codec_corrupt(CompressionCodec codec, const std::string& what);
/// kCorrupt: the page decompressed to `actual` bytes, its header declared `declared`.
[[noreturn]] void throw_size_mismatch(CompressionCodec codec, size_t actual, size_t declared);
/// kCorrupt: the page decompresses to more than its header's `declared` bytes.
[[noreturn]] void throw_output_too_small(CompressionCodec codec, size_t declared);

/// Handles the zero-length cases every codec shares. Returns true when there
/// is nothing left to do (empty input, empty output); throws when the input
/// is empty but output was declared.
bool handle_empty_input(CompressionCodec codec, std::span<const uint8_t> input, std::span<uint8_t> output);

/// A writable pointer for the output even when it is empty (some libraries
/// reject a null destination even with zero capacity).
inline uint8_t* output_pointer(std::span<uint8_t> output) {
  static thread_local uint8_t empty_sink[8];
  return output.data() != nullptr ? output.data() : empty_sink;
}

/// A readable pointer for the input even when it is empty.
inline const uint8_t* input_pointer(std::span<const uint8_t> input) {
  static const uint8_t empty_source[8] = {};
  return input.data() != nullptr ? input.data() : empty_source;
}

/// Grows `out` by `max_len` bytes for a compressor to write into and returns
/// where the new bytes start; finish_append() then trims to what was written.
inline uint8_t* begin_append(Buffer& out, size_t max_len) {
  size_t old = out.size();
  out.resize(old + max_len);
  return out.data() + old;
}
inline void finish_append(Buffer& out, size_t max_len, size_t written) {
  out.resize(out.size() - max_len + written);
}

}  // namespace parquetry::compression_detail
