#include "parquetry/encoding/encoding.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::encoding {
namespace {

TEST(EncodingApplies, FollowsTheSpecTable) {
  EXPECT_TRUE(encoding_applies(Encoding::PLAIN, Type::INT96));
  EXPECT_TRUE(encoding_applies(Encoding::RLE_DICTIONARY, Type::BYTE_ARRAY));
  EXPECT_TRUE(encoding_applies(Encoding::RLE, Type::BOOLEAN));
  EXPECT_FALSE(encoding_applies(Encoding::RLE, Type::INT32));
  EXPECT_FALSE(encoding_applies(Encoding::BIT_PACKED, Type::BOOLEAN));
  EXPECT_TRUE(encoding_applies(Encoding::DELTA_BINARY_PACKED, Type::INT64));
  EXPECT_FALSE(encoding_applies(Encoding::DELTA_BINARY_PACKED, Type::DOUBLE));
  EXPECT_TRUE(encoding_applies(Encoding::DELTA_LENGTH_BYTE_ARRAY, Type::BYTE_ARRAY));
  EXPECT_FALSE(encoding_applies(Encoding::DELTA_LENGTH_BYTE_ARRAY, Type::FIXED_LEN_BYTE_ARRAY));
  EXPECT_TRUE(encoding_applies(Encoding::DELTA_BYTE_ARRAY, Type::FIXED_LEN_BYTE_ARRAY));
  EXPECT_TRUE(encoding_applies(Encoding::BYTE_STREAM_SPLIT, Type::FIXED_LEN_BYTE_ARRAY));
  EXPECT_FALSE(encoding_applies(Encoding::BYTE_STREAM_SPLIT, Type::BOOLEAN));
  EXPECT_FALSE(encoding_applies(Encoding(42), Type::INT32));
}

TEST(ExpandSpaced, MovesValuesToValidSlotsAndZeroesNulls) {
  // Validity 1,0,1,1,0,0,1 from bit 3 of the bitmap.
  uint8_t bitmap[2] = {0, 0};
  const bool valid[7] = {true, false, true, true, false, false, true};
  for (int i = 0; i < 7; ++i) bits::set_bit_to(bitmap, 3 + i, valid[i]);
  int64_t v[7] = {10, 20, 30, 40, -1, -1, -1};
  expand_spaced(v, 7, 4, bitmap, 3);
  EXPECT_EQ(v[0], 10);
  EXPECT_EQ(v[1], 0);
  EXPECT_EQ(v[2], 20);
  EXPECT_EQ(v[3], 30);
  EXPECT_EQ(v[4], 0);
  EXPECT_EQ(v[5], 0);
  EXPECT_EQ(v[6], 40);
  int64_t w[7] = {1, 2, 3, 4, 5, 0, 0};
  EXPECT_THROW(expand_spaced(w, 7, 5, bitmap, 3), Error);
  EXPECT_THROW(expand_spaced(w, 7, 3, bitmap, 3), Error);
}

TEST(ExpandSpaced, MatchesAReferenceOnLongMixedBitmaps) {
  std::mt19937 rng(12);
  for (int round = 0; round < 20; ++round) {
    const int64_t n = 1 + int64_t(rng() % 700), offset = int64_t(rng() % 8);
    std::vector<uint8_t> bitmap(size_t((n + offset) / 8 + 1));
    std::vector<int32_t> expect(size_t(n), 0), v(size_t(n), -7);
    int64_t dense = 0;
    for (int64_t i = 0; i < n; ++i) {
      // Long all-valid and all-null stretches mixed with noise.
      bool valid = (i / 100) % 3 == 0 ? true : (i / 100) % 3 == 1 ? false : rng() % 2 == 0;
      bits::set_bit_to(bitmap.data(), offset + i, valid);
      if (valid) expect[size_t(i)] = int32_t(1000 + dense++);
    }
    for (int64_t k = 0; k < dense; ++k) v[size_t(k)] = int32_t(1000 + k);
    expand_spaced(v.data(), n, dense, bitmap.data(), offset);
    ASSERT_EQ(v, expect) << round;
  }
}

TEST(RleBooleans, DecodeBitmapCountsZeros) {
  // RLE booleans (data page v2 framing: 4-byte length prefix).
  std::vector<uint8_t> values = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0};
  RleBitPackedEncoder enc(1);
  enc.put(values.data(), int64_t(values.size()));
  Buffer page;
  enc.flush_to(page, true);
  RleBitPackedDecoder d(read_length_prefixed(page.span()).data, 1);
  uint8_t bitmap[2] = {0, 0};
  int64_t zeros = 0;
  EXPECT_EQ(d.decode_bitmap(bitmap, 0, 14, &zeros), 14);
  EXPECT_EQ(zeros, 3);
  EXPECT_EQ(bitmap[0], 0xff);
  EXPECT_EQ(bitmap[1], 0b001011);
}

}  // namespace
}  // namespace parquetry::encoding
