// RemoteSource over plain HTTP and HTTPS against nginx started by the test:
// every public parquet-testing file reads the same as locally, opening costs
// one request, a full scan at most one GET per row group plus the footer,
// TLS trusts only the CA it is given, and a replaced object or a missing
// one fails at once with the URL named.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "parquetry/error.h"
#include "parquetry/metadata.h"
#include "parquetry/reader.h"
#include "parquetry/remote.h"
#include "remote_support.h"
#include "servers.h"
#include "test_support.h"

namespace parquetry {
namespace {

namespace fs = std::filesystem;
using testing::Nginx;

class HttpSourceTest : public ::testing::Test {
 protected:
  // A server that cannot start fails every test with the reason (never a
  // skip: gtest turns a failed SetUpTestSuite into skipped tests).
  static void SetUpTestSuite() {
    try {
      testing::require_nginx();
      data_root_ = new fs::path(testing::parquet_testing("data"));
      nginx_ = new Nginx(*data_root_);
      own_root_ = new fs::path(testing::temp_dir() / "http-root");
      fs::create_directories(*own_root_);
      testing::write_taxi_like(*own_root_ / "taxi.parquet");
      own_nginx_ = new Nginx(*own_root_);
    } catch (const std::exception& e) {
      setup_error_ = new std::string(e.what());
    }
  }
  static void TearDownTestSuite() {
    delete nginx_;
    delete own_nginx_;
    delete data_root_;
    delete own_root_;
    delete setup_error_;
    nginx_ = own_nginx_ = nullptr;
    data_root_ = own_root_ = nullptr;
    setup_error_ = nullptr;
  }
  void SetUp() override {
    if (setup_error_ != nullptr) GTEST_FAIL() << *setup_error_;
  }
  static std::string url(const fs::path& file) {
    return "http://127.0.0.1:" + std::to_string(nginx_->http_port()) + "/" +
           fs::relative(file, *data_root_).string();
  }
  static std::string own_url(const std::string& name, bool https = false) {
    return std::string(https ? "https" : "http") +
           "://127.0.0.1:" + std::to_string(https ? own_nginx_->https_port() : own_nginx_->http_port()) +
           "/" + name;
  }

  static Nginx* nginx_;
  static Nginx* own_nginx_;
  static fs::path* data_root_;
  static fs::path* own_root_;
  static std::string* setup_error_;
};

Nginx* HttpSourceTest::nginx_ = nullptr;
Nginx* HttpSourceTest::own_nginx_ = nullptr;
fs::path* HttpSourceTest::data_root_ = nullptr;
fs::path* HttpSourceTest::own_root_ = nullptr;
std::string* HttpSourceTest::setup_error_ = nullptr;

TEST_F(HttpSourceTest, EveryPublicFileEqualsTheLocalRead) {
  int compared = 0;
  for (const fs::path& file : testing::public_parquet_files()) {
    SCOPED_TRACE(file.string());
    std::vector<std::string> local;
    std::string local_error;
    try {
      auto reader = FileReader::open(file.string());
      local = testing::all_rows(*reader);
    } catch (const Error& e) {
      local_error = error_code_name(e.code());
    }
    std::vector<std::string> remote;
    std::string remote_error;
    try {
      auto reader = FileReader::open(url(file));
      remote = testing::all_rows(*reader);
    } catch (const Error& e) {
      remote_error = error_code_name(e.code());
      if (e.code() == ErrorCode::kIo) ADD_FAILURE() << "remote I/O error: " << e.what();
    }
    EXPECT_EQ(remote_error, local_error);
    ASSERT_EQ(remote, local);
    if (local_error.empty()) ++compared;
  }
  EXPECT_GT(compared, 40);
}

TEST_F(HttpSourceTest, OpeningCostsOneRequestWhenTheFooterFitsTheHint) {
  const int64_t before = own_nginx_->logged_requests();
  auto source = std::make_shared<RemoteSource>(own_url("taxi.parquet"));
  EXPECT_EQ(source->stats().requests, 1);
  // The file is well over the default hint, so the request counts of these
  // tests are about real ranged GETs, not about reads from the opening tail.
  EXPECT_GT(source->size(), 2 * RemoteOptions{}.footer_hint);
  auto reader = FileReader::open(source);
  EXPECT_EQ(reader->num_row_groups(), testing::kTaxiRowGroups);
  EXPECT_EQ(reader->metadata().num_rows, testing::kTaxiRowGroups * testing::kTaxiGroupRows);
  EXPECT_EQ(source->stats().requests, 1) << "the footer came from the opening request";
  EXPECT_EQ(own_nginx_->logged_requests() - before, 1);
  EXPECT_FALSE(source->version().empty());

  // A footer larger than the hint costs exactly one more request.
  RemoteOptions small;
  small.footer_hint = 64;
  auto second = std::make_shared<RemoteSource>(own_url("taxi.parquet"), small);
  const FileMetaData metadata = read_file_metadata(*second);
  EXPECT_EQ(metadata.num_rows, testing::kTaxiRowGroups * testing::kTaxiGroupRows);
  EXPECT_EQ(second->stats().requests, 2);
}

TEST_F(HttpSourceTest, FullScanIsAtMostOneGetPerRowGroupPlusTheFooter) {
  const auto local_path = *own_root_ / "taxi.parquet";
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    ReaderOptions options;
    options.threads = threads;
    auto source = std::make_shared<RemoteSource>(own_url("taxi.parquet"));
    auto reader = FileReader::open(source, options);
    const std::vector<std::string> rows = testing::flat_values(*reader);
    ASSERT_TRUE(rows == testing::flat_values(*FileReader::open(local_path.string(), options)));
    // Six columns; "id" holds 0, 1, ... in file order.
    ASSERT_EQ(rows.size(), 6u);
    const int64_t total = testing::kTaxiRowGroups * testing::kTaxiGroupRows;
    ASSERT_EQ(int64_t(rows[0].size()), total * 8);
    for (int64_t row : {int64_t(0), int64_t(1), testing::kTaxiGroupRows, total - 1}) {
      int64_t id = -1;
      std::memcpy(&id, rows[0].data() + row * 8, 8);
      EXPECT_EQ(id, row);
    }
    EXPECT_LE(source->stats().gets, testing::kTaxiRowGroups + 1);
    EXPECT_EQ(source->stats().retries, 0);

    // A 2-column projection: also at most one GET per row group.
    options.columns = {"fare", "tip"};
    auto projected_source = std::make_shared<RemoteSource>(own_url("taxi.parquet"));
    auto projected = FileReader::open(projected_source, options);
    const std::vector<std::string> projected_values = testing::flat_values(*projected);
    ASSERT_EQ(projected_values.size(), 2u);
    ASSERT_TRUE(projected_values == testing::flat_values(*FileReader::open(local_path.string(), options)));
    EXPECT_LE(projected_source->stats().gets, testing::kTaxiRowGroups + 1);
  }
}

TEST_F(HttpSourceTest, LargeRangesAreSplitIntoConcurrentParts) {
  RemoteOptions options;
  options.part_size = 64 << 10;  // the smallest part allowed
  options.footer_hint = 4096;
  auto source = std::make_shared<RemoteSource>(own_url("taxi.parquet"), options);
  const auto local = testing::read_bytes(*own_root_ / "taxi.parquet");
  ASSERT_EQ(source->size(), int64_t(local.size()));
  Buffer scratch;
  const int64_t length = std::min<int64_t>(int64_t(local.size()) - 10, 300 << 10);
  auto bytes = source->read(3, length, scratch);
  ASSERT_EQ(int64_t(bytes.size()), length);
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), local.begin() + 3));
  // 1 open + ceil(length / 64 KiB) parts.
  EXPECT_EQ(source->stats().gets, 1 + (length + (64 << 10) - 1) / (64 << 10));
}

