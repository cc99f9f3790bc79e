// Scans of a table the test writes (test_table.h) against the naive model:
// every kind of delete, across sequence numbers and partitions; time travel
// by id, timestamp and ref; pruning by partition and bounds.
#include <gtest/gtest.h>

#include "parquetry/error.h"
#include "parquetry/iceberg_table.h"
#include "test_table.h"

namespace parquetry::testing {
namespace {

using namespace parquetry::iceberg;

std::string temp_dir(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("parquetry_iceberg_" + name + "_" + std::to_string(::getpid())))
      .string();
}

class TableScanTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { table_ = new TestTable(temp_dir("scan")); }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(table_->root);
    delete table_;
  }
  static TestTable* table_;
};
TestTable* TableScanTest::table_ = nullptr;

TEST_F(TableScanTest, CurrentSnapshotMatchesModel) {
  const Table table = Table::open(table_->root);
  EXPECT_EQ(table.metadata().format_version, 2);
  auto scan = TableScan::open(table, {});
  const std::vector<ModelRow> rows = scan_rows(*scan);
  EXPECT_EQ(rows, table_->expected.at(104));
  // A few concrete rows: A's 3 deleted by position, 10 by E1; C's 10 kept;
  // B's 150..159 by the deletion vector; 200 by E3; null names by E2.
  auto has = [&](int64_t id, int32_t part) {
    return std::any_of(rows.begin(), rows.end(),
                       [&](const ModelRow& r) { return r.id == id && r.part == part; });
  };
  EXPECT_FALSE(has(3, 0));
  EXPECT_FALSE(has(11, 0));
  EXPECT_TRUE(has(10, 0));  // only C's copy
  EXPECT_EQ(std::count_if(rows.begin(), rows.end(), [](const ModelRow& r) { return r.id == 10; }), 1);
  EXPECT_FALSE(has(155, 1));
  EXPECT_TRUE(has(160, 1));
  EXPECT_FALSE(has(200, 0));
  EXPECT_TRUE(has(201, 0));
  EXPECT_FALSE(has(19, 0));   // null name, E2
  EXPECT_TRUE(has(209, 0));   // null name in C: E2 is not later than C
  EXPECT_FALSE(has(120, 1));  // "n120", E2
  EXPECT_TRUE(has(150, 1) == false);
}

TEST_F(TableScanTest, EverySnapshotById) {
  const Table table = Table::open(table_->root);
  for (int64_t id = 101; id <= 104; ++id) {
    TableScanOptions options;
    options.snapshot.snapshot_id = id;
    auto scan = TableScan::open(table, options);
    EXPECT_EQ(scan_rows(*scan), table_->expected.at(id)) << "snapshot " << id;
    auto counter = TableScan::open(table, options);
    EXPECT_EQ(counter->count(), int64_t(table_->expected.at(id).size())) << "snapshot " << id;
  }
  // Exact counts of the model, so the test cannot pass on an empty model.
  EXPECT_EQ(table_->expected.at(101).size(), 200u);
  EXPECT_EQ(table_->expected.at(102).size(), 200u - 4 - 2);
}

// Ids in the order a scan hands them out (not sorted).
std::vector<int64_t> ids_in_order(TableScan& scan) {
  std::vector<int64_t> ids;
  RecordBatch batch;
  while (scan.next(batch)) {
    const ArrayData& a = *batch.columns[size_t(batch.schema->field_index("id"))];
    for (int64_t r = 0; r < batch.num_rows; ++r) ids.push_back(a.buffers[1].as<int64_t>()[a.offset + r]);
  }
  return ids;
}

