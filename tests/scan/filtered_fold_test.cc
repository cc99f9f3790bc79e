// Folding a filtered scan in place: ScanAccumulator::add with a selection
// equals the fold of the selected rows copied out, on every public file; and
// FilteredScan::fold (selection bitmaps, row groups split over threads)
// equals the fold of the compacted batches FilteredScan::next returns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/predicate.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"
#include "parquetry/table/select.h"
#include "parquetry/util/bit_util.h"
#include "parquetry/util/buffer.h"
#include "parquetry/writer.h"
#include "summary_compare.h"
#include "test_support.h"

namespace parquetry {
namespace {

std::string file(const char* name) { return testing::parquet_testing(std::string("data/") + name).string(); }

// A random selection of `rows` bits, each set with probability `density`.
std::vector<uint8_t> random_selection(int64_t rows, double density, std::mt19937_64& rng) {
  std::vector<uint8_t> bitmap(size_t((rows + 7) / 8), 0);
  std::bernoulli_distribution keep(density);
  for (int64_t i = 0; i < rows; ++i) {
    if (keep(rng)) bitmap[size_t(i >> 3)] |= uint8_t(1u << (i & 7));
  }
  return bitmap;
}

TEST(SelectionFold, EqualsTheFoldOfTheSelectedRowsCopiedOut) {
  std::mt19937_64 rng(20261203);
  int files = 0;
  int64_t selected_total = 0;
  for (const auto& path : testing::public_parquet_files()) {
    for (bool dictionary_arrays : {false, true}) {
      std::vector<RecordBatch> batches;
      std::shared_ptr<const BatchSchema> schema;
      try {
        ReaderOptions options;
        options.dictionary_arrays = dictionary_arrays;
        auto reader = FileReader::open(path.string(), options);
        schema = reader->batch_schema();
        batches = reader->read_all();
      } catch (const Error&) {
        continue;  // refused files are covered by the conformance tests
      }
      SCOPED_TRACE(path.filename().string() + (dictionary_arrays ? " (dictionary arrays)" : ""));
      files += !dictionary_arrays;
      for (const RecordBatch& whole : batches) {
        // Slices at an odd offset, so validity and selection words are not aligned to each other.
        RecordBatch batch = whole;
        if (whole.num_rows > 13) {
          batch.num_rows = whole.num_rows - 8;
          for (auto& column : batch.columns) column = slice(column, 3, batch.num_rows);
        }
        for (double density : {0.0, 0.02, 0.5, 0.97, 1.0}) {
          SCOPED_TRACE("density " + std::to_string(density));
          const std::vector<uint8_t> selection = random_selection(batch.num_rows, density, rng);
          const std::vector<RowRange> ranges = ranges_from_bitmap(selection.data(), batch.num_rows);
          ScanAccumulator want(*schema);
          want.add(select_ranges(batch, ranges));
          ScanAccumulator got(*schema);
          got.add(batch, selection.data());
          testing::expect_same_summary(got.summary(), want.summary());
          selected_total += want.summary().rows;
        }
      }
    }
  }
  EXPECT_GE(files, 40);
  EXPECT_GT(selected_total, 10000);
}

// Columns whose extremes (and NaN, infinities, the int64 limits) sit mostly
// on unselected or null rows: the masked lanes must fold only selected valid
// values, whatever the mix of full, sparse and partial 64-row words.
TEST(SelectionFold, MaskedLanesSkipUnselectedExtremes) {
  constexpr int64_t kRows = 5000;
  std::mt19937_64 rng(99);
  BatchSchema schema;
  for (const auto& [name, id] : {std::pair{"d", TypeId::kFloat64}, std::pair{"i", TypeId::kInt64}}) {
    Field field;
    field.name = name;
    field.type = DataType::make(id);
    schema.fields.push_back(field);
  }
  auto shared_schema = std::make_shared<BatchSchema>(schema);
  const double kSpecial[] = {std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(), 1e300, -1e300};
  const int64_t kExtremes[] = {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  for (double density : {0.03, 0.3, 0.7, 0.99}) {
    SCOPED_TRACE("density " + std::to_string(density));
    // Runs of selected and unselected words as well as scattered bits.
    std::vector<uint8_t> selection = random_selection(kRows, density, rng);
    for (size_t b = 0; b + 8 <= selection.size(); b += 24)
      std::memset(&selection[b], rng() % 2 ? 0xFF : 0, 8);
    Buffer doubles, integers, validity;
    validity.resize(size_t((kRows + 7) / 8));
    std::memset(validity.data(), 0, validity.size());
    int64_t nulls = 0;
    for (int64_t r = 0; r < kRows; ++r) {
      const bool valid = rng() % 7 != 0;
      const bool selected = (selection[size_t(r >> 3)] >> (r & 7)) & 1;
      // Selected valid rows hold ordinary values (or NaN, which no fold
      // takes); the extremes go to the rows a fold must skip.
      double d = double(int64_t(rng() % 2001) - 1000) / 8;
      int64_t v = int64_t(rng() % 100001) - 50000;
      if (!(valid && selected) && rng() % 2 == 0) {
        d = kSpecial[rng() % 5];
        v = kExtremes[rng() % 2];
      } else if (rng() % 20 == 0) {
        d = kSpecial[0];
      }
      doubles.append(&d, 8);
      integers.append(&v, 8);
      if (valid) {
        validity.data()[r >> 3] |= uint8_t(1u << (r & 7));
      } else {
        ++nulls;
      }
    }
    RecordBatch batch;
    batch.schema = shared_schema;
    batch.num_rows = kRows;
    const BufferRef valid = BufferRef::adopt(std::move(validity));
    for (Buffer* values : {&doubles, &integers}) {
      auto array = std::make_shared<ArrayData>();
      array->type =
          std::make_shared<DataType>(DataType::make(values == &doubles ? TypeId::kFloat64 : TypeId::kInt64));
      array->length = kRows;
      array->null_count = nulls;
      array->buffers = {valid, BufferRef::adopt(std::move(*values))};
      batch.columns.push_back(array);
    }
    const std::vector<RowRange> ranges = ranges_from_bitmap(selection.data(), kRows);
    ScanAccumulator want(schema);
    want.add(select_ranges(batch, ranges));
    ScanAccumulator got(schema);
    got.add(batch, selection.data());
    testing::expect_same_summary(got.summary(), want.summary());
    // And against a plain loop over the rows.
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    int64_t low = std::numeric_limits<int64_t>::max(), high = std::numeric_limits<int64_t>::min();
    int64_t count = 0;
    const double* d = batch.columns[0]->buffers[1].as<double>();
    const int64_t* v = batch.columns[1]->buffers[1].as<int64_t>();
    for (int64_t r = 0; r < kRows; ++r) {
      if (!((selection[size_t(r >> 3)] >> (r & 7)) & 1) || !batch.columns[0]->is_valid(r)) continue;
      ++count;
      if (d[r] < lo) lo = d[r];
      if (d[r] > hi) hi = d[r];
      low = std::min(low, v[r]);
      high = std::max(high, v[r]);
    }
    const ColumnScanSummary& folded_d = got.summary().columns[0];
    const ColumnScanSummary& folded_i = got.summary().columns[1];
    EXPECT_EQ(folded_d.count, count);
    EXPECT_EQ(std::get<double>(folded_d.min), lo);
    EXPECT_EQ(std::get<double>(folded_d.max), hi);
    EXPECT_GT(lo, -1000);  // the extremes really were left out
    EXPECT_EQ(std::get<int64_t>(folded_i.min), low);
    EXPECT_EQ(std::get<int64_t>(folded_i.max), high);
    EXPECT_GT(low, -50001);
  }
}

TEST(SelectionFold, MergeEqualsOneAccumulator) {
  auto reader = FileReader::open(file("alltypes_tiny_pages.parquet"));
  const std::vector<RecordBatch> batches = reader->read_all();
  ScanAccumulator one(*reader->batch_schema());
  ScanAccumulator first(*reader->batch_schema()), second(*reader->batch_schema());
  for (size_t b = 0; b < batches.size(); ++b) {
    one.add(batches[b]);
    (b % 2 == 0 ? first : second).add(batches[b]);
  }
  first.merge(second.summary());
  testing::expect_same_summary(first.summary(), one.summary());
  ScanAccumulator other(BatchSchema{});
  EXPECT_THROW(other.merge(one.summary()), Error);
}

// The reference: FilteredScan::next's compacted batches, folded.
ScanSummary fold_of_batches(const std::string& path, FilteredScanOptions options) {
  options.threads = 1;
  auto scan = FilteredScan::open(path, options);
  ScanAccumulator accumulator(*scan->schema());
  RecordBatch batch;
  while (scan->next(batch)) accumulator.add(batch);
  return accumulator.summary();
}

TEST(FilteredFold, EqualsTheFoldOfTheCompactedBatches) {
  struct Case {
    const char* file;
    const char* where;
  };
  const std::vector<Case> cases = {
      {"alltypes_tiny_pages.parquet", "id = 100"},
      {"alltypes_tiny_pages.parquet", "id < 37 OR id > 7250"},
      {"alltypes_tiny_pages.parquet", "id BETWEEN 3000 AND 3100"},
      {"alltypes_tiny_pages.parquet", "tinyint_col IN (1, 7)"},
      {"alltypes_tiny_pages.parquet", "float_col > 5.5"},
      {"alltypes_tiny_pages.parquet", "string_col = '3' AND month = 2"},
      {"alltypes_tiny_pages.parquet", "month = 2 AND NOT string_col IN ('1', '2') AND id > 100"},
      {"alltypes_tiny_pages.parquet", "timestamp_col >= '2009-01-01' AND timestamp_col < '2009-01-02'"},
      {"alltypes_tiny_pages.parquet", "id > -1"},
      {"alltypes_tiny_pages.parquet", "id > 100000"},
      {"alltypes_plain.parquet", "id >= 3"},
      {"data_index_bloom_encoding_stats.parquet", "\"String\" > 'm'"},
      {"nullable.impala.parquet", "id > 2"},
      {"datapage_v2.snappy.parquet", "a IS NOT NULL AND b > 2"},
  };
  int64_t selected = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.file) + " WHERE " + c.where);
    const std::string path = file(c.file);
    for (bool dictionary_arrays : {false, true}) {
      for (bool page_index : {true, false}) {
        FilteredScanOptions options;
        options.filter = parse_predicate(c.where);
        options.dictionary_arrays = dictionary_arrays;
        options.use_page_index = page_index;
        const ScanSummary want = fold_of_batches(path, options);
        selected += want.rows;
        for (int threads : {1, 2}) {
          SCOPED_TRACE("threads " + std::to_string(threads) + (dictionary_arrays ? ", dictionary" : "") +
                       (page_index ? ", page index" : ""));
          options.threads = threads;
          testing::expect_same_summary(FilteredScan::fold(path, options), want);
        }
        // With a projection that holds the filter column and the virtual ones.
        options.threads = 1;
        options.columns = {options.filter.columns().front(), kRowNumberColumn, kRowGroupColumn};
        testing::expect_same_summary(FilteredScan::fold(path, options), fold_of_batches(path, options));
      }
    }
  }
  EXPECT_GT(selected, 5000);
}

