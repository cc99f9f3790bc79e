// What the running process has cost the machine so far: peak resident
// memory, page faults and CPU time split into user and kernel time, from
// getrusage(2). The CLI's `--json` outputs and the benchmark harness report
// these beside wall time because on a fresh process the kernel's share
// (faulting in fresh pages) can be as large as the work itself.
#pragma once

#include <cstdint>

struct rusage;

namespace parquetry {

class JsonWriter;

struct ProcessUsage {
  int64_t peak_rss_bytes = 0;  ///< high-water mark of resident memory (ru_maxrss)
  int64_t minor_faults = 0;    ///< page faults served without I/O (fresh or cached pages)
  int64_t major_faults = 0;    ///< page faults that had to read from storage
  double user_seconds = 0;
  double kernel_seconds = 0;
};

/// The calling process so far (RUSAGE_SELF: every thread).
ProcessUsage current_process_usage();

/// Every child the process has waited for (RUSAGE_CHILDREN).
ProcessUsage waited_children_usage();

/// The figures of a struct rusage (as filled by getrusage or wait4).
ProcessUsage process_usage_from(const struct rusage& usage);

/// Faults and CPU times spent between `start` and `end` (`end` minus
/// `start`); the peak RSS is `end`'s, since a high-water mark has no difference.
ProcessUsage usage_between(const ProcessUsage& start, const ProcessUsage& end);

/// Writes "peak_rss_bytes", "minor_faults", "major_faults", "user_seconds"
/// and "kernel_seconds" as members of the object `json` is inside.
void write_usage_fields(JsonWriter& json, const ProcessUsage& usage);

}  // namespace parquetry
