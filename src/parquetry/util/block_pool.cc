#include "parquetry/util/block_pool.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace parquetry {
namespace {

size_t block_bytes(bool large) { return large ? BlockPool::kLargeBlockBytes : BlockPool::kSmallBlockBytes; }

}  // namespace

BlockPool::~BlockPool() {
  std::lock_guard<std::mutex> lock(mutex_);
  trim_locked(0);
}

BlockPool& BlockPool::shared() {
  // Never destroyed: chains with static storage may give blocks back during exit.
  static BlockPool* pool = new BlockPool();
  return *pool;
}

uint8_t* BlockPool::acquire(bool large) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<uint8_t*>& idle = large ? idle_large_ : idle_small_;
    ++stats_.in_use;
    if (!idle.empty()) {
      // The most recently returned block first: its pages are the likeliest to be in cache.
      uint8_t* block = idle.back();
      idle.pop_back();
      idle_bytes_ -= block_bytes(large);
      ++stats_.reused;
      return block;
    }
    ++stats_.allocated;
  }
  void* block = std::aligned_alloc(64, block_bytes(large));
  if (block == nullptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    --stats_.in_use;
    --stats_.allocated;
    throw std::bad_alloc();
  }
  return static_cast<uint8_t*>(block);
}

void BlockPool::release(uint8_t* block, bool large) noexcept {
  if (block == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --stats_.in_use;
    if (idle_bytes_ + block_bytes(large) <= retained_limit_) {
      std::vector<uint8_t*>& idle = large ? idle_large_ : idle_small_;
      try {
        idle.push_back(block);
        idle_bytes_ += block_bytes(large);
        return;
      } catch (...) {
        // No room to remember it: free it below.
      }
    }
  }
  std::free(block);
}

void BlockPool::set_retained_limit(size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  retained_limit_ = bytes;
  trim_locked(bytes);
}

void BlockPool::trim_locked(size_t limit) noexcept {
  // Large blocks go first: they are what a limit is about.
  while (idle_bytes_ > limit && !idle_large_.empty()) {
    std::free(idle_large_.back());
    idle_large_.pop_back();
    idle_bytes_ -= kLargeBlockBytes;
  }
  while (idle_bytes_ > limit && !idle_small_.empty()) {
    std::free(idle_small_.back());
    idle_small_.pop_back();
    idle_bytes_ -= kSmallBlockBytes;
  }
}

BlockPool::Stats BlockPool::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Stats out = stats_;
  out.idle_bytes = idle_bytes_;
  return out;
}

BlockChain::BlockChain(BlockChain&& other) noexcept
    : pool_(other.pool_), blocks_(std::move(other.blocks_)), size_(std::exchange(other.size_, 0)) {
  other.blocks_.clear();
}

BlockChain& BlockChain::operator=(BlockChain&& other) noexcept {
  if (this != &other) {
    clear();
    pool_ = other.pool_;
    blocks_ = std::move(other.blocks_);
    other.blocks_.clear();
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

size_t BlockChain::capacity() const {
  size_t total = 0;
  for (const Block& b : blocks_) total += b.capacity;
  return total;
}

void BlockChain::append_slow(const uint8_t* data, size_t n) {
  while (n != 0) {
    if (blocks_.empty() || blocks_.back().used == blocks_.back().capacity) {
      // The first block is small; the rest are large.
      const bool large = !blocks_.empty();
      blocks_.reserve(blocks_.size() + 1);
      uint8_t* block = pool_->acquire(large);
      blocks_.push_back(Block{block, block_bytes(large), 0});
    }
    Block& last = blocks_.back();
    const size_t take = std::min(n, last.capacity - last.used);
    std::memcpy(last.data + last.used, data, take);
    last.used += take;
    size_ += take;
    data += take;
    n -= take;
  }
}

void BlockChain::copy_to(uint8_t* out) const {
  for_each_piece([&](std::span<const uint8_t> piece) {
    std::memcpy(out, piece.data(), piece.size());
    out += piece.size();
  });
}

void BlockChain::clear() noexcept {
  for (const Block& b : blocks_) pool_->release(b.data, b.capacity == BlockPool::kLargeBlockBytes);
  blocks_.clear();
  size_ = 0;
}

}  // namespace parquetry
