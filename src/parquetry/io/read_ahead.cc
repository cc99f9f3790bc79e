#include "parquetry/io/read_ahead.h"

#include <algorithm>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/io.h"

namespace parquetry {

ReadAhead::ReadAhead(std::shared_ptr<RandomAccessSource> source, std::vector<ReadStep> steps, int64_t budget,
                     size_t max_steps_held)
    : source_(std::move(source)),
      steps_(std::move(steps)),
      budget_(budget),
      max_steps_held_(std::max<size_t>(1, max_steps_held)),
      ready_(steps_.size()),
      errors_(steps_.size()),
      thread_([this] { run(); }) {}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void ReadAhead::run() {
  fetch_all();
  std::lock_guard<std::mutex> lock(mutex_);
  finished_ = true;
  changed_.notify_all();
}

void ReadAhead::fetch_all() {
  for (size_t i = 0; i < steps_.size(); ++i) {
    const ReadStep& step = steps_[i];
    std::unique_ptr<FetchedRanges> bytes;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // Room in the budget and in the step count, or nothing held at all (a
      // step larger than the budget is then read alone rather than never).
      changed_.wait(lock, [&] {
        return stop_ || held_ == 0 || (held_ + step.bytes <= budget_ && i - given_back_ < max_steps_held_);
      });
      if (stop_) return;
      if (step.error) {
        errors_[i] = step.error;
        fetched_ = i + 1;
        changed_.notify_all();
        return;
      }
      held_ += step.bytes;
      peak_ = std::max(peak_, held_);
      if (!spare_.empty()) {
        bytes = std::move(spare_.back());
        spare_.pop_back();
      }
    }
    if (!bytes) bytes = std::make_unique<FetchedRanges>();
    std::exception_ptr error;
    try {
      bytes->fetch(*source_, step.merged, step.needed);
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (error) {
      held_ -= step.bytes;
      errors_[i] = error;
    } else {
      ready_[i] = std::move(bytes);
    }
    fetched_ = i + 1;
    changed_.notify_all();
    if (error) return;
  }
}

std::unique_ptr<FetchedRanges> ReadAhead::take() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (taken_ >= steps_.size()) throw_invalid("read-ahead has no step left to take");
  const size_t i = taken_;
  changed_.wait(lock, [&] { return fetched_ > i || finished_; });
  if (fetched_ <= i) throw_invalid("read-ahead stopped before the step was fetched");
  ++taken_;
  if (errors_[i]) std::rethrow_exception(errors_[i]);
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

}  // namespace parquetry
