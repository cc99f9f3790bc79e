#include "parquetry/encoding/rle.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::encoding {
namespace {

std::vector<uint8_t> bytes_of(const Buffer& b) { return {b.data(), b.data() + b.size()}; }

std::vector<uint8_t> encode(const std::vector<uint32_t>& values, int w) {
  RleBitPackedEncoder enc(w);
  enc.put(values.data(), int64_t(values.size()));
  Buffer out;
  enc.flush_to(out);
  return bytes_of(out);
}

TEST(Rle, DecodesHandWrittenRuns) {
  // RLE run: 5 x 3 (bit width 2, 1 value byte); bit-packed run: 8 values 0..7
  // at width 2 would not fit, so use width 3 for a second section.
  const uint8_t rle[] = {5 << 1, 3};
  RleBitPackedDecoder d(rle, 2);
  uint32_t out[8];
  EXPECT_EQ(d.decode(out, 8), 5);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], 3u);
  EXPECT_EQ(d.bytes_consumed(), 2);

  // Bit-packed run of one group (header (1 << 1) | 1 = 3), the spec's 0..7 at width 3.
  const uint8_t packed[] = {3, 0b10001000, 0b11000110, 0b11111010};
  RleBitPackedDecoder p(packed, 3);
  EXPECT_EQ(p.decode(out, 8), 8);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
}

TEST(Rle, EncoderChoosesRunsAndPacksTheRest) {
  // 10 x 1 then 0,1,0,1,...: RLE run then one bit-packed group (zero-padded).
  std::vector<uint32_t> v(10, 1);
  for (int i = 0; i < 6; ++i) v.push_back(uint32_t(i & 1));
  auto bytes = encode(v, 1);
  // Expected: header 10<<1=20, value 1; header (1<<1)|1=3, bits 0,1,0,1,0,1,0(pad),0(pad) = 0b00101010.
  std::vector<uint8_t> expect = {20, 1, 3, 0b00101010};
  EXPECT_EQ(bytes, expect);
}

TEST(Rle, LiteralsAreToppedUpToEightBeforeARun) {
  // 3 literals then 20 x 7: the first 5 sevens join the literal group, the other 15 form a run.
  std::vector<uint32_t> v = {1, 2, 3};
  v.insert(v.end(), 20, 7);
  auto bytes = encode(v, 3);
  ASSERT_EQ(bytes.size(), 1u + 3u + 1u + 1u);
  EXPECT_EQ(bytes[0], 3);        // one bit-packed group
  EXPECT_EQ(bytes[4], 15 << 1);  // RLE run of 15
  EXPECT_EQ(bytes[5], 7);
  RleBitPackedDecoder d(bytes, 3);
  std::vector<uint32_t> out(v.size());
  ASSERT_EQ(d.decode(out.data(), int64_t(out.size())), int64_t(v.size()));
  EXPECT_EQ(out, v);
}

TEST(Rle, RoundTripsEveryWidthInSeveralBatches) {
  std::mt19937_64 rng(1234);
  for (int w = 0; w <= 32; ++w) {
    uint64_t limit = w == 32 ? ~0u : (uint64_t(1) << w) - 1;
    std::vector<uint32_t> v;
    while (v.size() < 5000) {
      uint32_t value = uint32_t(rng() & limit);
      size_t run = (rng() % 3 == 0) ? 1 + rng() % 100 : 1;
      v.insert(v.end(), run, value);
    }
    auto bytes = encode(v, w);
    // One batch.
    RleBitPackedDecoder one(bytes, w);
    std::vector<uint32_t> all(v.size());
    ASSERT_EQ(one.decode(all.data(), int64_t(all.size())), int64_t(v.size()));
    ASSERT_EQ(all, v) << "w=" << w;
    // Odd-sized batches, with skips mixed in.
    RleBitPackedDecoder many(bytes, w);
    std::vector<uint32_t> got(v.size());
    size_t pos = 0;
    int step = 0;
    while (pos < v.size()) {
      int64_t want = std::min<int64_t>(int64_t(1 + (step * 37) % 61), int64_t(v.size() - pos));
      if (step % 5 == 4) {
        ASSERT_EQ(many.skip(want), want);
        std::copy(v.begin() + long(pos), v.begin() + long(pos + size_t(want)), got.begin() + long(pos));
      } else {
        ASSERT_EQ(many.decode(got.data() + pos, want), want);
      }
      pos += size_t(want);
      ++step;
    }
    ASSERT_EQ(got, v) << "w=" << w;
  }
}

