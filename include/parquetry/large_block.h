// Large blocks that are kept for reuse instead of going back to the kernel.
//
// Why: a wide footer decodes into a few large arrays (one ColumnChunk array
// per row group: 10,000 columns x 20 row groups is ~100 MB). With the C
// library's allocator such blocks are mapped fresh on every decode and
// unmapped when the metadata is freed, so every decode pays a page fault per
// 4 KiB page - on a virtual machine more than the decoding itself. Blocks from
// this allocator are instead kept in a process-wide cache after they are
// freed (bounded by large_block_cache_limit(), and for a few seconds after a
// free by the larger burst limit) and handed to the next request of a similar
// size, the way jemalloc or mimalloc retain memory.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>

#include "parquetry/export.h"

namespace parquetry {

/// Requests of at least this many bytes take the large-block path; smaller
/// ones go to operator new as usual.
inline constexpr size_t kLargeBlockMinBytes = 256 * 1024;

/// The most bytes of freed large blocks kept for reuse for good (default
/// 256 MiB). Lowering it releases cached blocks beyond the new limit once
/// their burst decay is over (at once when no burst is allowed); 0 disables
/// the cache, bursts included.
PARQUETRY_API void set_large_block_cache_limit(size_t bytes);
PARQUETRY_API size_t large_block_cache_limit();

/// Bursts: freed blocks beyond large_block_cache_limit() are kept too, up to
/// `bytes` cached in all, but each only for `decay` after it was freed; the
/// next large allocation or free after that unmaps it. This lets one decode
/// after another of a footer larger than the lasting limit (100,000 columns x
/// 20 row groups is ~1 GB of column chunks) reuse memory instead of faulting
/// it in again. Defaults: a quarter of physical memory but at most 4 GiB, 10
/// seconds. `bytes` at or below the lasting limit turns bursts off.
PARQUETRY_API void set_large_block_burst(size_t bytes, std::chrono::milliseconds decay);
PARQUETRY_API size_t large_block_burst_limit();

/// Counters of the large-block path (for tests and diagnostics).
struct LargeBlockStats {
  size_t cached_bytes = 0;       ///< mapped bytes now held in the cache
  size_t cached_blocks = 0;      ///< blocks now held in the cache
  uint64_t mapped = 0;           ///< blocks mapped from the kernel so far
  uint64_t reused = 0;           ///< requests served from the cache so far
  uint64_t requests = 0;         ///< large_block_allocate() calls so far
  uint64_t requested_bytes = 0;  ///< bytes those calls asked for
  uint64_t frees = 0;            ///< large_block_free() calls so far
};
PARQUETRY_API LargeBlockStats large_block_stats();

namespace detail {
/// At least `bytes` (>= kLargeBlockMinBytes) bytes aligned to 64; throws
/// std::bad_alloc when the kernel refuses.
PARQUETRY_API void* large_block_allocate(size_t bytes);
/// Grows a block from large_block_allocate() (or this function) to at
/// least `new_bytes`, keeping its contents: the mapping is moved, not copied,
/// so its pages are not faulted in again. Returns the block's new address
/// (the old one is invalid then); throws std::bad_alloc when the kernel refuses.
PARQUETRY_API void* large_block_reallocate(void* block, size_t new_bytes);
/// Returns a block from large_block_allocate(bytes) (same `bytes`).
PARQUETRY_API void large_block_free(void* block, size_t bytes) noexcept;
}  // namespace detail

/// A std::allocator replacement for containers that may grow large (the
/// per-row-group ColumnChunk arrays of FileMetaData): requests from
/// kLargeBlockMinBytes on use the cached large blocks above, smaller ones
/// operator new. Stateless: all instances compare equal.
template <typename T>
class LargeBlockAllocator {
  static_assert(alignof(T) <= 64, "large blocks are aligned to 64 bytes");

 public:
  using value_type = T;

  LargeBlockAllocator() = default;
  template <typename U>
  LargeBlockAllocator(const LargeBlockAllocator<U>&) noexcept {}

  T* allocate(size_t n) {
    if (n > std::numeric_limits<size_t>::max() / sizeof(T)) throw std::bad_array_new_length();
    const size_t bytes = n * sizeof(T);
    if (bytes >= kLargeBlockMinBytes) return static_cast<T*>(detail::large_block_allocate(bytes));
    if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
      return static_cast<T*>(::operator new(bytes, std::align_val_t(alignof(T))));
    } else {
      return static_cast<T*>(::operator new(bytes));
    }
  }
  void deallocate(T* p, size_t n) noexcept {
    const size_t bytes = n * sizeof(T);
    if (bytes >= kLargeBlockMinBytes) {
      detail::large_block_free(p, bytes);
    } else if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
      ::operator delete(p, std::align_val_t(alignof(T)));
    } else {
      ::operator delete(p);
    }
  }

  template <typename U>
  friend bool operator==(const LargeBlockAllocator&, const LargeBlockAllocator<U>&) noexcept {
    return true;
  }
};

}  // namespace parquetry
