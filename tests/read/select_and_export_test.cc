// Row selection and Arrow C stream export over batches the reader produced
// from the public files (nested ones included).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "json_text.h"
#include "parquetry/arrow_export.h"
#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/table/json_values.h"
#include "parquetry/table/select.h"
#include "parquetry/util/bit_util.h"
#include "test_support.h"

namespace parquetry {
namespace {

using testing::row_json;

const char* kFiles[] = {"data/alltypes_plain.parquet",     "data/nested_lists.snappy.parquet",
                        "data/nested_maps.snappy.parquet", "data/nullable.impala.parquet",
                        "data/list_columns.parquet",       "data/repeated_primitive_no_list.parquet",
                        "data/old_list_structure.parquet", "data/datapage_v2.snappy.parquet"};

TEST(SelectRanges, SelectedRowsEqualTheOriginalRows) {
  for (const char* name : kFiles) {
    SCOPED_TRACE(name);
    auto reader = FileReader::open(testing::parquet_testing(name).string());
    for (const RecordBatch& batch : reader->read_all()) {
      const int64_t n = batch.num_rows;
      // Every other row, then a tail range.
      std::vector<RowRange> ranges;
      for (int64_t r = 0; r < n; r += 2) ranges.push_back({r, r + 1});
      RecordBatch picked = select_ranges(batch, ranges);
      ASSERT_EQ(picked.num_rows, int64_t(ranges.size()));
      for (size_t i = 0; i < ranges.size(); ++i) {
        EXPECT_EQ(row_json(picked, int64_t(i)), row_json(batch, ranges[i].begin));
      }
      for (const auto& column : picked.columns) EXPECT_NO_THROW(column->validate());
      if (n >= 2) {
        std::vector<RowRange> tail = {{1, n}};
        RecordBatch rest = select_ranges(batch, tail);
        for (int64_t i = 0; i + 1 < n; ++i) EXPECT_EQ(row_json(rest, i), row_json(batch, i + 1));
      }
    }
  }
}

// Long random runs at every bit phase: the byte-at-a-time bit copy must
// match bit-by-bit selection for validity and boolean values.
TEST(SelectRanges, BooleanAndValidityBitsOfRandomRuns) {
  std::mt19937 rng(11);
  for (int round = 0; round < 20; ++round) {
    const int64_t n = 2000 + int64_t(rng() % 300);
    Buffer validity(size_t(bits::bytes_for_bits(n)));
    Buffer values(size_t(bits::bytes_for_bits(n)));
    for (size_t i = 0; i < validity.size(); ++i) validity.data()[i] = uint8_t(rng() | 0x11);
    for (size_t i = 0; i < values.size(); ++i) values.data()[i] = uint8_t(rng());
    auto array = std::make_shared<ArrayData>();
    array->type = std::make_shared<DataType>(DataType::make(TypeId::kBool));
    array->length = n - 3;
    array->offset = 3;  // a source phase other than 0
    int64_t nulls = 0;
    for (int64_t i = 0; i < array->length; ++i) nulls += !bits::get_bit(validity.data(), 3 + i);
    array->null_count = nulls;
    array->buffers = {BufferRef::adopt(std::move(validity)), BufferRef::adopt(std::move(values))};
    std::vector<RowRange> ranges;
    for (int64_t at = int64_t(rng() % 5); at < array->length;) {
      const int64_t length = std::min<int64_t>(1 + int64_t(rng() % 90), array->length - at);
      ranges.push_back({at, at + length});
      at += length + int64_t(rng() % 7);
    }
    const auto picked = select_ranges(*array, ranges);
    int64_t k = 0;
    int64_t picked_nulls = 0;
    for (const RowRange& r : ranges) {
      for (int64_t i = r.begin; i < r.end; ++i, ++k) {
        ASSERT_EQ(picked->is_valid(k), array->is_valid(i)) << "round " << round << " row " << i;
        picked_nulls += !array->is_valid(i);
        if (array->is_valid(i)) {
          ASSERT_EQ(bits::get_bit(picked->buffers[1].data, picked->offset + k),
                    bits::get_bit(array->buffers[1].data, array->offset + i))
              << "round " << round << " row " << i;
        }
      }
    }
    EXPECT_EQ(picked->length, k);
    EXPECT_EQ(picked->null_count, picked_nulls);
  }
}

TEST(SelectRanges, RejectsUnsortedRanges) {
  auto reader = FileReader::open(testing::parquet_testing("data/alltypes_plain.parquet").string());
  RecordBatch batch = reader->read_row_group(0);
  std::vector<RowRange> bad = {{3, 4}, {1, 2}};
  EXPECT_THROW(select_ranges(*batch.columns[0], bad), Error);
  std::vector<RowRange> outside = {{0, 99}};
  EXPECT_THROW(select_ranges(*batch.columns[0], outside), Error);
}

TEST(SelectRanges, RangesFromBitmap) {
  const uint8_t bitmap[2] = {0b10110001, 0b00000011};
  std::vector<RowRange> ranges = ranges_from_bitmap(bitmap, 10);
  std::vector<RowRange> expected = {{0, 1}, {4, 6}, {7, 10}};
  EXPECT_EQ(ranges, expected);
}

// The reader's batches leave through the C stream interface and come back
// through import; values are identical and every buffer is released (LSan).
TEST(ArrowExport, ReaderStreamRoundTripsThroughTheCInterface) {
  for (const char* name : kFiles) {
    SCOPED_TRACE(name);
    std::vector<std::string> expected;
    {
      auto reader = FileReader::open(testing::parquet_testing(name).string());
      for (const RecordBatch& batch : reader->read_all()) {
        for (int64_t r = 0; r < batch.num_rows; ++r) expected.push_back(row_json(batch, r));
      }
    }
    ReaderOptions options;
    options.batch_size = 3;  // several batches, sliced with offsets
    // The stream shares the reader's state: the FileReader (a temporary
    // here) is gone before the first batch is read.
    ArrowArrayStream stream{};
    export_stream(FileReader::open(testing::parquet_testing(name).string(), options)->batches(), &stream);
    std::unique_ptr<BatchReader> imported = import_stream(&stream);
    std::vector<std::string> actual;
    RecordBatch batch;
    while (imported->next(batch)) {
      EXPECT_LE(batch.num_rows, 3);
      for (int64_t r = 0; r < batch.num_rows; ++r) actual.push_back(row_json(batch, r));
    }
    EXPECT_EQ(actual, expected);
  }
}

}  // namespace
}  // namespace parquetry