TEST(Rle, DecodeAtReadsOnlyTheWantedPositions) {
  std::mt19937_64 rng(4321);
  for (int w = 0; w <= 32; ++w) {
    uint64_t limit = w == 32 ? ~0u : (uint64_t(1) << w) - 1;
    std::vector<uint32_t> v;
    while (v.size() < 3000) {
      uint32_t value = uint32_t(rng() & limit);
      size_t run = (rng() % 3 == 0) ? 1 + rng() % 100 : 1;
      v.insert(v.end(), run, value);
    }
    auto bytes = encode(v, w);
    for (int density : {1, 10, 60, 100}) {
      std::vector<uint32_t> positions;
      for (uint32_t i = 0; i < v.size(); ++i) {
        if (int(rng() % 100) < density) positions.push_back(i);
      }
      RleBitPackedDecoder decoder(bytes, w);
      std::vector<uint32_t> got(positions.size());
      ASSERT_EQ(decoder.decode_at(positions.data(), int64_t(positions.size()), got.data()),
                int64_t(positions.size()));
      for (size_t i = 0; i < positions.size(); ++i)
        ASSERT_EQ(got[i], v[positions[i]]) << "w=" << w << " position " << positions[i];
      // The decoder continues right after the last position read.
      const int64_t next = positions.empty() ? 0 : int64_t(positions.back()) + 1;
      if (next < int64_t(v.size())) {
        uint32_t after = 0;
        ASSERT_EQ(decoder.decode(&after, 1), 1);
        EXPECT_EQ(after, v[size_t(next)]) << "w=" << w;
      }
    }
    // Positions past the end: only those before it are decoded.
    const uint32_t beyond[] = {5, uint32_t(v.size()) + 20};
    RleBitPackedDecoder decoder(bytes, w);
    uint32_t got[2];
    EXPECT_EQ(decoder.decode_at(beyond, 2, got), 1);
    EXPECT_EQ(got[0], v[5]);
    // Positions must ascend.
    const uint32_t backwards[] = {9, 9};
    RleBitPackedDecoder again(bytes, w);
    EXPECT_THROW(again.decode_at(backwards, 2, got), Error);
  }
}

TEST(Rle, EncodingInPiecesEqualsEncodingAtOnce) {
  std::mt19937 rng(17);
  std::vector<uint32_t> v;
  while (v.size() < 20000) v.insert(v.end(), rng() % 3 == 0 ? 1 + rng() % 30 : 1, uint32_t(rng() % 6));
  auto whole = encode(v, 3);
  RleBitPackedEncoder enc(3);
  size_t pos = 0;
  for (int step = 0; pos < v.size(); ++step) {
    size_t c = std::min<size_t>(size_t(1 + (step * 13) % 23), v.size() - pos);
    if (step % 7 == 3 && std::all_of(v.begin() + long(pos), v.begin() + long(pos + c),
                                     [&](uint32_t x) { return x == v[pos]; })) {
      enc.put_repeated(v[pos], int64_t(c));
    } else {
      enc.put(v.data() + pos, int64_t(c));
    }
    pos += c;
  }
  EXPECT_EQ(enc.value_count(), int64_t(v.size()));
  Buffer pieces;
  enc.flush_to(pieces);
  EXPECT_EQ(bytes_of(pieces), whole);
  // Reusable after flush.
  enc.put(v.data(), 100);
  Buffer again;
  enc.flush_to(again);
  RleBitPackedDecoder d(again.span(), 3);
  std::vector<uint32_t> got(100);
  EXPECT_EQ(d.decode(got.data(), 100), 100);
  EXPECT_TRUE(std::equal(got.begin(), got.end(), v.begin()));
}

