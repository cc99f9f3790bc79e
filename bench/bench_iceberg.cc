// Iceberg deletes (BENCHMARKS.md section 5, seed 001): toPositionIndexes over
// 1,000,000 (file_path, pos) rows spread evenly over 1..1,000,000 data files,
// rows ordered by file then position as a delete file stores them, from
// in-memory batches (plain strings and dictionary-encoded); and deletion-vector
// serialize / deserialize of a 1M-position index.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "parquetry/iceberg.h"

namespace {

using namespace parquetry::iceberg;

constexpr int64_t kNumDeletes = 1'000'000;
constexpr int64_t kBatchRows = 64 * 1024;  // what a reader hands over per batch
constexpr const char* kPathTemplate =
    "s3://pretty-long-bucket-name/pretty-long-namespace-name/pretty-long-table-name/data/%07d-data.parquet";

std::string path_of(int64_t file) {
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, kPathTemplate, int(file));
  return buffer;
}

// The delete file's rows in Arrow layout, both plain and dictionary-encoded,
// cut into reader-sized batches. Built once per numDataFiles, outside timing.
struct DeleteFileInput {
  std::vector<int32_t> offsets;
  std::vector<uint8_t> data;
  std::vector<int32_t> dict_offsets;
  std::vector<uint8_t> dict_data;
  std::vector<int32_t> indices;
  std::vector<int64_t> pos;
  std::vector<StringColumn> plain_columns;
  std::vector<DictionaryStringColumn> dict_columns;
  std::vector<PositionDeleteBatch> plain_batches;
  std::vector<PositionDeleteBatch> dict_batches;

  explicit DeleteFileInput(int64_t num_files) {
    const int64_t per_file = kNumDeletes / num_files;
    for (int64_t f = 0; f < num_files; ++f) {
      std::string p = path_of(f);
      dict_data.insert(dict_data.end(), p.begin(), p.end());
      dict_offsets.push_back(int32_t(dict_data.size() - p.size()));
    }
    dict_offsets.push_back(int32_t(dict_data.size()));
    const int64_t path_length = dict_offsets[1] - dict_offsets[0];
    data.reserve(size_t(kNumDeletes * path_length));
    for (int64_t row = 0; row < kNumDeletes; ++row) {
      int64_t file = row / per_file;
      indices.push_back(int32_t(file));
      pos.push_back(row % per_file);
      data.insert(data.end(), dict_data.begin() + dict_offsets[size_t(file)],
                  dict_data.begin() + dict_offsets[size_t(file) + 1]);
    }
    // Per-batch offsets start at 0 as in a decoded Arrow batch.
    const int64_t batches = (kNumDeletes + kBatchRows - 1) / kBatchRows;
    offsets.reserve(size_t(kNumDeletes + batches));
    std::vector<size_t> offset_starts;
    for (int64_t b = 0; b < batches; ++b) {
      offset_starts.push_back(offsets.size());
      int64_t first = b * kBatchRows, last = std::min(kNumDeletes, first + kBatchRows);
      int32_t base = int32_t(first * path_length);
      for (int64_t row = first; row <= last; ++row) offsets.push_back(int32_t(row * path_length) - base);
    }
    plain_columns.resize(size_t(batches));
    dict_columns.resize(size_t(batches));
    for (int64_t b = 0; b < batches; ++b) {
      int64_t first = b * kBatchRows, rows = std::min(kNumDeletes, first + kBatchRows) - first;
      StringColumn& plain = plain_columns[size_t(b)];
      plain.offsets = offsets.data() + offset_starts[size_t(b)];
      plain.data = data.data() + first * path_length;
      plain.data_size = rows * path_length;
      plain.length = rows;
      DictionaryStringColumn& dict = dict_columns[size_t(b)];
      dict.indices = indices.data() + first;
      dict.length = rows;
      dict.dictionary =
          StringColumn{dict_offsets.data(), dict_data.data(), int64_t(dict_data.size()), nullptr, num_files};
      PositionDeleteBatch pb;
      pb.file_path = &plain;
      pb.pos = pos.data() + first;
      pb.length = rows;
      plain_batches.push_back(pb);
      PositionDeleteBatch db;
      db.file_path_dictionary = &dict;
      db.pos = pos.data() + first;
      db.length = rows;
      db.same_dictionary_as_previous = b > 0;  // one dictionary for the whole file
      dict_batches.push_back(db);
    }
  }
};

const DeleteFileInput& input_for(int64_t num_files) {
  static std::map<int64_t, std::unique_ptr<DeleteFileInput>> cache;
  auto& slot = cache[num_files];
  if (!slot) {
    cache.clear();  // keep one input (about 110 MB) alive at a time
    auto& fresh = cache[num_files];
    fresh = std::make_unique<DeleteFileInput>(num_files);
    return *fresh;
  }
  return *slot;
}

