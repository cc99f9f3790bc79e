// parquetry_bench: orchestrator (default), child (--child), listing, dataset
// preparation and run comparison. See docs/benchmarks.md for the method.
#include "harness.h"

#include <regex.h>
#include <simdjson.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "datasets.h"
#include "json_writer.h"
#include "machine.h"
#include "process.h"
#include "registry.h"
#include "results.h"

#ifndef PARQUETRY_SOURCE_DIR
#define PARQUETRY_SOURCE_DIR "."
#endif

namespace parquetry::bench {
namespace {

namespace fs = std::filesystem;

struct Options {
  std::vector<std::string> suites;
  std::string filter;
  std::multimap<std::string, std::string> param_filters;
  std::string mode_override;  // "", "avgt", "ss"
  int warmup = 3;
  int measure = 5;
  int forks = 1;
  int cold = 0;             // cold samples per cold() case (fresh process each)
  std::string cold_filter;  // only cold() cases whose name matches are measured cold
  bool interleave = false;  // forks of all selected cases round-robin
  double iteration_seconds = 0.5;
  std::string data_dir;
  std::string peers_dir = std::string(PARQUETRY_SOURCE_DIR) + "/bench/peers";
  std::string source_dir = PARQUETRY_SOURCE_DIR;
  std::string node = "node";
  std::string json_path;
  std::string profile = "custom";
  bool no_peers = false;
  bool list = false;
  bool datasets = false;
  std::vector<std::string> dataset_names;
  std::vector<std::string> compare;
  std::string report_results;
  std::string report_html;
  std::string report_markdown;
  std::string child_out;
  std::vector<std::string> passthrough;  // --benchmark_* flags for children
};

// ---------------------------------------------------------------- child side

std::string g_child_out;
std::optional<ScanResult> g_child_result;

struct ChildRep {
  int64_t iterations = 0;
  double real_seconds = 0;
  double cpu_seconds = 0;
  double alloc_bytes = -1;
  double allocs = -1;
  double minor_faults = -1;
  double kernel_seconds = -1;
  double rss_before_kb = -1;
  std::string error;
};

std::string child_json(const std::vector<ChildRep>& reps, const std::string& error) {
  JsonWriter out;
  out.begin_object().key("reps").begin_array();
  for (const ChildRep& r : reps) {
    out.begin_object();
    out.key("iterations").value(r.iterations);
    out.key("real_seconds").value(r.real_seconds);
    out.key("cpu_seconds").value(r.cpu_seconds);
    out.key("alloc_bytes").value(r.alloc_bytes);
    out.key("allocs").value(r.allocs);
    out.key("minor_faults").value(r.minor_faults);
    out.key("kernel_seconds").value(r.kernel_seconds);
    out.key("rss_before_kb").value(r.rss_before_kb);
    out.end_object();
  }
  out.end_array();
  out.key("result");
  g_child_result ? out.raw(scan_result_to_json(*g_child_result)) : out.null();
  out.key("error").value(error);
  out.end_object();
  return out.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  if (!file) throw std::runtime_error("cannot write " + path);
}

std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// Allocation figures for plain BENCHMARK(...) cases, which have no measure():
// Google Benchmark 1.7 re-runs each repetition for min(16, iterations)
// iterations between Start() and Stop(). The totals are kept here, one per
// repetition in order, because the Run::memory_result pointers of 1.7.1 can
// dangle once there are several repetitions.
class CountingMemoryManager : public benchmark::MemoryManager {
 public:
  void Start() override { reset_alloc_counters(); }
  void Stop(Result& result) override {
    const AllocCounts counts = read_alloc_counters();
    result.num_allocs = counts.allocations;
    result.total_allocated_bytes = counts.bytes;
    result.max_bytes_used = 0;
    result.net_heap_growth = 0;  // not tracked: the harness reports totals, not live bytes
    totals.push_back(counts);
  }
  void Stop(Result* result) override { Stop(*result); }
  std::vector<AllocCounts> totals;
};

class CollectingReporter : public benchmark::BenchmarkReporter {
 public:
  explicit CollectingReporter(const CountingMemoryManager* memory) : memory_(memory) {}
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration) continue;
      ChildRep rep;
      rep.iterations = run.iterations;
      rep.real_seconds = run.real_accumulated_time;
      rep.cpu_seconds = run.cpu_accumulated_time;
      if (run.error_occurred) rep.error = run.error_message;
      auto counter = [&](const char* name) {
        auto it = run.counters.find(name);
        return it == run.counters.end() ? -1.0 : it->second.value;
      };
      rep.minor_faults = counter("pq_minor_faults");
      rep.kernel_seconds = counter("pq_kernel_seconds");
      rep.rss_before_kb = counter("pq_rss_before_kb");
      auto bytes = run.counters.find("pq_alloc_bytes");
      auto allocs = run.counters.find("pq_allocs");
      if (bytes != run.counters.end() && allocs != run.counters.end()) {
        rep.alloc_bytes = bytes->second.value;
        rep.allocs = allocs->second.value;
      } else if (memory_ != nullptr && reps.size() < memory_->totals.size() && run.iterations > 0) {
        // Scale the memory run's totals to the measured iteration count.
        const AllocCounts& totals = memory_->totals[reps.size()];
        const double scale =
            static_cast<double>(run.iterations) / static_cast<double>(std::min<int64_t>(16, run.iterations));
        rep.alloc_bytes = static_cast<double>(totals.bytes) * scale;
        rep.allocs = static_cast<double>(totals.allocations) * scale;
      }
      reps.push_back(rep);
    }
  }
  std::vector<ChildRep> reps;

 private:
  const CountingMemoryManager* memory_;
};

