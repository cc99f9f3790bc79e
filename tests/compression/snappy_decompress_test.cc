// The snappy decoder against libsnappy's encoder: the page shapes it has
// fast paths for (sorted int64s, repeated strings, runs), every tag kind and
// offset class at every size, and each way a hostile stream can be wrong;
// each in every form of copy decoding (the adaptive default times two forms
// on long pages, so those are also forced one at a time).
#include "parquetry/compression/snappy_decompress.h"

#include <gtest/gtest.h>
#include <snappy.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace parquetry::compression_detail {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes compress(const Bytes& raw) {
  std::string packed;
  snappy::Compress(reinterpret_cast<const char*>(raw.data()), raw.size(), &packed);
  return Bytes(packed.begin(), packed.end());
}

// Decodes `packed` into exactly `size` bytes (with guard bytes after them
// that must stay untouched).
SnappyStatus decode(const Bytes& packed, size_t size, Bytes& out,
                    SnappyCopyDecoding decoding = SnappyCopyDecoding::kAdaptive) {
  Bytes buffer(size + 64, 0xA5);
  const SnappyStatus status =
      snappy_decompress(packed, std::span<uint8_t>(buffer.data(), size), nullptr, decoding);
  for (size_t i = size; i < buffer.size(); ++i) {
    if (buffer[i] != 0xA5) ADD_FAILURE() << "wrote past the output at " << i;
  }
  out.assign(buffer.begin(), buffer.begin() + ptrdiff_t(size));
  return status;
}

constexpr SnappyCopyDecoding kEveryDecoding[] = {
    SnappyCopyDecoding::kAdaptive, SnappyCopyDecoding::kBranching, SnappyCopyDecoding::kBranchless};

const char* name(SnappyCopyDecoding decoding) {
  switch (decoding) {
    case SnappyCopyDecoding::kAdaptive: return "adaptive";
    case SnappyCopyDecoding::kBranching: return "branching";
    case SnappyCopyDecoding::kBranchless: return "branchless";
  }
  return "?";
}

void expect_round_trip(const Bytes& raw, const char* what) {
  SCOPED_TRACE(what);
  const Bytes packed = compress(raw);
  for (const SnappyCopyDecoding decoding : kEveryDecoding) {
    SCOPED_TRACE(name(decoding));
    Bytes out;
    ASSERT_EQ(decode(packed, raw.size(), out, decoding), SnappyStatus::kOk);
    ASSERT_EQ(out, raw);
  }
}

template <typename T>
void append(Bytes& out, T value) {
  const size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &value, sizeof(T));
}

TEST(SnappyDecompress, PageShapesMatchTheInput) {
  Bytes sorted;  // a pos column: one-byte literal + offset-8 copy per value
  for (int64_t i = 0; i < 122880; ++i) append(sorted, int64_t(400000 + i));
  expect_round_trip(sorted, "sorted int64");

  Bytes paths;  // a PLAIN file_path column: 64-byte copies of the previous value
  for (int i = 0; i < 20000; ++i) {
    const std::string path =
        "s3://bucket/namespace/table/data/" + std::to_string(1000000 + i) + "-data.parquet";
    append(paths, uint32_t(path.size()));
    paths.insert(paths.end(), path.begin(), path.end());
  }
  expect_round_trip(paths, "paths");

  expect_round_trip(Bytes(1 << 20, 0), "zeros");

  std::mt19937_64 rng(5);
  Bytes timestamps, doubles, noise(100000);
  for (int i = 0; i < 100000; ++i)
    append(timestamps, int64_t(1640995200000000LL + i * 1000003LL + int64_t(rng() % 5000000)));
  for (int i = 0; i < 100000; ++i) append(doubles, double(rng() % 3000) / 100.0);
  for (auto& b : noise) b = uint8_t(rng());
  expect_round_trip(timestamps, "timestamps");
  expect_round_trip(doubles, "doubles");
  expect_round_trip(noise, "random bytes");
  expect_round_trip(Bytes{}, "empty");
}

// The decoder switches between a fast loop (short literals, copies from at
// least 16 back) and a careful one (everything else, offset-8 copies with a
// register); streams whose regime changes every few hundred bytes cross that
// boundary thousands of times, at every alignment.
TEST(SnappyDecompress, StreamsThatSwitchLoopsOftenMatchTheInput) {
  std::mt19937_64 rng(18);
  Bytes unsorted;  // pickup times of a month in no order: short literals, far copies
  for (int i = 0; i < 120000; ++i)
    append(unsorted, int64_t(1640995200000000LL + int64_t(rng() % 2678400) * 1000000LL));
  expect_round_trip(unsorted, "unsorted timestamps");

  Bytes mixed;
  int64_t next = 7000000;
  for (int block = 0; block < 3000; ++block) {
    const int kind = int(rng() % 4);
    const int count = 1 + int(rng() % 40);
    for (int k = 0; k < count; ++k) {
      switch (kind) {
        case 0: append(mixed, next++); break;  // offset-8 copies
        case 1: append(mixed, int64_t(1640995200000000LL + int64_t(rng() % 86400000000LL))); break;
        case 2: mixed.push_back(uint8_t(rng())); break;  // literal bytes
        default: mixed.insert(mixed.end(), size_t(1 + rng() % 70), uint8_t('a' + k % 3)); break;  // runs
      }
    }
  }
  expect_round_trip(mixed, "mixed regimes");
}

