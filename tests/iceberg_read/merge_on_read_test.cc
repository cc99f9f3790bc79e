// Merge-on-read returns exactly the rows a naive filter keeps: every row of
// the file read whole, with row i dropped when the index deletes position i.
// Checked on public files with many row groups and pages, over random and
// clustered deletes, with and without a column projection.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <random>

#include "parquetry/iceberg_scan.h"
#include "parquetry/reader.h"
#include "parquetry/table/json_values.h"
#include "parquetry/writer.h"
#include "test_support.h"

namespace parquetry::testing {
namespace {

using iceberg::MergeOnReadReader;
using iceberg::PositionDeleteIndex;

// Every row of a batch stream as one JSON text per row.
std::vector<std::string> rows_of(BatchReader& batches) {
  std::vector<std::string> out;
  RecordBatch batch;
  while (batches.next(batch)) {
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      JsonWriter writer;
      write_json_row(writer, batch, r);
      out.push_back(writer.take());
    }
  }
  return out;
}

// The surviving rows next_selection() hands out, as JSON texts, checking
// each call's count and bitmap size on the way.
std::vector<std::string> selected_rows_of(MergeOnReadReader& scan) {
  std::vector<std::string> out;
  RecordBatch batch;
  std::vector<uint8_t> selection = {0xFF};  // stale contents must not leak into the next call
  for (int64_t kept; (kept = scan.next_selection(batch, selection)) > 0;) {
    int64_t seen = 0;
    if (!selection.empty()) {
      EXPECT_EQ(int64_t(selection.size()), (batch.num_rows + 7) / 8);
      // Bits past the last row are clear.
      for (int64_t r = batch.num_rows; r < int64_t(selection.size()) * 8; ++r) {
        EXPECT_FALSE((selection[size_t(r >> 3)] >> (r & 7)) & 1) << r;
      }
    }
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      if (!selection.empty() && !((selection[size_t(r >> 3)] >> (r & 7)) & 1)) continue;
      ++seen;
      JsonWriter writer;
      write_json_row(writer, batch, r);
      out.push_back(writer.take());
    }
    EXPECT_EQ(seen, kept);
  }
  EXPECT_TRUE(selection.empty());
  EXPECT_EQ(batch.num_rows, 0);
  return out;
}

std::vector<std::string> naive_filter(const std::string& file, const ReaderOptions& options,
                                      const PositionDeleteIndex& deletes) {
  auto reader = FileReader::open(file, options);
  auto all = reader->batches();
  std::vector<std::string> rows = rows_of(*all);
  std::vector<std::string> kept;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!deletes.contains(int64_t(i))) kept.push_back(std::move(rows[i]));
  }
  return kept;
}

// kLongRunsAndScattered: runs of kSkipRows and more (left out of the read)
// between scattered single deletes (compacted away), in the same row groups.
enum class Pattern { kRandom, kClustered, kEverySecondRowGroup, kLongRunsAndScattered };

PositionDeleteIndex make_deletes(Pattern pattern, double fraction, int64_t rows,
                                 const std::vector<int64_t>& starts, std::mt19937_64& rng) {
  PositionDeleteIndex deletes;
  switch (pattern) {
    case Pattern::kRandom:
      for (int64_t i = 0; i < rows; ++i) {
        if (std::uniform_real_distribution<double>(0, 1)(rng) < fraction) deletes.add(i);
      }
      break;
    case Pattern::kClustered:
      // Runs long enough to cover whole pages.
      for (int64_t i = 0; i < rows;) {
        const int64_t run = 1 + int64_t(rng() % 300);
        if (std::uniform_real_distribution<double>(0, 1)(rng) < fraction)
          deletes.add_range(i, std::min(rows, i + run));
        i += run;
      }
      break;
    case Pattern::kEverySecondRowGroup:
      for (size_t g = 0; g + 1 < starts.size(); g += 2) deletes.add_range(starts[g], starts[g + 1]);
      if (rows > 2) deletes.add(rows - 1);
      break;
    case Pattern::kLongRunsAndScattered:
      for (int64_t i = 0; i < rows; ++i) {
        if (std::uniform_real_distribution<double>(0, 1)(rng) < fraction) deletes.add(i);
      }
      for (int64_t at = int64_t(rng() % 500); at < rows; at += 3 * MergeOnReadReader::kSkipRows) {
        deletes.add_range(at, std::min(rows, at + MergeOnReadReader::kSkipRows + int64_t(rng() % 200)));
      }
      break;
  }
  return deletes;
}

