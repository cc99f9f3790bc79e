// Every fault kind of the proxy (tests/servers/fault_proxy.py) replayed
// between the remote source and nginx: the scan returns exactly the local
// rows after retries, or fails with a clear error within its retry budget;
// nothing waits past the configured timeouts.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "parquetry/error.h"
#include "parquetry/io/read_ahead.h"
#include "parquetry/reader.h"
#include "parquetry/remote.h"
#include "remote_support.h"
#include "servers.h"
#include "test_support.h"

namespace parquetry {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

class FaultTest : public ::testing::Test {
 protected:
  // A server that cannot start fails every test with the reason (never a
  // skip: gtest turns a failed SetUpTestSuite into skipped tests).
  static void SetUpTestSuite() {
    try {
      testing::require_nginx();
      testing::require_python3();
      root_ = new fs::path(testing::temp_dir() / "fault-root");
      fs::create_directories(*root_);
      testing::write_taxi_like(*root_ / "taxi.parquet");
      nginx_ = new testing::Nginx(*root_);
      proxy_ = new testing::FaultProxy(nginx_->http_port());
      local_ = new std::vector<std::string>(
          testing::flat_values(*FileReader::open((*root_ / "taxi.parquet").string())));
      if (local_->size() != 6 ||
          int64_t((*local_)[0].size()) != testing::kTaxiRowGroups * testing::kTaxiGroupRows * 8) {
        throw std::runtime_error("the local read of taxi.parquet has the wrong shape");
      }
    } catch (const std::exception& e) {
      setup_error_ = new std::string(e.what());
    }
  }
  static void TearDownTestSuite() {
    delete proxy_;
    delete nginx_;
    delete root_;
    delete local_;
    delete setup_error_;
    proxy_ = nullptr;
    nginx_ = nullptr;
    root_ = nullptr;
    local_ = nullptr;
    setup_error_ = nullptr;
  }
  void SetUp() override {
    if (setup_error_ != nullptr) GTEST_FAIL() << *setup_error_;
    proxy_->reset();
  }

  static std::string url() { return proxy_->origin() + "/taxi.parquet"; }

  /// Fast retries and short timeouts, so a replay takes well under a second.
  static RemoteOptions quick() {
    RemoteOptions options;
    options.backoff_base_ms = 5;
    options.backoff_cap_ms = 40;
    options.max_tries = 4;
    options.connect_timeout_ms = 2000;
    options.first_byte_timeout_ms = 2000;
    options.stall_timeout_ms = 300;
    options.part_size = 256 << 10;  // several parts per row group, so faults hit mid-scan
    return options;
  }

  /// Scans the file through the proxy; the rows must equal the local read.
  static RemoteStats scan_equal(const RemoteOptions& options, int threads = 2) {
    auto source = std::make_shared<RemoteSource>(url(), options);
    ReaderOptions reader_options;
    reader_options.threads = threads;
    auto rows = testing::flat_values(*FileReader::open(source, reader_options));
    EXPECT_EQ(rows.size(), local_->size());
    EXPECT_TRUE(rows == *local_) << "values differ from the local read";
    return source->stats();
  }

