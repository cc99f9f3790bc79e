// ReaderOptions::dictionary_arrays: every public file reads to the same
// values with and without it, eligible columns come out as dictionary arrays,
// and the full-scan fold over dictionaries equals the fold over values.
#include <gtest/gtest.h>

#include "json_text.h"
#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"
#include "parquetry/table/json_values.h"
#include "parquetry/util/json_writer.h"
#include "test_support.h"

namespace parquetry {
namespace {

using testing::row_json;

bool same_scalar(const ScanScalar& a, const ScanScalar& b) {
  if (a.index() != b.index()) return false;
  if (const auto* x = std::get_if<double>(&a)) {
    const double y = std::get<double>(b);
    return x == nullptr ? false : (*x == y || (*x != *x && y != y));
  }
  return a == b;
}

TEST(DictionaryArrays, EveryPublicFileReadsTheSameValues) {
  int files = 0;
  int dictionary_columns = 0;
  for (const auto& path : testing::public_parquet_files()) {
    std::vector<RecordBatch> plain;
    try {
      plain = FileReader::open(path.string())->read_all();
    } catch (const Error&) {
      continue;  // refused files are covered by the conformance tests
    }
    SCOPED_TRACE(path.filename().string());
    ReaderOptions options;
    options.dictionary_arrays = true;
    auto reader = FileReader::open(path.string(), options);
    for (const Field& field : reader->batch_schema()->fields)
      dictionary_columns += field.type.id == TypeId::kDictionary;
    const std::vector<RecordBatch> dictionary = reader->read_all();
    ASSERT_EQ(dictionary.size(), plain.size());
    for (size_t b = 0; b < plain.size(); ++b) {
      ASSERT_EQ(dictionary[b].num_rows, plain[b].num_rows);
      for (const auto& column : dictionary[b].columns) EXPECT_NO_THROW(column->validate());
      for (int64_t r = 0; r < plain[b].num_rows; ++r) {
        ASSERT_EQ(row_json(dictionary[b], r), row_json(plain[b], r)) << "row " << r;
      }
    }
    // The fold over dictionaries equals the fold over gathered values.
    ReaderOptions fold_options;
    const ScanSummary want = scan_file(path.string(), fold_options);
    const ScanSummary got = scan_file(path.string(), options);
    ASSERT_EQ(got.rows, want.rows);
    ASSERT_EQ(got.columns.size(), want.columns.size());
    for (size_t c = 0; c < want.columns.size(); ++c) {
      EXPECT_EQ(got.columns[c].count, want.columns[c].count) << want.columns[c].name;
      EXPECT_EQ(got.columns[c].nulls, want.columns[c].nulls) << want.columns[c].name;
      EXPECT_TRUE(same_scalar(got.columns[c].min, want.columns[c].min)) << want.columns[c].name;
      EXPECT_TRUE(same_scalar(got.columns[c].max, want.columns[c].max)) << want.columns[c].name;
      EXPECT_TRUE(got.columns[c].type == want.columns[c].type) << want.columns[c].name;
    }
    ++files;
  }
  EXPECT_GE(files, 40);
  EXPECT_GE(dictionary_columns, 20);  // the option is exercised, not vacuous
}

TEST(DictionaryArrays, SlicedBatchesAndRowRangesKeepTheDictionary) {
  const std::string file = testing::parquet_testing("data/plain-dict-uncompressed-checksum.parquet").string();
  ReaderOptions options;
  options.dictionary_arrays = true;
  options.batch_size = 7;
  auto reader = FileReader::open(file, options);
  int dictionary_fields = 0;
  for (const Field& field : reader->batch_schema()->fields)
    dictionary_fields += field.type.id == TypeId::kDictionary;
  ASSERT_GE(dictionary_fields, 1);
  auto plain = FileReader::open(file)->read_all();
  auto batches = reader->batches();
  RecordBatch batch;
  int64_t row = 0;
  while (batches->next(batch)) {
    ASSERT_LE(batch.num_rows, 7);
    for (int64_t r = 0; r < batch.num_rows; ++r, ++row)
      EXPECT_EQ(row_json(batch, r), row_json(plain[0], row));
  }
  EXPECT_EQ(row, plain[0].num_rows);
  // Row ranges through the page index keep the dictionary too.
  const std::vector<RowRange> ranges = {{3, 9}, {500, 502}};
  const RecordBatch picked = reader->read_row_group(0, ranges);
  ASSERT_EQ(picked.num_rows, 8);
  EXPECT_EQ(row_json(picked, 0), row_json(plain[0], 3));
  EXPECT_EQ(row_json(picked, 7), row_json(plain[0], 501));
}

}  // namespace
}  // namespace parquetry
