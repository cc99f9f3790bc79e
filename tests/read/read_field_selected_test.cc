// FileReader::read_field_selected (values decoded only at the selected rows,
// used by sparse filtered scans): every row it returns equals the same row
// of the whole field, for every field of every public file the reader takes,
// with values gathered and as dictionary arrays, at several densities.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "json_text.h"
#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/table/json_values.h"
#include "parquetry/util/bit_util.h"
#include "test_support.h"

namespace parquetry {
namespace {

using testing::value_json;

// `rows` bits, each set with probability `density`; garbage-free padding.
std::vector<uint8_t> random_selection(int64_t rows, double density, std::mt19937_64& rng, int64_t& count) {
  std::vector<uint8_t> bitmap(size_t((rows + 7) / 8), 0);
  std::bernoulli_distribution keep(density);
  count = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (keep(rng)) {
      bits::set_bit(bitmap.data(), i);
      ++count;
    }
  }
  return bitmap;
}

TEST(ReadFieldSelected, EqualsTheSelectedRowsOfTheWholeField) {
  std::mt19937_64 rng(20261204);
  int files = 0;
  int64_t rows_checked = 0;
  for (const auto& path : testing::public_parquet_files()) {
    for (bool dictionary_arrays : {false, true}) {
      ReaderOptions options;
      options.dictionary_arrays = dictionary_arrays;
      std::unique_ptr<FileReader> reader;
      try {
        reader = FileReader::open(path.string(), options);
        for (int rg = 0; rg < reader->num_row_groups(); ++rg) reader->read_row_group(rg);
      } catch (const Error&) {
        continue;  // refused files are covered by the conformance tests
      }
      SCOPED_TRACE(path.filename().string() + (dictionary_arrays ? " (dictionary arrays)" : ""));
      files += !dictionary_arrays;
      const int fields = int(reader->batch_schema()->fields.size());
      for (int rg = 0; rg < reader->num_row_groups(); ++rg) {
        const int64_t rows = reader->metadata().row_groups[size_t(rg)].num_rows;
        for (double density : {0.0, 0.01, 0.3, 1.0}) {
          int64_t count = 0;
          const std::vector<uint8_t> selection = random_selection(rows, density, rng, count);
          for (int f = 0; f < fields; ++f) {
            SCOPED_TRACE("row group " + std::to_string(rg) + ", field " + std::to_string(f) + ", density " +
                         std::to_string(density));
            const std::shared_ptr<ArrayData> whole = reader->read_field(rg, f);
            const std::shared_ptr<ArrayData> got = reader->read_field_selected(rg, f, selection.data());
            ASSERT_EQ(got->length, count);
            EXPECT_NO_THROW(got->validate());
            int64_t k = 0, nulls = 0;
            for (int64_t i = 0; i < rows; ++i) {
              if (!bits::get_bit(selection.data(), i)) continue;
              ASSERT_EQ(got->is_valid(k), whole->is_valid(i)) << "row " << i;
              ASSERT_EQ(value_json(*got, k), value_json(*whole, i)) << "row " << i;
              nulls += !whole->is_valid(i);
              ++k;
            }
            EXPECT_EQ(got->null_count, nulls);
            rows_checked += count;
          }
        }
      }
    }
  }
  EXPECT_GE(files, 40);
  EXPECT_GT(rows_checked, 100000);
}

TEST(ReadFieldSelected, RejectsWhatIsNotThere) {
  auto reader = FileReader::open(testing::parquet_testing("data/alltypes_plain.parquet").string());
  const std::vector<uint8_t> selection(64, 0xff);
  EXPECT_THROW(reader->read_field_selected(0, 99, selection.data()), Error);
  EXPECT_THROW(reader->read_field_selected(7, 0, selection.data()), Error);
  EXPECT_THROW(reader->read_field_selected(0, 0, nullptr), Error);
  // All eight rows of the id column, in order.
  const std::shared_ptr<ArrayData> ids = reader->read_field_selected(0, 0, selection.data());
  ASSERT_EQ(ids->length, 8);
  const std::shared_ptr<ArrayData> whole = reader->read_field(0, 0);
  for (int64_t i = 0; i < 8; ++i) EXPECT_EQ(value_json(*ids, i), value_json(*whole, i));
}

}  // namespace
}  // namespace parquetry
