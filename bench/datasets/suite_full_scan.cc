// The full-scan table of the reader suite (BENCHMARKS.md §1). Every reader
// case folds every value of every column into count/min/max (lists: element
// count and sum) and is checked against DuckDB's aggregate query over the
// DuckDB-written file of the same dataset.
//
// `decoded_fold` folds the generator's in-memory columns: no file, no
// decoding. It is the floor under any reader (the "memcpy of the decoded
// bytes" limit of docs/architecture.md) and proves the comparison chain end
// to end until parquetry's own readers join this table.
#include <thread>

#include "datasets.h"
#include "harness.h"

namespace parquetry::bench {
namespace {

// Folds the columns of `table` on `threads` threads, columns dealt round-robin.
ScanResult parallel_fold(const datasets::Table& table, int threads) {
  if (threads <= 1) return datasets::fold_table(table);
  std::vector<ScanResult> parts(static_cast<size_t>(threads));
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      ScanResult& out = parts[static_cast<size_t>(t)];
      for (size_t c = static_cast<size_t>(t); c < table.columns.size(); c += static_cast<size_t>(threads)) {
        out.columns.push_back(datasets::fold_column(table.columns[c], table.rows));
      }
    });
  }
  for (std::thread& w : workers) w.join();
  ScanResult result;
  result.rows = table.rows;
  result.columns.resize(table.columns.size());
  for (int t = 0; t < threads; ++t) {
    size_t i = 0;
    for (size_t c = static_cast<size_t>(t); c < table.columns.size(); c += static_cast<size_t>(threads)) {
      result.columns[c] = std::move(parts[static_cast<size_t>(t)].columns[i++]);
    }
  }
  return result;
}

}  // namespace

PARQUETRY_BENCH_CASE(full_scan_peer, set_table_peer("reader", "full_scan",
                                                    PeerSpec{"duckdb",
                                                             "full_scan.js",
                                                             {"--dataset", "{dataset}", "--data-dir",
                                                              "{data_dir}", "--threads", "{threads}"}}));

PARQUETRY_BENCH_CASE(full_scan_decoded_fold,
                     add_case("reader", "full_scan", "decoded_fold",
                              [](CaseContext& ctx) {
                                datasets::Table table = datasets::generate(ctx.param("dataset"));
                                const int threads = static_cast<int>(ctx.param_int("threads"));
                                ScanResult result;
                                ctx.measure([&] {
                                  result = parallel_fold(table, threads);
                                  benchmark::DoNotOptimize(result);
                                });
                                ctx.set_result(std::move(result));
                              })
                         .param("dataset", {"taxi", "metrics"})
                         .param("threads", {"1", "2"}));

}  // namespace parquetry::bench
