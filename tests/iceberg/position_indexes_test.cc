// to_position_indexes against a naive std::map<std::string, std::set<int64_t>>
// on random batches, plain and dictionary-encoded, sorted and unsorted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/iceberg.h"

namespace parquetry::iceberg {
namespace {

using Naive = std::map<std::string, std::set<int64_t>>;

struct Row {
  std::string path;
  int64_t pos;
};

// Owns the Arrow buffers of one plain batch.
struct PlainBatch {
  std::vector<int32_t> offsets{0};
  std::vector<uint8_t> data;
  std::vector<int64_t> pos;
  StringColumn column;
  PositionDeleteBatch batch;

  PlainBatch(const PlainBatch&) = delete;
  PlainBatch& operator=(const PlainBatch&) = delete;
  explicit PlainBatch(const std::vector<Row>& rows) {
    for (const Row& r : rows) {
      data.insert(data.end(), r.path.begin(), r.path.end());
      offsets.push_back(int32_t(data.size()));
      pos.push_back(r.pos);
    }
    column = StringColumn{offsets.data(), data.data(), int64_t(data.size()), nullptr, int64_t(rows.size())};
    batch.file_path = &column;
    batch.pos = pos.data();
    batch.length = int64_t(rows.size());
  }
};

// Owns the buffers of one dictionary-encoded batch.
struct DictionaryBatch {
  std::vector<int32_t> dict_offsets{0};
  std::vector<uint8_t> dict_data;
  std::vector<int32_t> indices;
  std::vector<int64_t> pos;
  DictionaryStringColumn column;
  PositionDeleteBatch batch;

