// scan_file with threads: a file of many row groups is split by row group
// over the threads (each streams its share through a reader of its own) and
// the folds merged; the summary equals the one-thread fold, whatever the
// thread count, projection or row-group selection, and a worker's error
// reaches the caller naming the row group.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "parquetry/array_builder.h"
#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"
#include "parquetry/writer.h"
#include "summary_compare.h"
#include "test_support.h"

namespace parquetry {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kRowGroups = 24;
constexpr int64_t kRowsPerGroup = 1000;

// id (required int64), score (nullable double, a NaN), name (nullable
// string), tags (list of doubles, for the list fold's sum): values chosen so
// that every row group holds a different min and max of each column.
BatchSchema schema() {
  BatchSchema s;
  s.fields = {Field{"id", DataType::make(TypeId::kInt64), false, -1, {}},
              Field{"score", DataType::make(TypeId::kFloat64), true, -1, {}},
              Field{"name", DataType::make(TypeId::kString), true, -1, {}},
              Field{"tags",
                    DataType::list(Field{"element", DataType::make(TypeId::kFloat64), true, -1, {}}),
                    true,
                    -1,
                    {}}};
  return s;
}

fs::path write_file() {
  const fs::path path = testing::temp_dir() / "scan_threads.parquet";
  const BatchSchema s = schema();
  WriterOptions options;
  options.row_group_rows = kRowsPerGroup;
  auto writer = FileWriter::open(path.string(), s, options);
  for (int64_t g = 0; g < kRowGroups; ++g) {
    ArrayBuilder id(s.fields[0]), score(s.fields[1]), name(s.fields[2]), tags(s.fields[3]);
    for (int64_t r = 0; r < kRowsPerGroup; ++r) {
      const int64_t row = g * kRowsPerGroup + r;
      // Row group 17 holds the smallest id, row group 5 the largest.
      id.append_int(g == 17 && r == 3 ? -5'000'000 : g == 5 && r == 900 ? 9'000'000 : row);
      if (row % 7 == 0) {
        score.append_null();
      } else {
        score.append_double(row == 12'345 ? std::nan("") : double(row % 997) * 0.25 - double(g));
      }
      if (row % 11 == 0) {
        name.append_null();
      } else {
        name.append_bytes("n" + std::to_string((row * 7919) % 100'003));
      }
      if (row % 13 == 0) {
        tags.append_null();
      } else {
        tags.begin_list();
        for (int64_t k = 0; k < row % 4; ++k) tags.child().append_double(0.1 * double(row + k));
        tags.end_list();
      }
    }
    RecordBatch batch;
    batch.schema = std::make_shared<const BatchSchema>(s);
    batch.num_rows = kRowsPerGroup;
    batch.columns = {id.finish(), score.finish(), name.finish(), tags.finish()};
    writer->write(batch);
  }
  writer->close();
  return path;
}

const fs::path& file() {
  static const fs::path path = write_file();
  return path;
}

TEST(ScanFileThreads, EveryThreadCountFoldsTheSameValues) {
  const ScanSummary one = scan_file(file().string(), ReaderOptions{});
  ASSERT_EQ(one.rows, kRowGroups * kRowsPerGroup);
  ASSERT_EQ(one.columns.size(), 4u);
  // The values the fold must find, from the file's construction.
  EXPECT_EQ(std::get<int64_t>(one.columns[0].min), -5'000'000);
  EXPECT_EQ(std::get<int64_t>(one.columns[0].max), 9'000'000);
  EXPECT_EQ(one.columns[1].nulls, (kRowGroups * kRowsPerGroup + 6) / 7);
  EXPECT_EQ(one.columns[2].nulls, (kRowGroups * kRowsPerGroup + 10) / 11);
  EXPECT_DOUBLE_EQ(std::get<double>(one.columns[1].min), -23.0);
  for (int threads : {2, 3, 5, 6, 7, 24, 40}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    ReaderOptions options;
    options.threads = threads;
    testing::expect_same_summary(scan_file(file().string(), options), one, 1e-12);
    // Small batches: several per row group and thread.
    options.batch_size = 300;
    testing::expect_same_summary(scan_file(file().string(), options), one, 1e-12);
  }
}

TEST(ScanFileThreads, ProjectionAndRowGroupSelectionSplitTheSame) {
  // Odd row groups hold both planted extremes (groups 17 and 5); even ones
  // neither, so their bounds come from the row numbers.
  for (int parity : {1, 0}) {
    SCOPED_TRACE(parity ? "odd row groups" : "even row groups");
    ReaderOptions base;
    base.columns = {"name", "id"};
    for (int32_t g = 22 + parity; g >= 0; g -= 2) base.row_groups.push_back(g);  // descending
    const ScanSummary one = scan_file(file().string(), base);
    ASSERT_EQ(one.rows, 12 * kRowsPerGroup);
    ASSERT_EQ(one.columns.size(), 2u);
    EXPECT_EQ(one.columns[0].name, "id");
    EXPECT_EQ(std::get<int64_t>(one.columns[0].min), parity ? -5'000'000 : 0);
    EXPECT_EQ(std::get<int64_t>(one.columns[0].max),
              parity ? 9'000'000 : 22 * kRowsPerGroup + kRowsPerGroup - 1);
    for (int threads : {2, 3}) {
      ReaderOptions options = base;
      options.threads = threads;
      testing::expect_same_summary(scan_file(file().string(), options), one, 1e-12);
    }
  }
}

TEST(ScanFileThreads, AWorkersCorruptPageFailsTheScan) {
  // Overwrite the first page header of row group 9's first column: the
  // thread that reads that row group fails, and the scan with it.
  const fs::path broken = testing::temp_dir() / "scan_threads_broken.parquet";
  fs::copy_file(file(), broken, fs::copy_options::overwrite_existing);
  const int64_t offset =
      FileReader::open(file().string())->metadata().row_groups[9].columns[0].meta_data->data_page_offset;
  {
    std::fstream out(broken, std::ios::in | std::ios::out | std::ios::binary);
    out.seekp(offset);
    const std::string garbage(16, '\xff');
    out.write(garbage.data(), std::streamsize(garbage.size()));
  }
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    ReaderOptions options;
    options.threads = threads;
    try {
      scan_file(broken.string(), options);
      ADD_FAILURE() << "a corrupt page header was read";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("row group 9"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace parquetry
