// Read-ahead under a memory budget: background threads fetch the byte
// ranges of the next read steps (the row groups a scan will decode next)
// while the caller decodes the current one, and stop fetching while the
// bytes fetched but not yet handed back would exceed the budget.
//
// Steps start fetching in order and are handed out strictly in order, so a
// scan that decodes them in order returns batches in file order. A local
// source has one fetcher: a read costs a system call, and one step after
// another keeps up with decoding. A remote source has several (its
// concurrent_reads()): a request waits a round trip before its first byte,
// so fetching one step at a time would add a round trip per row group,
// while several steps in flight cost about one round trip for all of them.
// A step larger than the whole budget is fetched only once every earlier
// step has been handed back: it is read alone instead of waiting forever
// for room.
#pragma once

#include <atomic>
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
  /// Starts fetching `steps` in order on `fetchers` background threads
  /// (each fetches one step at a time), holding at most `budget` bytes
  /// fetched and not yet handed back (see above), and at most
  /// `max_steps_held` steps (taken or not, until handed back); a
  /// handed-back step's buffers are refilled by a later step, so a small
  /// cap keeps fresh memory from being faulted in for every step.
  ReadAhead(std::shared_ptr<RandomAccessSource> source, std::vector<ReadStep> steps, int64_t budget,
            size_t max_steps_held = SIZE_MAX, size_t fetchers = 1);
  /// Stops the threads; reads in flight are cancelled (a remote source drops
  /// its transfers within ~20 ms, a local read completes).
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
  /// Most steps being fetched at the same time.
  size_t peak_in_flight() const;

 private:
  void run();
  /// Claims the next step once the budget has room; false when there is
  /// none left to fetch (or a step failed, or the reader is stopping).
  bool claim(size_t& index, std::unique_ptr<FetchedRanges>& bytes);

  std::shared_ptr<RandomAccessSource> source_;
  std::vector<ReadStep> steps_;
  const int64_t budget_;
  const size_t max_steps_held_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::unique_ptr<FetchedRanges>> ready_;  // per step, until taken
  std::vector<std::exception_ptr> errors_;             // per step
  std::vector<char> done_;                             // per step: fetch finished (or failed)
  size_t claimed_ = 0;                                 // steps a fetcher has started
  size_t in_flight_ = 0;
  size_t peak_in_flight_ = 0;
  bool failed_ = false;        // a step failed: nothing after it is started
  bool handed_error_ = false;  // take() has thrown a step's error
  size_t running_ = 0;         // fetcher threads not yet finished
  size_t taken_ = 0;
  size_t given_back_ = 0;
  std::vector<std::unique_ptr<FetchedRanges>> spare_;  // handed back, for reuse
  int64_t held_ = 0;
  int64_t peak_ = 0;
  bool stop_ = false;
  std::atomic<bool> cancel_{false};   // set on destruction: fetches in flight give up
  std::vector<std::thread> threads_;  // last: start once everything above exists
};

}  // namespace parquetry