// With several threads each data file is read by a worker of its own, its
// batches waiting within a byte budget: every snapshot gives the model's
// rows in the order one thread gives them (plan order), with a budget that
// holds one batch at a time, batches of a few rows, and a scan abandoned
// after its first batch.
TEST_F(TableScanTest, ThreadsReadFilesSideBySideInPlanOrder) {
  const Table table = Table::open(table_->root);
  for (int64_t id = 101; id <= 104; ++id) {
    TableScanOptions one;
    one.snapshot.snapshot_id = id;
    one.batch_size = 7;
    auto serial = TableScan::open(table, one);
    const std::vector<int64_t> expected = ids_in_order(*serial);
    ASSERT_EQ(expected.size(), table_->expected.at(id).size()) << "snapshot " << id;
    for (int threads : {2, 3, 8}) {
      for (int64_t budget : {int64_t(1), int64_t(256) << 20}) {
        SCOPED_TRACE("snapshot " + std::to_string(id) + ", " + std::to_string(threads) + " threads, budget " +
                     std::to_string(budget));
        TableScanOptions options = one;
        options.threads = threads;
        options.read_ahead_budget = budget;
        auto scan = TableScan::open(table, options);
        EXPECT_EQ(ids_in_order(*scan), expected);
        auto rows = TableScan::open(table, options);
        EXPECT_EQ(scan_rows(*rows), table_->expected.at(id));
        auto counter = TableScan::open(table, options);
        EXPECT_EQ(counter->count(), int64_t(expected.size()));
      }
    }
  }
  TableScanOptions options;
  options.threads = 2;
  options.batch_size = 5;
  auto abandoned = TableScan::open(table, options);
  RecordBatch batch;
  ASSERT_TRUE(abandoned->next(batch));
  EXPECT_GT(batch.num_rows, 0);  // at most 5, fewer where deletes fell
  EXPECT_LE(batch.num_rows, 5);
  // count() reads other columns than next(): not after next() has started.
  EXPECT_THROW(abandoned->count(), Error);
  abandoned.reset();  // workers still holding batches stop and are joined
}

TEST_F(TableScanTest, AsOfAndRefs) {
  const Table table = Table::open(table_->root);
  SnapshotSelection s;
  s.as_of_ms = 2500;
  EXPECT_EQ(select_snapshot(table.metadata(), s)->snapshot_id, 102);
  s.as_of_ms = 3000;
  EXPECT_EQ(select_snapshot(table.metadata(), s)->snapshot_id, 103);
  s.as_of_ms = 999;
  EXPECT_THROW(select_snapshot(table.metadata(), s), Error);
  SnapshotSelection r;
  r.ref = "first";
  EXPECT_EQ(select_snapshot(table.metadata(), r)->snapshot_id, 101);
  r.ref = "nope";
  EXPECT_THROW(select_snapshot(table.metadata(), r), Error);
  TableScanOptions options;
  options.snapshot.ref = "first";
  auto scan = TableScan::open(table, options);
  EXPECT_EQ(scan_rows(*scan), table_->expected.at(101));
}

TEST_F(TableScanTest, PartitionAndBoundsPruning) {
  const Table table = Table::open(table_->root);
  const ScanPlan by_part = plan_scan(table, {}, parse_predicate("part = 1"));
  ASSERT_EQ(by_part.tasks.size(), 1u);
  EXPECT_EQ(by_part.tasks[0].local_path, table_->local("data/b.parquet"));
  // A by its partition value; C's manifest (summary part 0..0) is never read.
  EXPECT_EQ(by_part.stats.files_pruned_partition, 1);
  EXPECT_EQ(by_part.stats.manifests_pruned, 1);
  // B's deletes: P1 (pos), D (DV), E2 and E3 (global); not E1 (partition 0).
  EXPECT_EQ(by_part.tasks[0].deletes.size(), 4u);
  const ScanPlan by_bounds = plan_scan(table, {}, parse_predicate("id >= 200"));
  ASSERT_EQ(by_bounds.tasks.size(), 1u);
  EXPECT_EQ(by_bounds.tasks[0].local_path, table_->local("data/c.parquet"));
  EXPECT_EQ(by_bounds.stats.files_pruned_bounds, 2);

  TableScanOptions options;
  options.filter = parse_predicate("part = 1 AND id < 130");
  options.columns = {"name", "id"};
  auto scan = TableScan::open(table, options);
  ASSERT_EQ(scan->schema()->fields.size(), 2u);
  EXPECT_EQ(scan->schema()->fields[0].name, "name");
  std::vector<ModelRow> rows = scan_rows(*scan);
  std::vector<ModelRow> expected;
  for (const ModelRow& r : table_->expected.at(104)) {
    if (r.part == 1 && r.id < 130) expected.push_back({r.id, -1, r.name});
  }
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(rows, expected);
  EXPECT_EQ(rows.size(), 30u - 1 - 3 - 1);  // 100..129 minus pos 0, nulls 109/119/129, n120
}

TEST_F(TableScanTest, LocalPathsMapTheLocation) {
  const Table table = Table::open(table_->root);
  EXPECT_EQ(table.local_path("s3://bucket/wh/t/data/a.parquet"), table_->root + "/data/a.parquet");
  EXPECT_EQ(table.local_path("file://" + table_->root + "/x"), table_->root + "/x");
}

}  // namespace
}  // namespace parquetry::testing
