// Differential fuzzing of parquetry's snappy decoder against libsnappy.
// The first byte picks the mode. Its bit 0:
//   0: the rest is a hostile raw snappy stream. Both decoders must agree on
//      whether it is valid, and on every output byte when it is;
//   1: the rest is data. libsnappy compresses it and parquetry's decoder
//      must give it back exactly (this reaches the copy shapes real
//      encoders make, which random streams rarely form).
// Bits 1-2 pick how parquetry's decoder decodes copies (adaptive, branching,
// branchless; 3 is adaptive too), so every form meets both kinds of input.
// Outputs are sized exactly, so AddressSanitizer sees any write or read past
// either end.
#include <snappy.h>

#include <cstring>
#include <string>
#include <vector>

#include "parquetry/compression/snappy_decompress.h"

namespace {

using namespace parquetry::compression_detail;

// Streams stating more than this are only checked for agreement on the prefix.
constexpr uint64_t kMaxOutput = 4 << 20;

void hostile(const uint8_t* data, size_t size, SnappyCopyDecoding decoding) {
  const char* in = reinterpret_cast<const char*>(data);
  const SnappyPrefix prefix = snappy_length_prefix({data, size});
  size_t theirs_length = 0;
  const bool theirs_prefix = snappy::GetUncompressedLength(in, size, &theirs_length);
  if (theirs_prefix != (prefix.prefix_bytes != 0)) __builtin_trap();
  if (!theirs_prefix) return;
  if (theirs_length != prefix.length) __builtin_trap();
  if (prefix.length > kMaxOutput) return;
  std::vector<uint8_t> ours(prefix.length);
  const SnappyStatus status = snappy_decompress({data, size}, ours, nullptr, decoding);
  const bool ours_ok = status == SnappyStatus::kOk;
  std::string theirs;
  const bool theirs_ok = snappy::Uncompress(in, size, &theirs);
  // One known difference: libsnappy adds 1 to a 4-byte literal length in 32
  // bits, so 0xFFFFFFFF becomes an empty literal it accepts. That length
  // states 2^32 bytes, more than any input holds, and parquetry rejects it.
  if (theirs_ok && status == SnappyStatus::kLiteralPastInput) return;
  if (ours_ok != theirs_ok) __builtin_trap();
  if (!ours_ok) return;
  if (theirs.size() != ours.size()) __builtin_trap();
  if (!ours.empty() && std::memcmp(theirs.data(), ours.data(), ours.size()) != 0) __builtin_trap();
}

void round_trip(const uint8_t* data, size_t size, SnappyCopyDecoding decoding) {
  std::string packed;
  snappy::Compress(reinterpret_cast<const char*>(data), size, &packed);
  std::vector<uint8_t> out(size);
  const std::span<const uint8_t> input(reinterpret_cast<const uint8_t*>(packed.data()), packed.size());
  if (snappy_decompress(input, out, nullptr, decoding) != SnappyStatus::kOk) __builtin_trap();
  if (size != 0 && std::memcmp(out.data(), data, size) != 0) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const unsigned form = (data[0] >> 1) & 3;
  const SnappyCopyDecoding decoding = form == 1   ? SnappyCopyDecoding::kBranching
                                      : form == 2 ? SnappyCopyDecoding::kBranchless
                                                  : SnappyCopyDecoding::kAdaptive;
  if (data[0] % 2 == 0) {
    hostile(data + 1, size - 1, decoding);
  } else {
    round_trip(data + 1, size - 1, decoding);
  }
  return 0;
}
