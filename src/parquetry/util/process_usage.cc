#include "parquetry/util/process_usage.h"

#include <sys/resource.h>

#include "parquetry/util/json_writer.h"

namespace parquetry {
namespace {

double seconds_of(const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; }

ProcessUsage usage_of(int who) {
  struct rusage usage {};
  if (getrusage(who, &usage) != 0) return ProcessUsage{};
  return process_usage_from(usage);
}

}  // namespace

ProcessUsage process_usage_from(const struct rusage& usage) {
  ProcessUsage out;
  // Linux reports ru_maxrss in KiB.
  out.peak_rss_bytes = int64_t(usage.ru_maxrss) * 1024;
  out.minor_faults = int64_t(usage.ru_minflt);
  out.major_faults = int64_t(usage.ru_majflt);
  out.user_seconds = seconds_of(usage.ru_utime);
  out.kernel_seconds = seconds_of(usage.ru_stime);
  return out;
}

ProcessUsage current_process_usage() { return usage_of(RUSAGE_SELF); }

ProcessUsage waited_children_usage() { return usage_of(RUSAGE_CHILDREN); }

ProcessUsage usage_between(const ProcessUsage& start, const ProcessUsage& end) {
  ProcessUsage out;
  out.peak_rss_bytes = end.peak_rss_bytes;
  out.minor_faults = end.minor_faults - start.minor_faults;
  out.major_faults = end.major_faults - start.major_faults;
  out.user_seconds = end.user_seconds - start.user_seconds;
  out.kernel_seconds = end.kernel_seconds - start.kernel_seconds;
  return out;
}

void write_usage_fields(JsonWriter& json, const ProcessUsage& usage) {
  json.key("peak_rss_bytes").int64(usage.peak_rss_bytes);
  json.key("minor_faults").int64(usage.minor_faults);
  json.key("major_faults").int64(usage.major_faults);
  json.key("user_seconds").number(usage.user_seconds);
  json.key("kernel_seconds").number(usage.kernel_seconds);
}

}  // namespace parquetry
