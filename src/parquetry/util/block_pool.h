// Fixed-size blocks for byte streams that are filled and emptied again and
// again: a writer's column chunks, row group after row group.
//
// Why: a chunk's pages used to grow in one buffer that doubled, so each
// chunk copied itself at every doubling, held up to twice its size and,
// once the buffer was freed, had its memory faulted in afresh by the next
// writer, one page fault per 4 KiB. A BlockChain instead appends into
// blocks of two fixed sizes taken from a pool and gives them back when it is
// cleared; the next chunk (of any column, in any row group or writer) takes
// the same blocks, already resident. A writer's memory is then its open
// row group's bytes rounded up to blocks, plus what the pool keeps idle.
//
// The first block of a chain is small, so a schema of thousands of narrow
// columns does not reserve a large block per column.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

namespace parquetry {

class BlockPool {
 public:
  static constexpr size_t kSmallBlockBytes = 16 * 1024;
  static constexpr size_t kLargeBlockBytes = 256 * 1024;
  /// Idle blocks kept by default (beyond this, returned blocks are freed).
  static constexpr size_t kDefaultRetainedBytes = size_t{256} << 20;

  explicit BlockPool(size_t retained_bytes = kDefaultRetainedBytes) : retained_limit_(retained_bytes) {}
  ~BlockPool();
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;

  /// The process-wide pool the writers share (never destroyed).
  static BlockPool& shared();

  /// A block of kLargeBlockBytes (large) or kSmallBlockBytes, 64-byte
  /// aligned; an idle one when the pool has it. Throws std::bad_alloc.
  uint8_t* acquire(bool large);
  /// Gives back a block from acquire(large); freed when the pool already
  /// keeps its retained limit of idle blocks.
  void release(uint8_t* block, bool large) noexcept;

  /// Changes how many idle bytes the pool keeps; frees idle blocks beyond it.
  void set_retained_limit(size_t bytes);

  struct Stats {
    uint64_t allocated = 0;  ///< blocks taken from the system so far
    uint64_t reused = 0;     ///< acquire() calls served by an idle block
    size_t idle_bytes = 0;   ///< bytes of idle blocks held now
    size_t in_use = 0;       ///< blocks handed out and not yet released
  };
  Stats stats() const;

 private:
  void trim_locked(size_t limit) noexcept;

  mutable std::mutex mutex_;
  std::vector<uint8_t*> idle_small_;
  std::vector<uint8_t*> idle_large_;
  size_t idle_bytes_ = 0;
  size_t retained_limit_;
  Stats stats_;
};

/// An append-only byte sequence stored in pool blocks. Not thread-safe (one
/// chain per column writer); the pool is.
class BlockChain {
 public:
  explicit BlockChain(BlockPool& pool = BlockPool::shared()) : pool_(&pool) {}
  ~BlockChain() { clear(); }
  BlockChain(const BlockChain&) = delete;
  BlockChain& operator=(const BlockChain&) = delete;
  BlockChain(BlockChain&& other) noexcept;
  BlockChain& operator=(BlockChain&& other) noexcept;

  void append(const void* data, size_t n) {
    if (!blocks_.empty()) {
      Block& last = blocks_.back();
      const size_t room = last.capacity - last.used;
      if (n <= room) {
        if (n != 0) __builtin_memcpy(last.data + last.used, data, n);
        last.used += n;
        size_ += n;
        return;
      }
    }
    append_slow(static_cast<const uint8_t*>(data), n);
  }
  void append(std::span<const uint8_t> bytes) { append(bytes.data(), bytes.size()); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  /// Bytes of the blocks held (size() rounded up to blocks).
  size_t capacity() const;
  /// The filled part of each block, in order.
  template <typename F>
  void for_each_piece(F&& f) const {
    for (const Block& b : blocks_) {
      if (b.used != 0) f(std::span<const uint8_t>(b.data, b.used));
    }
  }
  /// Copies every byte to `out` (size() bytes).
  void copy_to(uint8_t* out) const;
  /// Empties the chain and gives its blocks back to the pool.
  void clear() noexcept;

 private:
  struct Block {
    uint8_t* data;
    size_t capacity;
    size_t used;
  };
  void append_slow(const uint8_t* data, size_t n);

  BlockPool* pool_;
  std::vector<Block> blocks_;
  size_t size_ = 0;
};

}  // namespace parquetry