  static testing::Nginx* nginx_;
  static testing::FaultProxy* proxy_;
  static fs::path* root_;
  static std::vector<std::string>* local_;
  static std::string* setup_error_;
};

testing::Nginx* FaultTest::nginx_ = nullptr;
testing::FaultProxy* FaultTest::proxy_ = nullptr;
fs::path* FaultTest::root_ = nullptr;
std::vector<std::string>* FaultTest::local_ = nullptr;
std::string* FaultTest::setup_error_ = nullptr;

TEST_F(FaultTest, NoFaultNoRetry) {
  const RemoteStats stats = scan_equal(quick());
  EXPECT_EQ(stats.retries, 0);
  EXPECT_EQ(proxy_->stat("gets"), stats.gets);
}

TEST_F(FaultTest, SlowDownBurstIsRetried) {
  proxy_->set("status503=3");
  const RemoteStats stats = scan_equal(quick());
  EXPECT_EQ(stats.retries, 3);
  EXPECT_EQ(proxy_->stat("faults"), 3);
}

TEST_F(FaultTest, EndlessSlowDownFailsWithinTheRetryBudget) {
  proxy_->set("status503=1000");
  const auto start = Clock::now();
  try {
    scan_equal(quick());
    FAIL() << "a scan succeeded against an endless 503 burst";
  } catch (const Error& e) {
    const std::string text = e.what();
    EXPECT_EQ(e.code(), ErrorCode::kIo);
    EXPECT_NE(text.find("HTTP 503 (SlowDown)"), std::string::npos) << text;
    EXPECT_NE(text.find("[4 tries]"), std::string::npos) << text;
    EXPECT_NE(text.find(url()), std::string::npos) << text;
  }
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
}

TEST_F(FaultTest, ConnectionResetMidBodyIsRetried) {
  proxy_->set("reset=3&reset_after=1000");
  const RemoteStats stats = scan_equal(quick());
  EXPECT_EQ(stats.retries, 3);
}

TEST_F(FaultTest, TruncatedBodyIsNeverUsed) {
  proxy_->set("truncate=3");
  const RemoteStats stats = scan_equal(quick());
  EXPECT_EQ(stats.retries, 3);
}

TEST_F(FaultTest, LongBodyIsNeverUsed) {
  proxy_->set("long=2");
  const RemoteStats stats = scan_equal(quick());
  EXPECT_EQ(stats.retries, 2);
}

TEST_F(FaultTest, WrongContentRangeIsNeverUsed) {
  proxy_->set("wrong_range=2");
  const RemoteStats stats = scan_equal(quick());
  EXPECT_EQ(stats.retries, 2);
}

TEST_F(FaultTest, StalledBodyTimesOutAndIsRetried) {
  // The proxy stalls the first data response (the opening suffix GET) for
  // 20 s mid-body; the stall timeout (300 ms) cuts it and the retry succeeds.
  // Timing the open alone keeps the bound independent of how long the
  // sanitized scan takes on a loaded machine.
  proxy_->set("stall=1&stall_ms=20000");
  const auto start = Clock::now();
  auto source = std::make_shared<RemoteSource>(url(), quick());
  const auto opened = Clock::now() - start;
  EXPECT_GE(opened, std::chrono::milliseconds(300)) << "the stall was not hit";
  EXPECT_LT(opened, std::chrono::seconds(10)) << "waited for the stalled body instead of timing out";
  EXPECT_EQ(source->stats().retries, 1);
  EXPECT_EQ(proxy_->stat("faults"), 1);
  ReaderOptions options;
  options.threads = 2;
  EXPECT_TRUE(testing::flat_values(*FileReader::open(source, options)) == *local_);
  EXPECT_EQ(source->stats().retries, 1);
}

TEST_F(FaultTest, ObjectReplacedMidReadFailsClearly) {
  // Without read-ahead, row group 1 is fetched only when asked for, after
  // the object was replaced (with read-ahead it would already be here, read
  // from the version opened, which is right too).
  auto source = std::make_shared<RemoteSource>(url(), quick());
  ReaderOptions options;
  options.read_ahead_budget = 0;
  auto reader = FileReader::open(source, options);
  const RecordBatch first = reader->read_row_group(0);
  EXPECT_EQ(first.num_rows, testing::kTaxiGroupRows);
  proxy_->set("replaced=1");
  try {
    reader->read_row_group(1);
    FAIL() << "read bytes of a replaced object";
  } catch (const Error& e) {
    const std::string text = e.what();
    EXPECT_EQ(e.code(), ErrorCode::kIo);
    EXPECT_NE(text.find("HTTP 412"), std::string::npos) << text;
    EXPECT_NE(text.find("changed since it was opened"), std::string::npos) << text;
    EXPECT_NE(text.find(url()), std::string::npos) << text;
    EXPECT_NE(text.find("(bytes="), std::string::npos) << text;
    EXPECT_NE(text.find("[1 try]"), std::string::npos) << text;
  }
}

TEST_F(FaultTest, ObjectReplacedBeforeAReadAheadScanFailsClearly) {
  // The failure reaches the caller from the read-ahead thread too.
  auto source = std::make_shared<RemoteSource>(url(), quick());
  ReaderOptions options;
  options.threads = 2;
  auto reader = FileReader::open(source, options);
  proxy_->set("replaced=1");
  try {
    testing::flat_values(*reader);
    FAIL() << "scanned a replaced object";
  } catch (const Error& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("changed since it was opened"), std::string::npos) << text;
    EXPECT_NE(text.find(url()), std::string::npos) << text;
    EXPECT_NE(text.find("[1 try]"), std::string::npos) << text;
  }
}

