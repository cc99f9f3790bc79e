// Position-delete Parquet files read through FileReader into per-data-file
// indexes: every (path, pos) row lands in the right index, one data file's
// deletes are found while row groups and pages of others are skipped, and
// load_deletes_for picks the right deletes out of Parquet and Puffin files.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "delete_file_support.h"
#include "parquetry/error.h"
#include "parquetry/iceberg_scan.h"
#include "test_support.h"

namespace parquetry::testing {
namespace {

using iceberg::DeleteFileOptions;
using iceberg::DeleteFileStats;
using iceberg::PositionDeleteIndex;
using iceberg::PositionIndexMap;

std::string data_path(int i) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "s3://bucket/warehouse/db/table/data/%05d-data.parquet", i);
  return buffer;
}

// Rows sorted by path then position, as Iceberg writes them: `files` data
// files, each with a random number of random distinct positions.
std::vector<DeleteRow> sorted_deletes(int files, uint32_t seed,
                                      std::map<std::string, std::set<int64_t>>& expected) {
  std::mt19937_64 rng(seed);
  for (int f = 0; f < files; ++f) {
    auto& positions = expected[data_path(f)];
    const int count = 1 + int(rng() % 400);
    while (int(positions.size()) < count) positions.insert(int64_t(rng() % 100000));
  }
  std::vector<DeleteRow> rows;
  for (const auto& [path, positions] : expected) {
    for (int64_t p : positions) rows.push_back({path, p});
  }
  return rows;
}

std::vector<int64_t> positions_of(const PositionDeleteIndex& index) {
  std::vector<int64_t> out;
  index.for_each([&](int64_t p) { out.push_back(p); });
  return out;
}

TEST(DeleteFile, IndexesEveryRowPerDataFile) {
  std::map<std::string, std::set<int64_t>> expected;
  auto rows = sorted_deletes(25, 7, expected);
  const std::string file = (temp_dir() / "deletes.parquet").string();
  write_delete_file(file, rows);
  DeleteFileStats stats;
  PositionIndexMap map = iceberg::read_position_delete_file(file, {}, &stats);
  ASSERT_EQ(map.size(), expected.size());
  EXPECT_EQ(map.total_cardinality(), int64_t(rows.size()));
  EXPECT_EQ(stats.rows_read, int64_t(rows.size()));
  EXPECT_EQ(stats.row_groups_read, int64_t((rows.size() + 999) / 1000));
  size_t i = 0;
  for (const auto& [path, positions] : expected) {
    // Sorted input keeps first-seen order = path order.
    EXPECT_EQ(map.path(i), path);
    const PositionDeleteIndex* index = map.find(path);
    ASSERT_NE(index, nullptr) << path;
    EXPECT_EQ(positions_of(*index), std::vector<int64_t>(positions.begin(), positions.end())) << path;
    ++i;
  }
  EXPECT_EQ(map.find(data_path(99)), nullptr);
}

TEST(DeleteFile, FindsColumnsByNameWithoutFieldIds) {
  std::vector<DeleteRow> rows = {{"a.parquet", 3}, {"a.parquet", 5}, {"b.parquet", 0}, {"b.parquet", 1},
                                 {"b.parquet", 2}, {"a.parquet", 4}};  // unsorted: still indexed
  const std::string file = (temp_dir() / "by_name.parquet").string();
  write_delete_file(file, rows, /*field_ids=*/false);
  PositionIndexMap map = iceberg::read_position_delete_file(file);
  ASSERT_EQ(map.size(), 2u);
  EXPECT_EQ(positions_of(*map.find("a.parquet")), (std::vector<int64_t>{3, 4, 5}));
  EXPECT_EQ(positions_of(*map.find("b.parquet")), (std::vector<int64_t>{0, 1, 2}));
}

