#include "parquetry/io/read_ahead.h"

#include <algorithm>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/io.h"

namespace parquetry {

ReadAhead::ReadAhead(std::shared_ptr<RandomAccessSource> source, std::vector<ReadStep> steps, int64_t budget,
                     size_t max_steps_held, size_t fetchers)
    : source_(std::move(source)),
      steps_(std::move(steps)),
      budget_(budget),
      max_steps_held_(std::max<size_t>(1, max_steps_held)),
      ready_(steps_.size()),
      errors_(steps_.size()),
      done_(steps_.size(), 0) {
  // More fetchers than steps would only wait.
  const size_t count = std::max<size_t>(1, std::min(fetchers, steps_.size()));
  threads_.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++running_;
    }
    try {
      threads_.emplace_back([this] { run(); });
    } catch (...) {
      // A thread that could not start never runs: the others do its share.
      {
        std::lock_guard<std::mutex> lock(mutex_);
        --running_;
      }
      if (threads_.empty()) throw;
      break;
    }
  }
}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  // Reads in flight give up (a remote one drops its transfers): nobody will
  // take their bytes.
  cancel_.store(true, std::memory_order_relaxed);
  changed_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

bool ReadAhead::claim(size_t& index, std::unique_ptr<FetchedRanges>& bytes) {
  std::unique_lock<std::mutex> lock(mutex_);
  // Room in the budget and in the step count, or nothing held at all (a
  // step larger than the budget is then read alone rather than never).
  changed_.wait(lock, [&] {
    if (stop_ || failed_ || claimed_ >= steps_.size()) return true;
    const size_t i = claimed_;
    return held_ == 0 || (held_ + steps_[i].bytes <= budget_ && i - given_back_ < max_steps_held_);
  });
  if (stop_ || failed_ || claimed_ >= steps_.size()) return false;
  index = claimed_++;
  const ReadStep& step = steps_[index];
  if (step.error) {
    errors_[index] = step.error;
    done_[index] = 1;
    failed_ = true;
    changed_.notify_all();
    return false;
  }
  held_ += step.bytes;
  peak_ = std::max(peak_, held_);
  peak_in_flight_ = std::max(peak_in_flight_, ++in_flight_);
  if (!spare_.empty()) {
    bytes = std::move(spare_.back());
    spare_.pop_back();
  }
  return true;
}

void ReadAhead::run() {
  size_t index = 0;
  std::unique_ptr<FetchedRanges> bytes;
  while (claim(index, bytes)) {
    if (!bytes) bytes = std::make_unique<FetchedRanges>();
    std::exception_ptr error;
    try {
      const ReadStep& step = steps_[index];
      bytes->fetch(*source_, step.merged, step.needed, &cancel_);
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    --in_flight_;
    if (error) {
      held_ -= steps_[index].bytes;
      errors_[index] = error;
      failed_ = true;  // steps after a failed one are not started
      bytes.reset();
    } else {
      ready_[index] = std::move(bytes);
    }
    done_[index] = 1;
    changed_.notify_all();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  --running_;
  changed_.notify_all();
}

std::unique_ptr<FetchedRanges> ReadAhead::take() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (taken_ >= steps_.size()) throw_invalid("read-ahead has no step left to take");
  // Steps fetched after a failed one are never handed out.
  if (handed_error_) throw_invalid("read-ahead stopped at a step that failed");
  const size_t i = taken_;
  changed_.wait(lock, [&] { return done_[i] != 0 || running_ == 0; });
  if (done_[i] == 0) throw_invalid("read-ahead stopped before the step was fetched");
  ++taken_;
  if (errors_[i]) {
    handed_error_ = true;
    std::rethrow_exception(errors_[i]);
  }
  return std::move(ready_[i]);
}

void ReadAhead::give_back(std::unique_ptr<FetchedRanges> done) {
  if (!done) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // The step's planned size is what entered the budget; steps come back
    // in the order they were taken.
    if (given_back_ >= taken_) throw_invalid("read-ahead step handed back twice");
    held_ -= steps_[given_back_++].bytes;
    done->clear();
    spare_.push_back(std::move(done));
  }
  changed_.notify_all();
}

size_t ReadAhead::taken() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return taken_;
}

int64_t ReadAhead::peak_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return peak_;
}

size_t ReadAhead::peak_in_flight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return peak_in_flight_;
}

}  // namespace parquetry
