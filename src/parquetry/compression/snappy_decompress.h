// The decoder of raw snappy streams that the SNAPPY codec uses (its encoder
// is libsnappy's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace parquetry::compression_detail {

/// What went wrong in a snappy stream; kOk when it decoded exactly.
enum class SnappyStatus {
  kOk,
  kBadLengthPrefix,   ///< the varint length prefix is truncated or exceeds 32 bits
  kLengthMismatch,    ///< the prefix differs from the output size (nothing is written)
  kTruncatedTag,      ///< a tag's length or offset bytes run past the input
  kLiteralPastInput,  ///< a literal runs past the input
  kOutputOverflow,    ///< a literal or copy would write past the declared size
  kBadOffset,         ///< a copy's offset is 0 or reaches before the output
  kOutputShort,       ///< the stream ends before the declared size is filled
};

/// The uncompressed length a snappy stream states in its varint prefix, and
/// how many bytes the prefix takes (0 when it is malformed).
struct SnappyPrefix {
  uint64_t length = 0;
  size_t prefix_bytes = 0;
};
SnappyPrefix snappy_length_prefix(std::span<const uint8_t> input);

/// How the decoder's fast loop tells the two common copy kinds apart (one-
/// and two-byte offsets). Output and errors are the same in every mode; only
/// speed differs, by page shape and CPU.
enum class SnappyCopyDecoding {
  kAdaptive,    ///< long pages time both forms on their first segments and keep the faster
  kBranching,   ///< a branch on the kind: fastest when kinds come in predictable runs
  kBranchless,  ///< both decoded, one kept: fastest when kinds alternate by chance (timestamps)
};

/// Decodes the raw snappy stream `input` into exactly `output` bytes. Every
/// tag is checked against both ends before it is applied, so hostile input
/// never reads or writes outside the two spans. `stated` receives the
/// prefix's length when the prefix parses.
SnappyStatus snappy_decompress(std::span<const uint8_t> input, std::span<uint8_t> output,
                               uint64_t* stated = nullptr,
                               SnappyCopyDecoding decoding = SnappyCopyDecoding::kAdaptive);

/// A sentence for `status`, for error messages.
const char* describe(SnappyStatus status);

}  // namespace parquetry::compression_detail
