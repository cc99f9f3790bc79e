// The benchmark harness's public API: how a suite declares JMH-style cases.
//
// A case belongs to a suite (one chart in the report, `--suite NAME`) and to a
// table inside it (one terminal table; rows are compared with the table's
// baseline). Parameters form a cross product like JMH's @Param; each
// combination becomes one Google Benchmark named
// "<suite>.<table>:<case>/<param>=<value>/...". A table may have a peer: an
// external program (a Node script driving DuckDB) that does the same work and
// prints its timings and its result; the harness runs it with the same
// parameters, and a case whose result differs from the peer's fails.
//
//   PARQUETRY_BENCH_CASE(reader_scan,
//       parquetry::bench::add_case("reader", "full_scan", "columnar", [](parquetry::bench::CaseContext& ctx)
//       {
//         auto file = open(ctx.param("dataset"));          // setup: not measured
//         parquetry::bench::ScanResult result;
//         ctx.measure([&] { result = scan(file, ctx.param_int("threads")); });
//         ctx.set_result(result);                            // checked against the peer
//       }).param("dataset", {"taxi", "metrics"}).param("threads", {"1", "2"}));
//
// Plain BENCHMARK(...) registrations work too: they are grouped into a suite
// named after their function ("BM_Encoding_Plain" -> suite "encoding"), with
// allocation figures from Google Benchmark's memory-manager run.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alloc_counter.h"
#include "parquetry/util/process_usage.h"
#include "scan_result.h"

namespace parquetry::bench {

/// Parameter values of one case instance, in declaration order.
using Params = std::vector<std::pair<std::string, std::string>>;

class CaseContext {
 public:
  CaseContext(benchmark::State& state, const Params& params) : state_(state), params_(params) {}

  benchmark::State& state() { return state_; }
  const Params& params() const { return params_; }
  /// The value of parameter `name`; throws std::invalid_argument when the case has no such parameter.
  const std::string& param(std::string_view name) const;
  int64_t param_int(std::string_view name) const;

  /// The measured loop: calls `op` once per iteration. The allocation
  /// counters are reset just before the first iteration and read just after
  /// the last, so bytes/op and allocs/op cover `op` alone.
  template <class Op>
  void measure(Op&& op) {
    begin_measure();
    for (auto _ : state_) op();
    end_measure();
  }

  /// The case's answer, compared with the table peer's before the timing counts.
  void set_result(ScanResult result);

 private:
  void begin_measure();
  void end_measure();

  benchmark::State& state_;
  const Params& params_;
  ProcessUsage start_usage_;
};

using CaseBody = std::function<void(CaseContext&)>;

/// Returned by add_case() to describe the case further (chainable).
class CaseBuilder {
 public:
  /// A parameter and its values; several parameters form a cross product.
  CaseBuilder& param(std::string name, std::vector<std::string> values);
  /// One iteration per measurement (JMH's SingleShotTime), for long cases.
  CaseBuilder& single_shot();
  /// The row the table's ratio column divides by when the table has no peer.
  CaseBuilder& baseline();
  /// Also measured cold when the run asks for it (--cold N): N samples, each
  /// one operation in a fresh process (setup, then one call of the measured
  /// op), with the op's minor faults and kernel time and the process's peak
  /// RSS; the table's peer runs N times in fresh processes too (its first
  /// query). For cases whose op is what a program does once: scans, writes.
  CaseBuilder& cold();
  /// At least `forks` forks, run round-robin with the other cases of its
  /// table (as --interleave does) whatever --forks says: for tables whose
  /// rows are held to a bound against each other (a few percent), where a
  /// machine drifting between two rows' runs would decide the ratio.
  CaseBuilder& interleaved_forks(int forks);

  struct Spec;
  explicit CaseBuilder(Spec* spec) : spec_(spec) {}

 private:
  Spec* spec_;
};

/// Declares a case (registered with Google Benchmark when the harness starts).
CaseBuilder add_case(std::string suite, std::string table, std::string name, CaseBody body);

/// An external program doing a table's work. `script` is a file in
/// bench/peers run with node (or an absolute path of an executable). In
/// `args`, "{name}" becomes the value of the case parameter `name` and
/// "{data_dir}" the dataset folder. The harness appends
/// "--warmup W --reps R". The program prints one JSON object on stdout:
/// {"timings_ns": [...], "result": <ScanResult JSON>, "version": "..."}.
struct PeerSpec {
  std::string name;  ///< row label, e.g. "duckdb"
  std::string script;
  std::vector<std::string> args;
};

/// Gives table `suite`.`table` a peer: the ratio baseline and the reference result.
void set_table_peer(std::string suite, std::string table, PeerSpec peer);

/// Folder of the generated datasets (set by the harness for every case).
std::string data_dir();

/// Folder of the peer scripts (bench/peers of the source tree, or --peers-dir),
/// for cases that run a peer script themselves, e.g. to write a dataset.
std::string peers_dir();

/// Runs the harness (orchestrator, child, listing, datasets, compare). The
/// parquetry_bench main() is just this.
int run_main(int argc, char** argv);

}  // namespace parquetry::bench

#define PARQUETRY_BENCH_CONCAT_INNER(a, b) a##b
#define PARQUETRY_BENCH_CONCAT(a, b) PARQUETRY_BENCH_CONCAT_INNER(a, b)
/// Runs a registration expression (add_case(...), set_table_peer(...)) at static-initialization time.
#define PARQUETRY_BENCH_CASE(id, ...)                                                          \
  [[maybe_unused]] static const bool PARQUETRY_BENCH_CONCAT(parquetry_bench_registered_, id) = \
      ((void)(__VA_ARGS__), true)
