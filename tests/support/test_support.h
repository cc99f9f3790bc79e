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
/// Every *.parquet file under parquet-testing/data (sorted), encrypted ones
/// excluded, and those whose values need gigabytes (needs_gigabytes): the
/// sweeps over this list read every file several ways, tests of their own
/// read those.
std::vector<std::filesystem::path> public_parquet_files();
/// public_parquet_files() and the files that need gigabytes: for sweeps of
/// footers, headers and page bytes that never decode a column's values.
std::vector<std::filesystem::path> all_public_parquet_files();
/// Whether decoding a parquet-testing file needs gigabytes of memory and
/// seconds per read: large_string_map.brotli.parquet (two 1 GiB strings),
/// read by tests/read/large_strings_test.cc.
bool needs_gigabytes(const std::filesystem::path& path);
/// The whole file as bytes.
std::vector<uint8_t> read_bytes(const std::filesystem::path& path);
/// A fresh empty folder for this test's output, removed at process exit.
std::filesystem::path temp_dir();

/// The whole file as text ("" when it cannot be read).
std::string read_text(const std::filesystem::path& path);
/// `text` single-quoted for the shell.
std::string shell_quote(const std::string& text);
/// Whether node and the DuckDB peer (bench/peers/node_modules, installed by
/// scripts/install-peers.sh, which make test runs) are there.
bool duckdb_peer_available();
/// Runs `node bench/peers/<script> <args>` (`args` quoted by the caller) and
/// returns its output lines, stderr merged; `status` gets the exit status.
std::vector<std::string> run_peer(const std::string& script, const std::string& args, int* status = nullptr);

}  // namespace parquetry::testing
