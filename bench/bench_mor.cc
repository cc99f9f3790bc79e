// Iceberg deletes read through the Parquet reader (BENCHMARKS.md section 5,
// seed 001):
//  - delete_file_index: toPositionIndexes from a position-delete Parquet
//    file of 1,000,000 deletes over numDataFiles in {1 .. 1,000,000}, single
//    shot, against DuckDB's GROUP BY file_path count over the same file
//    (bench/peers/deletes_group_by.js, which also writes the file once into
//    the dataset folder);
//  - merge_on_read: the full-scan fold (count/nulls/min/max per column) of
//    the DuckDB-written taxi file over the rows surviving 1%, 10% and 50%
//    random deletes (folded in place through next_selection's bitmaps), against
//    the same fold with no deletes; merge_on_read_compacted folds the dense
//    batches of next() instead (survivors copied out) at 10%.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>

#include "datasets.h"
#include "harness.h"
#include "parquetry/iceberg_scan.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"
#include "scan_summary_result.h"

namespace parquetry::bench {
namespace {

constexpr int64_t kNumDeletes = 1'000'000;

std::string node_binary() {
  const char* env = std::getenv("PARQUETRY_NODE");
  return env != nullptr && *env != '\0' ? env : "node";
}

// The delete file of `files` data files, written by DuckDB on first use.
std::string ensure_delete_file(int64_t files) {
  const std::string path =
      data_dir() + "/deletes_" + std::to_string(kNumDeletes) + "_" + std::to_string(files) + ".parquet";
  if (std::filesystem::exists(path)) return path;
  const std::string command = node_binary() + " '" + peers_dir() + "/deletes_group_by.js' --data-dir '" +
                              data_dir() + "' --files " + std::to_string(files) + " --deletes " +
                              std::to_string(kNumDeletes) + " --write > /dev/null";
  if (std::system(command.c_str()) != 0 || !std::filesystem::exists(path)) {
    throw std::runtime_error("could not write " + path + " with DuckDB (" + command + ")");
  }
  return path;
}

// The index in the peer's result form: rows = data files, "cardinality"
// count = total deletes, min/max = smallest and largest per-file count.
ScanResult index_summary(const iceberg::PositionIndexMap& map) {
  ColumnStats stats;
  stats.name = "cardinality";
  stats.kind = ValueKind::kInt64;
  int64_t low = 0, high = 0;
  for (size_t i = 0; i < map.size(); ++i) {
    const int64_t c = map.index(i).cardinality();
    stats.count += c;
    low = i == 0 ? c : std::min(low, c);
    high = i == 0 ? c : std::max(high, c);
  }
  if (!map.empty()) {
    stats.min = low;
    stats.max = high;
  }
  ScanResult result;
  result.rows = int64_t(map.size());
  result.columns.push_back(std::move(stats));
  return result;
}

void delete_file_index(CaseContext& ctx) {
  const std::string path = ensure_delete_file(ctx.param_int("files"));
  iceberg::PositionIndexMap map;
  ScanResult result;
  ctx.measure([&] {
    map = iceberg::read_position_delete_file(path);
    benchmark::DoNotOptimize(map.size());
    ctx.state().PauseTiming();  // freeing up to a million indexes is not indexing
    result = index_summary(map);
    map = iceberg::PositionIndexMap();
    ctx.state().ResumeTiming();
  });
  ctx.set_result(std::move(result));
}

// --- merge-on-read over the taxi file -------------------------------------

// `percent` of the rows, chosen uniformly at random with a fixed seed.
iceberg::PositionDeleteIndex random_deletes(int64_t rows, int64_t percent) {
  iceberg::PositionDeleteIndex deletes;
  std::mt19937_64 rng(20260101 + uint64_t(percent));
  std::vector<int64_t> chosen;
  for (int64_t i = 0; i < rows; ++i) {
    if (int64_t(rng() % 100) < percent) chosen.push_back(i);
  }
  deletes.add_many(chosen);
  deletes.run_optimize();
  return deletes;
}

ScanSummary fold(BatchReader& batches) {
  ScanAccumulator accumulator(*batches.schema());
  RecordBatch batch;
  while (batches.next(batch)) accumulator.add(batch);
  return accumulator.summary();
}

// The fold visits only the surviving rows of each row group in place.
ScanSummary fold_selected(iceberg::MergeOnReadReader& scan) {
  ScanAccumulator accumulator(*scan.schema());
  RecordBatch batch;
  std::vector<uint8_t> selection;
  while (scan.next_selection(batch, selection) > 0) {
    accumulator.add(batch, selection.empty() ? nullptr : selection.data());
  }
  return accumulator.summary();
}

// compacted: the survivors copied out into the batches of next(), for
// consumers that need dense batches.
void taxi_scan(CaseContext& ctx, int64_t percent, bool compacted = false) {
  const std::string path = datasets::duckdb_parquet_path(data_dir(), "taxi");
  auto probe = FileReader::open(path);
  const iceberg::PositionDeleteIndex deletes = random_deletes(probe->metadata().num_rows, percent);
  ScanSummary summary;
  ctx.measure([&] {
    auto reader = FileReader::open(path);
    if (percent == 0) {
      auto batches = reader->batches();
      summary = fold(*batches);
    } else {
      iceberg::MergeOnReadReader batches(*reader, deletes);
      summary = compacted ? fold(batches) : fold_selected(batches);
    }
    benchmark::DoNotOptimize(summary);
  });
  ctx.set_result(to_scan_result(summary));
}

}  // namespace

PARQUETRY_BENCH_CASE(mor_index_peer,
                     set_table_peer("mor", "delete_file_index",
                                    PeerSpec{"duckdb_group_by",
                                             "deletes_group_by.js",
                                             {"--data-dir", "{data_dir}", "--files", "{files}"}}));

PARQUETRY_BENCH_CASE(mor_index,
                     add_case("mor", "delete_file_index", "parquetry_to_position_indexes", delete_file_index)
                         .param("files", {"1", "10", "100", "1000", "10000", "100000", "1000000"})
                         .single_shot());

PARQUETRY_BENCH_CASE(mor_scan_none, add_case("mor", "merge_on_read", "no_deletes", [](CaseContext& ctx) {
                                      taxi_scan(ctx, 0);
                                    }).baseline());

PARQUETRY_BENCH_CASE(mor_scan_deleted,
                     add_case("mor", "merge_on_read", "merge_on_read", [](CaseContext& ctx) {
                       taxi_scan(ctx, ctx.param_int("deleted_percent"));
                     }).param("deleted_percent", {"1", "10", "50"}));

PARQUETRY_BENCH_CASE(mor_scan_compacted,
                     add_case("mor", "merge_on_read", "merge_on_read_compacted", [](CaseContext& ctx) {
                       taxi_scan(ctx, ctx.param_int("deleted_percent"), true);
                     }).param("deleted_percent", {"10"}));

}  // namespace parquetry::bench