// Three row groups of 2,000 rows: `price` (double) and `tag` (string),
// dictionary-encoded with nulls, and a plain `id`.
std::string write_dictionary_file() {
  BatchSchema schema;
  for (auto [name, id] : {std::pair{"id", TypeId::kInt64}, std::pair{"price", TypeId::kFloat64},
                          std::pair{"tag", TypeId::kString}}) {
    Field field;
    field.name = name;
    field.type = DataType::make(id);
    field.nullable = id != TypeId::kInt64;
    schema.fields.push_back(field);
  }
  constexpr int64_t kRows = 6000;
  Buffer ids, prices, tag_offsets, tag_bytes;
  Buffer price_valid(size_t(bits::bytes_for_bits(kRows))), tag_valid(size_t(bits::bytes_for_bits(kRows)));
  std::memset(price_valid.data(), 0, price_valid.size());
  std::memset(tag_valid.data(), 0, tag_valid.size());
  const char* tags[] = {"a", "b", "cc", "ddd"};
  int32_t offset = 0;
  tag_offsets.append(&offset, 4);
  int64_t price_nulls = 0, tag_nulls = 0;
  for (int64_t row = 0; row < kRows; ++row) {
    ids.append(&row, 8);
    const double price = double((row * 7) % 5) * 0.75;  // 0, 0.75, ..., 3
    prices.append(&price, 8);
    if (row % 11 == 3) {
      ++price_nulls;
    } else {
      bits::set_bit(price_valid.data(), row);
    }
    if (row % 13 == 5) {
      ++tag_nulls;
    } else {
      bits::set_bit(tag_valid.data(), row);
      const char* tag = tags[(row / 3) % 4];
      tag_bytes.append(tag, std::strlen(tag));
      offset += int32_t(std::strlen(tag));
    }
    tag_offsets.append(&offset, 4);
  }
  RecordBatch batch;
  batch.schema = std::make_shared<BatchSchema>(schema);
  batch.num_rows = kRows;
  auto column = [&](TypeId id, int64_t nulls, std::vector<BufferRef> buffers) {
    auto array = std::make_shared<ArrayData>();
    array->type = std::make_shared<DataType>(DataType::make(id));
    array->length = kRows;
    array->null_count = nulls;
    array->buffers = std::move(buffers);
    batch.columns.push_back(array);
  };
  column(TypeId::kInt64, 0, {BufferRef{}, BufferRef::adopt(std::move(ids))});
  column(TypeId::kFloat64, price_nulls,
         {BufferRef::adopt(std::move(price_valid)), BufferRef::adopt(std::move(prices))});
  column(TypeId::kString, tag_nulls,
         {BufferRef::adopt(std::move(tag_valid)), BufferRef::adopt(std::move(tag_offsets)),
          BufferRef::adopt(std::move(tag_bytes))});
  const std::string path = (testing::temp_dir() / "filtered_fold_dictionary.parquet").string();
  WriterOptions options;
  options.row_group_rows = 2000;
  auto writer = FileWriter::open(path, schema, options);
  writer->write(batch);
  writer->close();
  return path;
}

