// Raw snappy decoding. Parquet writers (DuckDB among them) compress sorted
// int64 columns into streams of a one-byte literal followed by a copy of
// seven bytes from eight bytes back, and string columns into 64-byte copies
// of the previous value. libsnappy 1.1.9 decodes those at 0.5-0.7 GB/s: each
// copy reloads bytes that the previous instructions have only just stored,
// and the partially overlapping loads cannot be forwarded from the store
// buffer. Here the last eight output bytes also live in a register, so an
// offset-8 copy is a store of that register (and a rotate), and copies are
// done as fixed-size moves whenever both ends leave room for the overshoot.
//
// Keeping that register current costs a few instructions a tag, which
// unsorted int64 columns (timestamps: a 3-5 byte literal of the low bytes,
// then a copy of the high bytes from far back) pay for nothing. So decoding
// alternates between two loops: fast_steps takes short literals and short
// copies from at least 16 back without the register or per-tag bound checks,
// and hands any other tag to careful_step, which keeps the register and stays
// in charge while copies from near back keep coming. On the taxi file's
// timestamp pages that is 20% faster than one loop for all tags.
//
// fast_steps comes in two forms, which differ in how they tell a copy with a
// one-byte offset from one with a two-byte offset. In timestamp pages the
// two kinds come in no order (the high bytes of a value are found near or
// far back by chance), so a branch on the kind is mispredicted about every
// other value; there the branchless form takes 30% less time. In pages
// where copies follow each other, a predicted branch lets the next tag be
// read before this one is decoded, and the branching form is 10-15% faster
// (small-integer and flag columns). Which one wins depends on the page and
// on the CPU's predictor, so long pages time both on their first segments
// and keep the faster.
#include "parquetry/compression/snappy_decompress.h"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#else
#include <chrono>
#endif

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

// One tag of any kind, every bound checked. `last` holds the eight output
// bytes before `op` and is kept up to date; offset-8 copies (sorted int64
// columns: a one-byte literal, then seven bytes from eight back) store it
// instead of reloading bytes that are still in the store buffer.
// `near` is set when the tag is a copy from fewer than 16 bytes back, which
// fast_steps does not take.
[[gnu::always_inline]] inline SnappyStatus careful_step(const uint8_t*& ip, const uint8_t* in_end,
                                                        uint8_t* out, uint8_t*& op, uint8_t* out_end,
                                                        uint64_t& last, bool& near) {
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
      return SnappyStatus::kOk;
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
    return SnappyStatus::kOk;
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
  near = offset < 16;
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
    return SnappyStatus::kOk;
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
    return SnappyStatus::kOk;
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
    return SnappyStatus::kOk;
  }
  // The copied bytes equal their source, which is older output.
  last = len >= 8 ? load64(src + len - 8) : shift_in(last, load64(src), len);
  op += len;
  return SnappyStatus::kOk;
}

// The common tags while both ends have room for a 16-byte overshoot:
// literals of at most 16 bytes and type-1/2 copies of at most 16 bytes from
// at least 16 back, each one 16-byte move. Returns at the first other tag,
// when either end is near, or once the output has passed `stop`. It keeps no
// `last`: updating it for every tag cost 15% on int64 columns, whose copies
// mostly reach far back. kBranchless picks how the two copy kinds are told
// apart (see the top of the file).
template <bool kBranchless>
[[gnu::noinline]] size_t fast_steps(const uint8_t*& ip_ref, const uint8_t* in_end, uint8_t* out,
                                    uint8_t*& op_ref, uint8_t* out_end, const uint8_t* stop) {
  // A literal reads the tag and 16 bytes; a copy the tag and up to 2 bytes.
  if (in_end - ip_ref < 17 || out_end - op_ref < 16) return 0;
  const uint8_t* const ip_limit = in_end - 17;
  const uint8_t* const op_limit = std::min<const uint8_t*>(out_end - 16, stop);
  const uint8_t* ip = ip_ref;
  uint8_t* op = op_ref;
  size_t tags = 0;
  while (ip <= ip_limit && op <= op_limit) {
    const uint32_t tag = *ip;
    if ((tag & 3) == 0) {
      const size_t len = (tag >> 2) + 1;
      if (len > 16) break;
      store64(op, load64(ip + 1));
      store64(op + 8, load64(ip + 9));
      ip += 1 + len;
      op += len;
      ++tags;
      continue;
    }
    size_t len, offset, size;
    if constexpr (kBranchless) {
      // Both kinds decoded, one kept by mask; the tag's bytes 1-2 are in the
      // input (ip <= ip_limit).
      const uint32_t kind = tag & 3;
      if (kind == 3) break;
      uint16_t bytes;
      std::memcpy(&bytes, ip + 1, 2);
      const size_t len1 = 4 + ((tag >> 2) & 7), len2 = (tag >> 2) + 1;
      const size_t offset1 = (size_t(tag >> 5) << 8) | (bytes & 0xFF), offset2 = bytes;
      const size_t second = 0 - size_t(kind >> 1);  // all ones for kind 2
      len = len1 ^ ((len1 ^ len2) & second);
      offset = offset1 ^ ((offset1 ^ offset2) & second);
      size = kind + 1;
    } else if ((tag & 3) == 1) {
      len = 4 + ((tag >> 2) & 7);
      offset = (size_t(tag >> 5) << 8) | ip[1];
      size = 2;
    } else if ((tag & 3) == 2) {
      len = (tag >> 2) + 1;
      offset = size_t(ip[1]) | size_t(ip[2]) << 8;
      size = 3;
    } else {
      break;
    }
    if (len > 16 || offset < 16 || offset > size_t(op - out)) break;
    // The source ends at least 16 bytes before op: both loads precede the
    // stores and read finished output.
    const uint8_t* src = op - offset;
    const uint64_t a = load64(src), b = load64(src + 8);
    store64(op, a);
    store64(op + 8, b);
    ip += size;
    op += len;
    ++tags;
  }
  ip_ref = ip;
  op_ref = op;
  return tags;
}

