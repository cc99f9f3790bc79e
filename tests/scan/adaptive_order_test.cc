// FilteredScan's adaptive conjunct order: the AND's most selective conjunct
// runs first once measured, and the others read only the pages of the rows
// it kept.
#include <gtest/gtest.h>

#include "parquetry/filtered_scan.h"
#include "parquetry/predicate.h"
#include "parquetry/writer.h"
#include "test_support.h"

namespace parquetry {
namespace {

std::string write_file() {
  // 10 row groups of 1,000 rows, pages of 100 rows. a keeps every row;
  // b = 5 keeps rows 50..59 of each row group (one page of a's each), while
  // every page of b spans 0..99 so statistics and the page index prune nothing.
  BatchSchema schema;
  for (const char* name : {"a", "b"}) {
    Field field;
    field.name = name;
    field.type = DataType::make(TypeId::kInt64);
    field.nullable = false;
    schema.fields.push_back(field);
  }
  const auto path = (testing::temp_dir() / "adaptive.parquet").string();
  WriterOptions options;
  options.row_group_rows = 1000;
  options.page_rows = 100;
  options.dictionary = false;
  auto writer = FileWriter::open(path, schema, options);
  Buffer a, b;
  for (int64_t row = 0; row < 10000; ++row) {
    const int64_t in_group = row % 1000;
    const int64_t spread = (row * 37) % 100;
    const int64_t va = row, vb = in_group >= 50 && in_group < 60 ? 5 : (spread == 5 ? 4 : spread);
    a.append(&va, 8);
    b.append(&vb, 8);
  }
  RecordBatch batch;
  batch.schema = std::make_shared<BatchSchema>(schema);
  batch.num_rows = 10000;
  for (Buffer* values : {&a, &b}) {
    auto array = std::make_shared<ArrayData>();
    array->type = std::make_shared<DataType>(DataType::make(TypeId::kInt64));
    array->length = 10000;
    array->buffers = {BufferRef{}, BufferRef::adopt(std::move(*values))};
    batch.columns.push_back(array);
  }
  writer->write(batch);
  writer->close();
  return path;
}

struct Outcome {
  int64_t rows = 0;
  int64_t pages_read = 0;
  std::string explain;
};

Outcome scan(const std::string& path, bool adaptive) {
  FilteredScanOptions options;
  options.filter = parse_predicate("a >= 0 AND b = 5");  // the unselective conjunct written first
  options.columns = {"a"};
  options.adaptive_order = adaptive;
  auto scan = FilteredScan::open(path, options);
  Outcome outcome;
  RecordBatch batch;
  while (scan->next(batch)) {
    for (int64_t i = 0; i < batch.num_rows; ++i) {
      const int64_t a = batch.columns[0]->buffers[1].as<int64_t>()[batch.columns[0]->offset + i];
      EXPECT_TRUE(a % 1000 >= 50 && a % 1000 < 60) << "row " << a << " does not match the filter";
    }
    outcome.rows += batch.num_rows;
  }
  outcome.pages_read = scan->stats().pages_read;
  outcome.explain = scan->explain();
  return outcome;
}

TEST(AdaptiveOrder, MostSelectiveConjunctRunsFirstAndOthersReadFewerPages) {
  const std::string path = write_file();
  const Outcome fixed = scan(path, false);
  const Outcome adaptive = scan(path, true);
  EXPECT_EQ(fixed.rows, 100);
  EXPECT_EQ(adaptive.rows, 100);
  // After the first row group, b = 5 runs first: a is read for one page per row group.
  EXPECT_LT(adaptive.pages_read, fixed.pages_read) << adaptive.explain;
  const size_t b_at = adaptive.explain.find("b = 5: ");
  const size_t a_at = adaptive.explain.find("a >= 0: ");
  ASSERT_NE(b_at, std::string::npos) << adaptive.explain;
  ASSERT_NE(a_at, std::string::npos) << adaptive.explain;
  EXPECT_LT(b_at, a_at) << "b = 5 keeps 1% of rows and must be listed first:\n" << adaptive.explain;
  // b saw every row; a only the rows b kept (plus the first row group, before learning).
  EXPECT_NE(adaptive.explain.find("b = 5: 100 / 10000"), std::string::npos) << adaptive.explain;
  EXPECT_NE(adaptive.explain.find("a >= 0: 1090 / 1090"), std::string::npos) << adaptive.explain;
}

// Both bounds of a range on one column form one group: the column is read
// once per row group, not once per bound.
TEST(AdaptiveOrder, ConjunctsOnOneColumnAreEvaluatedTogether) {
  const std::string path = write_file();
  FilteredScanOptions options;
  options.filter = parse_predicate("b >= 5 AND a >= 0 AND b <= 5");
  options.columns = {"a"};
  auto scan = FilteredScan::open(path, options);
  int64_t rows = 0;
  RecordBatch batch;
  while (scan->next(batch)) rows += batch.num_rows;
  EXPECT_EQ(rows, 100);
  const std::string explain = scan->explain();
  EXPECT_NE(explain.find("(b >= 5 AND b <= 5): 100 / 10000"), std::string::npos) << explain;
  EXPECT_NE(explain.find("a >= 0: 100 / 100"), std::string::npos) << explain;  // the b group came first
}

}  // namespace
}  // namespace parquetry
