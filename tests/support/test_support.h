// Helpers shared by every test binary.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace parquetry::testing {

/// The shared/ folder beside the checkout (or $PARQUETRY_SHARED_DIR).
std::filesystem::path shared_dir();
/// shared/testdata/parquet-testing/<relative>.
std::filesystem::path parquet_testing(const std::string& relative);
/// shared/testdata/duckdb-baseline/parquet-testing/<relative>.
std::filesystem::path duckdb_baseline(const std::string& relative);
/// Every *.parquet file under parquet-testing/data (sorted), encrypted ones excluded.
std::vector<std::filesystem::path> public_parquet_files();
/// The whole file as bytes.
std::vector<uint8_t> read_bytes(const std::filesystem::path& path);
/// A fresh empty folder for this test's output, removed at process exit.
std::filesystem::path temp_dir();

}  // namespace parquetry::testing