std::string regex_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::string_view(".^$|()[]{}*+?\\").find(c) != std::string_view::npos) out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

std::vector<char*> to_argv(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return argv;
}

int run_child(const Options& options, const std::string& case_name, const std::string& self) {
  g_child_out = options.child_out;
  const CaseInfo info = describe(case_name);
  std::vector<std::string> args = {self, "--benchmark_filter=^" + regex_escape(case_name) + "$"};
  for (const std::string& flag : options.passthrough) args.push_back(flag);
  int argc = static_cast<int>(args.size());
  std::vector<char*> argv = to_argv(args);
  benchmark::Initialize(&argc, argv.data());
  CountingMemoryManager memory_manager;
  if (!info.api) benchmark::RegisterMemoryManager(&memory_manager);
  CollectingReporter reporter(info.api ? nullptr : &memory_manager);
  const size_t ran = benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::RegisterMemoryManager(nullptr);
  std::string error;
  for (const ChildRep& rep : reporter.reps) {
    if (!rep.error.empty()) error = rep.error;
  }
  if (ran == 0) error = "no benchmark named " + case_name;
  write_file(options.child_out, child_json(reporter.reps, error));
  benchmark::Shutdown();
  return error.empty() ? 0 : 1;
}

// ---------------------------------------------------------- parent side

