#include "test_support.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <unistd.h>

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

std::vector<std::filesystem::path> public_parquet_files() {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(parquet_testing("data"))) {
    if (entry.is_regular_file() && entry.path().extension() == ".parquet") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
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

}  // namespace parquetry::testing
