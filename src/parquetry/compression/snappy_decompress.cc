// Raw snappy decoding. Parquet writers (DuckDB among them) compress sorted
// int64 columns into streams of a one-byte literal followed by a copy of
// seven bytes from eight bytes back, and string columns into 64-byte copies
// of the previous value. libsnappy 1.1.9 decodes those at 0.5-0.7 GB/s: each
// copy reloads bytes that the previous instructions have only just stored,
// and the partially overlapping loads cannot be forwarded from the store
// buffer. Here the last eight output bytes also live in a register, so an
// offset-8 copy is a store of that register (and a rotate), and copies are
// done as fixed-size moves whenever both ends leave room for the overshoot.
#include "parquetry/compression/snappy_decompress.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace parquetry::compression_detail {
namespace {

inline uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline void store64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }

// `last` after appending the `len` (< 8) bytes whose first ones are in `bytes`.
inline uint64_t shift_in(uint64_t last, uint64_t bytes, size_t len) {
  return (last >> (8 * len)) | (bytes << (64 - 8 * len));
}

// The eight output bytes before `op`; bytes before `out` read as zero.
inline uint64_t tail8(const uint8_t* op, const uint8_t* out) {
  const size_t n = size_t(op - out);
  if (n >= 8) return load64(op - 8);
  uint64_t v = 0;
  if (n > 0) std::memcpy(reinterpret_cast<uint8_t*>(&v) + (8 - n), out, n);
  return v;
}

// A copy of `len` bytes from `offset` (>= 1) bytes back, overlapping allowed.
// `room` (>= len) is what the output has left from `op`.
uint8_t* copy_general(uint8_t* op, size_t offset, size_t len, size_t room) {
  const uint8_t* src = op - offset;
  uint8_t* const end = op + len;
  if (offset < 8) {
    // Repeat the pattern until it is at least 8 bytes long; the output is
    // periodic from src on, so a multiple of the period is as good a distance
    // and 8-byte steps can then follow.
    size_t period = offset;
    while (period < 8 && op < end) {
      const size_t n = std::min(period, size_t(end - op));
      for (size_t k = 0; k < n; ++k) op[k] = src[k];
      op += n;
      period *= 2;
    }
  }
  if (room - len >= 8) {
    for (; op < end; op += 8, src += 8) store64(op, load64(src));
  } else {
    while (op < end) *op++ = *src++;
  }
  return end;
}

}  // namespace

SnappyPrefix snappy_length_prefix(std::span<const uint8_t> input) {
  uint64_t value = 0;
  for (size_t i = 0; i < input.size() && i < 5; ++i) {
    value |= uint64_t(input[i] & 0x7F) << (7 * i);
    if ((input[i] & 0x80) == 0) {
      if (value > UINT32_MAX) return {};
      return {value, i + 1};
    }
  }
  return {};
}

