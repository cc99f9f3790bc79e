// Hostile metadata: missing, truncated or mistyped files give a
// parquetry::Error naming the table, the snapshot and the file.
#include <gtest/gtest.h>

#include <fstream>

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

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Scans the current snapshot fully; returns the error text (empty if none).
std::string scan_error(const std::string& root, int threads = 1) {
  try {
    const Table table = Table::open(root);
    TableScanOptions options;
    options.threads = threads;
    auto scan = TableScan::open(table, options);
    RecordBatch batch;
    while (scan->next(batch)) {
    }
    return "";
  } catch (const Error& e) {
    return e.what();
  }
}

class HostileTest : public ::testing::Test {
 protected:
  void SetUp() override { table_ = std::make_unique<TestTable>(temp_dir("hostile")); }
  void TearDown() override { std::filesystem::remove_all(table_->root); }
  std::unique_ptr<TestTable> table_;
};

TEST_F(HostileTest, MissingManifestList) {
  std::filesystem::remove(table_->local("metadata/snap-104.avro"));
  const std::string e = scan_error(table_->root);
  EXPECT_NE(e.find("snapshot 104"), std::string::npos) << e;
  EXPECT_NE(e.find("snap-104.avro"), std::string::npos) << e;
  EXPECT_NE(e.find(table_->root), std::string::npos) << e;
}

TEST_F(HostileTest, TruncatedManifest) {
  const std::string m = read_all(table_->local("metadata/m3.avro"));
  for (size_t cut : {size_t(0), size_t(3), m.size() / 2, m.size() - 1}) {
    write_text(table_->local("metadata/m3.avro"), m.substr(0, cut));
    const std::string e = scan_error(table_->root);
    EXPECT_NE(e.find("manifest " + table_->written("metadata/m3.avro")), std::string::npos)
        << cut << ": " << e;
    EXPECT_NE(e.find("snapshot 104"), std::string::npos) << e;
  }
}

// Delete files are loaded where the data file's read starts: on a worker
// when there are several threads. Their errors name the delete file and
// the snapshot at every thread count.
TEST_F(HostileTest, MissingDataAndDeleteFiles) {
  std::filesystem::remove(table_->local("data/e3.parquet"));
  std::string e;
  for (int threads : {1, 2, 4}) {
    e = scan_error(table_->root, threads);
    EXPECT_NE(e.find("e3.parquet"), std::string::npos) << threads << " threads: " << e;
    EXPECT_NE(e.find("snapshot 104"), std::string::npos) << threads << " threads: " << e;
  }
  std::filesystem::remove(table_->local("data/a.parquet"));
  e = scan_error(table_->root);
  EXPECT_NE(e.find("a.parquet"), std::string::npos) << e;
}

// A data file whose first page header is garbage fails while its batches
// are decoded, which with several threads happens on a worker: the error
// reaches the consumer naming the file, and the scan stops cleanly.
TEST_F(HostileTest, CorruptDataPageFailsOnEveryThreadCount) {
  std::string a = read_all(table_->local("data/a.parquet"));
  ASSERT_GT(a.size(), 64u);
  for (size_t i = 4; i < 24; ++i) a[i] = char(0xFF);  // the first page header, after "PAR1"
  write_text(table_->local("data/a.parquet"), a);
  for (int threads : {1, 2, 4}) {
    const std::string e = scan_error(table_->root, threads);
    EXPECT_NE(e.find("a.parquet"), std::string::npos) << threads << " threads: " << e;
    EXPECT_NE(e.find("snapshot 104"), std::string::npos) << threads << " threads: " << e;
  }
}

TEST_F(HostileTest, CorruptDeletionVector) {
  std::string d = read_all(table_->local("data/d.puffin"));
  d[6] ^= 0x55;  // inside the blob: length, magic or bitmap
  write_text(table_->local("data/d.puffin"), d);
  for (int threads : {1, 2, 4}) {
    const std::string e = scan_error(table_->root, threads);
    EXPECT_NE(e.find("d.puffin"), std::string::npos) << threads << " threads: " << e;
  }
}

void expect_metadata_error(const std::string& root, const std::string& json, const std::string& needle) {
  write_text(root + "/metadata/v1.metadata.json", json);
  try {
    Table::open(root);
    ADD_FAILURE() << "no error for " << needle;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("v1.metadata.json"), std::string::npos) << e.what();
  }
}

TEST_F(HostileTest, BadMetadataJson) {
  const std::string good = table_->metadata_json(104);
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const size_t p = s.find(from);
    EXPECT_NE(p, std::string::npos) << from;
    return s.replace(p, from.size(), to);
  };
  expect_metadata_error(table_->root, good.substr(0, good.size() / 2), "invalid JSON");
  expect_metadata_error(table_->root, replace("\"format-version\":2", "\"format-version\":\"2\""),
                        "format-version");
  expect_metadata_error(table_->root, replace("\"format-version\":2", "\"format-version\":9"),
                        "format-version 9");
  expect_metadata_error(table_->root, replace("\"type\":\"long\"", "\"type\":\"geometry\""), "geometry");
  expect_metadata_error(table_->root, replace("\"current-snapshot-id\":104", "\"current-snapshot-id\":5"),
                        "names no snapshot");
  expect_metadata_error(table_->root, replace("\"schemas\":[", "\"schemas\":{},\"x\":["), "schemas");
  expect_metadata_error(table_->root, "[]", "not an object");
}

TEST_F(HostileTest, UnknownTransformDoesNotPrune) {
  std::string json = table_->metadata_json(104);
  json.replace(json.find("\"transform\":\"identity\""), 22, "\"transform\":\"zorder[3]\"");
  write_text(table_->root + "/metadata/v1.metadata.json", json);
  const Table table = Table::open(table_->root);
  const ScanPlan plan = plan_scan(table, {}, parse_predicate("part = 1"));
  EXPECT_EQ(plan.stats.files_pruned_partition, 0);
  // The bounds of `part` still prune A and C.
  EXPECT_EQ(plan.tasks.size(), 1u);
}

TEST_F(HostileTest, VersionHintForms) {
  write_text(table_->local("metadata/version-hint.text"), "7\n");
  EXPECT_THROW(Table::open(table_->root), Error);
  std::filesystem::remove(table_->local("metadata/version-hint.text"));
  write_text(table_->local("metadata/v2.metadata.json"), table_->metadata_json(102));
  // No hint: the highest version wins.
  EXPECT_EQ(*Table::open(table_->root).metadata().current_snapshot_id, 102);
  TableOpenOptions options;
  options.version = "1";
  EXPECT_EQ(*Table::open(table_->root, options).metadata().current_snapshot_id, 104);
  options = {};
  options.metadata_file = "v1.metadata.json";
  EXPECT_EQ(*Table::open(table_->root, options).metadata().current_snapshot_id, 104);
  EXPECT_EQ(*Table::open(table_->local("metadata/v2.metadata.json")).metadata().current_snapshot_id, 102);
}

}  // namespace
}  // namespace parquetry::testing