// The predicate reads dictionary-encoded columns as dictionary arrays. An
// output that wants their values decodes them from those indices: each
// column's pages are read once, whether the output is values or dictionary
// arrays, and the fold equals that of the compacted batches.
TEST(FilteredFold, PredicateColumnsAreReadOnceWhateverTheOutputType) {
  const std::string path = write_dictionary_file();
  std::vector<int64_t> pages;
  for (bool dictionary_arrays : {false, true}) {
    SCOPED_TRACE(dictionary_arrays ? "dictionary arrays" : "values");
    FilteredScanOptions options;
    options.filter = parse_predicate("price > 2 OR tag = 'b'");
    options.dictionary_arrays = dictionary_arrays;
    auto scan = FilteredScan::open(path, options);
    ScanAccumulator in_place(*scan->schema());
    RecordBatch batch;
    std::vector<uint8_t> selection;
    int64_t kept = 0;
    for (int64_t n; (n = scan->next_selection(batch, selection)) > 0;) {
      kept += n;
      EXPECT_EQ(batch.columns[0]->type->id, TypeId::kInt64);
      EXPECT_EQ(batch.columns[1]->type->id, dictionary_arrays ? TypeId::kDictionary : TypeId::kFloat64);
      EXPECT_EQ(batch.columns[2]->type->id, dictionary_arrays ? TypeId::kDictionary : TypeId::kString);
      in_place.add(batch, selection.data());
    }
    pages.push_back(scan->stats().pages_read);
    const ScanSummary want = fold_of_batches(path, options);
    testing::expect_same_summary(in_place.summary(), want);
    testing::expect_same_summary(FilteredScan::fold(path, options), want);
    // price in {2.25, 3} or tag "b": rows where (row * 7) % 5 >= 3, or (row / 3) % 4 == 1.
    EXPECT_EQ(kept, want.rows);
    EXPECT_GT(kept, 2500);
    EXPECT_LT(kept, 4500);
    EXPECT_EQ(std::get<double>(want.columns[1].max), 3.0);
    EXPECT_EQ(std::get<std::string>(want.columns[2].min), "a");
  }
  // Values: the two predicate columns decoded from the predicate's indices, not read again.
  EXPECT_EQ(pages[0], pages[1]);
  EXPECT_GE(pages[0], 9);  // three columns, three row groups
}

