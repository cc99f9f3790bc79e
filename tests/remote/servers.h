// Real servers for the remote-source tests, started on 127.0.0.1 on free
// ports and stopped when the object goes away: nginx (HTTP and HTTPS with a
// certificate the test makes), s3rver behind a SigV4 check
// (tests/servers/s3_server.js), and the fault-injecting proxy
// (tests/servers/fault_proxy.py).
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace parquetry::testing {

/// A child process, killed (SIGTERM, then SIGKILL) and reaped on destruction.
class Child {
 public:
  Child() = default;
  /// Starts argv; stdout goes to `out_file`, stderr to `err_file`.
  Child(const std::vector<std::string>& argv, const std::filesystem::path& out_file,
        const std::filesystem::path& err_file);
  ~Child();
  Child(Child&& other) noexcept : pid_(other.pid_) { other.pid_ = -1; }
  Child& operator=(Child&& other) noexcept;
  void stop();
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

/// Waits until `file` has a line "PORT <n>" (the child printed it) and
/// returns n; throws after `seconds`.
int wait_for_port_line(const std::filesystem::path& file, double seconds);
/// Waits until 127.0.0.1:port accepts connections.
void wait_for_listen(int port, double seconds);
/// A port that was free a moment ago.
int free_port();

/// A GET of a URL on 127.0.0.1 (plain HTTP), the body returned.
std::string http_get(const std::string& url);

/// nginx serving `root` over HTTP and HTTPS.
class Nginx {
 public:
  explicit Nginx(const std::filesystem::path& root);
  int http_port() const { return http_port_; }
  int https_port() const { return https_port_; }
  /// The self-signed certificate (also the CA to trust).
  const std::filesystem::path& ca_file() const { return cert_; }
  /// Requests in the access log so far.
  int64_t logged_requests() const;

 private:
  std::filesystem::path dir_;
  std::filesystem::path cert_;
  int http_port_ = 0;
  int https_port_ = 0;
  Child child_;
};

/// s3rver with bucket `bucket` holding the files of `seed` (flat).
class S3Server {
 public:
  S3Server(const std::string& bucket, const std::filesystem::path& seed);
  int port() const { return port_; }
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  std::filesystem::path dir_;
  int port_ = 0;
  Child child_;
};

/// The fault proxy in front of 127.0.0.1:upstream_port.
class FaultProxy {
 public:
  explicit FaultProxy(int upstream_port, int latency_ms = 0);
  int port() const { return port_; }
  std::string origin() const { return "http://127.0.0.1:" + std::to_string(port_); }
  /// Sets fault knobs ("status503=3&latency_ms=20").
  void set(const std::string& query) const;
  /// Clears faults and counters.
  void reset() const;
  /// A counter of /__fault/stats ("gets", "heads", "requests", "faults").
  int64_t stat(const std::string& name) const;

 private:
  std::filesystem::path dir_;
  int port_ = 0;
  Child child_;
};

/// Throw std::runtime_error naming what is missing and how to install it
/// when a server cannot run here: nginx and openssl
/// (scripts/install-deps.sh), node with the pinned s3rver
/// (scripts/install-peers.sh), python3 for the fault proxy. Tests turn that
/// into a failure, never a skip.
void require_nginx();
void require_s3rver();
void require_python3();

}  // namespace parquetry::testing