TEST(DeleteFile, OneDataFileSkipsOtherRowGroupsAndPages) {
  std::map<std::string, std::set<int64_t>> expected;
  auto rows = sorted_deletes(40, 11, expected);
  const std::string file = (temp_dir() / "prune.parquet").string();
  write_delete_file(file, rows, true, /*row_group_rows=*/1000, /*page_rows=*/50);
  for (int f : {0, 17, 39}) {
    const std::string wanted = data_path(f);
    DeleteFileStats stats;
    PositionDeleteIndex index = iceberg::read_position_deletes(file, wanted, {}, &stats);
    const auto& truth = expected[wanted];
    EXPECT_EQ(positions_of(index), std::vector<int64_t>(truth.begin(), truth.end())) << wanted;
    // A data file's rows span at most two row groups of 1000 rows out of many.
    EXPECT_GT(stats.row_groups_skipped, 0) << wanted;
    EXPECT_LE(stats.row_groups_read, 2) << wanted;
    // Within those, pages of neighbouring files are skipped through the ColumnIndex.
    EXPECT_LT(stats.rows_read, 1000) << wanted;
    EXPECT_GE(stats.rows_read, int64_t(truth.size())) << wanted;
  }
  // A path between two data files, and one after all of them: nothing decoded.
  DeleteFileStats stats;
  PositionDeleteIndex none = iceberg::read_position_deletes(file, data_path(5) + "x", {}, &stats);
  EXPECT_TRUE(none.empty());
  DeleteFileStats after;
  none = iceberg::read_position_deletes(file, "t", {}, &after);
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(after.row_groups_read, 0);
  EXPECT_EQ(after.rows_read, 0);
}

TEST(DeleteFile, RejectsFilesWithoutDeleteColumns) {
  const std::string file = (temp_dir() / "not_deletes.parquet").string();
  BatchSchema schema;
  schema.fields = {Field{"x", DataType::make(TypeId::kInt64), false, -1, {}}};
  auto column = std::make_shared<ArrayData>();
  column->type = std::make_shared<DataType>(schema.fields[0].type);
  const int64_t values[2] = {1, 2};
  column->length = 2;
  column->buffers = {BufferRef{}, copy_to_buffer(values, sizeof values)};
  auto writer = FileWriter::open(file, schema);
  writer->write(RecordBatch{std::make_shared<BatchSchema>(schema), {column}, 2});
  writer->close();
  try {
    iceberg::read_position_delete_file(file);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("file_path"), std::string::npos) << e.what();
  }
}

TEST(DeleteFile, LoadDeletesForParquetAndPuffin) {
  const std::string parquet = (temp_dir() / "load.parquet").string();
  write_delete_file(parquet, {{"data/a.parquet", 1}, {"data/a.parquet", 9}, {"data/b.parquet", 4}});
  EXPECT_EQ(positions_of(iceberg::load_deletes_for(parquet, "data/a.parquet")), (std::vector<int64_t>{1, 9}));
  EXPECT_EQ(positions_of(iceberg::load_deletes_for(parquet, "data/b.parquet")), (std::vector<int64_t>{4}));
  // Several data files and none matching: ambiguous.
  EXPECT_THROW(iceberg::load_deletes_for(parquet, "elsewhere/a.parquet"), Error);
  // One data file only: it applies whatever the path given.
  const std::string single = (temp_dir() / "single.parquet").string();
  write_delete_file(single, {{"s3://b/t/data/a.parquet", 2}, {"s3://b/t/data/a.parquet", 3}});
  EXPECT_EQ(positions_of(iceberg::load_deletes_for(single, "/local/copy/a.parquet")),
            (std::vector<int64_t>{2, 3}));

  PositionDeleteIndex a, b;
  a.add_range(10, 20);
  b.add(7);
  iceberg::PuffinWriter puffin;
  puffin.add_deletion_vector("data/a.parquet", a);
  puffin.add_deletion_vector("data/b.parquet", b);
  std::vector<uint8_t> bytes = puffin.finish();
  const std::string puffin_file = (temp_dir() / "dv.puffin").string();
  std::ofstream(puffin_file, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  EXPECT_EQ(iceberg::load_deletes_for(puffin_file, "data/a.parquet").cardinality(), 10);
  EXPECT_EQ(positions_of(iceberg::load_deletes_for(puffin_file, "data/b.parquet")),
            (std::vector<int64_t>{7}));
  EXPECT_THROW(iceberg::load_deletes_for(puffin_file, "data/c.parquet"), Error);
}

}  // namespace
}  // namespace parquetry::testing
