// InlineVector: inline storage up to N, heap beyond, value semantics.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "parquetry/metadata.h"

namespace parquetry {
namespace {

TEST(InlineVector, InlineThenHeapWithValueSemantics) {
  InlineVector<int32_t, 2> v;
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.capacity(), 2u);
  v.push_back(1);
  v.push_back(2);
  const int32_t* inline_data = v.data();
  EXPECT_EQ(v.capacity(), 2u);
  v.push_back(3);  // spills to the heap
  EXPECT_NE(v.data(), inline_data);
  EXPECT_GE(v.capacity(), 3u);
  for (int i = 4; i <= 100; ++i) v.push_back(i);
  ASSERT_EQ(v.size(), 100u);
  int expected = 1;
  for (int32_t x : v) EXPECT_EQ(x, expected++);

  InlineVector<int32_t, 2> copy = v;
  EXPECT_EQ(copy, v);
  copy[50] = -1;
  EXPECT_FALSE(copy == v);
  EXPECT_EQ(v[50], 51);

  InlineVector<int32_t, 2> moved = std::move(copy);
  EXPECT_EQ(moved.size(), 100u);
  EXPECT_EQ(moved[50], -1);
  EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract

  InlineVector<int32_t, 2> small = {7, 8};
  InlineVector<int32_t, 2> small_moved = std::move(small);
  EXPECT_EQ(small_moved, (InlineVector<int32_t, 2>{7, 8}));
  small_moved = v;  // inline <- heap
  EXPECT_EQ(small_moved, v);
  v = {5};  // heap <- initializer list
  EXPECT_EQ(v.size(), 1u);
  EXPECT_EQ(v.front(), 5);
  EXPECT_EQ(v.back(), 5);
  v.clear();
  EXPECT_TRUE(v.empty());
}

TEST(InlineVector, InteroperatesWithStdVector) {
  std::vector<Encoding> used = {Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY,
                                Encoding::BIT_PACKED, Encoding::DELTA_BINARY_PACKED};
  ColumnMetaData meta;
  meta.encodings = used;
  EXPECT_EQ(meta.encodings.size(), 5u);
  EXPECT_EQ(meta.encodings.to_vector(), used);
  EXPECT_EQ(meta.encodings, used);  // compares through the implicit conversion
  std::vector<PageEncodingStats> stats = {{PageType::DATA_PAGE, Encoding::PLAIN, 3}};
  meta.encoding_stats = stats;
  ASSERT_EQ(meta.encoding_stats.size(), 1u);
  EXPECT_EQ(meta.encoding_stats[0].count, 3);
  meta.encoding_stats.reserve(10);
  EXPECT_GE(meta.encoding_stats.capacity(), 10u);
  EXPECT_EQ(meta.encoding_stats[0].count, 3);
}

}  // namespace
}  // namespace parquetry

namespace parquetry {
namespace {

TEST(Boxed, BehavesLikeAnOptionalWithHeapStorage) {
  Boxed<std::string> empty;
  EXPECT_FALSE(empty.has_value());
  EXPECT_FALSE(static_cast<bool>(empty));
  EXPECT_EQ(empty.value_or("fallback"), "fallback");
  EXPECT_THROW(empty.value(), std::bad_optional_access);

  Boxed<std::string> path = std::string("part-0.parquet");
  ASSERT_TRUE(path);
  EXPECT_EQ(*path, "part-0.parquet");
  EXPECT_EQ(path->size(), 14u);

  Boxed<std::string> copy = path;  // deep copy
  EXPECT_EQ(copy, path);
  copy->append("x");
  EXPECT_EQ(*path, "part-0.parquet");
  EXPECT_FALSE(copy == path);
  EXPECT_FALSE(copy == empty);
  EXPECT_TRUE(empty == Boxed<std::string>(std::nullopt));

  Boxed<std::string> moved = std::move(copy);
  EXPECT_EQ(*moved, "part-0.parquetx");
  moved = std::nullopt;
  EXPECT_FALSE(moved.has_value());
  moved.emplace(3, 'z');
  EXPECT_EQ(*moved, "zzz");
  moved.reset();
  EXPECT_FALSE(moved);

  ColumnChunk chunk;
  EXPECT_FALSE(chunk.crypto_metadata);
  chunk.crypto_metadata = ColumnCryptoMetaData{EncryptionWithColumnKey{{"a"}, "key"}};
  ColumnChunk other = chunk;
  EXPECT_EQ(other, chunk);
  std::get<EncryptionWithColumnKey>(other.crypto_metadata->value).path_in_schema[0] = "b";
  EXPECT_FALSE(other == chunk);
}

}  // namespace
}  // namespace parquetry