namespace parquetry {
namespace {

// alltypes_tiny_pages has many small pages per chunk and an OffsetIndex:
// reading a few row ranges decodes only the overlapping pages and returns
// exactly the rows a full read has at those positions.
TEST(PageIndexSkipping, RangesReadOnlyOverlappingPagesAndExactRows) {
  const std::string path = testing::parquet_testing("data/alltypes_tiny_pages.parquet").string();
  auto full_reader = FileReader::open(path);
  RecordBatch full = full_reader->read_row_group(0);
  auto reader = FileReader::open(path);
  std::vector<RowRange> ranges = {{5, 9}, {1000, 1003}, {7000, 7300}};
  RecordBatch part = reader->read_row_group(0, ranges);
  ASSERT_EQ(part.num_rows, 4 + 3 + 300);
  int64_t k = 0;
  for (const RowRange& range : ranges) {
    for (int64_t row = range.begin; row < range.end; ++row, ++k) {
      ASSERT_EQ(row_json(part, k), row_json(full, row)) << "row " << row;
    }
  }
  FileReader::Stats stats = reader->stats();
  EXPECT_GT(stats.pages_skipped, 0);
  EXPECT_GT(stats.bytes_skipped, 0);
  FileReader::Stats full_stats = full_reader->stats();
  EXPECT_EQ(full_stats.pages_skipped, 0);
  EXPECT_LT(stats.pages_read * 10, full_stats.pages_read) << "most pages should be skipped";
}

TEST(PageIndexSkipping, FilesWithoutIndexStillReturnExactRows) {
  const std::string path = testing::parquet_testing("data/nested_maps.snappy.parquet").string();
  auto reader = FileReader::open(path);
  RecordBatch full = reader->read_row_group(0);
  std::vector<RowRange> ranges = {{1, 2}, {4, 6}};
  RecordBatch part = reader->read_row_group(0, ranges);
  ASSERT_EQ(part.num_rows, 3);
  EXPECT_EQ(row_json(part, 0), row_json(full, 1));
  EXPECT_EQ(row_json(part, 2), row_json(full, 5));
}

}  // namespace
}  // namespace parquetry
