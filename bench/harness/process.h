// Running a child program (a fork of the bench binary, a peer script) and
// collecting its stdout, exit status and peak memory.
#pragma once

#include <string>
#include <vector>

namespace parquetry::bench {

struct ProcessResult {
  int exit_code = -1;         ///< exit status, or 128 + signal when killed
  std::string out;            ///< everything written to stdout (when captured)
  long peak_rss_kb = 0;       ///< ru_maxrss of the child
  long minor_faults = 0;      ///< ru_minflt of the child (its whole life)
  double kernel_seconds = 0;  ///< ru_stime of the child
};

/// Runs argv[0] (searched in PATH) with the given arguments; stderr is passed
/// through. With capture_stdout false the child's stdout is passed through too.
ProcessResult run_process(const std::vector<std::string>& argv, bool capture_stdout);

/// Path of the running executable (/proc/self/exe).
std::string self_executable();

}  // namespace parquetry::bench