void run_to_position_indexes(benchmark::State& state, bool dictionary) {
  const int64_t num_files = state.range(0);
  const DeleteFileInput& input = input_for(num_files);
  const auto& batches = dictionary ? input.dict_batches : input.plain_batches;
  for (auto _ : state) {
    PositionIndexMap map = to_position_indexes(batches);
    benchmark::DoNotOptimize(map.size());
    state.PauseTiming();  // freeing a million bitmaps is not part of indexing
    if (int64_t(map.size()) != num_files) state.SkipWithError("wrong number of data files");
    map = PositionIndexMap();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kNumDeletes);
  state.counters["files"] = double(num_files);
}

void BM_ToPositionIndexes_Plain(benchmark::State& state) { run_to_position_indexes(state, false); }
void BM_ToPositionIndexes_Dictionary(benchmark::State& state) { run_to_position_indexes(state, true); }

void data_file_counts(benchmark::internal::Benchmark* b) {
  for (int64_t n : {1, 10, 100, 1000, 10000, 100000, 1000000}) b->Arg(n);
  b->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_ToPositionIndexes_Plain)->Apply(data_file_counts);

// The floor for plain input: just reading the path bytes (about 103 MB) once.
void BM_PlainPathBytes_ReadFloor(benchmark::State& state) {
  const DeleteFileInput& input = input_for(state.range(0));
  for (auto _ : state) {
    uint64_t acc = 0;
    const uint8_t* p = input.data.data();
    size_t n = input.data.size() / 8;
    for (size_t i = 0; i < n; ++i) {
      uint64_t word;
      std::memcpy(&word, p + 8 * i, 8);
      acc ^= word;
    }
    benchmark::DoNotOptimize(acc);
  }
  state.SetBytesProcessed(state.iterations() * int64_t(input.data.size()));
}
BENCHMARK(BM_PlainPathBytes_ReadFloor)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ToPositionIndexes_Dictionary)->Apply(data_file_counts);

// 1M deleted positions in a 10M-row data file: every 10th row (bitset
// containers), or 1M random rows.
PositionDeleteIndex million_positions(bool random) {
  PositionDeleteIndex index;
  std::vector<int64_t> positions;
  positions.reserve(1'000'000);
  if (random) {
    std::mt19937_64 rng(11);
    for (int i = 0; i < 1'000'000; ++i) positions.push_back(int64_t(rng() % 10'000'000));
    std::sort(positions.begin(), positions.end());
  } else {
    for (int64_t p = 0; p < 10'000'000; p += 10) positions.push_back(p);
  }
  index.add_many(positions);
  index.run_optimize();
  return index;
}

void BM_DeletionVector_Serialize(benchmark::State& state) {
  PositionDeleteIndex index = million_positions(state.range(0) != 0);
  size_t bytes = 0;
  for (auto _ : state) {
    std::vector<uint8_t> blob = serialize_deletion_vector(index);
    bytes = blob.size();
    benchmark::DoNotOptimize(blob.data());
  }
  state.SetItemsProcessed(state.iterations() * index.cardinality());
  state.counters["blob_bytes"] = double(bytes);
}

void BM_DeletionVector_Deserialize(benchmark::State& state) {
  PositionDeleteIndex index = million_positions(state.range(0) != 0);
  std::vector<uint8_t> blob = serialize_deletion_vector(index);
  const int64_t cardinality = index.cardinality();
  for (auto _ : state) {
    PositionDeleteIndex back = deserialize_deletion_vector(blob, cardinality);
    benchmark::DoNotOptimize(back.bitmap_count());
  }
  state.SetItemsProcessed(state.iterations() * cardinality);
  state.counters["blob_bytes"] = double(blob.size());
}

BENCHMARK(BM_DeletionVector_Serialize)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DeletionVector_Deserialize)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// Merge-on-read building block: a deleted-row bitmap per 64K-row batch over a
// 10M-row file with 10% of rows deleted.
void BM_DeletedBitmap(benchmark::State& state) {
  PositionDeleteIndex index = million_positions(true);
  std::vector<uint8_t> bits(64 * 1024 / 8);
  for (auto _ : state) {
    for (int64_t first = 0; first < 10'000'000; first += 64 * 1024) {
      index.deleted_bitmap(first, std::min<int64_t>(64 * 1024, 10'000'000 - first), bits.data());
      benchmark::DoNotOptimize(bits.data());
    }
  }
  state.SetItemsProcessed(state.iterations() * 10'000'000);
}
BENCHMARK(BM_DeletedBitmap)->Unit(benchmark::kMillisecond);

}  // namespace