TEST(Rle, NarrowOutputsForLevelsAndBooleans) {
  std::vector<int16_t> levels = {0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0, 1};
  RleBitPackedEncoder enc(2);
  enc.put(levels.data(), int64_t(levels.size()));
  Buffer out;
  enc.flush_to(out, /*length_prefix=*/true);
  Section s = read_length_prefixed(out.span());
  EXPECT_EQ(s.consumed, int64_t(out.size()));
  RleBitPackedDecoder d(s.data, 2);
  std::vector<int16_t> got(levels.size());
  EXPECT_EQ(d.decode_levels(got.data(), int64_t(got.size()), 2), int64_t(levels.size()));
  EXPECT_EQ(got, levels);
  RleBitPackedDecoder too_low(s.data, 2);
  EXPECT_THROW(too_low.decode_levels(got.data(), int64_t(got.size()), 1), Error);

  RleBitPackedDecoder narrow(s.data, 2);
  uint8_t bools[14];
  EXPECT_EQ(narrow.decode(bools, 14), 14);
  EXPECT_EQ(bools[2], 2);
  const uint8_t wide[] = {2, 0, 0, 1};
  RleBitPackedDecoder w17(std::span<const uint8_t>(wide, 4), 17);
  EXPECT_THROW(w17.decode(bools, 1), Error);
}

TEST(Rle, ValidityBitmapMatchesLevels) {
  std::mt19937 rng(99);
  std::vector<uint8_t> levels;
  while (levels.size() < 3000) {
    uint8_t v = uint8_t(rng() & 1);
    size_t run = rng() % 4 == 0 ? 1 + rng() % 50 : 1;
    levels.insert(levels.end(), run, v);
  }
  RleBitPackedEncoder enc(1);
  enc.put(levels.data(), int64_t(levels.size()));
  Buffer encoded;
  enc.flush_to(encoded);
  for (int64_t batch : {3000, 64, 13}) {
    RleBitPackedDecoder d(encoded.span(), 1);
    std::vector<uint8_t> bitmap(400, 0xee);
    const int64_t offset = 5;  // not byte aligned
    int64_t nulls = 0, done = 0;
    while (done < int64_t(levels.size())) {
      int64_t want = std::min<int64_t>(batch, int64_t(levels.size()) - done);
      ASSERT_EQ(d.decode_validity(bitmap.data(), offset + done, want, &nulls), want);
      done += want;
    }
    int64_t expect_nulls = 0;
    for (size_t i = 0; i < levels.size(); ++i) {
      ASSERT_EQ(bits::get_bit(bitmap.data(), offset + int64_t(i)), levels[i] == 1) << i;
      expect_nulls += levels[i] == 0;
    }
    EXPECT_EQ(nulls, expect_nulls);
    // Bits before the offset are untouched (0xee = 0b11101110).
    EXPECT_EQ(bitmap[0] & 0x1f, 0xee & 0x1f);
  }
}

TEST(Rle, LevelDecoderV1AndLegacyBitPacked) {
  // Encodings.md BIT_PACKED example: 0..7 at width 3 MSB-first.
  const uint8_t legacy[] = {0b00000101, 0b00111001, 0b01110111, 0xff};
  LevelDecoder ld;
  EXPECT_EQ(ld.reset_v1(Encoding::BIT_PACKED, legacy, 7, 8), 3);
  int16_t out[8];
  EXPECT_EQ(ld.decode(out, 8), 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);

  EXPECT_THROW(ld.reset_v1(Encoding::BIT_PACKED, legacy, 7, 11), Error);                // needs 5 bytes
  EXPECT_THROW(ld.reset_v1(Encoding::BIT_PACKED, legacy, 7, int64_t(1) << 62), Error);  // no overflow
  EXPECT_THROW(ld.reset_v1(Encoding::PLAIN, legacy, 7, 8), Error);

  // v1 RLE levels with max level 2 to a validity bitmap (level == max => valid).
  std::vector<int16_t> levels = {2, 0, 1, 2, 2};
  RleBitPackedEncoder enc(2);
  enc.put(levels.data(), 5);
  Buffer page;
  enc.flush_to(page, true);
  page.append("xyz", 3);  // the values follow the levels
  LevelDecoder v1;
  EXPECT_EQ(v1.reset_v1(Encoding::RLE, page.span(), 2, 5), int64_t(page.size()) - 3);
  uint8_t bitmap = 0;
  int64_t nulls = 0;
  EXPECT_EQ(v1.decode_validity(&bitmap, 0, 5, &nulls), 5);
  EXPECT_EQ(bitmap, 0b11001);
  EXPECT_EQ(nulls, 2);
}