TEST_F(FaultTest, LatencyJitterAndBandwidthCapKeepResultsExact) {
  proxy_->set("latency_ms=20&jitter_ms=20&bandwidth=20000000");
  const RemoteStats stats = scan_equal(quick(), 1);
  EXPECT_EQ(stats.retries, 0);
}

TEST_F(FaultTest, MixedFaultsOnEveryKindAtOnce) {
  // Five faults, one of each kind, on the scan's ranged GETs (set after the
  // open). Whichever requests they hit, each costs exactly one retry; six
  // tries cover the worst case of all five landing on one request.
  RemoteOptions options = quick();
  options.max_tries = 6;
  auto source = std::make_shared<RemoteSource>(url(), options);
  proxy_->set("status503=1&reset=1&reset_after=500&truncate=1&long=1&wrong_range=1&latency_ms=5");
  ReaderOptions reader_options;
  reader_options.threads = 2;
  EXPECT_TRUE(testing::flat_values(*FileReader::open(source, reader_options)) == *local_);
  EXPECT_EQ(proxy_->stat("faults"), 5);
  EXPECT_EQ(source->stats().retries, 5);
}

// A cancelled read gives up while the server still sits on the request
// (3 s of latency here), with a clear error, instead of waiting it out.
TEST_F(FaultTest, CancelledReadGivesUpAtOnce) {
  auto source = std::make_shared<RemoteSource>(url(), quick());
  proxy_->set("latency_ms=3000");
  Buffer scratch;
  RandomAccessSource::RangeRead read{0, 4096, &scratch, {}};
  std::atomic<bool> cancel{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel = true;
  });
  const auto start = std::chrono::steady_clock::now();
  try {
    source->read_many(std::span<RandomAccessSource::RangeRead>(&read, 1), cancel);
    ADD_FAILURE() << "a cancelled read returned";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kIo);
    EXPECT_NE(std::string(e.what()).find("cancelled"), std::string::npos) << e.what();
  }
  canceller.join();
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(ms, 1500) << "the read waited for the server";
}

// Closing a reader whose read-ahead has GETs in flight does not wait for
// them: the read-ahead cancels its fetches (3 s of latency per request).
TEST_F(FaultTest, DestroyedReadAheadDoesNotWaitForItsFetches) {
  auto source = std::make_shared<RemoteSource>(url(), quick());
  const int64_t size = source->size();
  proxy_->set("latency_ms=3000");
  std::vector<ReadStep> steps(4);
  for (size_t i = 0; i < steps.size(); ++i) {
    steps[i].merged = {ByteRange{int64_t(i) * (size / 8), size / 8}};
    steps[i].needed = steps[i].bytes = size / 8;
  }
  const auto start = std::chrono::steady_clock::now();
  {
    ReadAhead ahead(source, std::move(steps), int64_t(1) << 30, SIZE_MAX, 4);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the GETs are out
  }
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(ms, 1500) << "closing waited for fetches nobody takes";
  EXPECT_GE(proxy_->stat("gets"), 1);
}

}  // namespace
}  // namespace parquetry
