// Read-ahead with several fetchers (how a remote source overlaps the round
// trips of row groups): steps are fetched concurrently, still handed out in
// order, within the byte budget, and a failed step stops the scan there.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/io/read_ahead.h"

namespace parquetry {
namespace {

using namespace std::chrono_literals;

/// A copying source whose reads can be held until enough of them run
/// together, and which counts how many ran at once.
class GatedSource final : public RandomAccessSource {
 public:
  GatedSource(int64_t size, int gate) : size_(size), gate_(gate) {}

  int64_t size() const override { return size_; }
  const std::string& name() const override { return name_; }
  std::span<const uint8_t> read(int64_t offset, int64_t length, Buffer& scratch) override {
    check_range(offset, length);
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ++active_;
      most_ = std::max(most_, active_);
      changed_.notify_all();
      // Holds the read until `gate` reads run at once (or gives up after a
      // while, which the tests then see as too little concurrency).
      if (!changed_.wait_for(lock, 5s, [&] { return active_ >= gate_ || released_; })) timed_out_ = true;
      released_ = true;  // the gate opens once
      changed_.notify_all();
      if (offset == fail_at_) {
        --active_;
        throw Error(ErrorCode::kIo, "read refused at " + std::to_string(offset));
      }
    }
    std::this_thread::sleep_for(2ms);  // long enough for reads to overlap
    scratch.resize(size_t(length));
    for (int64_t i = 0; i < length; ++i) scratch.data()[i] = uint8_t((offset + i) * 13 + 1);
    std::lock_guard<std::mutex> lock(mutex_);
    --active_;
    return scratch.span();
  }

  void fail_at(int64_t offset) { fail_at_ = offset; }
  int most_at_once() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return most_;
  }
  bool timed_out() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return timed_out_;
  }

 private:
  const int64_t size_;
  const int gate_;
  const std::string name_ = "gated";
  int64_t fail_at_ = -1;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  int active_ = 0;
  int most_ = 0;
  bool released_ = false;
  bool timed_out_ = false;
};

std::vector<ReadStep> steps_of(int count, int64_t size) {
  std::vector<ReadStep> steps(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    steps[size_t(i)].merged = {ByteRange{int64_t(i) * size, size}};
    steps[size_t(i)].needed = size;
    steps[size_t(i)].bytes = size;
  }
  return steps;
}

uint8_t expected_byte(int64_t offset) { return uint8_t(offset * 13 + 1); }

// Four fetchers have four steps in flight at once (the source's gate only
// opens when four reads wait together), and the steps still come out in
// order with their own bytes.
TEST(ReadAheadFetchers, StepsAreFetchedTogetherAndTakenInOrder) {
  auto source = std::make_shared<GatedSource>(12000, 4);
  ReadAhead ahead(source, steps_of(12, 1000), int64_t(1) << 30, SIZE_MAX, 4);
  for (int i = 0; i < 12; ++i) {
    std::unique_ptr<FetchedRanges> step = ahead.take();
    ASSERT_TRUE(step);
    const int64_t at = int64_t(i) * 1000 + 999;
    EXPECT_EQ(step->view(at, 1)[0], expected_byte(at)) << "step " << i;
    EXPECT_FALSE(step->holds(int64_t(i + 1) * 1000)) << "step " << i << " holds the next step's bytes";
    ahead.give_back(std::move(step));
  }
  EXPECT_FALSE(source->timed_out()) << "four reads never ran at once";
  EXPECT_EQ(source->most_at_once(), 4);
  EXPECT_EQ(ahead.peak_in_flight(), 4u);
  EXPECT_EQ(ahead.taken(), 12u);
}

// The byte budget bounds concurrent fetches too: a budget of two steps never
// has a third in flight or held, however many fetchers wait.
TEST(ReadAheadFetchers, BudgetBoundsStepsInFlight) {
  auto source = std::make_shared<GatedSource>(8000, 1);
  ReadAhead ahead(source, steps_of(8, 1000), 2000, SIZE_MAX, 6);
  for (int i = 0; i < 8; ++i) {
    std::unique_ptr<FetchedRanges> step = ahead.take();
    EXPECT_EQ(step->view(int64_t(i) * 1000, 1)[0], expected_byte(int64_t(i) * 1000));
    ahead.give_back(std::move(step));
  }
  EXPECT_LE(ahead.peak_bytes(), 2000);
  EXPECT_LE(ahead.peak_in_flight(), 2u);
  EXPECT_LE(source->most_at_once(), 2);
}

// A step whose read fails is reported when the scan reaches it; the steps
// before it arrive intact, and no step after it is handed out.
TEST(ReadAheadFetchers, FailedStepIsReportedInOrder) {
  auto source = std::make_shared<GatedSource>(10000, 1);
  source->fail_at(3000);
  ReadAhead ahead(source, steps_of(10, 1000), int64_t(1) << 30, SIZE_MAX, 3);
  for (int i = 0; i < 3; ++i) {
    std::unique_ptr<FetchedRanges> step = ahead.take();
    EXPECT_EQ(step->view(int64_t(i) * 1000 + 5, 1)[0], expected_byte(int64_t(i) * 1000 + 5));
    ahead.give_back(std::move(step));
  }
  try {
    ahead.take();
    FAIL() << "the failed step was handed out";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kIo);
    EXPECT_NE(std::string(e.what()).find("read refused at 3000"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ahead.take(), Error);
}

// Destroying a read-ahead while fetchers wait for budget returns promptly.
TEST(ReadAheadFetchers, StopsWithStepsLeft) {
  auto source = std::make_shared<GatedSource>(10000, 1);
  {
    ReadAhead ahead(source, steps_of(10, 1000), 1000, SIZE_MAX, 4);
    std::unique_ptr<FetchedRanges> step = ahead.take();
    EXPECT_EQ(step->view(0, 1)[0], expected_byte(0));
  }
  EXPECT_LE(source->most_at_once(), 1);
}

}  // namespace
}  // namespace parquetry
