#include "process.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace parquetry::bench {

ProcessResult run_process(const std::vector<std::string>& argv, bool capture_stdout) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int pipe_fds[2] = {-1, -1};
  if (capture_stdout && pipe(pipe_fds) != 0)
    throw std::runtime_error("pipe: " + std::string(strerror(errno)));
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork: " + std::string(strerror(errno)));
  if (pid == 0) {
    if (capture_stdout) {
      dup2(pipe_fds[1], STDOUT_FILENO);
      close(pipe_fds[0]);
      close(pipe_fds[1]);
    }
    execvp(args[0], args.data());
    const std::string message = "cannot run " + argv[0] + ": " + strerror(errno) + "\n";
    if (write(STDERR_FILENO, message.data(), message.size()) < 0) _exit(127);
    _exit(127);
  }
  ProcessResult result;
  if (capture_stdout) {
    close(pipe_fds[1]);
    char buffer[65536];
    for (;;) {
      const ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
      if (n > 0) {
        result.out.append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        break;
      }
    }
    close(pipe_fds[0]);
  }
  int status = 0;
  struct rusage usage {};
  while (wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) throw std::runtime_error("wait4: " + std::string(strerror(errno)));
  }
  result.peak_rss_kb = usage.ru_maxrss;
  result.minor_faults = usage.ru_minflt;
  result.kernel_seconds = double(usage.ru_stime.tv_sec) + double(usage.ru_stime.tv_usec) * 1e-6;
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exit_code = 128 + WTERMSIG(status);
  }
  return result;
}

std::string self_executable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

}  // namespace parquetry::bench