std::vector<std::string> list_benchmarks(const std::string& self) {
  std::vector<std::string> args = {self, "--benchmark_list_tests=true"};
  int argc = static_cast<int>(args.size());
  std::vector<char*> argv = to_argv(args);
  benchmark::Initialize(&argc, argv.data());
  std::ostringstream names;
  benchmark::ConsoleReporter reporter;
  reporter.SetOutputStream(&names);
  reporter.SetErrorStream(&names);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::vector<std::string> out;
  std::istringstream lines(names.str());
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

bool lower_equal(std::string a, std::string b) {
  for (char& c : a) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (char& c : b) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return a == b;
}

// POSIX extended regular expression search (std::regex trips GCC 12 warnings).
bool regex_matches(const std::string& pattern, const std::string& text) {
  regex_t compiled;
  if (regcomp(&compiled, pattern.c_str(), REG_EXTENDED | REG_NOSUB) != 0) {
    throw std::invalid_argument("invalid --filter regex: " + pattern);
  }
  const bool found = regexec(&compiled, text.c_str(), 0, nullptr, 0) == 0;
  regfree(&compiled);
  return found;
}

bool selected(const Options& options, const CaseInfo& info) {
  if (!options.suites.empty()) {
    bool any = false;
    for (const std::string& suite : options.suites) any = any || lower_equal(suite, info.suite);
    if (!any) return false;
  }
  if (!options.filter.empty() && !regex_matches(options.filter, info.full_name)) return false;
  // JMH -p semantics: a parameter filter only constrains cases that have the parameter.
  std::set<std::string> keys;
  for (const auto& entry : options.param_filters) keys.insert(entry.first);
  for (const std::string& key : keys) {
    auto [begin, end] = options.param_filters.equal_range(key);
    std::optional<std::string> have;
    for (const auto& [k, v] : info.params) {
      if (k == key) have = v;
    }
    if (!info.api) {
      // Plain benchmarks name arguments "key:value" when they use ArgNames.
      const std::string text = "/" + info.params_text + "/";
      const std::string marker = "/" + key + ":";
      const auto at = text.find(marker);
      if (at != std::string::npos) {
        const auto start = at + marker.size();
        have = text.substr(start, text.find('/', start) - start);
      }
    }
    if (!have) continue;
    bool match = false;
    for (auto it = begin; it != end; ++it) match = match || it->second == *have;
    if (!match) return false;
  }
  return true;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buffer;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// "exited with status 2" / "crashed (signal 11, Segmentation fault)".
std::string exit_text(int exit_code) {
  if (exit_code > 128) {
    return "crashed (signal " + std::to_string(exit_code - 128) + ", " + strsignal(exit_code - 128) + ")";
  }
  return "exited with status " + std::to_string(exit_code);
}

struct PeerRun {
  bool ok = false;
  std::string message;
  std::vector<double> timings_ns;
  std::optional<ScanResult> result;
  std::string version;
  long peak_rss_kb = 0;
  long minor_faults = 0;
  double kernel_seconds = 0;
};

// Runs the peer once with `warmup` + `reps` timed queries in its process.
PeerRun run_peer(const Options& options, const TablePeer& peer, const Params& params, int warmup, int reps) {
  PeerRun run;
  std::vector<std::string> argv;
  if (fs::path(peer.spec.script).is_absolute()) {
    argv.push_back(peer.spec.script);
  } else {
    argv = {options.node, (fs::path(options.peers_dir) / peer.spec.script).string()};
  }
  for (std::string arg : peer.spec.args) {
    arg = replace_all(arg, "{data_dir}", options.data_dir);
    for (const auto& [key, value] : params) arg = replace_all(arg, "{" + key + "}", value);
    argv.push_back(arg);
  }
  argv.insert(argv.end(), {"--warmup", std::to_string(warmup), "--reps", std::to_string(std::max(1, reps))});
  std::string command;
  for (const std::string& a : argv) command += (command.empty() ? "" : " ") + a;
  std::cerr << "# Peer: " << command << "\n";
  ProcessResult process;
  try {
    process = run_process(argv, true);
  } catch (const std::exception& e) {
    run.message = e.what();
    return run;
  }
  run.peak_rss_kb = process.peak_rss_kb;
  run.minor_faults = process.minor_faults;
  run.kernel_seconds = process.kernel_seconds;
  if (process.exit_code != 0) {
    run.message = "peer " + exit_text(process.exit_code) + ": " + command;
    return run;
  }
  // The JSON object is the last non-empty line of the output.
  std::string json = process.out;
  while (!json.empty() && (json.back() == '\n' || json.back() == ' ')) json.pop_back();
  const auto newline = json.rfind('\n');
  if (newline != std::string::npos) json = json.substr(newline + 1);
  try {
    simdjson::dom::parser parser;
    simdjson::padded_string padded(json);
    simdjson::dom::element doc = parser.parse(padded);
    for (simdjson::dom::element t : doc["timings_ns"].get_array()) run.timings_ns.push_back(t.get_double());
    simdjson::dom::element version;
    if (doc["version"].get(version) == simdjson::SUCCESS && version.is_string()) {
      run.version = std::string(std::string_view(version.get_string().value()));
    }
    simdjson::dom::element result;
    if (doc["result"].get(result) == simdjson::SUCCESS && !result.is_null()) {
      run.result = scan_result_from_json(simdjson::to_string(result));
    }
  } catch (const std::exception& e) {
    run.message = std::string("peer printed no valid JSON (") + e.what() + "): " + command;
    return run;
  }
  run.ok = true;
  return run;
}

// Marks the rows of `params` verified when their result equals the peer's,
// failed otherwise: a case's timing only counts when its answer is right.
void check_against_peer(std::vector<Row>& rows, const Params& params, const PeerRun& run,
                        const std::string& peer_name) {
  for (Row& row : rows) {
    if (row.is_peer || row.params != params || !row.ok) continue;
    const std::string& result_json = row.result_json;
    if (!run.ok) {
      row.ok = false;
      row.message = "peer " + peer_name + " failed, result cannot be checked";
    } else if (!run.result) {
      row.ok = false;
      row.message = "peer " + peer_name + " printed no result";
    } else if (result_json.empty()) {
      row.ok = false;
      row.message = "case reported no result (CaseContext::set_result) to compare with " + peer_name;
    } else {
      const auto diffs = compare_scan_results(scan_result_from_json(result_json), *run.result);
      if (diffs.empty()) {
        row.verified = true;
      } else {
        row.ok = false;
        row.message = "RESULT MISMATCH with " + peer_name + ":";
        for (const std::string& d : diffs) row.message += "\n    " + d;
      }
    }
  }
}

// A case's row while its forks run: the measured samples go into `row`,
// the allocation totals are kept until the row is finished.
struct CaseRun {
  const CaseInfo* info = nullptr;
  Row row;
  double total_bytes = 0, total_allocs = 0, total_iterations = 0;
  bool have_allocs = true;
  bool single_shot = false;
};

// The JSON a child case process leaves in `out_path` (the file is removed).
// load() is false, with `row` failed and its message naming `who`, when the
// child left nothing, reported an error or exited with a failure.
struct ChildResult {
  simdjson::dom::parser parser;
  simdjson::padded_string padded;
  simdjson::dom::element doc;

  bool load(const std::string& out_path, const ProcessResult& process, const std::string& who, Row& row) {
    std::string text;
    try {
      text = read_file(out_path);
      fs::remove(out_path);
    } catch (const std::exception&) {
      row.ok = false;
      row.message = who + " " + exit_text(process.exit_code) + " without a result";
      return false;
    }
    padded = simdjson::padded_string(text);
    doc = parser.parse(padded);
    const std::string error(std::string_view(doc["error"].get_string().value()));
    if (!error.empty() || process.exit_code != 0) {
      row.ok = false;
      row.message = error.empty() ? who + " " + exit_text(process.exit_code) : error;
      return false;
    }
    return true;
  }
};

CaseRun start_case(const Options& options, const CaseInfo& info) {
  CaseRun run;
  run.info = &info;
  Row& row = run.row;
  row.benchmark = info.full_name;
  row.suite = info.suite;
  row.table = info.table;
  row.case_name = info.case_name;
  row.params = info.params;
  row.params_text = info.params_text;
  // Marks read by assign_baselines(): an explicit baseline, or any harness case.
  if (info.api) row.baseline = info.baseline ? "self" : "api";
  run.single_shot = options.mode_override.empty() ? info.single_shot : options.mode_override == "ss";
  row.mode = run.single_shot ? "ss" : "avgt";
  return run;
}

// Runs fork `fork` of a case in a child process and adds its measured
// repetitions to the row; a failure marks the row and later forks are skipped.
void run_fork(const Options& options, const std::string& self, CaseRun& run, int fork, int index, int total) {
  Row& row = run.row;
  if (!row.ok) return;
  const CaseInfo& info = *run.info;
  const int repetitions = options.warmup + options.measure;
  std::cerr << "# Run " << index << "/" << total << ": " << info.full_name << " (fork " << fork << "/"
            << options.forks << ", " << row.mode << ", " << options.warmup << " warmup + " << options.measure
            << " measured)\n";
  const std::string out_path = (fs::temp_directory_path() / ("parquetry-bench-" + std::to_string(getpid()) +
                                                             "-" + std::to_string(index) + ".json"))
                                   .string();
  std::vector<std::string> argv = {
      self,
      "--child",
      out_path,
      "--case",
      info.full_name,
      "--benchmark_repetitions=" + std::to_string(repetitions),
      "--benchmark_min_time=" +
          (run.single_shot ? std::string("0.000000001") : std::to_string(options.iteration_seconds))};
  for (const std::string& flag : options.passthrough) argv.push_back(flag);
  fs::remove(out_path);
  ProcessResult process = run_process(argv, false);
  row.peak_rss_kb = std::max(row.peak_rss_kb, process.peak_rss_kb);
  ChildResult child;
  if (!child.load(out_path, process, "fork " + std::to_string(fork), row)) return;
  simdjson::dom::element doc = child.doc;
  std::vector<simdjson::dom::element> reps;
  for (simdjson::dom::element rep : doc["reps"].get_array()) reps.push_back(rep);
  // The first `warmup` repetitions warm caches, JIT-like lazy setup and the
  // iteration-count estimate; only the rest count (at least one).
  const size_t skip =
      std::min<size_t>(static_cast<size_t>(options.warmup), reps.empty() ? 0 : reps.size() - 1);
  for (size_t i = skip; i < reps.size(); ++i) {
    const double iterations = reps[i]["iterations"].get_double();
    const double seconds = reps[i]["real_seconds"].get_double();
    row.samples_ns.push_back(seconds * 1e9 / iterations);
    const double bytes = reps[i]["alloc_bytes"].get_double();
    const double allocs = reps[i]["allocs"].get_double();
    if (bytes < 0) run.have_allocs = false;
    run.total_bytes += bytes;
    run.total_allocs += allocs;
    run.total_iterations += iterations;
  }
  simdjson::dom::element result = doc["result"];
  if (!result.is_null() && row.result_json.empty()) row.result_json = simdjson::to_string(result);
}

Row finish_case(CaseRun&& run) {
  Row row = std::move(run.row);
  if (!row.ok) return row;
  row.summary = summarize(row.samples_ns);
  if (run.have_allocs && run.total_iterations > 0) {
    row.bytes_per_op = run.total_bytes / run.total_iterations;
    row.allocs_per_op = run.total_allocs / run.total_iterations;
  }
  return row;
}

// Runs every fork of one case and turns the measured repetitions into a row.
Row run_case(const Options& options, const CaseInfo& info, const std::string& self, int index, int total) {
  CaseRun run = start_case(options, info);
  for (int fork = 1; fork <= options.forks; ++fork) run_fork(options, self, run, fork, index, total);
  return finish_case(std::move(run));
}

// ------------------------------------------------------------ cold samples

// The cold table beside a table: "reader.full_scan" -> "reader.full_scan_cold".
std::string cold_table(const std::string& table) { return table + "_cold"; }

double median_of(std::vector<double> values) {
  if (values.empty()) return -1;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// A cold row while its samples run: every sample is a fresh process.
struct ColdRun {
  const CaseInfo* info = nullptr;  // null for the peer's row
  Row row;
  std::vector<double> faults, kernel;
};

ColdRun start_cold(const CaseInfo& info) {
  ColdRun run;
  run.info = &info;
  Row& row = run.row;
  row.table = cold_table(info.table);
  row.benchmark = row.table + info.full_name.substr(info.table.size());
  row.suite = info.suite;
  row.case_name = info.case_name;
  row.params = info.params;
  row.params_text = info.params_text;
  row.baseline = info.baseline ? "self" : "api";
  row.mode = "cold";
  return run;
}

// One cold sample: a fresh child runs the case's setup and then its op once
// (one repetition of one iteration, no warmup). The child reports the op's
// time and the faults and kernel time it caused; the peak RSS is the child's.
void run_cold_sample(const Options& options, const std::string& self, ColdRun& run, int sample) {
  Row& row = run.row;
  if (!row.ok) return;
  const CaseInfo& info = *run.info;
  std::cerr << "# Cold " << sample << "/" << options.cold << ": " << info.full_name << "\n";
  const std::string out_path =
      (fs::temp_directory_path() / ("parquetry-bench-" + std::to_string(getpid()) + "-cold.json")).string();
  std::vector<std::string> argv = {self,
                                   "--child",
                                   out_path,
                                   "--case",
                                   info.full_name,
                                   "--benchmark_repetitions=1",
                                   "--benchmark_min_time=0.000000001"};
  for (const std::string& flag : options.passthrough) argv.push_back(flag);
  fs::remove(out_path);
  const ProcessResult process = run_process(argv, false);
  ChildResult child;
  if (!child.load(out_path, process, "cold sample " + std::to_string(sample), row)) return;
  simdjson::dom::element doc = child.doc;
  simdjson::dom::array reps = doc["reps"].get_array();
  if (reps.size() != 1) {
    row.ok = false;
    row.message = "cold sample ran " + std::to_string(reps.size()) + " repetitions, not 1";
    return;
  }
  simdjson::dom::element rep = reps.at(0);
  const double iterations = rep["iterations"].get_double();
  if (iterations != 1) {
    row.ok = false;
    row.message = "cold sample ran " + format_double(iterations) + " iterations, not 1";
    return;
  }
  row.samples_ns.push_back(rep["real_seconds"].get_double() * 1e9);
  run.faults.push_back(rep["minor_faults"].get_double());
  run.kernel.push_back(rep["kernel_seconds"].get_double());
  row.peak_rss_kb = std::max(row.peak_rss_kb, process.peak_rss_kb);
  simdjson::dom::element result = doc["result"];
  if (!result.is_null() && row.result_json.empty()) row.result_json = simdjson::to_string(result);
}

Row finish_cold(ColdRun&& run) {
  Row row = std::move(run.row);
  if (!row.ok) return row;
  row.summary = summarize(row.samples_ns);
  row.minor_faults = median_of(run.faults);
  row.kernel_seconds = median_of(run.kernel);
  return row;
}

// The cold table of `table`: N samples of each cold() case and of the
// peer's first query in a fresh process, interleaved sample by sample so a
// machine whose speed drifts weighs on every row alike.
std::vector<Row> run_cold_table(const Options& options, const std::string& self, const std::string& table,
                                const std::vector<const CaseInfo*>& cases,
                                std::set<std::string>& peer_versions) {
  std::vector<ColdRun> runs;
  for (const CaseInfo* info : cases) runs.push_back(start_cold(*info));
  const TablePeer* peer = options.no_peers ? nullptr : peer_of(table);
  std::vector<Params> combos;
  for (const CaseInfo* info : cases) {
    if (std::find(combos.begin(), combos.end(), info->params) == combos.end()) combos.push_back(info->params);
  }
  struct PeerCold {
    Params params;
    Row row;
    std::vector<double> faults, kernel;
    PeerRun first;  // the first sample's answer, checked against ours
  };
  std::vector<PeerCold> peers;
  if (peer != nullptr) {
    for (const Params& params : combos) {
      PeerCold p;
      p.params = params;
      Row& row = p.row;
      row.suite = cases.front()->suite;
      row.table = cold_table(table);
      row.case_name = peer->spec.name;
      row.params = params;
      for (const auto& [k, v] : params) row.params_text += (row.params_text.empty() ? "" : " ") + k + "=" + v;
      row.benchmark = row.table + ":" + peer->spec.name;
      for (const auto& [k, v] : params) row.benchmark += "/" + k + "=" + v;
      row.engine = peer->spec.name;
      row.is_peer = true;
      row.mode = "cold";
      peers.push_back(std::move(p));
    }
  }
  for (int sample = 1; sample <= options.cold; ++sample) {
    for (ColdRun& run : runs) run_cold_sample(options, self, run, sample);
    for (PeerCold& p : peers) {
      if (!p.row.ok) continue;
      // A fresh process with one timed query and no warmup: the first query.
      PeerRun run = run_peer(options, *peer, p.params, 0, 1);
      if (!run.version.empty()) peer_versions.insert(peer->spec.name + " " + run.version);
      if (!run.ok || run.timings_ns.size() != 1) {
        p.row.ok = false;
        p.row.message = run.ok ? "peer printed " + std::to_string(run.timings_ns.size()) + " timings, not 1"
                               : run.message;
        if (sample == 1) p.first = std::move(run);
        continue;
      }
      p.row.samples_ns.push_back(run.timings_ns[0]);
      p.faults.push_back(double(run.minor_faults));
      p.kernel.push_back(run.kernel_seconds);
      p.row.peak_rss_kb = std::max(p.row.peak_rss_kb, run.peak_rss_kb);
      if (sample == 1) p.first = std::move(run);
    }
  }
  std::vector<Row> rows;
  for (ColdRun& run : runs) rows.push_back(finish_cold(std::move(run)));
  for (PeerCold& p : peers) {
    check_against_peer(rows, p.params, p.first, peer->spec.name);
    if (p.row.ok) {
      p.row.summary = summarize(p.row.samples_ns);
      p.row.minor_faults = median_of(p.faults);
      p.row.kernel_seconds = median_of(p.kernel);
    }
    rows.push_back(std::move(p.row));
  }
  return rows;
}

void print_usage() {
  std::cout <<
      R"(parquetry_bench: JMH-style runner over the Google Benchmark suites (docs/benchmarks.md)

  parquetry_bench [options]            run the selected cases, print tables
  parquetry_bench --list               list the cases (after --suite/--filter/--param)
  parquetry_bench --datasets [names]   generate (or reuse) datasets and their DuckDB Parquet files
  parquetry_bench --compare A.json B.json   per-case ratios between two runs
  parquetry_bench --report R.json [--html OUT] [--markdown-into DOC]   HTML report / docs section

options:
  --suite NAME          only this suite (repeatable)
  --filter REGEX        only cases whose name matches
  --param k=v           only these parameter values (repeatable, JMH -p)
  --mode avgt|ss        force average-time or single-shot mode
  --warmup N            warmup repetitions per fork (3)
  --measure N           measured repetitions per fork (5)
  --forks N             separate processes per case (1)
  --cold N              also measure every cold() case cold: N samples, each one operation
                        in a fresh process, beside the peer's first query in a fresh
                        process; printed as "<table>_cold" after each table (0: off)
  --cold-filter REGEX   only cold() cases whose name matches are measured cold
  --interleave          run fork 1 of every selected case, then fork 2 of each, ...: a
                        machine whose speed drifts then weighs on every case alike (compare
                        two of our own cases side by side; peers still run per table after)
  --time SECONDS        minimum time of one average-time repetition (0.5)
  --json FILE           write the results file
  --profile NAME        recorded in the results (quick, full, ...)
  --data-dir DIR        dataset folder (default /dev/shm/parquetry-bench)
  --peers-dir DIR       peer scripts (default <source>/bench/peers)
  --node PATH           node executable (node)
  --no-peers            skip peer rows and result checks
  --benchmark_*         passed to Google Benchmark in every fork
)";
}

Options parse_options(int argc, char** argv) {
  Options o;
  auto need = [&](int& i) -> std::string {
    if (i + 1 >= argc) throw std::invalid_argument(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--suite") {
      o.suites.push_back(need(i));
    } else if (a == "--filter") {
      o.filter = need(i);
    } else if (a == "--param") {
      const std::string kv = need(i);
      const auto eq = kv.find('=');
      if (eq == std::string::npos) throw std::invalid_argument("--param wants key=value, got " + kv);
      o.param_filters.emplace(kv.substr(0, eq), kv.substr(eq + 1));
    } else if (a == "--mode") {
      o.mode_override = need(i);
      if (o.mode_override != "avgt" && o.mode_override != "ss") throw std::invalid_argument("--mode avgt|ss");
    } else if (a == "--warmup") {
      o.warmup = std::stoi(need(i));
    } else if (a == "--measure") {
      o.measure = std::max(1, std::stoi(need(i)));
    } else if (a == "--forks") {
      o.forks = std::max(1, std::stoi(need(i)));
    } else if (a == "--cold") {
      o.cold = std::max(0, std::stoi(need(i)));
    } else if (a == "--cold-filter") {
      o.cold_filter = need(i);
    } else if (a == "--interleave") {
      o.interleave = true;
    } else if (a == "--time") {
      o.iteration_seconds = std::stod(need(i));
    } else if (a == "--json") {
      o.json_path = need(i);
    } else if (a == "--profile") {
      o.profile = need(i);
    } else if (a == "--data-dir") {
      o.data_dir = need(i);
    } else if (a == "--peers-dir") {
      o.peers_dir = need(i);
    } else if (a == "--node") {
      o.node = need(i);
    } else if (a == "--no-peers") {
      o.no_peers = true;
    } else if (a == "--list") {
      o.list = true;
    } else if (a == "--datasets") {
      o.datasets = true;
      while (i + 1 < argc && argv[i + 1][0] != '-') o.dataset_names.push_back(argv[++i]);
    } else if (a == "--compare") {
      o.compare.push_back(need(i));
      o.compare.push_back(need(i));
    } else if (a == "--report") {
      o.report_results = need(i);
    } else if (a == "--html") {
      o.report_html = need(i);
    } else if (a == "--markdown-into") {
      o.report_markdown = need(i);
    } else if (a == "--child") {
      o.child_out = need(i);
    } else if (a == "--case") {
      o.filter = need(i);
    } else if (a.rfind("--benchmark_", 0) == 0) {
      o.passthrough.push_back(a);
    } else if (a == "--help" || a == "-h") {
      print_usage();
      std::exit(0);
    } else {
      throw std::invalid_argument("unknown option " + a + " (see --help)");
    }
  }
  return o;
}

std::vector<DatasetFact> dataset_facts(const std::string& data_dir) {
  std::vector<DatasetFact> facts;
  for (const std::string& name : datasets::dataset_names()) {
    const datasets::DatasetFile stamp = datasets::read_stamp(data_dir, name);
    if (stamp.path.empty()) continue;
    facts.push_back(DatasetFact{stamp.name, stamp.path, stamp.params_key, stamp.content_checksum,
                                stamp.file_checksum, stamp.rows, stamp.bytes});
  }
  return facts;
}

// Runs fork 1 of every case in `cases`, then fork 2 of each, ... (options.forks
// forks), and adds each case's row to `rows`.
void run_interleaved(const Options& options, const std::string& self,
                     const std::vector<const CaseInfo*>& cases, std::map<const CaseInfo*, Row>& rows) {
  std::vector<CaseRun> runs;
  for (const CaseInfo* info : cases) runs.push_back(start_case(options, *info));
  for (int fork = 1; fork <= options.forks; ++fork) {
    for (size_t i = 0; i < runs.size(); ++i)
      run_fork(options, self, runs[i], fork, int(i) + 1, static_cast<int>(runs.size()));
  }
  for (CaseRun& run : runs) {
    const CaseInfo* info = run.info;
    rows.emplace(info, finish_case(std::move(run)));
  }
}

int run_orchestrator(const Options& options, const std::string& self) {
  std::vector<CaseInfo> cases;
  for (const std::string& name : list_benchmarks(self)) {
    CaseInfo info = describe(name);
    if (selected(options, info)) cases.push_back(std::move(info));
  }
  if (options.list) {
    for (const CaseInfo& info : cases) {
      std::cout << info.full_name << "  [suite " << info.suite << ", table " << info.table
                << (peer_of(info.table) ? ", peer " + peer_of(info.table)->spec.name : "") << "]\n";
    }
    return 0;
  }
  if (cases.empty()) {
    std::cerr << "parquetry_bench: no case matches the selection\n";
    return 2;
  }
  RunResults results;
  results.created = utc_now();
  results.settings =
      RunSettings{options.profile,           options.warmup,        options.measure, options.forks,
                  options.iteration_seconds, options.mode_override, options.cold};
  results.machine = gather_machine_facts(options.source_dir, options.node);
  results.datasets = dataset_facts(options.data_dir);

  // Tables in order of first appearance; each table runs its cases, then its peer.
  std::vector<std::string> table_order;
  std::map<std::string, std::vector<const CaseInfo*>> by_table;
  for (const CaseInfo& info : cases) {
    if (!by_table.count(info.table)) table_order.push_back(info.table);
    by_table[info.table].push_back(&info);
  }
  int index = 0;
  int failures = 0;
  std::set<std::string> peer_versions;
  const auto run_start = std::chrono::steady_clock::now();
  // --interleave: every case's forks first, round-robin over the cases in table order.
  std::map<const CaseInfo*, Row> interleaved;
  if (options.interleave) {
    std::vector<const CaseInfo*> all;
    for (const std::string& table : table_order)
      all.insert(all.end(), by_table[table].begin(), by_table[table].end());
    run_interleaved(options, self, all, interleaved);
  }
  for (const std::string& table : table_order) {
    // Each table's wall time (cases and peers) is printed with it, so the
    // quick profile's 10-minute budget can be checked table by table.
    const auto table_start = std::chrono::steady_clock::now();
    // A table whose cases ask for interleaved forks runs them so now.
    int table_forks = 0;
    for (const CaseInfo* info : by_table[table]) table_forks = std::max(table_forks, info->interleaved_forks);
    if (!options.interleave && table_forks > 0) {
      Options table_options = options;
      table_options.forks = std::max(options.forks, table_forks);
      run_interleaved(table_options, self, by_table[table], interleaved);
    }
    std::vector<Row> rows;
    for (const CaseInfo* info : by_table[table]) {
      if (interleaved.count(info)) {
        rows.push_back(std::move(interleaved.at(info)));
      } else {
        rows.push_back(run_case(options, *info, self, ++index, static_cast<int>(cases.size())));
      }
    }
    const TablePeer* peer = options.no_peers ? nullptr : peer_of(table);
    if (peer != nullptr) {
      // One peer run per distinct parameter combination among the table's cases.
      std::vector<Params> combos;
      for (const CaseInfo* info : by_table[table]) {
        if (std::find(combos.begin(), combos.end(), info->params) == combos.end())
          combos.push_back(info->params);
      }
      for (const Params& params : combos) {
        Row peer_row;
        peer_row.suite = by_table[table].front()->suite;
        peer_row.table = table;
        peer_row.case_name = peer->spec.name;
        peer_row.params = params;
        for (const auto& [k, v] : params)
          peer_row.params_text += (peer_row.params_text.empty() ? "" : " ") + k + "=" + v;
        peer_row.benchmark = table + ":" + peer->spec.name;
        for (const auto& [k, v] : params) peer_row.benchmark += "/" + k + "=" + v;
        peer_row.engine = peer->spec.name;
        peer_row.is_peer = true;
        peer_row.mode = "avgt";
        PeerRun run = run_peer(options, *peer, params, options.warmup, options.measure * options.forks);
        peer_row.peak_rss_kb = run.peak_rss_kb;
        if (!run.version.empty()) peer_versions.insert(peer->spec.name + " " + run.version);
        if (!run.ok) {
          peer_row.ok = false;
          peer_row.message = run.message;
        } else {
          // The peer's warmups happen inside its own process; every timing it prints counts.
          peer_row.samples_ns = run.timings_ns;
          peer_row.summary = summarize(run.timings_ns);
        }
        // A case's timing only counts when its answer equals the peer's.
        check_against_peer(rows, params, run, peer->spec.name);
        rows.push_back(std::move(peer_row));
      }
    }
    assign_baselines(rows);
    std::vector<const Row*> view;
    for (const Row& row : rows) {
      view.push_back(&row);
      if (!row.ok) ++failures;
    }
    const double table_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - table_start).count();
    std::cout << "\n== " << table << " (" << format_double(std::round(table_seconds * 10) / 10) << " s)\n"
              << format_table(view) << std::flush;
    for (Row& row : rows) results.rows.push_back(std::move(row));

    std::vector<const CaseInfo*> cold_cases;
    for (const CaseInfo* info : by_table[table]) {
      if (info->cold && options.cold > 0 &&
          (options.cold_filter.empty() || regex_matches(options.cold_filter, info->full_name))) {
        cold_cases.push_back(info);
      }
    }
    if (!cold_cases.empty()) {
      const auto cold_start = std::chrono::steady_clock::now();
      std::vector<Row> cold_rows = run_cold_table(options, self, table, cold_cases, peer_versions);
      assign_baselines(cold_rows);
      std::vector<const Row*> cold_view;
      for (const Row& row : cold_rows) {
        cold_view.push_back(&row);
        if (!row.ok) ++failures;
      }
      const double cold_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - cold_start).count();
      std::cout
          << "\n== " << cold_table(table) << " (" << format_double(std::round(cold_seconds * 10) / 10)
          << " s; one op per fresh process, faults and kernel time of the op, a peer's of its process)\n"
          << format_table(cold_view) << std::flush;
      for (Row& row : cold_rows) results.rows.push_back(std::move(row));
    }
  }
  std::cout << "\n# " << cases.size() << " cases in "
            << format_double(std::round(
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count()))
            << " s\n";
  for (const std::string& v : peer_versions)
    results.peer_versions += (results.peer_versions.empty() ? "" : ", ") + v;
  if (!options.json_path.empty()) {
    fs::path path(options.json_path);
    if (path.has_parent_path()) fs::create_directories(path.parent_path());
    write_file(options.json_path, results_to_json(results));
    std::cerr << "# Results: " << options.json_path << "\n";
  }
  if (failures > 0) {
    std::cerr << "parquetry_bench: " << failures << " case(s) FAILED (see the FAILED lines above)\n";
    return 1;
  }
  return 0;
}

