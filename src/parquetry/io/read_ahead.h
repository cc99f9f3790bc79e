// Read-ahead under a memory budget: a background thread fetches the byte
// ranges of the next read steps (the row groups a scan will decode next)
// while the caller decodes the current one, and stops fetching while the
// bytes fetched but not yet handed back would exceed the budget.
//
// Steps are fetched and handed out strictly in order, so a scan that decodes
// them in order returns batches in file order. A step larger than the whole
// budget is fetched only once every earlier step has been handed back: it
// is read alone instead of waiting forever for room.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "parquetry/io/range_reads.h"

namespace parquetry {

class RandomAccessSource;

/// The bytes of one read step.
struct ReadStep {
  std::vector<ByteRange> merged;  ///< coalesce_ranges' output
  int64_t needed = 0;             ///< bytes of the ranges before merging
  int64_t bytes = 0;              ///< bytes of `merged` (what fetching it holds)
  /// Set when planning the step failed: taking it rethrows, and no later
  /// step is fetched.
  std::exception_ptr error;
};

class ReadAhead {
 public:
  /// Starts fetching `steps` in order on a background thread, holding at
  /// most `budget` bytes fetched and not yet handed back (see above), and at
  /// most `max_steps_held` steps (taken or not, until handed back); a
  /// handed-back step's buffers are refilled by a later step, so a small
  /// cap keeps fresh memory from being faulted in for every step.
  ReadAhead(std::shared_ptr<RandomAccessSource> source, std::vector<ReadStep> steps, int64_t budget,
            size_t max_steps_held = SIZE_MAX);
  /// Stops the thread (an unfinished read completes first).
  ~ReadAhead();
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  /// Blocks until the next step is fetched and returns its bytes; rethrows
  /// the error that planning or reading that step raised.
  std::unique_ptr<FetchedRanges> take();
  /// The caller is done with a step's bytes (steps come back in the order
  /// they were taken): they leave the budget and the buffers are reused for
  /// a later step.
  void give_back(std::unique_ptr<FetchedRanges> done);

  /// Steps handed out so far.
  size_t taken() const;
  /// Most bytes held at once (fetched, not yet handed back).
  int64_t peak_bytes() const;

 private:
  void run();
  void fetch_all();

  std::shared_ptr<RandomAccessSource> source_;
  std::vector<ReadStep> steps_;
  const int64_t budget_;
  const size_t max_steps_held_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::unique_ptr<FetchedRanges>> ready_;  // per step, until taken
  std::vector<std::exception_ptr> errors_;             // per step
  size_t fetched_ = 0;                                 // steps whose fetch finished (or failed)
  size_t taken_ = 0;
  size_t given_back_ = 0;
  std::vector<std::unique_ptr<FetchedRanges>> spare_;  // handed back, for reuse
  int64_t held_ = 0;
  int64_t peak_ = 0;
  bool stop_ = false;
  bool finished_ = false;  // the thread has nothing more to fetch
  std::thread thread_;     // last: starts once everything above exists
};

}  // namespace parquetry
