#include "servers.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#ifndef PARQUETRY_SOURCE_DIR
#error "PARQUETRY_SOURCE_DIR must be defined"
#endif

namespace parquetry::testing {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

fs::path servers_dir() { return fs::path(PARQUETRY_SOURCE_DIR) / "tests" / "servers"; }

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

/// A folder for the servers' files, removed at exit (self-contained, so the
/// benchmarks can use these servers too).
struct ScratchRoot {
  fs::path path;
  ScratchRoot() {
    std::string pattern = (fs::temp_directory_path() / "parquetry-servers-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path = pattern;
  }
  ~ScratchRoot() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

fs::path scratch(const std::string& name) {
  static ScratchRoot root;
  const fs::path dir = root.path / name;
  fs::create_directories(dir);
  return dir;
}

bool on_path(const std::string& program) {
  return std::system(("command -v " + program + " >/dev/null 2>&1").c_str()) == 0;
}

std::string nginx_binary() {
  for (const char* candidate : {"/usr/sbin/nginx", "/usr/bin/nginx"}) {
    if (fs::exists(candidate)) return candidate;
  }
  return "nginx";
}

}  // namespace

Child::Child(const std::vector<std::string>& argv, const fs::path& out_file, const fs::path& err_file) {
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    // Own process group, so stop() reaches the server's children too.
    setpgid(0, 0);
    // Dies with the test: a test killed by ctest's timeout or a sanitizer
    // abort runs no destructor, and must not leave a server running.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    const int out = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out >= 0) dup2(out, 1);
    if (err >= 0) dup2(err, 2);
    const int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, 0);
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  pid_ = pid;
}

Child::~Child() { stop(); }

Child& Child::operator=(Child&& other) noexcept {
  if (this != &other) {
    stop();
    pid_ = other.pid_;
    other.pid_ = -1;
  }
  return *this;
}

void Child::stop() {
  if (pid_ <= 0) return;
  kill(-pid_, SIGTERM);
  kill(pid_, SIGTERM);
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  int status = 0;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (Clock::now() > deadline) {
      kill(-pid_, SIGKILL);
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  pid_ = -1;
}

int wait_for_port_line(const fs::path& file, double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < deadline) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("PORT ", 0) == 0) return std::stoi(line.substr(5));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw std::runtime_error("server did not report its port in " + file.string() + ": " + read_text(file));
}

void wait_for_listen(int port, double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < deadline) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(uint16_t(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
    close(fd);
    if (ok) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw std::runtime_error("nothing listens on 127.0.0.1:" + std::to_string(port));
}

int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = 0;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    throw std::runtime_error("bind failed");
  }
  socklen_t size = sizeof(address);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  close(fd);
  return ntohs(address.sin_port);
}

namespace {
size_t collect(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}
}  // namespace

std::string http_get(const std::string& url) {
  CURL* curl = curl_easy_init();
  std::string body;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  const CURLcode result = curl_easy_perform(curl);
  curl_easy_cleanup(curl);
  if (result != CURLE_OK) throw std::runtime_error("GET " + url + ": " + curl_easy_strerror(result));
  return body;
}

void require_nginx() {
  if (!fs::exists(nginx_binary())) {
    throw std::runtime_error(
        "nginx is not installed (looked for /usr/sbin/nginx and /usr/bin/nginx): the HTTP(S) tests need it; "
        "run scripts/install-deps.sh (make test does)");
  }
  if (!on_path("openssl")) {
    throw std::runtime_error(
        "openssl is not on PATH: the HTTPS tests make their certificate with it; run "
        "scripts/install-deps.sh");
  }
}

void require_s3rver() {
  if (!on_path("node")) {
    throw std::runtime_error(
        "node is not on PATH: the S3 tests run s3rver on it; run scripts/install-deps.sh");
  }
  const fs::path package = servers_dir() / "node_modules" / "s3rver" / "package.json";
  if (!fs::exists(package)) {
    throw std::runtime_error(package.string() +
                             " is missing: the S3 tests need the pinned s3rver; run scripts/install-peers.sh "
                             "(make test does)");
  }
}

void require_python3() {
  if (!on_path("python3")) {
    throw std::runtime_error(
        "python3 is not on PATH: the fault proxy runs on it; run scripts/install-deps.sh");
  }
}

