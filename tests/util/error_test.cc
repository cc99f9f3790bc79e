#include "parquetry/error.h"

#include <gtest/gtest.h>

#include "parquetry/util/bit_util.h"
#include "parquetry/util/buffer.h"

namespace parquetry {
namespace {

TEST(ErrorTest, WhatNamesCodeLocationAndMessage) {
  ErrorLocation where;
  where.file = "x.parquet";
  where.row_group = 3;
  where.column = "a.b";
  where.page = 7;
  Error e(ErrorCode::kCorrupt, "page size is negative", where);
  EXPECT_STREQ(e.what(), "corrupt: x.parquet, row group 3, column a.b, page 7: page size is negative");
  EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(e.message(), "page size is negative");
}

TEST(ErrorTest, WithLocationKeepsInnerParts) {
  ErrorLocation inner;
  inner.page = 2;
  ErrorLocation outer;
  outer.file = "f.parquet";
  outer.page = 9;
  Error e = Error(ErrorCode::kUnsupported, "LZO", inner).with_location(outer);
  EXPECT_EQ(e.where().file, "f.parquet");
  EXPECT_EQ(e.where().page, 2);
  EXPECT_STREQ(e.what(), "unsupported: f.parquet, page 2: LZO");
}

TEST(ErrorTest, ThrowHelpersSetCodes) {
  try {
    throw_limit("footer of 9 GiB", 12);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kLimitExceeded);
    EXPECT_EQ(e.where().offset, 12);
    EXPECT_STREQ(e.what(), "limit exceeded: offset 12: footer of 9 GiB");
  }
}

TEST(BufferTest, GrowsKeepsContentAndPads) {
  Buffer buffer;
  for (int i = 0; i < 1000; ++i) {
    uint8_t byte = uint8_t(i);
    buffer.append(&byte, 1);
  }
  ASSERT_EQ(buffer.size(), 1000u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer.data()) % Buffer::kAlignment, 0u);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(buffer.data()[i], uint8_t(i));
  for (size_t i = 0; i < Buffer::kPadding; ++i) EXPECT_EQ(buffer.data()[1000 + i], 0);
  Buffer moved = std::move(buffer);
  EXPECT_EQ(moved.size(), 1000u);
  EXPECT_EQ(buffer.size(), 0u);
}

TEST(BitUtilTest, WidthsAndBits) {
  EXPECT_EQ(bits::bit_width(0), 0);
  EXPECT_EQ(bits::bit_width(1), 1);
  EXPECT_EQ(bits::bit_width(255), 8);
  EXPECT_EQ(bits::bit_width(256), 9);
  uint8_t bitmap[2] = {0, 0};
  bits::set_bit(bitmap, 9);
  EXPECT_EQ(bitmap[1], 2);
  EXPECT_TRUE(bits::get_bit(bitmap, 9));
  bits::set_bit_to(bitmap, 9, false);
  EXPECT_FALSE(bits::get_bit(bitmap, 9));
}

}  // namespace
}  // namespace parquetry