int run_datasets(const Options& options) {
  std::vector<std::string> names =
      options.dataset_names.empty() ? datasets::dataset_names() : options.dataset_names;
  fs::create_directories(options.data_dir);
  for (const std::string& name : names) {
    const auto start = std::chrono::steady_clock::now();
    datasets::DatasetFile file =
        datasets::ensure_dataset(name, options.data_dir, options.peers_dir, options.node);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "dataset " << name << ": " << file.path << " (" << file.rows << " rows, " << file.bytes
              << " bytes, content " << file.content_checksum << ", file " << file.file_checksum << ") "
              << (file.reused ? "reused" : "generated") << " in "
              << format_double(std::round(seconds * 10) / 10) << " s\n";
    const auto copy_start = std::chrono::steady_clock::now();
    const datasets::DatasetFile copy = datasets::ensure_parquetry_copy(file, options.data_dir);
    const double copy_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - copy_start).count();
    std::cout << "dataset " << name << ": " << copy.path << " (written by parquetry, " << copy.bytes
              << " bytes, file " << copy.file_checksum << ") " << (copy.reused ? "reused" : "written")
              << " in " << format_double(std::round(copy_seconds * 10) / 10) << " s\n";
  }
  return 0;
}

}  // namespace

std::string data_dir() {
  const char* dir = std::getenv("PARQUETRY_BENCH_DATA_DIR");
  return dir != nullptr ? dir : datasets::default_data_dir("bench-results/data");
}