Nginx::Nginx(const fs::path& root) : dir_(scratch("nginx-" + std::to_string(free_port()))) {
  fs::create_directories(dir_ / "logs");
  cert_ = dir_ / "cert.pem";
  const fs::path key = dir_ / "key.pem";
  // A throwaway self-signed certificate for 127.0.0.1, trusted by the test
  // through RemoteOptions::ca_file.
  const std::string make_cert =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 "
      "-addext subjectAltName=IP:127.0.0.1 -keyout " +
      shell_quote(key.string()) + " -out " + shell_quote(cert_.string()) + " >/dev/null 2>&1";
  if (std::system(make_cert.c_str()) != 0) throw std::runtime_error("openssl could not make a certificate");
  http_port_ = free_port();
  https_port_ = free_port();
  std::ofstream conf(dir_ / "nginx.conf");
  conf << "daemon off;\nmaster_process off;\nworker_processes 1;\npid " << (dir_ / "nginx.pid").string()
       << ";\nerror_log " << (dir_ / "logs" / "error.log").string() << ";\n"
       << "events { worker_connections 512; }\n"
       << "http {\n  access_log " << (dir_ / "logs" / "access.log").string() << ";\n"
       << "  client_body_temp_path " << (dir_ / "body").string() << ";\n"
       << "  proxy_temp_path " << (dir_ / "proxy").string() << ";\n"
       << "  fastcgi_temp_path " << (dir_ / "fastcgi").string() << ";\n"
       << "  uwsgi_temp_path " << (dir_ / "uwsgi").string() << ";\n"
       << "  scgi_temp_path " << (dir_ / "scgi").string() << ";\n"
       << "  keepalive_requests 10000;\n  default_type application/octet-stream;\n"
       << "  server { listen 127.0.0.1:" << http_port_ << "; root " << root.string() << "; }\n"
       << "  server { listen 127.0.0.1:" << https_port_ << " ssl; root " << root.string() << ";\n"
       << "    ssl_certificate " << cert_.string() << "; ssl_certificate_key " << key.string() << "; }\n"
       << "}\n";
  conf.close();
  child_ = Child({nginx_binary(), "-p", dir_.string(), "-c", (dir_ / "nginx.conf").string(), "-e",
                  (dir_ / "logs" / "error.log").string()},
                 dir_ / "stdout.txt", dir_ / "stderr.txt");
  try {
    wait_for_listen(http_port_, 10);
    wait_for_listen(https_port_, 10);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string(e.what()) + "; nginx said: " + read_text(dir_ / "stderr.txt") +
                             read_text(dir_ / "logs" / "error.log"));
  }
}

int64_t Nginx::logged_requests() const {
  std::ifstream in(dir_ / "logs" / "access.log");
  int64_t lines = 0;
  std::string line;
  while (std::getline(in, line)) ++lines;
  return lines;
}

S3Server::S3Server(const std::string& bucket, const fs::path& seed)
    : dir_(scratch("s3rver-" + std::to_string(free_port()))) {
  fs::create_directories(dir_ / "store");
  child_ = Child(
      {"node", (servers_dir() / "s3_server.js").string(), (dir_ / "store").string(), bucket, seed.string()},
      dir_ / "stdout.txt", dir_ / "stderr.txt");
  try {
    port_ = wait_for_port_line(dir_ / "stdout.txt", 60);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string(e.what()) + "; stderr: " + read_text(dir_ / "stderr.txt"));
  }
}

FaultProxy::FaultProxy(int upstream_port, int latency_ms)
    : dir_(scratch("proxy-" + std::to_string(free_port()))) {
  fs::create_directories(dir_);
  child_ = Child({"python3", (servers_dir() / "fault_proxy.py").string(), "--upstream",
                  "127.0.0.1:" + std::to_string(upstream_port), "--latency-ms", std::to_string(latency_ms)},
                 dir_ / "stdout.txt", dir_ / "stderr.txt");
  try {
    port_ = wait_for_port_line(dir_ / "stdout.txt", 20);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string(e.what()) + "; stderr: " + read_text(dir_ / "stderr.txt"));
  }
}

void FaultProxy::set(const std::string& query) const { http_get(origin() + "/__fault/set?" + query); }
void FaultProxy::reset() const { http_get(origin() + "/__fault/reset"); }

int64_t FaultProxy::stat(const std::string& name) const {
  const std::string body = http_get(origin() + "/__fault/stats");
  const std::string stats = body.substr(body.find("\"stats\""));
  const size_t at = stats.find("\"" + name + "\": ");
  if (at == std::string::npos) throw std::runtime_error("no counter " + name + " in " + body);
  return std::stoll(stats.substr(at + name.size() + 4));
}

}  // namespace parquetry::testing