TEST(SnappyDecompress, EverySizeAndPeriodMatchesTheInput) {
  // Small alphabets and periodic runs produce copies of every offset below
  // and above 8, 16 and 64, overlapping and not, near both ends of the output.
  std::mt19937 rng(17);
  for (int trial = 0; trial < 4000; ++trial) {
    const size_t n = rng() % (trial < 2000 ? 200 : 5000);
    Bytes raw(n);
    const int alphabet = 1 + int(rng() % 6);
    const size_t period = 1 + rng() % 70;
    for (size_t i = 0; i < n; ++i) {
      raw[i] = i >= period && rng() % 8 != 0 ? raw[i - period] : uint8_t('a' + rng() % unsigned(alphabet));
    }
    Bytes out;
    const Bytes packed = compress(raw);
    const SnappyCopyDecoding decoding = kEveryDecoding[trial % 3];
    ASSERT_EQ(decode(packed, n, out, decoding), SnappyStatus::kOk)
        << "trial " << trial << ", " << name(decoding);
    ASSERT_EQ(out, raw) << "trial " << trial << ", " << name(decoding);
  }
}

TEST(SnappyDecompress, HandMadeTagsOfEveryKind) {
  // "abcd" literal, then copy-1 (len 4+3, offset 4: overlapping), copy-2
  // (len 3, offset 11), copy-4 (len 2, offset 1) and a literal with a
  // one-byte length (61 bytes).
  Bytes stream = {0, 0x00 | (3 << 2), 'a', 'b', 'c', 'd'};
  stream.insert(stream.end(), {uint8_t(0x01 | (3 << 2)), 4});
  stream.insert(stream.end(), {uint8_t(0x02 | (2 << 2)), 11, 0});
  stream.insert(stream.end(), {uint8_t(0x03 | (1 << 2)), 1, 0, 0, 0});
  stream.push_back(uint8_t(60 << 2));
  stream.push_back(60);
  for (int i = 0; i < 61; ++i) stream.push_back(uint8_t('A' + i % 26));
  const std::string expected = std::string("abcdabcdabc") + "abc" + "cc" + [] {
    std::string s;
    for (int i = 0; i < 61; ++i) s.push_back(char('A' + i % 26));
    return s;
  }();
  stream[0] = uint8_t(expected.size());  // one-byte varint prefix
  Bytes out;
  ASSERT_EQ(decode(stream, expected.size(), out), SnappyStatus::kOk);
  EXPECT_EQ(std::string(out.begin(), out.end()), expected);
}