std::string peers_dir() {
  const char* dir = std::getenv("PARQUETRY_BENCH_PEERS_DIR");
  return dir != nullptr ? dir : std::string(PARQUETRY_SOURCE_DIR) + "/bench/peers";
}

void record_case_result(ScanResult result) { g_child_result = std::move(result); }

void fail_case(const std::string& message) {
  std::cerr << "parquetry_bench: case failed: " << message << "\n";
  if (!g_child_out.empty()) {
    try {
      write_file(g_child_out, child_json({}, message));
    } catch (const std::exception&) {
    }
  }
  std::fflush(nullptr);
  _exit(3);
}

int run_main(int argc, char** argv) {
  try {
    Options options = parse_options(argc, argv);
    if (options.data_dir.empty()) options.data_dir = data_dir();
    setenv("PARQUETRY_BENCH_DATA_DIR", options.data_dir.c_str(), 1);
    setenv("PARQUETRY_BENCH_PEERS_DIR", options.peers_dir.c_str(), 1);
    register_api_cases();
    const std::string self = self_executable();
    if (!options.compare.empty()) {
      std::cout << format_comparison(rows_from_json_file(options.compare[0]),
                                     rows_from_json_file(options.compare[1]), options.compare[0],
                                     options.compare[1]);
      return 0;
    }
    if (options.datasets) return run_datasets(options);
    if (!options.report_results.empty()) {
      std::vector<std::string> argv = {options.node, options.source_dir + "/bench/report/report.js",
                                       "--results", options.report_results};
      if (!options.report_html.empty()) argv.insert(argv.end(), {"--html", options.report_html});
      if (!options.report_markdown.empty())
        argv.insert(argv.end(), {"--markdown-into", options.report_markdown});
      return run_process(argv, false).exit_code;
    }
    if (!options.child_out.empty()) return run_child(options, options.filter, self);
    return run_orchestrator(options, self);
  } catch (const std::exception& e) {
    std::cerr << "parquetry_bench: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace parquetry::bench