void check_file(const std::string& file, const std::vector<std::string>& projection) {
  const std::string& name = file;
  ReaderOptions options;
  options.columns = projection;
  options.batch_size = 777;  // batches never aligned with pages or row groups
  auto probe = FileReader::open(file, options);
  const int64_t rows = probe->metadata().num_rows;
  ASSERT_GT(rows, 0);
  const PositionDeleteIndex no_deletes;
  const std::vector<int64_t> starts = MergeOnReadReader(*probe, no_deletes).row_group_starts();
  // Seeded from the file name alone: the folder (a per-run temporary one, or
  // wherever the checkout is) must not change which deletes a run draws.
  std::mt19937_64 rng(std::hash<std::string>()(std::filesystem::path(file).filename().string()) +
                      projection.size());
  struct Case {
    Pattern pattern;
    double fraction;
  };
  for (Case c : {Case{Pattern::kRandom, 0.0}, Case{Pattern::kRandom, 0.01}, Case{Pattern::kRandom, 0.1},
                 Case{Pattern::kRandom, 0.5}, Case{Pattern::kRandom, 1.0}, Case{Pattern::kClustered, 0.5},
                 Case{Pattern::kClustered, 0.9}, Case{Pattern::kEverySecondRowGroup, 0},
                 Case{Pattern::kLongRunsAndScattered, 0.05}, Case{Pattern::kLongRunsAndScattered, 0.0}}) {
    // Batches of 1000 rows (compaction chunks that start off 64-row words) and
    // the default (chunks of kFilterChunkRows).
    for (int64_t batch_size : {int64_t(1000), iceberg::MergeOnReadOptions{}.batch_size}) {
      PositionDeleteIndex deletes = make_deletes(c.pattern, c.fraction, rows, starts, rng);
      // Positions past the end of the file delete nothing.
      deletes.add(rows + 5);
      const std::vector<std::string> expected = naive_filter(file, options, deletes);
      auto reader = FileReader::open(file, options);
      iceberg::MergeOnReadOptions mor;
      mor.batch_size = batch_size;
      MergeOnReadReader scan(*reader, deletes, mor);
      EXPECT_EQ(*scan.schema(), *reader->batch_schema());
      const std::vector<std::string> got = rows_of(scan);
      ASSERT_EQ(got.size(), expected.size())
          << name << " pattern " << int(c.pattern) << " " << c.fraction << " batch " << batch_size;
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ(got[i], expected[i])
            << name << " row " << i << " pattern " << int(c.pattern) << " " << c.fraction;
      }
      EXPECT_EQ(scan.stats().rows_returned, int64_t(expected.size()));
      EXPECT_EQ(scan.stats().rows_deleted, rows - int64_t(expected.size()));
      {
        // The same rows, left in place and marked by selection bitmaps.
        auto in_place_reader = FileReader::open(file, options);
        MergeOnReadReader in_place(*in_place_reader, deletes, mor);
        const std::vector<std::string> selected = selected_rows_of(in_place);
        ASSERT_EQ(selected.size(), expected.size())
            << name << " next_selection, pattern " << int(c.pattern) << " " << c.fraction;
        for (size_t i = 0; i < selected.size(); ++i) {
          ASSERT_EQ(selected[i], expected[i])
              << name << " next_selection, row " << i << " pattern " << int(c.pattern) << " " << c.fraction;
        }
        EXPECT_EQ(in_place.stats().rows_returned, int64_t(expected.size()));
        EXPECT_EQ(in_place.stats().rows_deleted, rows - int64_t(expected.size()));
      }
      if (c.pattern == Pattern::kEverySecondRowGroup && starts.size() > 2) {
        EXPECT_EQ(scan.stats().row_groups_skipped, int64_t(starts.size() - 1 + 1) / 2) << name;
      }
      if (c.fraction == 1.0) {
        EXPECT_EQ(scan.stats().row_groups_read, 0);
        EXPECT_EQ(reader->stats().pages_read, 0);
      }
      const bool has_offset_index =
          probe->metadata().row_groups[0].columns[0].offset_index_offset.has_value();
      // (At 90% a draw can delete every row: then whole row groups are skipped
      // and no page is left to skip.)
      if (c.pattern == Pattern::kClustered && c.fraction == 0.9 && has_offset_index &&
          scan.stats().row_groups_read > 0) {
        // Pages whose rows are all deleted were not decoded.
        EXPECT_GT(reader->stats().pages_skipped, 0) << name;
      }
    }
  }
}

std::string public_file(const std::string& name) { return parquet_testing("data/" + name).string(); }

TEST(MergeOnRead, TinyPagesAllColumns) { check_file(public_file("alltypes_tiny_pages.parquet"), {}); }
TEST(MergeOnRead, TinyPagesProjected) {
  check_file(public_file("alltypes_tiny_pages.parquet"), {"string_col", "id"});
}
TEST(MergeOnRead, ManyPagesPerRowGroup) { check_file(public_file("overflow_i16_page_cnt.parquet"), {}); }

// The same rows cut into many row groups (of 1000 rows, pages of 64 rows):
// positions must continue across row groups.
TEST(MergeOnRead, ManyRowGroups) {
  const std::string copy = (temp_dir() / "tiny_pages_many_row_groups.parquet").string();
  auto source = FileReader::open(public_file("alltypes_tiny_pages.parquet"));
  WriterOptions options;
  options.row_group_rows = 1000;
  options.page_rows = 64;
  auto writer = FileWriter::open(copy, *source->batch_schema(), options);
  auto batches = source->batches();
  writer->write(*batches);
  writer->close();
  ASSERT_GT(FileReader::open(copy)->num_row_groups(), 5);
  check_file(copy, {});
  check_file(copy, {"timestamp_col", "bool_col"});
}

TEST(MergeOnRead, SurvivingRangesAreTheComplement) {
  PositionDeleteIndex deletes;
  deletes.add_many(std::vector<int64_t>{100, 101, 105, 109, 200});
  using R = RowRange;
  EXPECT_EQ(iceberg::surviving_ranges(deletes, 100, 10), (std::vector<R>{{2, 5}, {6, 9}}));
  EXPECT_EQ(iceberg::surviving_ranges(deletes, 0, 100), (std::vector<R>{{0, 100}}));
  EXPECT_EQ(iceberg::surviving_ranges(deletes, 99, 3), (std::vector<R>{{0, 1}}));
  EXPECT_EQ(iceberg::surviving_ranges(deletes, 100, 2), (std::vector<R>{}));
  EXPECT_EQ(iceberg::surviving_ranges(deletes, 195, 10), (std::vector<R>{{0, 5}, {6, 10}}));
}

}  // namespace
}  // namespace parquetry::testing