  DictionaryBatch(const DictionaryBatch&) = delete;
  DictionaryBatch& operator=(const DictionaryBatch&) = delete;
  DictionaryBatch(const std::vector<Row>& rows, const std::vector<std::string>& dictionary) {
    for (const std::string& s : dictionary) {
      dict_data.insert(dict_data.end(), s.begin(), s.end());
      dict_offsets.push_back(int32_t(dict_data.size()));
    }
    for (const Row& r : rows) {
      auto it = std::find(dictionary.begin(), dictionary.end(), r.path);
      indices.push_back(int32_t(it - dictionary.begin()));
      pos.push_back(r.pos);
    }
    column.indices = indices.data();
    column.length = int64_t(rows.size());
    column.dictionary = StringColumn{dict_offsets.data(), dict_data.data(), int64_t(dict_data.size()),
                                     nullptr, int64_t(dictionary.size())};
    batch.file_path_dictionary = &column;
    batch.pos = pos.data();
    batch.length = int64_t(rows.size());
  }
};

Naive naive_of(const std::vector<Row>& rows) {
  Naive naive;
  for (const Row& r : rows) naive[r.path].insert(r.pos);
  return naive;
}

Naive from_map(const PositionIndexMap& map) {
  Naive result;
  for (size_t i = 0; i < map.size(); ++i) {
    std::set<int64_t>& set = result[std::string(map.path(i))];
    EXPECT_TRUE(set.empty()) << "path listed twice: " << map.path(i);
    map.index(i).for_each([&](int64_t p) { set.insert(p); });
  }
  return result;
}

std::vector<std::string> random_paths(std::mt19937_64& rng, size_t count) {
  std::vector<std::string> paths;
  for (size_t i = 0; i < count; ++i) {
    // Same length and shared prefixes on purpose: differences late in the path.
    char buffer[128];
    std::snprintf(buffer, sizeof buffer, "s3://bucket/ns/table/data/%07llu-data.parquet",
                  static_cast<unsigned long long>(rng() % 10000000));
    std::string path = buffer;
    if (i % 5 == 0) path += "x";                     // a different length
    if (i % 7 == 0) path = "f" + std::to_string(i);  // short ones
    paths.push_back(path);
  }
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

std::vector<Row> random_rows(std::mt19937_64& rng, const std::vector<std::string>& paths, size_t count,
                             bool sorted) {
  std::vector<Row> rows;
  for (size_t i = 0; i < count; ++i) {
    int64_t pos = int64_t(rng() % 5000);
    if (rng() % 50 == 0) pos += int64_t(rng() % 3) << 32;
    rows.push_back({paths[rng() % paths.size()], pos});
  }
  if (sorted) {
    std::sort(rows.begin(), rows.end(),
              [](const Row& a, const Row& b) { return a.path != b.path ? a.path < b.path : a.pos < b.pos; });
  }
  return rows;
}

std::vector<std::vector<Row>> split(const std::vector<Row>& rows, std::mt19937_64& rng) {
  std::vector<std::vector<Row>> batches;
  size_t at = 0;
  while (at < rows.size()) {
    size_t n = std::min(rows.size() - at, size_t(1 + rng() % 700));
    batches.emplace_back(rows.begin() + ptrdiff_t(at), rows.begin() + ptrdiff_t(at + n));
    at += n;
  }
  return batches;
}

TEST(ToPositionIndexes, PlainMatchesNaive) {
  std::mt19937_64 rng(1);
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<std::string> paths = random_paths(rng, 1 + rng() % 60);
    std::vector<Row> rows = random_rows(rng, paths, 1 + rng() % 5000, trial % 3 != 0);
    PositionIndexBuilder builder;
    for (const auto& part : split(rows, rng)) {
      PlainBatch batch(part);
      builder.add(batch.batch);
    }
    PositionIndexMap map = builder.finish();
    Naive expected = naive_of(rows);
    EXPECT_EQ(from_map(map), expected);
    EXPECT_EQ(map.size(), expected.size());
    for (const auto& [path, set] : expected) {
      const PositionDeleteIndex* index = map.find(path);
      ASSERT_NE(index, nullptr) << path;
      EXPECT_EQ(index->cardinality(), int64_t(set.size()));
    }
    EXPECT_EQ(map.find("s3://not/there"), nullptr);
  }
}

TEST(ToPositionIndexes, DictionaryMatchesNaive) {
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<std::string> paths = random_paths(rng, 1 + rng() % 60);
    std::vector<Row> rows = random_rows(rng, paths, 1 + rng() % 5000, trial % 3 != 0);
    // A dictionary with a duplicate entry: two indices for one path must merge.
    std::vector<std::string> dictionary = paths;
    std::shuffle(dictionary.begin(), dictionary.end(), rng);
    dictionary.push_back(dictionary.front());
    PositionIndexBuilder builder;
    bool first = true;
    for (auto& part : split(rows, rng)) {
      DictionaryBatch batch(part, dictionary);
      // Use the second, equal entry for some rows.
      for (size_t i = 0; i < part.size(); ++i) {
        if (batch.indices[i] == 0 && i % 2) batch.indices[i] = int32_t(dictionary.size() - 1);
      }
      batch.batch.same_dictionary_as_previous = !first;
      first = false;
      builder.add(batch.batch);
    }
    EXPECT_EQ(from_map(builder.finish()), naive_of(rows));
  }
}

TEST(ToPositionIndexes, OneDataFileOnly) {
  std::mt19937_64 rng(3);
  std::vector<std::string> paths = random_paths(rng, 20);
  std::vector<Row> rows = random_rows(rng, paths, 3000, true);
  std::deque<PlainBatch> owned;  // batches point into themselves: never move them
  for (const auto& part : split(rows, rng)) owned.emplace_back(part);
  std::vector<PositionDeleteBatch> batches;
  for (const PlainBatch& b : owned) batches.push_back(b.batch);
  Naive expected = naive_of(rows);
  const std::string& wanted = paths[paths.size() / 2];
  PositionDeleteIndex index = to_position_index(batches, wanted);
  std::set<int64_t> got;
  index.for_each([&](int64_t p) { got.insert(p); });
  EXPECT_EQ(got, expected[wanted]);
  EXPECT_TRUE(to_position_index(batches, "s3://absent").empty());
  PositionIndexMap all = to_position_indexes(batches);
  EXPECT_EQ(all.total_cardinality(),
            int64_t(std::accumulate(expected.begin(), expected.end(), size_t(0),
                                    [](size_t n, const auto& kv) { return n + kv.second.size(); })));

  // Dictionary input with the filter.
  DictionaryBatch dict(rows, paths);
  PositionIndexBuilder builder{wanted};
  builder.add(dict.batch);
  PositionIndexMap only = builder.finish();
  ASSERT_EQ(only.size(), 1u);
  EXPECT_EQ(only.path(0), wanted);
  EXPECT_EQ(only.index(0).cardinality(), int64_t(expected[wanted].size()));
}

TEST(ToPositionIndexes, RejectsBadBatches) {
  std::vector<Row> rows = {{"a", 1}, {"a", 2}, {"b", 3}};
  auto expect_error = [](const PositionDeleteBatch& batch, ErrorCode code, const char* needle) {
    PositionIndexBuilder builder;
    try {
      builder.add(batch);
      ADD_FAILURE() << "accepted: " << needle;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), code) << e.what();
      EXPECT_NE(e.message().find(needle), std::string::npos) << e.message();
    }
  };
  {
    PlainBatch b(rows);
    uint8_t validity = 0b101;  // row 1 null
    b.column.validity = &validity;
    expect_error(b.batch, ErrorCode::kCorrupt, "null file_path");
  }
  {
    PlainBatch b(rows);
    uint8_t validity = 0b011;
    b.batch.pos_validity = &validity;
    expect_error(b.batch, ErrorCode::kCorrupt, "null pos");
  }
  {
    PlainBatch b(rows);
    b.offsets[1] = 3;  // 0, 3, 2, 3: decreasing
    expect_error(b.batch, ErrorCode::kCorrupt, "decrease");
  }
  {
    PlainBatch b(rows);
    b.offsets[3] = 1000;
    expect_error(b.batch, ErrorCode::kCorrupt, "outside");
  }
  {
    PlainBatch b(rows);
    b.pos[2] = -4;
    expect_error(b.batch, ErrorCode::kCorrupt, "delete position -4");
  }
  {
    DictionaryBatch b(rows, {"a", "b"});
    b.indices[2] = 2;
    expect_error(b.batch, ErrorCode::kCorrupt, "dictionary index 2");
    b.indices[2] = -1;
    expect_error(b.batch, ErrorCode::kCorrupt, "dictionary index -1");
  }
  {
    // Empty paths without a data buffer are valid (and equal).
    std::vector<int32_t> offsets = {0, 0, 0};
    std::vector<int64_t> pos = {4, 9};
    StringColumn empty{offsets.data(), nullptr, 0, nullptr, 2};
    PositionDeleteBatch batch;
    batch.file_path = &empty;
    batch.pos = pos.data();
    batch.length = 2;
    PositionIndexBuilder builder;
    builder.add(batch);
    PositionIndexMap map = builder.finish();
    ASSERT_EQ(map.size(), 1u);
    EXPECT_EQ(map.path(0), "");
    EXPECT_EQ(map.index(0).cardinality(), 2);
  }
  {
    PlainBatch b(rows);
    b.batch.length = 2;  // disagrees with the column
    expect_error(b.batch, ErrorCode::kInvalidArgument, "rows");
  }
}

