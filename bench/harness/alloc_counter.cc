// Replacement of the global allocation functions. Each form forwards to
// malloc/aligned_alloc and bumps relaxed atomic counters: a few nanoseconds per
// allocation, paid equally by every case, and nothing on paths that do not
// allocate (which is what hot paths should be anyway).
#include "alloc_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

#include "parquetry/large_block.h"

namespace parquetry::bench {
namespace {

std::atomic<int64_t> g_allocations{0};
std::atomic<int64_t> g_bytes{0};
std::atomic<int64_t> g_deallocations{0};
// The large-block allocator (FileMetaData's ColumnChunk arrays) maps memory
// itself; its counters at the last reset, so that its requests count too.
LargeBlockStats g_large_base;

inline void count_allocation(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  g_bytes.fetch_add(static_cast<int64_t>(size), std::memory_order_relaxed);
}

inline void count_free(void* ptr) {
  if (ptr != nullptr) g_deallocations.fetch_add(1, std::memory_order_relaxed);
}

void* allocate_or_null(std::size_t size) {
  count_allocation(size);
  return std::malloc(size == 0 ? 1 : size);
}

void* allocate_aligned_or_null(std::size_t size, std::size_t alignment) {
  count_allocation(size);
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  void* ptr = nullptr;
  if (posix_memalign(&ptr, alignment, size == 0 ? 1 : size) != 0) return nullptr;
  return ptr;
}

void* allocate_or_throw(std::size_t size) {
  for (;;) {
    if (void* ptr = allocate_or_null(size)) return ptr;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* allocate_aligned_or_throw(std::size_t size, std::size_t alignment) {
  for (;;) {
    if (void* ptr = allocate_aligned_or_null(size, alignment)) return ptr;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void release(void* ptr) {
  count_free(ptr);
  std::free(ptr);
}

}  // namespace

void reset_alloc_counters() {
  // First: the first call creates the large-block cache, an allocation of
  // the harness, not of the measured code.
  g_large_base = large_block_stats();
  g_allocations.store(0, std::memory_order_relaxed);
  g_bytes.store(0, std::memory_order_relaxed);
  g_deallocations.store(0, std::memory_order_relaxed);
}

AllocCounts read_alloc_counters() {
  AllocCounts counts;
  counts.allocations = g_allocations.load(std::memory_order_relaxed);
  counts.bytes = g_bytes.load(std::memory_order_relaxed);
  counts.deallocations = g_deallocations.load(std::memory_order_relaxed);
  const LargeBlockStats large = large_block_stats();
  counts.allocations += static_cast<int64_t>(large.requests - g_large_base.requests);
  counts.bytes += static_cast<int64_t>(large.requested_bytes - g_large_base.requested_bytes);
  counts.deallocations += static_cast<int64_t>(large.frees - g_large_base.frees);
  return counts;
}

}  // namespace parquetry::bench

using parquetry::bench::allocate_aligned_or_null;
using parquetry::bench::allocate_aligned_or_throw;
using parquetry::bench::allocate_or_null;
using parquetry::bench::allocate_or_throw;
using parquetry::bench::release;

void* operator new(std::size_t size) { return allocate_or_throw(size); }
void* operator new[](std::size_t size) { return allocate_or_throw(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocate_or_null(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocate_or_null(size); }
void* operator new(std::size_t size, std::align_val_t align) {
  return allocate_aligned_or_throw(size, static_cast<std::size_t>(align));
}
void* operator new[](std::size_t size, std::align_val_t align) {
  return allocate_aligned_or_throw(size, static_cast<std::size_t>(align));
}
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return allocate_aligned_or_null(size, static_cast<std::size_t>(align));
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return allocate_aligned_or_null(size, static_cast<std::size_t>(align));
}

void operator delete(void* ptr) noexcept { release(ptr); }
void operator delete[](void* ptr) noexcept { release(ptr); }
void operator delete(void* ptr, std::size_t) noexcept { release(ptr); }
void operator delete[](void* ptr, std::size_t) noexcept { release(ptr); }
void operator delete(void* ptr, const std::nothrow_t&) noexcept { release(ptr); }
void operator delete[](void* ptr, const std::nothrow_t&) noexcept { release(ptr); }
void operator delete(void* ptr, std::align_val_t) noexcept { release(ptr); }
void operator delete[](void* ptr, std::align_val_t) noexcept { release(ptr); }
void operator delete(void* ptr, std::size_t, std::align_val_t) noexcept { release(ptr); }
void operator delete[](void* ptr, std::size_t, std::align_val_t) noexcept { release(ptr); }
void operator delete(void* ptr, std::align_val_t, const std::nothrow_t&) noexcept { release(ptr); }
void operator delete[](void* ptr, std::align_val_t, const std::nothrow_t&) noexcept { release(ptr); }
