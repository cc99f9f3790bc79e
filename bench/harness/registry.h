// Internal: the cases and peers declared through harness.h, expanded into
// Google Benchmark registrations.
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness.h"

namespace parquetry::bench {

struct CaseBuilder::Spec {
  std::string suite;
  std::string table;
  std::string name;
  CaseBody body;
  std::vector<std::pair<std::string, std::vector<std::string>>> params;
  bool single_shot = false;
  bool baseline = false;
  bool cold = false;
  int interleaved_forks = 0;
};

struct TablePeer {
  std::string suite;
  std::string table;
  PeerSpec spec;
};

/// One benchmark instance as the harness sees it (API case or plain BENCHMARK).
struct CaseInfo {
  std::string full_name;  ///< Google Benchmark name, used as an exact filter
  std::string suite;
  std::string table;  ///< "<suite>.<table>"
  std::string case_name;
  Params params;
  std::string params_text;  ///< "k=v k=v" (plain benchmarks: their argument string)
  bool api = false;
  bool single_shot = false;
  bool baseline = false;
  bool cold = false;          ///< also measured cold (--cold N): one operation per fresh process
  int interleaved_forks = 0;  ///< at least this many forks, interleaved with its table's (0: the run's)
};

std::deque<CaseBuilder::Spec>& case_specs();
std::vector<TablePeer>& table_peers();
/// Registers every declared case with Google Benchmark (once).
void register_api_cases();
/// API instances by their Google Benchmark name.
const std::map<std::string, CaseInfo>& api_instances();
/// Describes a benchmark name from the listing (API lookup, else the plain-benchmark rules).
CaseInfo describe(const std::string& full_name);
/// The peer of `table` ("<suite>.<table>"), if one was declared.
const TablePeer* peer_of(const std::string& table);

/// Child-side hooks used by CaseContext.
void record_case_result(ScanResult result);
void fail_case(const std::string& message);

}  // namespace parquetry::bench