TEST(FilteredFold, FoldsExactlyTheSurvivors) {
  FilteredScanOptions options;
  options.filter = parse_predicate("id = 100 OR id = 4000");
  options.columns = {"id", "bool_col", kRowNumberColumn};
  options.threads = 2;
  const ScanSummary summary = FilteredScan::fold(file("alltypes_tiny_pages.parquet"), options);
  EXPECT_EQ(summary.rows, 2);
  ASSERT_EQ(summary.columns.size(), 3u);
  EXPECT_EQ(summary.columns[0].count, 2);
  EXPECT_EQ(summary.columns[0].nulls, 0);
  EXPECT_EQ(std::get<int64_t>(summary.columns[0].min), 100);
  EXPECT_EQ(std::get<int64_t>(summary.columns[0].max), 4000);
  EXPECT_EQ(summary.columns[1].count, 2);
  // The file rows of the two ids, as the batch path reports them.
  std::vector<int64_t> rows;
  auto scan = FilteredScan::open(file("alltypes_tiny_pages.parquet"), options);
  RecordBatch batch;
  while (scan->next(batch)) {
    const ArrayData& numbers = *batch.columns[2];
    for (int64_t i = 0; i < batch.num_rows; ++i)
      rows.push_back(numbers.buffers[1].as<int64_t>()[numbers.offset + i]);
  }
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(std::get<int64_t>(summary.columns[2].min), std::min(rows[0], rows[1]));
  EXPECT_EQ(std::get<int64_t>(summary.columns[2].max), std::max(rows[0], rows[1]));
  EXPECT_NE(rows[0], rows[1]);
}

}  // namespace
}  // namespace parquetry
