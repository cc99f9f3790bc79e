#include "parquetry/encoding/encoding.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace parquetry::encoding