TEST(SnappyDecompress, HostileStreamsAreRejected) {
  for (const SnappyCopyDecoding decoding : kEveryDecoding) {
    SCOPED_TRACE(name(decoding));
    const auto decode = [decoding](const Bytes& packed, size_t size, Bytes& out) {
      return parquetry::compression_detail::decode(packed, size, out, decoding);
    };
    Bytes out;
    // Prefix: truncated, longer than 5 bytes, above 32 bits, different from the output.
    EXPECT_EQ(decode({0x80}, 0, out), SnappyStatus::kBadLengthPrefix);
    EXPECT_EQ(decode({0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 0, out), SnappyStatus::kBadLengthPrefix);
    EXPECT_EQ(decode({0xFF, 0xFF, 0xFF, 0xFF, 0x1F}, 0, out), SnappyStatus::kBadLengthPrefix);
    uint64_t stated = 0;
    Bytes buffer(10);
    EXPECT_EQ(snappy_decompress(Bytes{5, 0x10, 'a', 'b', 'c', 'd', 'e'}, buffer, &stated, decoding),
              SnappyStatus::kLengthMismatch);
    EXPECT_EQ(stated, 5u);
    // A literal longer than the rest of the stream, and one past the output.
    EXPECT_EQ(decode({5, 4 << 2, 'a', 'b'}, 5, out), SnappyStatus::kLiteralPastInput);
    EXPECT_EQ(decode({2, 2 << 2, 'a', 'b', 'c'}, 2, out), SnappyStatus::kOutputOverflow);
    // A literal whose length bytes are missing, and one claiming 4 GiB of a 1-byte stream.
    EXPECT_EQ(decode({5, 62 << 2, 1}, 5, out), SnappyStatus::kTruncatedTag);
    EXPECT_EQ(decode({5, 63 << 2, 0xFF, 0xFF, 0xFF, 0xFF, 'a'}, 5, out), SnappyStatus::kLiteralPastInput);
    // Found by the snappy fuzz target: a stream already complete, then that 2^32-byte literal.
    // libsnappy's 32-bit length wraps to an empty literal and accepts it; the length is still a lie.
    EXPECT_EQ(decode({1, 0, '2', 63 << 2, 0xFF, 0xFF, 0xFF, 0xFF}, 1, out), SnappyStatus::kLiteralPastInput);
    // Copies whose offset bytes are missing.
    EXPECT_EQ(decode({5, 0, 'a', 0x01}, 5, out), SnappyStatus::kTruncatedTag);
    EXPECT_EQ(decode({5, 0, 'a', 0x02, 1}, 5, out), SnappyStatus::kTruncatedTag);
    EXPECT_EQ(decode({5, 0, 'a', 0x03, 1, 0, 0}, 5, out), SnappyStatus::kTruncatedTag);
    // Offset 0, offset before the start, a copy past the output.
    EXPECT_EQ(decode({5, 0, 'a', 0x01, 0}, 5, out), SnappyStatus::kBadOffset);
    EXPECT_EQ(decode({5, 0, 'a', 0x01, 2}, 5, out), SnappyStatus::kBadOffset);
    EXPECT_EQ(decode({5, 0, 'a', 0x03 | (3 << 2), 0, 0, 0, 1}, 5, out), SnappyStatus::kBadOffset);
    EXPECT_EQ(decode({5, 0, 'a', 0x01 | (1 << 2), 1}, 5, out), SnappyStatus::kOutputOverflow);
    // Tags after the output is full: right after the prefix, and after more
    // tags than one careful run takes.
    EXPECT_EQ(decode({0, 0, 'a'}, 0, out), SnappyStatus::kOutputOverflow);
    Bytes full = {20};
    for (int i = 0; i < 20; ++i) full.insert(full.end(), {0, uint8_t('a' + i)});
    full.insert(full.end(), {0, 'z'});
    EXPECT_EQ(decode(full, 20, out), SnappyStatus::kOutputOverflow);
    full.insert(full.end() - 2, {0x01, 1});  // a copy instead of the literal
    full.resize(full.size() - 2);
    EXPECT_EQ(decode(full, 20, out), SnappyStatus::kOutputOverflow);
    // A stream that stops early.
    EXPECT_EQ(decode({5, 1 << 2, 'a', 'b'}, 5, out), SnappyStatus::kOutputShort);
    // The same tags decode when the counts agree.
    ASSERT_EQ(decode({5, 0, 'a', 0x01 | (0 << 2), 1}, 5, out), SnappyStatus::kOk);
    EXPECT_EQ(std::string(out.begin(), out.end()), "aaaaa");
  }
}

TEST(SnappyDecompress, DamagedStreamsStayInBounds) {
  // Flipped bits may still decode; they must never read or write out of
  // bounds (ASan watches), and a clean result must have the declared size.
  Bytes raw;
  for (int64_t i = 0; i < 4000; ++i) append(raw, int64_t(i * 3));
  const Bytes packed = compress(raw);
  std::mt19937 rng(23);
  int rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Bytes damaged = packed;
    const int flips = 1 + int(rng() % 3);
    for (int f = 0; f < flips; ++f) damaged[rng() % damaged.size()] ^= uint8_t(1u << (rng() % 8));
    if (rng() % 4 == 0) damaged.resize(rng() % damaged.size());
    Bytes out;
    rejected += decode(damaged, raw.size(), out, kEveryDecoding[trial % 3]) != SnappyStatus::kOk;
  }
  EXPECT_GT(rejected, 1000);
}

// Long pages are decoded in timed probe segments before one form takes
// over; damage anywhere (inside a probe, at a segment's end, after the
// probes) must still be caught or stay in bounds, in every form.
TEST(SnappyDecompress, DamagedLongPagesStayInBounds) {
  std::mt19937_64 rng(29);
  Bytes raw;  // 400 KB of unsorted timestamps: long enough for the probes
  for (int i = 0; i < 50000; ++i)
    append(raw, int64_t(1640995200000000LL + int64_t(rng() % 2678400) * 1000000LL));
  const Bytes packed = compress(raw);
  int rejected = 0, trials = 0;
  for (const SnappyCopyDecoding decoding : kEveryDecoding) {
    for (int trial = 0; trial < 40; ++trial, ++trials) {
      Bytes damaged = packed;
      // Early damage lands in the probes, late damage after them.
      const size_t span = trial % 2 == 0 ? damaged.size() / 4 : damaged.size();
      for (int f = 0; f < 3; ++f) damaged[rng() % span] ^= uint8_t(1u << (rng() % 8));
      Bytes out;
      rejected += decode(damaged, raw.size(), out, decoding) != SnappyStatus::kOk;
    }
  }
  EXPECT_GT(rejected, trials / 2);
}

}  // namespace
}  // namespace parquetry::compression_detail