SnappyStatus snappy_decompress(std::span<const uint8_t> input, std::span<uint8_t> output, uint64_t* stated) {
  const SnappyPrefix prefix = snappy_length_prefix(input);
  if (prefix.prefix_bytes == 0) return SnappyStatus::kBadLengthPrefix;
  if (stated != nullptr) *stated = prefix.length;
  if (prefix.length != output.size()) return SnappyStatus::kLengthMismatch;
  const uint8_t* ip = input.data() + prefix.prefix_bytes;
  const uint8_t* const in_end = input.data() + input.size();
  uint8_t* const out = output.data();
  uint8_t* op = out;
  uint8_t* const out_end = out + output.size();
  // The 8 bytes before op (bytes before the output's start are meaningless;
  // no copy can reach them).
  uint64_t last = 0;
  while (ip < in_end) {
    const uint32_t tag = *ip++;
    if ((tag & 3) == 0) {  // literal
      size_t len = (tag >> 2) + 1;
      if (len <= 16 && in_end - ip >= 16 && out_end - op >= 16) {
        const uint64_t low = load64(ip);
        store64(op, low);
        store64(op + 8, load64(ip + 8));
        last = len < 8 ? shift_in(last, low, len) : load64(ip + len - 8);
        ip += len;
        op += len;
        continue;
      }
      if (len > 60) {  // 1-4 little-endian length bytes follow
        const size_t extra = len - 60;
        if (size_t(in_end - ip) < extra) return SnappyStatus::kTruncatedTag;
        uint32_t stored = 0;
        for (size_t k = 0; k < extra; ++k) stored |= uint32_t(ip[k]) << (8 * k);
        ip += extra;
        len = size_t(stored) + 1;
      }
      if (size_t(in_end - ip) < len) return SnappyStatus::kLiteralPastInput;
      if (size_t(out_end - op) < len) return SnappyStatus::kOutputOverflow;
      std::memcpy(op, ip, len);
      ip += len;
      op += len;
      last = len >= 8 ? load64(ip - 8) : tail8(op, out);
      continue;
    }
    size_t len, offset;
    switch (tag & 3) {
      case 1:  // 3-bit length - 4, 11-bit offset
        if (ip == in_end) return SnappyStatus::kTruncatedTag;
        len = 4 + ((tag >> 2) & 7);
        offset = (size_t(tag >> 5) << 8) | *ip++;
        break;
      case 2:  // 6-bit length - 1, 16-bit offset
        if (in_end - ip < 2) return SnappyStatus::kTruncatedTag;
        len = (tag >> 2) + 1;
        offset = size_t(ip[0]) | size_t(ip[1]) << 8;
        ip += 2;
        break;
      default:  // 6-bit length - 1, 32-bit offset
        if (in_end - ip < 4) return SnappyStatus::kTruncatedTag;
        len = (tag >> 2) + 1;
        offset = size_t(ip[0]) | size_t(ip[1]) << 8 | size_t(ip[2]) << 16 | size_t(ip[3]) << 24;
        ip += 4;
        break;
    }
    if (offset == 0 || offset > size_t(op - out)) return SnappyStatus::kBadOffset;
    const size_t room = size_t(out_end - op);
    if (len > room) return SnappyStatus::kOutputOverflow;
    // Every copy is at most 64 bytes; the fast cases below may write up to
    // 64 (or 16) bytes, past `len`, which later tags overwrite.
    if (offset == 8 && len <= 16 && room >= 16) {
      // The source is exactly `last`, repeated.
      store64(op, last);
      store64(op + 8, last);
      last = std::rotr(last, int(8 * (len & 7)));
      op += len;
      continue;
    }
    const uint8_t* src = op - offset;
    if (len <= 8 && offset >= 16 && room >= 16) {
      // The short copies of int64 columns (the high bytes of a recent value,
      // at offsets of 16 and more that vary copy by copy): one move, taken
      // before the offset-dependent cases so that the branch stays predicted.
      const uint64_t v = load64(src);
      store64(op, v);
      last = len == 8 ? v : shift_in(last, v, len);
      op += len;
      continue;
    }
    if (offset >= 64 && room >= 64) {  // no overlap: one fixed-size move
      uint8_t chunk[64];
      std::memcpy(chunk, src, 64);
      std::memcpy(op, chunk, 64);
    } else if (offset >= 16 && room - len >= 16) {  // each 16-byte step reads bytes already written
      for (size_t k = 0; k < len; k += 16) {
        uint8_t chunk[16];
        std::memcpy(chunk, src + k, 16);
        std::memcpy(op + k, chunk, 16);
      }
    } else if (offset > 8 && len <= 16 && room >= 16) {
      store64(op, load64(src));
      store64(op + 8, load64(src + 8));  // after the first store: it may read what that wrote
    } else {
      op = copy_general(op, offset, len, room);
      last = tail8(op, out);
      continue;
    }
    // The copied bytes equal their source, which is older output.
    last = len >= 8 ? load64(src + len - 8) : shift_in(last, load64(src), len);
    op += len;
  }
  return op == out_end ? SnappyStatus::kOk : SnappyStatus::kOutputShort;
}

const char* describe(SnappyStatus status) {
  switch (status) {
    case SnappyStatus::kOk: return "ok";
    case SnappyStatus::kBadLengthPrefix: return "invalid uncompressed length prefix";
    case SnappyStatus::kLengthMismatch: return "length prefix differs from the declared size";
    case SnappyStatus::kTruncatedTag: return "a tag runs past the end of the stream";
    case SnappyStatus::kLiteralPastInput: return "a literal runs past the end of the stream";
    case SnappyStatus::kOutputOverflow: return "data runs past the declared size";
    case SnappyStatus::kBadOffset: return "a copy reaches before the start of the output";
    case SnappyStatus::kOutputShort: return "stream ends before the declared size";
  }
  return "malformed compressed data";
}

}  // namespace parquetry::compression_detail