TEST_F(HttpSourceTest, HttpsTrustsTheGivenCaOnly) {
  RemoteOptions options;
  options.ca_file = own_nginx_->ca_file().string();
  auto reader = FileReader::open(std::make_shared<RemoteSource>(own_url("taxi.parquet", true), options));
  EXPECT_TRUE(testing::flat_values(*reader) ==
              testing::flat_values(*FileReader::open((*own_root_ / "taxi.parquet").string())));

  // Without the CA the self-signed certificate is refused, at once.
  const auto start = std::chrono::steady_clock::now();
  try {
    RemoteSource untrusted(own_url("taxi.parquet", true));
    FAIL() << "an untrusted certificate was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kIo);
    EXPECT_NE(std::string(e.what()).find(own_url("taxi.parquet", true)), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("[1 try]"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST_F(HttpSourceTest, MissingObjectFailsAtOnceNamingTheUrl) {
  try {
    RemoteSource missing(own_url("no/such/file.parquet?token=secret-value"));
    FAIL() << "opened a missing object";
  } catch (const Error& e) {
    const std::string text = e.what();
    EXPECT_EQ(e.code(), ErrorCode::kIo);
    EXPECT_NE(text.find("HTTP 404"), std::string::npos) << text;
    EXPECT_NE(text.find(own_url("no/such/file.parquet")), std::string::npos) << text;
    EXPECT_NE(text.find("[1 try]"), std::string::npos) << text;
    EXPECT_EQ(text.find("secret-value"), std::string::npos) << "the query string leaked: " << text;
  }
}

TEST_F(HttpSourceTest, ObjectReplacedAfterOpenFailsTheRead) {
  const fs::path file = *own_root_ / "replaced.parquet";
  fs::copy_file(*own_root_ / "taxi.parquet", file, fs::copy_options::overwrite_existing);
  auto source = std::make_shared<RemoteSource>(own_url("replaced.parquet"));
  auto reader = FileReader::open(source);
  // Another version of the object (other bytes, other ETag) appears.
  {
    std::ofstream out(file, std::ios::binary | std::ios::app);
    out << "appended";
  }
  fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(5));
  try {
    reader->read_row_group(0);
    FAIL() << "read bytes of a replaced object";
  } catch (const Error& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("changed since it was opened"), std::string::npos) << text;
    EXPECT_NE(text.find("HTTP 412"), std::string::npos) << text;
    EXPECT_NE(text.find(own_url("replaced.parquet")), std::string::npos) << text;
    EXPECT_NE(text.find("bytes="), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace parquetry
