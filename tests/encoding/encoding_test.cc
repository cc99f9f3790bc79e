#include "parquetry/encoding/encoding.h"

#include <gtest/gtest.h>

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
