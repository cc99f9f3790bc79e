// Predicates and the filtered scan over the public files: every predicate's
// selection equals a naive row-by-row evaluation written independently here,
// and each pruning level is visible in the stats for selective predicates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/predicate.h"
#include "parquetry/reader.h"
#include "test_support.h"

namespace parquetry {
namespace {

std::string file(const char* name) { return testing::parquet_testing(std::string("data/") + name).string(); }

// Every row of a file, one batch per row group, with row access by file row number.
struct FullFile {
  std::vector<RecordBatch> batches;
  std::vector<std::pair<size_t, int64_t>> where;  // file row -> (batch, row)

  explicit FullFile(const std::string& path) {
    batches = FileReader::open(path)->read_all();
    for (size_t b = 0; b < batches.size(); ++b) {
      for (int64_t r = 0; r < batches[b].num_rows; ++r) where.push_back({b, r});
    }
  }
  int64_t rows() const { return int64_t(where.size()); }
  const ArrayData& array(const std::string& name, int64_t row, int64_t& index) const {
    const auto& [b, r] = where[size_t(row)];
    index = r;
    const RecordBatch& batch = batches[b];
    return *batch.columns.at(size_t(batch.schema->field_index(name)));
  }
  bool is_null(const std::string& name, int64_t row) const {
    int64_t i = 0;
    return !array(name, row, i).is_valid(i);
  }
  int64_t integer(const std::string& name, int64_t row) const {
    int64_t i = 0;
    const ArrayData& a = array(name, row, i);
    i += a.offset;
    switch (a.type->id) {
      case TypeId::kBool: return (a.buffers[1].data[i >> 3] >> (i & 7)) & 1;
      case TypeId::kInt8: return a.buffers[1].as<int8_t>()[i];
      case TypeId::kInt16: return a.buffers[1].as<int16_t>()[i];
      case TypeId::kInt32:
      case TypeId::kDate32: return a.buffers[1].as<int32_t>()[i];
      case TypeId::kInt64:
      case TypeId::kTimestamp: return a.buffers[1].as<int64_t>()[i];
      default: ADD_FAILURE() << name << " is not an integer column"; return 0;
    }
  }
  double real(const std::string& name, int64_t row) const {
    int64_t i = 0;
    const ArrayData& a = array(name, row, i);
    i += a.offset;
    return a.type->id == TypeId::kFloat32 ? double(a.buffers[1].as<float>()[i])
                                          : a.buffers[1].as<double>()[i];
  }
  std::string text(const std::string& name, int64_t row) const {
    int64_t i = 0;
    const ArrayData& a = array(name, row, i);
    i += a.offset;
    const int32_t* offsets = a.buffers[1].as<int32_t>();
    return std::string(a.buffers[2].as<char>() + offsets[i], size_t(offsets[i + 1] - offsets[i]));
  }
};

struct ScanResult {
  std::vector<int64_t> row_numbers;
  std::vector<RecordBatch> batches;
  FilterStats stats;
};

ScanResult run(const std::string& path, const Predicate& filter, std::vector<std::string> columns = {},
               FilteredScanOptions options = {}) {
  options.filter = filter;
  options.columns = std::move(columns);
  options.columns.push_back(kRowNumberColumn);
  auto scan = FilteredScan::open(path, options);
  ScanResult out;
  RecordBatch batch;
  while (scan->next(batch)) {
    const ArrayData& numbers = *batch.columns.back();
    for (int64_t i = 0; i < batch.num_rows; ++i)
      out.row_numbers.push_back(numbers.buffers[1].as<int64_t>()[i]);
    out.batches.push_back(batch);
  }
  out.stats = scan->stats();
  return out;
}

std::vector<int64_t> naive(const FullFile& data, const std::function<bool(int64_t)>& keep) {
  std::vector<int64_t> out;
  for (int64_t r = 0; r < data.rows(); ++r) {
    if (keep(r)) out.push_back(r);
  }
  return out;
}

// 2009-01-01 as days since the epoch, and as INT96-derived nanoseconds.
constexpr int64_t kDay20090101 = 14245;
constexpr int64_t kNanosPerDay = 86'400'000'000'000;

TEST(Predicate, ParsesAndPrintsBack) {
  Predicate p = parse_predicate(
      "PULocationID = 132 AND (fare_amount > 10.5 OR payment_type IN (3, 4)) AND NOT name BETWEEN 'a' AND "
      "'it''s'"
      " AND x IS NOT NULL AND \"odd col\" <> -7");
  EXPECT_EQ(
      p.to_string(),
      "(PULocationID = 132 AND (fare_amount > 10.5 OR payment_type IN (3, 4)) AND NOT ((name >= 'a' AND name "
      "<= 'it''s')) AND x IS NOT NULL AND \"odd col\" != -7)");
  EXPECT_EQ(parse_predicate(p.to_string()).to_string(), p.to_string());
  EXPECT_EQ(p.columns(), (std::vector<std::string>{"PULocationID", "fare_amount", "payment_type", "name", "x",
                                                   "odd col"}));
  Predicate built = col("fare_amount") > 10.0 && col("payment_type").in({3, 4});
  EXPECT_EQ(built.to_string(), "(fare_amount > 10 AND payment_type IN (3, 4))");
  EXPECT_THROW(parse_predicate("a = "), Error);
  EXPECT_THROW(parse_predicate("a = 1 AND"), Error);
  EXPECT_THROW(parse_predicate("a ~ 1"), Error);
}

TEST(Predicate, NotIsPushedToTheLeaves) {
  Predicate p = push_down_not(!(col("a") > 5 || col("b").is_null() || col("c").in({1, 2})));
  EXPECT_EQ(p.to_string(), "(a <= 5 AND b IS NOT NULL AND (c != 1 AND c != 2))");
}

TEST(Predicate, CalendarLiterals) {
  EXPECT_EQ(parse_date_days("1970-01-01"), 0);
  EXPECT_EQ(parse_date_days("2009-01-01"), kDay20090101);
  EXPECT_EQ(parse_date_days("1969-12-31"), -1);
  EXPECT_EQ(parse_timestamp("2022-01-15 00:00:00", TimeUnit::MICROS), int64_t(19007) * 86'400'000'000);
  EXPECT_EQ(parse_timestamp("2022-01-15T08:30:00.25", TimeUnit::MILLIS),
            int64_t(19007) * 86'400'000 + (8 * 3600 + 30 * 60) * 1000 + 250);
  EXPECT_EQ(parse_timestamp("1970-01-01 00:00:00.000000001", TimeUnit::NANOS), 1);
  EXPECT_FALSE(parse_timestamp("2022-13-01", TimeUnit::MILLIS));
  EXPECT_FALSE(parse_date_days("yesterday"));
}

// A batch built by hand: int32 with nulls, a double with NaN, a string.
TEST(Predicate, NullsAndNaNFollowSql) {
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {Field{"i", DataType::make(TypeId::kInt32), true, -1, {}},
                    Field{"d", DataType::make(TypeId::kFloat64), false, -1, {}},
                    Field{"s", DataType::make(TypeId::kString), false, -1, {}}};
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = 4;
  auto make = [](TypeId id, int64_t null_count, std::vector<Buffer> buffers) {
    auto a = std::make_shared<ArrayData>();
    a->type = std::make_shared<DataType>(DataType::make(id));
    a->length = 4;
    a->null_count = null_count;
    for (Buffer& b : buffers) a->buffers.push_back(b.empty() ? BufferRef{} : BufferRef::adopt(std::move(b)));
    return a;
  };
  auto buffer = [](const void* data, size_t n) {
    Buffer b;
    b.append(data, n);
    return b;
  };
  const uint8_t valid = 0b1011;  // row 2 null
  const int32_t ints[] = {1, 5, 0, 9};
  const double doubles[] = {1.5, std::nan(""), -2.0, 7.0};
  const int32_t offsets[] = {0, 1, 3, 3, 6};
  batch.columns.push_back(make(TypeId::kInt32, 1, [&] {
    std::vector<Buffer> v;
    v.push_back(buffer(&valid, 1));
    v.push_back(buffer(ints, sizeof(ints)));
    return v;
  }()));
  batch.columns.push_back(make(TypeId::kFloat64, 0, [&] {
    std::vector<Buffer> v;
    v.emplace_back();
    v.push_back(buffer(doubles, sizeof(doubles)));
    return v;
  }()));
  batch.columns.push_back(make(TypeId::kString, 0, [&] {
    std::vector<Buffer> v;
    v.emplace_back();
    v.push_back(buffer(offsets, sizeof(offsets)));
    v.push_back(buffer("a\xc3\xa9zzz", 6));
    return v;
  }()));
  auto selected = [&](const Predicate& p) {
    std::vector<uint8_t> bitmap;
    int64_t count = evaluate_predicate(p, batch, bitmap);
    std::string rows;
    for (int64_t i = 0; i < 4; ++i) rows += ((bitmap[0] >> i) & 1) ? '1' : '0';
    EXPECT_EQ(count, int64_t(std::count(rows.begin(), rows.end(), '1')));
    return rows;
  };
  EXPECT_EQ(selected(col("i") > 1), "0101");
  EXPECT_EQ(selected(!(col("i") > 1)), "1000");  // the null row is unknown either way
  EXPECT_EQ(selected(col("i").is_null()), "0010");
  EXPECT_EQ(selected(!col("i").is_null()), "1101");
  EXPECT_EQ(selected(col("i").in({0, 9})), "0001");
  EXPECT_EQ(selected(col("i") == 5000000000LL), "0000");
  EXPECT_EQ(selected(col("i") < 5000000000LL), "1101");
  EXPECT_EQ(selected(col("i") > 4.5), "0101");
  EXPECT_EQ(selected(col("d") > 0.0), "1001");
  EXPECT_EQ(selected(col("d") != 1.5), "0111");  // NaN != 1.5 holds
  EXPECT_EQ(selected(col("d") <= 7), "1011");
  // Strings by unsigned bytes: "é" (0xc3 0xa9) sorts after ASCII.
  EXPECT_EQ(selected(col("s") > "z"), "0101");
  EXPECT_EQ(selected(col("s") > "zzz"), "0100");
  EXPECT_EQ(selected(col("s") == ""), "0010");
  EXPECT_EQ(selected(col("s").between("a", "b")), "1000");
  EXPECT_EQ(selected(col("i") == Literal()), "0000");
  EXPECT_EQ(selected(parse_predicate("i >= 5 OR s = 'zzz'")), "0101");
  EXPECT_THROW(selected(col("missing") == 1), Error);
  EXPECT_THROW(selected(col("i") == "abc"), Error);
}

// A matrix of predicates over every type of alltypes_tiny_pages (tiny pages,
// a page index) against a naive evaluation, with and without pruning.
TEST(FilteredScan, MatchesNaiveEvaluationOnAlltypesTinyPages) {
  const std::string path = file("alltypes_tiny_pages.parquet");
  FullFile data(path);
  ASSERT_GT(data.rows(), 1000);
  const int64_t ts_lo = kDay20090101 * kNanosPerDay;
  const int64_t ts_hi = (kDay20090101 + 1) * kNanosPerDay;
  struct Case {
    Predicate predicate;
    std::function<bool(int64_t)> keep;
  };
  std::vector<Case> cases = {
      {col("id") == 100, [&](int64_t r) { return data.integer("id", r) == 100; }},
      {col("id") != 100, [&](int64_t r) { return data.integer("id", r) != 100; }},
      {col("id") < 37, [&](int64_t r) { return data.integer("id", r) < 37; }},
      {col("id").between(3000, 3100),
       [&](int64_t r) { return data.integer("id", r) >= 3000 && data.integer("id", r) <= 3100; }},
      {col("id") >= 7290, [&](int64_t r) { return data.integer("id", r) >= 7290; }},
      {col("bool_col") == true, [&](int64_t r) { return data.integer("bool_col", r) == 1; }},
      {col("tinyint_col").in({1, 7}),
       [&](int64_t r) {
         int64_t v = data.integer("tinyint_col", r);
         return v == 1 || v == 7;
       }},
      {col("smallint_col") > 8, [&](int64_t r) { return data.integer("smallint_col", r) > 8; }},
      {col("int_col") <= 2 && col("bigint_col") >= 10,
       [&](int64_t r) { return data.integer("int_col", r) <= 2 && data.integer("bigint_col", r) >= 10; }},
      {col("bigint_col") == 50 || col("id") < 5,
       [&](int64_t r) { return data.integer("bigint_col", r) == 50 || data.integer("id", r) < 5; }},
      {col("float_col") > 5.5, [&](int64_t r) { return data.real("float_col", r) > 5.5; }},
      {col("double_col") == 40.4, [&](int64_t r) { return data.real("double_col", r) == 40.4; }},
      {col("string_col") == "3", [&](int64_t r) { return data.text("string_col", r) == "3"; }},
      {col("date_string_col") >= "12/31/09",
       [&](int64_t r) { return data.text("date_string_col", r) >= "12/31/09"; }},
      {col("timestamp_col") >= "2009-01-01" && col("timestamp_col") < "2009-01-02",
       [&](int64_t r) {
         int64_t v = data.integer("timestamp_col", r);
         return v >= ts_lo && v < ts_hi;
       }},
      {!(col("month") == 1 || col("year") != 2010),
       [&](int64_t r) { return !(data.integer("month", r) == 1 || data.integer("year", r) != 2010); }},
      {col("id").is_null(), [&](int64_t) { return false; }},
      {col("id").is_not_null() && col("id") == 9999999, [&](int64_t) { return false; }},
      {parse_predicate("month = 2 AND NOT string_col IN ('1', '2')"),
       [&](int64_t r) {
         std::string s = data.text("string_col", r);
         return data.integer("month", r) == 2 && s != "1" && s != "2";
       }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.predicate.to_string());
    const std::vector<int64_t> expected = naive(data, c.keep);
    FilteredScanOptions no_pruning;
    no_pruning.use_statistics = no_pruning.use_bloom_filter = no_pruning.use_page_index = false;
    no_pruning.late_materialization = false;
    for (const FilteredScanOptions& options : {FilteredScanOptions{}, no_pruning}) {
      ScanResult result = run(path, c.predicate, {"id", "string_col", "timestamp_col"}, options);
      ASSERT_EQ(result.row_numbers, expected);
      EXPECT_EQ(result.stats.rows_selected, int64_t(expected.size()));
      // The projected values are those of the same file rows.
      size_t k = 0;
      for (const RecordBatch& batch : result.batches) {
        for (int64_t i = 0; i < batch.num_rows; ++i, ++k) {
          const int64_t row = result.row_numbers[k];
          ASSERT_EQ(data.integer("id", row),
                    batch.columns[0]->buffers[1].as<int32_t>()[batch.columns[0]->offset + i]);
          const ArrayData& strings = *batch.columns[1];
          const int32_t* offsets = strings.buffers[1].as<int32_t>() + strings.offset;
          ASSERT_EQ(
              std::string(strings.buffers[2].as<char>() + offsets[i], size_t(offsets[i + 1] - offsets[i])),
              data.text("string_col", row));
        }
      }
    }
  }
}

TEST(FilteredScan, PageIndexSkipsPagesForASelectivePredicate) {
  const std::string path = file("alltypes_tiny_pages.parquet");
  ScanResult result = run(path, col("id") == 100, {"id", "string_col", "double_col"});
  ASSERT_EQ(result.row_numbers.size(), 1u);
  EXPECT_EQ(result.batches[0].columns[0]->buffers[1].as<int32_t>()[result.batches[0].columns[0]->offset],
            100);
  EXPECT_EQ(result.batches[0].columns[1]->buffers[1].as<double>()[result.batches[0].columns[1]->offset],
            FullFile(path).real("double_col", result.row_numbers[0]));
  EXPECT_LT(result.stats.rows_after_page_index, result.stats.rows_total / 10);
  EXPECT_GT(result.stats.pages_skipped, 50);
  EXPECT_GT(result.stats.bytes_skipped, 1000);
  // Without the page index nothing is skipped while reading the filter column.
  FilteredScanOptions options;
  options.use_page_index = false;
  options.late_materialization = false;
  ScanResult plain = run(path, col("id") == 100, {"id", "string_col", "double_col"}, options);
  EXPECT_EQ(plain.row_numbers, result.row_numbers);
  EXPECT_EQ(plain.stats.pages_skipped, 0);
  EXPECT_EQ(plain.stats.rows_after_page_index, plain.stats.rows_total);
  EXPECT_GT(plain.stats.pages_read, result.stats.pages_read);
}

TEST(FilteredScan, StatisticsPruneWholeRowGroups) {
  const std::string path = file("alltypes_tiny_pages.parquet");
  ScanResult result = run(path, col("id") > 1000000 || col("id") < -5);
  EXPECT_TRUE(result.row_numbers.empty());
  EXPECT_EQ(result.stats.row_groups_pruned_statistics, result.stats.row_groups);
  EXPECT_EQ(result.stats.pages_read, 0);
  EXPECT_GT(result.stats.bytes_pruned_row_groups, 0);
}

TEST(FilteredScan, BloomFilterPrunesAnAbsentValue) {
  const std::string path = file("data_index_bloom_encoding_stats.parquet");
  FullFile data(path);
  ASSERT_GT(data.rows(), 0);
  const std::string present = data.text("String", 0);
  FilteredScanOptions bloom_only;
  bloom_only.use_statistics = false;
  bloom_only.use_dictionary = false;
  bloom_only.use_page_index = false;
  // Present: the filter says maybe and every equal row comes back.
  ScanResult hit = run(path, col("String") == present, {"String"}, bloom_only);
  EXPECT_EQ(hit.row_numbers, naive(data, [&](int64_t r) { return data.text("String", r) == present; }));
  EXPECT_EQ(hit.stats.row_groups_pruned_bloom, 0);
  EXPECT_GT(hit.stats.bloom_bytes_read, 0);
  // Absent values between the chunk's min and max: statistics cannot prove
  // them absent, the Bloom filter can (one 32-byte block after the header).
  for (const char* absent : {"Hello there", "Parquetry", "noon"}) {
    SCOPED_TRACE(absent);
    ASSERT_TRUE(naive(data, [&](int64_t r) { return data.text("String", r) == absent; }).empty());
    ScanResult miss = run(path, col("String") == absent, {"String"}, bloom_only);
    EXPECT_TRUE(miss.row_numbers.empty());
    EXPECT_EQ(miss.stats.row_groups_pruned_bloom, 1);
    EXPECT_EQ(miss.stats.pages_read, 0);
    EXPECT_LE(miss.stats.bloom_bytes_read, 64 + 32);
    // With every level on, the dictionary (all data pages dictionary-encoded)
    // proves it first: the value is none of its entries.
    ScanResult all_levels = run(path, col("String") == absent, {"String"});
    EXPECT_EQ(all_levels.stats.row_groups_pruned_statistics, 0);
    EXPECT_EQ(all_levels.stats.row_groups_pruned_dictionary + all_levels.stats.row_groups_pruned_bloom, 1);
    EXPECT_TRUE(all_levels.row_numbers.empty());
  }
  ScanResult in_list = run(path, col("String").in({"Parquetry", present}), {"String"}, bloom_only);
  EXPECT_EQ(in_list.row_numbers, hit.row_numbers);
}

TEST(FilteredScan, VirtualColumnsAndProjection) {
  const std::string path = file("alltypes_tiny_pages.parquet");
  FilteredScanOptions options;
  options.filter = col("id") < 3;
  options.columns = {"_row_group", "id", "_row_number"};
  auto scan = FilteredScan::open(path, options);
  ASSERT_EQ(scan->schema()->fields.size(), 3u);
  EXPECT_EQ(scan->schema()->fields[0].name, "id");
  EXPECT_EQ(scan->schema()->fields[1].name, "_row_group");
  EXPECT_EQ(scan->schema()->fields[2].name, "_row_number");
  FullFile data(path);
  RecordBatch batch;
  int64_t rows = 0;
  while (scan->next(batch)) {
    for (int64_t i = 0; i < batch.num_rows; ++i, ++rows) {
      const int64_t row = batch.columns[2]->buffers[1].as<int64_t>()[i];
      EXPECT_EQ(data.integer("id", row),
                batch.columns[0]->buffers[1].as<int32_t>()[batch.columns[0]->offset + i]);
      EXPECT_LT(data.integer("id", row), 3);
      EXPECT_EQ(batch.columns[1]->buffers[1].as<int32_t>()[i], 0);
    }
  }
  EXPECT_EQ(rows, 3);
  EXPECT_NE(scan->explain().find("rows selected: 3"), std::string::npos);
  FilteredScanOptions unknown;
  unknown.filter = col("nope") == 1;
  EXPECT_THROW(FilteredScan::open(path, unknown), Error);
}

}  // namespace
}  // namespace parquetry
