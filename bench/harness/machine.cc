#include "machine.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "process.h"

#ifndef PARQUETRY_BENCH_CXX_FLAGS
#define PARQUETRY_BENCH_CXX_FLAGS "unknown"
#endif
#ifndef PARQUETRY_BENCH_BUILD_TYPE
#define PARQUETRY_BENCH_BUILD_TYPE "unknown"
#endif

namespace parquetry::bench {
namespace {

std::string trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) text.pop_back();
  size_t start = 0;
  while (start < text.size() && text[start] == ' ') ++start;
  return text.substr(start);
}

std::string proc_field(const char* file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return trim(line.substr(colon + 1));
    }
  }
  return "";
}

std::string command_output(const std::vector<std::string>& argv) {
  try {
    ProcessResult r = run_process(argv, true);
    return r.exit_code == 0 ? trim(r.out) : "";
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace

MachineFacts gather_machine_facts(const std::string& source_dir, const std::string& node) {
  MachineFacts facts;
  facts.cpu_model = proc_field("/proc/cpuinfo", "model name");
  facts.cores = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  const std::string mem = proc_field("/proc/meminfo", "MemTotal");
  facts.memory_kb = mem.empty() ? 0 : std::stol(mem);
  struct utsname uts {};
  if (uname(&uts) == 0) facts.kernel = std::string(uts.sysname) + " " + uts.release + " " + uts.machine;
#if defined(__clang__)
  facts.compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
  facts.compiler = "gcc " __VERSION__;
#else
  facts.compiler = "unknown";
#endif
  facts.cxx_flags = trim(PARQUETRY_BENCH_CXX_FLAGS);
  facts.build_type = PARQUETRY_BENCH_BUILD_TYPE;
  facts.git_commit = command_output({"git", "-C", source_dir, "rev-parse", "HEAD"});
  facts.git_dirty =
      !command_output({"git", "-C", source_dir, "status", "--porcelain", "--untracked-files=no"}).empty();
  facts.node_version = command_output({node, "--version"});
  std::ifstream loadavg("/proc/loadavg");
  std::string one, five, fifteen;
  if (loadavg >> one >> five >> fifteen) facts.load_average = one + " " + five + " " + fifteen;
  return facts;
}

}  // namespace parquetry::bench
