#include "test_support.h"

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace parquetry::testing {

std::filesystem::path shared_dir() {
  if (const char* env = std::getenv("PARQUETRY_SHARED_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  return PARQUETRY_DEFAULT_SHARED_DIR;
}

std::filesystem::path parquet_testing(const std::string& relative) {
  return shared_dir() / "testdata" / "parquet-testing" / relative;
}

std::filesystem::path duckdb_baseline(const std::string& relative) {
  return shared_dir() / "testdata" / "duckdb-baseline" / "parquet-testing" / relative;
}

std::vector<std::filesystem::path> all_public_parquet_files() {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(parquet_testing("data"))) {
    if (entry.is_regular_file() && entry.path().extension() == ".parquet") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::filesystem::path> public_parquet_files() {
  std::vector<std::filesystem::path> out = all_public_parquet_files();
  std::erase_if(out, [](const std::filesystem::path& path) { return needs_gigabytes(path); });
  return out;
}

bool needs_gigabytes(const std::filesystem::path& path) {
  return path.filename() == "large_string_map.brotli.parquet";
}

std::vector<uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

namespace {
struct TempRoot {
  std::filesystem::path path;
  TempRoot() {
    std::string pattern = (std::filesystem::temp_directory_path() / "parquetry-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path = pattern;
  }
  ~TempRoot() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};
}  // namespace

std::filesystem::path temp_dir() {
  static TempRoot root;
  static int counter = 0;
  auto dir = root.path / std::to_string(counter++);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool duckdb_peer_available() {
  return std::filesystem::exists(std::string(PARQUETRY_SOURCE_DIR) +
                                 "/bench/peers/node_modules/@duckdb/node-api") &&
         std::system("node --version > /dev/null 2>&1") == 0;
}

std::vector<std::string> run_peer(const std::string& script, const std::string& args, int* status) {
  const std::string command = "node " +
                              shell_quote(std::string(PARQUETRY_SOURCE_DIR) + "/bench/peers/" + script) +
                              " " + args + " 2>&1";
  std::vector<std::string> lines;
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    if (status != nullptr) *status = -1;
    return lines;
  }
  std::string line;
  char chunk[4096];
  while (std::fgets(chunk, sizeof(chunk), pipe) != nullptr) {
    line += chunk;
    if (!line.empty() && line.back() == '\n') {
      line.pop_back();
      lines.push_back(std::move(line));
      line.clear();
    }
  }
  if (!line.empty()) lines.push_back(line);
  const int code = pclose(pipe);
  if (status != nullptr) *status = code;
  return lines;
}

}  // namespace parquetry::testing