TEST(ToPositionIndexes, RunsSpanningBatchesAndRangesOfPositions) {
  // One file split over batches, contiguous positions (range insertion path).
  std::vector<Row> rows;
  for (int64_t p = 0; p < 10000; ++p) rows.push_back({"s3://bucket/one.parquet", p});
  for (int64_t p = 0; p < 10; ++p) rows.push_back({"s3://bucket/two.parquet", p * 1000});
  std::mt19937_64 rng(5);
  PositionIndexBuilder builder;
  for (const auto& part : split(rows, rng)) {
    PlainBatch b(part);
    builder.add(b.batch);
  }
  PositionIndexMap map = builder.finish();
  ASSERT_EQ(map.size(), 2u);
  EXPECT_EQ(map.path(0), "s3://bucket/one.parquet");
  EXPECT_EQ(map.index(0).cardinality(), 10000);
  EXPECT_EQ(map.index(0).max(), 9999);
  EXPECT_EQ(map.index(1).cardinality(), 10);
  EXPECT_TRUE(map.index(1).contains(9000));
  EXPECT_FALSE(map.index(1).contains(9001));
}

}  // namespace
}  // namespace parquetry::iceberg

namespace parquetry::iceberg {
namespace {

TEST(ToPositionIndexes, ManyFilesAcrossChunksSortedThenUnsorted) {
  // 40,000 files: entries span six segments (the last ones, of 2 MiB and
  // more, mapped for huge pages) and ~3 MB of path bytes several arena
  // blocks; sorted rows first, then rows revisiting earlier files, which
  // switches the map to hashing.
  std::vector<Row> rows;
  for (int f = 0; f < 40000; ++f) {
    char buffer[128];
    std::snprintf(buffer, sizeof buffer,
                  "s3://bucket/warehouse/a-longer-namespace/table/data/%07d-data.parquet", f);
    rows.push_back({buffer, f % 7});
    rows.push_back({buffer, 100 + f % 3});
  }
  std::vector<Row> revisits;
  for (int f = 39999; f >= 0; f -= 13) revisits.push_back({rows[size_t(2 * f)].path, 5000});
  PositionIndexBuilder builder;
  {
    PlainBatch sorted(rows);
    builder.add(sorted.batch);
  }
  PositionIndexMap sorted_only = [&] {
    PositionIndexBuilder copy;
    PlainBatch again(rows);
    copy.add(again.batch);
    return copy.finish();
  }();
  EXPECT_EQ(sorted_only.size(), 40000u);
  ASSERT_NE(sorted_only.find(rows[2 * 4097].path), nullptr);  // binary search over segments
  EXPECT_EQ(sorted_only.find(rows[2 * 4097].path)->cardinality(), 2);
  EXPECT_EQ(sorted_only.find("s3://bucket/warehouse/a-longer-namespace/table/data/0004097-data.parquetx"),
            nullptr);
  {
    PlainBatch unsorted(revisits);
    builder.add(unsorted.batch);
  }
  std::vector<Row> all = rows;
  all.insert(all.end(), revisits.begin(), revisits.end());
  PositionIndexMap map = builder.finish();
  EXPECT_EQ(from_map(map), naive_of(all));
  EXPECT_EQ(map.find(rows[0].path)->cardinality(), 2);
  EXPECT_EQ(map.find(rows[2 * 39999].path)->cardinality(), 3);
  EXPECT_EQ(map.find(rows[2 * 9999].path)->cardinality(), 2);  // 9999 % 13 != 39999 % 13
  PositionIndexMap moved = std::move(map);
  EXPECT_EQ(moved.size(), 40000u);
  EXPECT_TRUE(map.empty());
  ASSERT_NE(moved.find(rows[2 * 13].path), nullptr);
  EXPECT_EQ(moved.find(rows[2 * 13].path)->cardinality(), 2);
  for (size_t i = 0; i < moved.size(); i += 997)
    EXPECT_EQ(moved.find(moved.path(i)), &moved.index(i));  // not revisited: 39999 - 13k never hits 13
}

TEST(ToPositionIndexes, LongRunsEndExactlyWhereThePathChanges) {
  // Runs long enough for the block comparison, ended by paths of the same
  // length that differ in one middle byte (not in the last 8 bytes).
  const std::string a = "s3://bucket/table/data/aaaaaaaaaaaa/part-00000.parquet";
  for (int64_t run : {1, 2, 9, 17, 100, 4095, 4096, 4097, 9000}) {
    for (size_t where : {size_t(5), a.size() / 2, a.size() - 1}) {
      std::string b = a;
      b[where] = 'Z';
      std::vector<Row> rows;
      for (int64_t i = 0; i < run; ++i) rows.push_back({a, i});
      rows.push_back({b, 0});
      for (int64_t i = 0; i < 3; ++i) rows.push_back({a, 100000 + i});
      PlainBatch batch(rows);
      PositionIndexBuilder builder;
      builder.add(batch.batch);
      PositionIndexMap map = builder.finish();
      ASSERT_EQ(map.size(), 2u) << run << " " << where;
      EXPECT_EQ(map.find(a)->cardinality(), run + 3) << run << " " << where;
      EXPECT_EQ(map.find(b)->cardinality(), 1) << run << " " << where;
    }
  }
}

}  // namespace
}  // namespace parquetry::iceberg
