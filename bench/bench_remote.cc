// Remote reads (docs/remote.md): the DuckDB-written taxi and metrics files
// served by nginx through the fault proxy (tests/servers/fault_proxy.py) with
// 0, 20 and 100 ms added before every response, against the same file read
// locally (the baseline row). Tables: a full scan, a 2-column projection,
// a selective --where (taxi: PULocationID = 132), and the time to the first batch (open + first row
// group). Each case prints the GETs and bytes one scan cost, counted by the
// proxy, on stderr ("remote: ..."). The servers start in the case's setup,
// on 127.0.0.1, and stop with the case's process.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "../tests/remote/servers.h"
#include "datasets.h"
#include "harness.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"
#include "scan_summary_result.h"

namespace parquetry::bench {
namespace {

namespace fs = std::filesystem;

/// nginx over the datasets folder and the proxy in front of it, for one process.
struct Servers {
  testing::Nginx nginx;
  testing::FaultProxy proxy;
  Servers(const fs::path& root, int latency_ms) : nginx(root), proxy(nginx.http_port(), latency_ms) {}
};

std::string dataset_path(CaseContext& ctx) {
  return datasets::duckdb_parquet_path(data_dir(), ctx.param("dataset"));
}

/// The path the case reads: the local file, or its URL through the proxy.
std::string path_for(CaseContext& ctx, bool remote, std::unique_ptr<Servers>& servers) {
  const fs::path local = dataset_path(ctx);
  if (!remote) return local.string();
  servers = std::make_unique<Servers>(local.parent_path(), int(ctx.param_int("latency_ms")));
  return servers->proxy.origin() + "/" + local.filename().string();
}

/// Reports what one scan cost in requests (the proxy's count over the
/// measured iterations).
void report_requests(CaseContext& ctx, const Servers* servers, const char* what, int64_t gets_before,
                     int64_t bytes_before) {
  if (servers == nullptr || ctx.state().iterations() == 0) return;
  const double n = double(ctx.state().iterations());
  std::fprintf(stderr, "remote: %s %s latency=%s ms threads=%s: %.1f GETs, %.1f MB per scan\n", what,
               ctx.param("dataset").c_str(), ctx.param("latency_ms").c_str(), ctx.param("threads").c_str(),
               double(servers->proxy.stat("gets") - gets_before) / n,
               double(servers->proxy.stat("bytes") - bytes_before) / n / 1e6);
}

template <typename Scan>
void run_case(CaseContext& ctx, bool remote, const char* what, Scan scan) {
  std::unique_ptr<Servers> servers;
  const std::string path = path_for(ctx, remote, servers);
  const int64_t gets = servers ? servers->proxy.stat("gets") : 0;
  const int64_t bytes = servers ? servers->proxy.stat("bytes") : 0;
  ScanSummary summary;
  ctx.measure([&] {
    summary = scan(path);
    benchmark::DoNotOptimize(summary);
  });
  report_requests(ctx, servers.get(), what, gets, bytes);
  ctx.set_result(to_scan_result(summary));
}

ReaderOptions reader_options(CaseContext& ctx) {
  ReaderOptions options;
  options.threads = int(ctx.param_int("threads"));
  return options;
}

void full_scan(CaseContext& ctx, bool remote) {
  const ReaderOptions options = reader_options(ctx);
  run_case(ctx, remote, "full_scan", [&](const std::string& path) { return scan_file(path, options); });
}

void projection(CaseContext& ctx, bool remote) {
  ReaderOptions options = reader_options(ctx);
  options.columns = ctx.param("dataset") == "taxi" ? std::vector<std::string>{"fare_amount", "trip_distance"}
                                                   : std::vector<std::string>{"metric_name", "ts"};
  run_case(ctx, remote, "projection", [&](const std::string& path) { return scan_file(path, options); });
}

void selective(CaseContext& ctx, bool remote) {
  FilteredScanOptions options;
  options.threads = int(ctx.param_int("threads"));
  options.filter = parse_predicate("PULocationID = 132");
  run_case(ctx, remote, "where", [&](const std::string& path) { return FilteredScan::fold(path, options); });
}

void first_batch(CaseContext& ctx, bool remote) {
  std::unique_ptr<Servers> servers;
  const std::string path = path_for(ctx, remote, servers);
  const ReaderOptions options = reader_options(ctx);
  int64_t rows = 0;
  ctx.measure([&] {
    auto reader = FileReader::open(path, options);
    auto batches = reader->batches();
    RecordBatch batch;
    batches->next(batch);
    rows = batch.num_rows;
    benchmark::DoNotOptimize(rows);
  });
}

void local_full(CaseContext& ctx) { full_scan(ctx, false); }
void remote_full(CaseContext& ctx) { full_scan(ctx, true); }
void local_projection(CaseContext& ctx) { projection(ctx, false); }
void remote_projection(CaseContext& ctx) { projection(ctx, true); }
void local_where(CaseContext& ctx) { selective(ctx, false); }
void remote_where(CaseContext& ctx) { selective(ctx, true); }
void local_first(CaseContext& ctx) { first_batch(ctx, false); }
void remote_first(CaseContext& ctx) { first_batch(ctx, true); }

}  // namespace

#define PARQUETRY_REMOTE_TABLE(id, table, local, remote, ...)                              \
  PARQUETRY_BENCH_CASE(remote_##id##_local, add_case("remote", table, "local_file", local) \
                                                .baseline()                                \
                                                .param("dataset", {__VA_ARGS__})           \
                                                .param("latency_ms", {"0"})                \
                                                .param("threads", {"2"}));                 \
  PARQUETRY_BENCH_CASE(remote_##id##_http, add_case("remote", table, "http_proxy", remote) \
                                               .param("dataset", {__VA_ARGS__})            \
                                               .param("latency_ms", {"0", "20", "100"})    \
                                               .param("threads", {"2"}))

PARQUETRY_REMOTE_TABLE(full, "full_scan", local_full, remote_full, "taxi", "metrics");
PARQUETRY_REMOTE_TABLE(projection, "projection_2_columns", local_projection, remote_projection, "taxi",
                       "metrics");
PARQUETRY_REMOTE_TABLE(where, "where_selective", local_where, remote_where, "taxi");
PARQUETRY_REMOTE_TABLE(first, "time_to_first_batch", local_first, remote_first, "taxi", "metrics");

}  // namespace parquetry::bench
