// Facts about the machine and build recorded with every result, so numbers
// from different runs can be told apart.
#pragma once

#include <string>

namespace parquetry::bench {

struct MachineFacts {
  std::string cpu_model;
  int cores = 0;  ///< online logical CPUs
  long memory_kb = 0;
  std::string kernel;
  std::string compiler;
  std::string cxx_flags;
  std::string build_type;
  std::string git_commit;
  bool git_dirty = false;
  std::string node_version;
  std::string load_average;  ///< /proc/loadavg at the start: a busy machine explains wide errors
  std::string benchmark_library = "Google Benchmark 1.7.1";
};

/// Gathers the facts (runs git and node once each).
MachineFacts gather_machine_facts(const std::string& source_dir, const std::string& node);

}  // namespace parquetry::bench
