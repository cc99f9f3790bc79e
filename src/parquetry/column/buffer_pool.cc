#include "parquetry/column/buffer_pool.h"

namespace parquetry {

std::shared_ptr<Buffer> BufferPool::acquire(size_t slot) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (slot >= slots_.size()) slots_.resize(slot + 1);
  std::vector<std::shared_ptr<Buffer>>& kept = slots_[slot];
  // use_count() == 1: only the pool holds it, and only the pool can hand out
  // a new reference, so the count cannot rise again behind this check.
  for (std::shared_ptr<Buffer>& buffer : kept) {
    if (buffer.use_count() == 1) {
      buffer->clear();
      ++stats_.reuses;
      return buffer;
    }
  }
  ++stats_.allocations;
  auto buffer = std::make_shared<Buffer>();
  if (kept.size() < max_per_slot_) {
    kept.push_back(buffer);
  } else {
    // Every tracked buffer is held outside: forget one the consumer keeps
    // (it is freed with the consumer's arrays) and track the new one.
    kept.front() = buffer;
  }
  return buffer;
}

BufferPool::Stats BufferPool::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Stats out = stats_;
  out.held_bytes = 0;
  for (const auto& kept : slots_) {
    for (const auto& buffer : kept) out.held_bytes += int64_t(buffer->capacity());
  }
  return out;
}

}  // namespace parquetry