TEST(Rle, HostileInputs) {
  uint32_t out[64];
  // Bad bit widths.
  EXPECT_THROW(RleBitPackedDecoder(std::span<const uint8_t>(), 33), Error);
  EXPECT_THROW(RleBitPackedDecoder(std::span<const uint8_t>(), -1), Error);
  // A header whose varint never ends, and one that overflows 32 bits.
  const uint8_t endless[] = {0x80, 0x80, 0x80};
  RleBitPackedDecoder a(endless, 4);
  EXPECT_THROW(a.decode(out, 1), Error);
  const uint8_t overflow[] = {0xff, 0xff, 0xff, 0xff, 0x7f, 0};
  RleBitPackedDecoder b(overflow, 4);
  EXPECT_THROW(b.decode(out, 1), Error);
  // A bit-packed run declaring 2^30 groups.
  const uint8_t huge[] = {0xff, 0xff, 0xff, 0xff, 0x07, 1, 2, 3};
  RleBitPackedDecoder c(huge, 4);
  EXPECT_THROW(c.decode(out, 64), Error);
  // An RLE value wider than the bit width.
  const uint8_t wide_value[] = {4, 0x10};
  RleBitPackedDecoder e(wide_value, 4);
  EXPECT_THROW(e.decode(out, 2), Error);
  // Truncation at every byte of a real stream: each prefix either decodes
  // (fewer) correct values or throws, never reads out of bounds.
  std::vector<uint32_t> v;
  for (int i = 0; i < 300; ++i) v.push_back(uint32_t(i % 7 == 0 ? 5 : i % 13));
  v.insert(v.end(), 40, 9);
  auto bytes = encode(v, 4);
  for (size_t len = 0; len < bytes.size(); ++len) {
    std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + long(len));
    RleBitPackedDecoder t(prefix, 4);
    std::vector<uint32_t> got(v.size());
    try {
      int64_t n = t.decode(got.data(), int64_t(got.size()));
      ASSERT_LT(n, int64_t(v.size()));
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[size_t(i)], v[size_t(i)]);
    } catch (const Error& err) {
      EXPECT_EQ(err.code(), ErrorCode::kCorrupt);
    }
  }
  // A v1 length prefix larger than the page.
  const uint8_t bad_prefix[] = {100, 0, 0, 0, 1, 2};
  EXPECT_THROW(read_length_prefixed(bad_prefix), Error);
}

TEST(Rle, ZeroValuesAndEmptyStream) {
  RleBitPackedEncoder enc(5);
  Buffer out;
  enc.flush_to(out, true);
  EXPECT_EQ(bytes_of(out), (std::vector<uint8_t>{0, 0, 0, 0}));
  RleBitPackedDecoder d(std::span<const uint8_t>(), 5);
  uint32_t v;
  EXPECT_EQ(d.decode(&v, 1), 0);
  // Width 0: everything is one RLE run of zeros with no value bytes.
  std::vector<uint32_t> zeros(100, 0);
  auto bytes = encode(zeros, 0);
  EXPECT_EQ(bytes, (std::vector<uint8_t>{200, 1}));
  RleBitPackedDecoder z(bytes, 0);
  std::vector<uint32_t> got(100, 1);
  EXPECT_EQ(z.decode(got.data(), 100), 100);
  EXPECT_EQ(got, zeros);
}

}  // namespace
}  // namespace parquetry::encoding
