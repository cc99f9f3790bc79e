// Buffers of decoded batches, reused batch after batch.
//
// A streaming read decodes each column into batch-sized buffers. Handing
// those buffers to the consumer (zero-copy arrays share them) and allocating
// fresh ones for the next batch would fault in new memory on every batch; a
// pool keeps every buffer it handed out and gives one back out only once the
// pool holds the last reference, i.e. once the consumer dropped every array
// that shared it. A batch the consumer keeps is therefore never overwritten.
//
// Buffers are kept per slot (a leaf column's levels, validity, values or
// offsets), so a reused buffer already has the capacity its slot needs and
// growing it again is rare.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "parquetry/util/buffer.h"

namespace parquetry {

class BufferPool {
 public:
  /// `max_per_slot`: buffers tracked per slot; past that (a consumer keeping
  /// many batches) new buffers are handed out untracked and freed with the
  /// consumer's arrays.
  explicit BufferPool(size_t max_per_slot = 8) : max_per_slot_(max_per_slot) {}

  /// An empty buffer (size 0, capacity kept) that nobody else holds, taken
  /// from slot `slot` or allocated. Thread-safe.
  std::shared_ptr<Buffer> acquire(size_t slot);

  struct Stats {
    int64_t allocations = 0;  ///< buffers created
    int64_t reuses = 0;       ///< acquisitions served by a released buffer
    int64_t held_bytes = 0;   ///< capacity of the tracked buffers, at the last acquire
  };
  Stats stats() const;

 private:
  mutable std::mutex mutex_;
  size_t max_per_slot_;
  std::vector<std::vector<std::shared_ptr<Buffer>>> slots_;
  Stats stats_;
};

}  // namespace parquetry
