// The writer's dictionary trial and fallback: a chunk whose first page does
// not shrink under its dictionary (random ints, unique strings) is written
// without a dictionary page, low-cardinality chunks stay dictionary-encoded,
// a dictionary that overflows after pages used it ends with fallback pages,
// and in every case the values read back equal.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "write_test_support.h"

namespace parquetry {
namespace {

using testing::make_batch;
using testing::make_fixed;
using testing::make_strings;

bool has_encoding(const ColumnMetaData& meta, Encoding e) {
  return std::find(meta.encodings.begin(), meta.encodings.end(), e) != meta.encodings.end();
}

int64_t pages_with(const ColumnMetaData& meta, PageType type, Encoding e) {
  int64_t count = 0;
  for (const PageEncodingStats& s : meta.encoding_stats) {
    if (s.page_type == type && s.encoding == e) count += s.count;
  }
  return count;
}

// The high-cardinality chunk has no dictionary page and only `fallback` data pages.
void expect_no_dictionary(const ColumnMetaData& meta, Encoding fallback) {
  EXPECT_FALSE(meta.dictionary_page_offset.has_value());
  EXPECT_FALSE(has_encoding(meta, Encoding::RLE_DICTIONARY));
  EXPECT_FALSE(has_encoding(meta, Encoding::PLAIN_DICTIONARY));
  EXPECT_TRUE(has_encoding(meta, fallback));
  EXPECT_EQ(pages_with(meta, PageType::DICTIONARY_PAGE, Encoding::PLAIN), 0);
  EXPECT_GT(
      pages_with(meta, PageType::DATA_PAGE, fallback) + pages_with(meta, PageType::DATA_PAGE_V2, fallback),
      0);
}

// The low-cardinality chunk has a dictionary page and only dictionary-encoded data pages.
void expect_dictionary_only(const ColumnMetaData& meta) {
  EXPECT_TRUE(meta.dictionary_page_offset.has_value());
  EXPECT_TRUE(has_encoding(meta, Encoding::RLE_DICTIONARY));
  EXPECT_EQ(pages_with(meta, PageType::DICTIONARY_PAGE, Encoding::PLAIN), 1);
  for (const PageEncodingStats& s : meta.encoding_stats) {
    if (s.page_type != PageType::DICTIONARY_PAGE) {
      EXPECT_EQ(s.encoding, Encoding::RLE_DICTIONARY);
    }
  }
}

struct Columns {
  std::shared_ptr<const BatchSchema> schema;
  RecordBatch batch;
  int32_t high_min = 0, high_max = 0;
};

// random int32 | int32 % 16 (10% null) | unique strings | 20 distinct strings | random double
Columns make_columns(int64_t rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const size_t n = static_cast<size_t>(rows);
  std::vector<int32_t> high(n), low(n);
  std::vector<bool> low_valid(n);
  std::vector<std::string> unique(n), few(n);
  std::vector<double> doubles(n);
  Columns out;
  out.high_min = INT32_MAX;
  out.high_max = INT32_MIN;
  for (int64_t i = 0; i < rows; ++i) {
    high[size_t(i)] = int32_t(uint32_t(rng()));
    out.high_min = std::min(out.high_min, high[size_t(i)]);
    out.high_max = std::max(out.high_max, high[size_t(i)]);
    low[size_t(i)] = int32_t(rng() % 16) - 8;
    low_valid[size_t(i)] = rng() % 10 != 0;
    unique[size_t(i)] = "id-" + std::to_string(rng());
    few[size_t(i)] = "name-" + std::to_string(rng() % 20);
    doubles[size_t(i)] = double(rng() % 1000000007) / 7.0;
  }
  BatchSchema schema;
  schema.fields = {Field{"high", DataType::make(TypeId::kInt32), false, -1, {}},
                   Field{"low", DataType::make(TypeId::kInt32), true, -1, {}},
                   Field{"unique", DataType::make(TypeId::kString), false, -1, {}},
                   Field{"few", DataType::make(TypeId::kString), true, -1, {}},
                   Field{"real", DataType::make(TypeId::kFloat64), true, -1, {}}};
  out.schema = std::make_shared<const BatchSchema>(schema);
  out.batch = make_batch(out.schema, {make_fixed(DataType::make(TypeId::kInt32), high),
                                      make_fixed(DataType::make(TypeId::kInt32), low, low_valid),
                                      make_strings(DataType::make(TypeId::kString), unique),
                                      make_strings(DataType::make(TypeId::kString), few),
                                      make_fixed(DataType::make(TypeId::kFloat64), doubles)});
  return out;
}

// A batch of one column `v` of `type` holding `values`, and its schema.
template <typename T>
RecordBatch single_column(TypeId type, bool nullable, const std::vector<T>& values, BatchSchema& schema) {
  schema.fields = {Field{"v", DataType::make(type), nullable, -1, {}}};
  return make_batch(std::make_shared<const BatchSchema>(schema), {make_fixed(DataType::make(type), values)});
}

std::string le_bytes(int32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }

TEST(DictionaryFallback, HighCardinalityChunksDropTheDictionaryLowOnesKeepIt) {
  const Columns c = make_columns(50'000, 7);
  for (const bool v2 : {false, true}) {
    for (const CompressionCodec codec : {CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY}) {
      SCOPED_TRACE(std::string(v2 ? "v2 " : "v1 ") + std::string(codec_name(codec)));
      WriterOptions options;
      options.data_page_v2 = v2;
      options.codec = codec;
      options.distinct_count = true;
      auto reader = testing::open_memory(testing::write_to_memory(*c.schema, {c.batch}, options));
      ASSERT_EQ(reader->metadata().row_groups.size(), 1u);
      const auto& columns = reader->metadata().row_groups[0].columns;
      const ColumnMetaData& high = *columns.at(0).meta_data;
      expect_no_dictionary(high, Encoding::PLAIN);
      EXPECT_GE(high.encoding_stats.size(), 1u);
      // Statistics cover every value although the first page was dictionary-encoded at first.
      ASSERT_TRUE(high.statistics.has_value());
      EXPECT_EQ(std::string(*high.statistics->min_value), le_bytes(c.high_min));
      EXPECT_EQ(std::string(*high.statistics->max_value), le_bytes(c.high_max));
      EXPECT_FALSE(high.statistics->distinct_count.has_value());
      expect_dictionary_only(*columns.at(1).meta_data);
      ASSERT_TRUE(columns.at(1).meta_data->statistics->distinct_count.has_value());
      EXPECT_EQ(*columns.at(1).meta_data->statistics->distinct_count, 16);
      expect_no_dictionary(*columns.at(2).meta_data, Encoding::PLAIN);
      expect_dictionary_only(*columns.at(3).meta_data);
      expect_no_dictionary(*columns.at(4).meta_data, Encoding::PLAIN);
      EXPECT_EQ(testing::render_rows(reader->read_all()), testing::render_rows({c.batch}));
    }
  }
}

TEST(DictionaryFallback, DroppedDictionaryUsesTheConfiguredFallbackEncoding) {
  const Columns c = make_columns(30'000, 11);
  WriterOptions options;
  options.codec = CompressionCodec::ZSTD;
  options.columns["high"].encoding = Encoding::DELTA_BINARY_PACKED;
  options.columns["high"].dictionary = true;
  options.columns["unique"].encoding = Encoding::DELTA_LENGTH_BYTE_ARRAY;
  options.columns["unique"].dictionary = true;
  options.columns["real"].encoding = Encoding::BYTE_STREAM_SPLIT;
  options.columns["real"].dictionary = true;
  auto reader = testing::open_memory(testing::write_to_memory(*c.schema, {c.batch}, options));
  const auto& columns = reader->metadata().row_groups.at(0).columns;
  expect_no_dictionary(*columns.at(0).meta_data, Encoding::DELTA_BINARY_PACKED);
  expect_dictionary_only(*columns.at(1).meta_data);
  expect_no_dictionary(*columns.at(2).meta_data, Encoding::DELTA_LENGTH_BYTE_ARRAY);
  expect_no_dictionary(*columns.at(4).meta_data, Encoding::BYTE_STREAM_SPLIT);
  EXPECT_EQ(testing::render_rows(reader->read_all()), testing::render_rows({c.batch}));
}

TEST(DictionaryFallback, OverflowBeforeTheFirstPageDropsTheDictionary) {
  // One page would hold every row, and the dictionary limit is hit inside it.
  const Columns c = make_columns(5'000, 13);
  WriterOptions options;
  options.page_rows = 1'000'000;
  options.page_bytes = 64 << 20;
  options.dictionary_page_bytes = 256;
  auto reader = testing::open_memory(testing::write_to_memory(*c.schema, {c.batch}, options));
  const auto& columns = reader->metadata().row_groups.at(0).columns;
  expect_no_dictionary(*columns.at(0).meta_data, Encoding::PLAIN);
  expect_dictionary_only(*columns.at(1).meta_data);  // 16 entries = 64 bytes
  expect_no_dictionary(*columns.at(2).meta_data, Encoding::PLAIN);
  expect_dictionary_only(*columns.at(3).meta_data);
  EXPECT_EQ(testing::render_rows(reader->read_all()), testing::render_rows({c.batch}));
}

TEST(DictionaryFallback, OverflowAfterDictionaryPagesEndsWithFallbackPages) {
  // The first 4,000 rows have 50 distinct values (the dictionary pays off on
  // the first page), then every value is new and the 4 KiB dictionary
  // overflows: dictionary page, RLE_DICTIONARY pages, then PLAIN pages.
  const int64_t rows = 20'000;
  std::vector<int64_t> values(static_cast<size_t>(rows));
  std::mt19937_64 rng(17);
  for (int64_t i = 0; i < rows; ++i) values[size_t(i)] = i < 4000 ? int64_t(rng() % 50) : int64_t(rng());
  BatchSchema schema;
  const RecordBatch batch = single_column(TypeId::kInt64, false, values, schema);
  WriterOptions options;
  options.page_rows = 1000;
  options.dictionary_page_bytes = 4096;
  auto reader = testing::open_memory(testing::write_to_memory(schema, {batch}, options));
  const ColumnMetaData& meta = *reader->metadata().row_groups.at(0).columns.at(0).meta_data;
  EXPECT_TRUE(meta.dictionary_page_offset.has_value());
  EXPECT_EQ(pages_with(meta, PageType::DICTIONARY_PAGE, Encoding::PLAIN), 1);
  EXPECT_GE(pages_with(meta, PageType::DATA_PAGE, Encoding::RLE_DICTIONARY), 4);
  EXPECT_GE(pages_with(meta, PageType::DATA_PAGE, Encoding::PLAIN), 10);
  EXPECT_TRUE(has_encoding(meta, Encoding::RLE_DICTIONARY));
  EXPECT_TRUE(has_encoding(meta, Encoding::PLAIN));
  EXPECT_EQ(testing::render_rows(reader->read_all()), testing::render_rows({batch}));
}

TEST(DictionaryFallback, EveryRowGroupDecidesAgain) {
  // Row group 0 is low-cardinality, row group 1 random: only the first keeps its dictionary.
  const int64_t rows = 8'000;
  std::vector<int32_t> values(static_cast<size_t>(rows));
  std::mt19937_64 rng(23);
  for (int64_t i = 0; i < rows; ++i) values[size_t(i)] = i < 4000 ? int32_t(rng() % 10) : int32_t(rng());
  BatchSchema schema;
  const RecordBatch batch = single_column(TypeId::kInt32, true, values, schema);
  WriterOptions options;
  options.row_group_rows = 4000;
  auto reader = testing::open_memory(testing::write_to_memory(schema, {batch}, options));
  ASSERT_EQ(reader->metadata().row_groups.size(), 2u);
  expect_dictionary_only(*reader->metadata().row_groups[0].columns.at(0).meta_data);
  expect_no_dictionary(*reader->metadata().row_groups[1].columns.at(0).meta_data, Encoding::PLAIN);
  EXPECT_EQ(testing::render_rows(reader->read_all()), testing::render_rows({batch}));
}

}  // namespace
}  // namespace parquetry
