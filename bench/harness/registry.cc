#include "registry.h"

#include "suite_tag.h"

#include <cctype>
#include <stdexcept>

namespace parquetry::bench {
namespace {

std::map<std::string, CaseInfo>& mutable_instances() {
  static std::map<std::string, CaseInfo> instances;
  return instances;
}

// Every combination of the declared parameter values, first parameter slowest.
std::vector<Params> cross_product(
    const std::vector<std::pair<std::string, std::vector<std::string>>>& params) {
  std::vector<Params> combos{Params{}};
  for (const auto& [name, values] : params) {
    std::vector<Params> next;
    for (const Params& prefix : combos) {
      for (const std::string& value : values) {
        Params extended = prefix;
        extended.emplace_back(name, value);
        next.push_back(std::move(extended));
      }
    }
    combos = std::move(next);
  }
  return combos;
}

std::map<std::string, std::string>& family_suites() {
  static std::map<std::string, std::string> suites;
  return suites;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

std::deque<CaseBuilder::Spec>& case_specs() {
  static std::deque<CaseBuilder::Spec> specs;
  return specs;
}

std::vector<TablePeer>& table_peers() {
  static std::vector<TablePeer> peers;
  return peers;
}

CaseBuilder add_case(std::string suite, std::string table, std::string name, CaseBody body) {
  CaseBuilder::Spec spec;
  spec.suite = std::move(suite);
  spec.table = std::move(table);
  spec.name = std::move(name);
  spec.body = std::move(body);
  case_specs().push_back(std::move(spec));
  return CaseBuilder(&case_specs().back());
}

CaseBuilder& CaseBuilder::param(std::string name, std::vector<std::string> values) {
  spec_->params.emplace_back(std::move(name), std::move(values));
  return *this;
}

CaseBuilder& CaseBuilder::single_shot() {
  spec_->single_shot = true;
  return *this;
}

CaseBuilder& CaseBuilder::baseline() {
  spec_->baseline = true;
  return *this;
}

CaseBuilder& CaseBuilder::cold() {
  spec_->cold = true;
  return *this;
}

CaseBuilder& CaseBuilder::interleaved_forks(int forks) {
  spec_->interleaved_forks = forks;
  return *this;
}

void set_table_peer(std::string suite, std::string table, PeerSpec peer) {
  table_peers().push_back(TablePeer{std::move(suite), std::move(table), std::move(peer)});
}

const TablePeer* peer_of(const std::string& table) {
  for (const TablePeer& peer : table_peers()) {
    if (peer.suite + "." + peer.table == table) return &peer;
  }
  return nullptr;
}

void register_api_cases() {
  static bool registered = false;
  if (registered) return;
  registered = true;
  for (CaseBuilder::Spec& spec : case_specs()) {
    for (const Params& params : cross_product(spec.params)) {
      CaseInfo info;
      info.suite = spec.suite;
      info.table = spec.suite + "." + spec.table;
      info.case_name = spec.name;
      info.params = params;
      info.api = true;
      info.single_shot = spec.single_shot;
      info.baseline = spec.baseline;
      info.cold = spec.cold;
      info.interleaved_forks = spec.interleaved_forks;
      info.full_name = info.table + ":" + spec.name;
      for (const auto& [key, value] : params) {
        info.full_name += "/" + key + "=" + value;
        info.params_text += (info.params_text.empty() ? "" : " ") + key + "=" + value;
      }
      const CaseInfo& stored = mutable_instances().emplace(info.full_name, info).first->second;
      const CaseBody* body = &spec.body;
      const Params* bound = &stored.params;
      benchmark::RegisterBenchmark(stored.full_name.c_str(), [body, bound](benchmark::State& state) {
        CaseContext context(state, *bound);
        try {
          (*body)(context);
        } catch (const std::exception& e) {
          fail_case(e.what());
        }
      });
    }
  }
}

const std::map<std::string, CaseInfo>& api_instances() { return mutable_instances(); }

benchmark::internal::Benchmark* tag_suite(const char* suite, const char* family,
                                          benchmark::internal::Benchmark* registered) {
  family_suites()[family] = suite;
  return registered;
}

CaseInfo describe(const std::string& full_name) {
  auto found = api_instances().find(full_name);
  if (found != api_instances().end()) return found->second;
  // A plain BENCHMARK: "BM_Encoding_PlainDecode/1024/real_time" -> suite
  // "encoding", table "encoding", case "BM_Encoding_PlainDecode", params "1024/real_time".
  CaseInfo info;
  info.full_name = full_name;
  const auto slash = full_name.find('/');
  info.case_name = full_name.substr(0, slash);
  info.params_text = slash == std::string::npos ? "" : full_name.substr(slash + 1);
  // ->Iterations(1) is Google Benchmark's way of asking for single-shot measurement.
  const std::string padded = "/" + info.params_text + "/";
  info.single_shot = padded.find("/iterations:1/") != std::string::npos;
  auto tagged = family_suites().find(info.case_name);
  if (tagged != family_suites().end()) {
    info.suite = tagged->second;
    info.table = info.suite;
    return info;
  }
  std::string stem = info.case_name;
  for (const char* prefix : {"BM_", "bm_", "BM", "Bench_", "bench_"}) {
    if (stem.rfind(prefix, 0) == 0 && stem.size() > std::string(prefix).size()) {
      stem = stem.substr(std::string(prefix).size());
      break;
    }
  }
  const auto cut = stem.find_first_of("_.:");
  info.suite = lower(cut == std::string::npos || cut == 0 ? stem : stem.substr(0, cut));
  info.table = info.suite;
  return info;
}

const std::string& CaseContext::param(std::string_view name) const {
  for (const auto& [key, value] : params_) {
    if (key == name) return value;
  }
  throw std::invalid_argument("case has no parameter '" + std::string(name) + "'");
}

int64_t CaseContext::param_int(std::string_view name) const { return std::stoll(param(name)); }

void CaseContext::begin_measure() {
  reset_alloc_counters();
  start_usage_ = current_process_usage();
}

void CaseContext::end_measure() {
  const ProcessUsage spent = usage_between(start_usage_, current_process_usage());
  const AllocCounts counts = read_alloc_counters();
  state_.counters["pq_alloc_bytes"] = benchmark::Counter(static_cast<double>(counts.bytes));
  state_.counters["pq_allocs"] = benchmark::Counter(static_cast<double>(counts.allocations));
  // Faults and kernel time of the measured loop alone (setup excluded), and
  // the peak RSS the process had reached before it: a cold run reports what
  // the operation itself cost the kernel.
  state_.counters["pq_minor_faults"] = benchmark::Counter(static_cast<double>(spent.minor_faults));
  state_.counters["pq_kernel_seconds"] = benchmark::Counter(spent.kernel_seconds);
  state_.counters["pq_rss_before_kb"] =
      benchmark::Counter(static_cast<double>(start_usage_.peak_rss_bytes / 1024));
}

void CaseContext::set_result(ScanResult result) { record_case_result(std::move(result)); }

}  // namespace parquetry::bench