// After fast_steps stops at a tag it does not take, tags go through
// careful_step until this many in a row were not copies from near back:
// streams of offset-8 copies stay in the loop that keeps `last` (leaving it
// for every other tag made them 15% slower), while a stray near copy or long
// literal elsewhere costs only a short detour.
constexpr int kCarefulRun = 16;

// Pages whose output is shorter than this decode with branches (timing
// shorter ones chose no better on the taxi file). Longer ones decode
// kProbes segments of kProbeBytes in the order branching, branchless,
// branchless, branching (so drift cancels), timing the fast loop per tag,
// and decode the rest with the form that took fewer cycles a tag.
constexpr size_t kAdaptiveMinOutput = 256 << 10;
constexpr size_t kProbeBytes = 16 << 10;
constexpr int kProbes = 4;
// Fewer fast-loop tags than this in either form's probes (a page of long
// literals or near copies) leave the branches in place.
constexpr uint64_t kMinProbeTags = 256;

inline uint64_t ticks() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

// Where decoding stands: both cursors and both ends.
struct Stream {
  const uint8_t* ip;
  const uint8_t* in_end;
  uint8_t* out;
  uint8_t* op;
  uint8_t* out_end;
};

// What the fast loop spent on the tags it decoded during a probe: the two
// forms differ only there, and counting per tag makes segments of different
// make-up comparable (a block stored as one long literal costs nearly nothing
// per byte whichever form runs).
struct Probe {
  uint64_t cycles = 0;
  uint64_t tags = 0;
};

// Decodes tags until the input ends or the output has reached `stop` (the
// last tag may carry it past: a copy by up to 64 bytes, a literal by more).
// Without a stop it decodes every tag left, so that tags after a full output
// are reported, not ignored. With a probe, the fast loop's calls are timed.
template <bool kBranchless>
SnappyStatus decode_until(Stream& s, const uint8_t* stop = nullptr, Probe* probe = nullptr) {
  while (s.ip < s.in_end && (stop == nullptr || s.op < stop)) {
    const uint8_t* const limit = stop == nullptr ? s.out_end : stop;
    if (probe == nullptr) {
      fast_steps<kBranchless>(s.ip, s.in_end, s.out, s.op, s.out_end, limit);
    } else {
      const uint64_t begin = ticks();
      probe->tags += fast_steps<kBranchless>(s.ip, s.in_end, s.out, s.op, s.out_end, limit);
      probe->cycles += ticks() - begin;
    }
    // The 8 bytes before op (bytes before the output's start read as zero;
    // no valid copy can reach them).
    uint64_t last = tail8(s.op, s.out);
    // A careful run ends at the stop too: a page's first values are often
    // close together, and their near copies could keep it going far into
    // what a probe of the other form should time.
    for (int quiet = 0; quiet < kCarefulRun && s.ip < s.in_end && (stop == nullptr || s.op < stop);) {
      bool near = false;
      const SnappyStatus status = careful_step(s.ip, s.in_end, s.out, s.op, s.out_end, last, near);
      if (status != SnappyStatus::kOk) [[unlikely]]
        return status;
      quiet = near ? 0 : quiet + 1;
    }
  }
  return SnappyStatus::kOk;
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

SnappyStatus snappy_decompress(std::span<const uint8_t> input, std::span<uint8_t> output, uint64_t* stated,
                               SnappyCopyDecoding decoding) {
  const SnappyPrefix prefix = snappy_length_prefix(input);
  if (prefix.prefix_bytes == 0) return SnappyStatus::kBadLengthPrefix;
  if (stated != nullptr) *stated = prefix.length;
  if (prefix.length != output.size()) return SnappyStatus::kLengthMismatch;
  Stream stream{input.data() + prefix.prefix_bytes, input.data() + input.size(), output.data(), output.data(),
                output.data() + output.size()};
  if (decoding == SnappyCopyDecoding::kAdaptive && output.size() < kAdaptiveMinOutput)
    decoding = SnappyCopyDecoding::kBranching;
  SnappyStatus status = SnappyStatus::kOk;
  if (decoding == SnappyCopyDecoding::kAdaptive) {
    Probe probes[2];  // branching, branchless
    for (int k = 0; k < kProbes && status == SnappyStatus::kOk && stream.ip < stream.in_end; ++k) {
      const bool branchless = k == 1 || k == 2;
      const uint8_t* const stop = stream.op + std::min(kProbeBytes, size_t(stream.out_end - stream.op));
      status = branchless ? decode_until<true>(stream, stop, &probes[1])
                          : decode_until<false>(stream, stop, &probes[0]);
    }
    // The branchless form has to win clearly (by 1/16): on a tie the branches stay.
    const Probe& a = probes[0];
    const Probe& b = probes[1];
    const bool branchless =
        a.tags >= kMinProbeTags && b.tags >= kMinProbeTags && b.cycles * a.tags * 16 < a.cycles * b.tags * 15;
    decoding = branchless ? SnappyCopyDecoding::kBranchless : SnappyCopyDecoding::kBranching;
  }
  if (status == SnappyStatus::kOk) {
    status = decoding == SnappyCopyDecoding::kBranchless ? decode_until<true>(stream)
                                                         : decode_until<false>(stream);
  }
  if (status != SnappyStatus::kOk) return status;
  return stream.op == stream.out_end ? SnappyStatus::kOk : SnappyStatus::kOutputShort;
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
