// The large-block cache behind LargeBlockAllocator (include/parquetry/large_block.h).
//
// Each block is an anonymous mapping with a 64-byte header that records the
// mapped size, so a block can be handed to a smaller request and still be
// unmapped (or cached) whole. Freed blocks go to a best-fit cache of at most
// kMaxCachedBlocks entries. Up to large_block_cache_limit() bytes stay there
// for good; beyond that, up to the burst limit, a block stays only for the
// burst decay after it was freed and is unmapped by the first allocation or
// free that comes later (the way jemalloc decays dirty pages, without a
// background thread). Under AddressSanitizer cached blocks are poisoned so a
// use after free still reports.
#include "parquetry/large_block.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <mutex>

// GCC announces AddressSanitizer with __SANITIZE_ADDRESS__, clang (the fuzz
// build) through __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PARQUETRY_LARGE_BLOCK_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(PARQUETRY_LARGE_BLOCK_ASAN)
#include <sanitizer/asan_interface.h>
#define PARQUETRY_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define PARQUETRY_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define PARQUETRY_POISON(p, n) ((void)(p), (void)(n))
#define PARQUETRY_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace parquetry {
namespace {

constexpr size_t kHeader = 64;  // keeps the caller's bytes 64-byte aligned
constexpr size_t kPage = 4096;
constexpr size_t kMaxCachedBlocks = 64;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

using Clock = std::chrono::steady_clock;

struct Cached {
  char* base = nullptr;
  size_t mapped = 0;
  Clock::time_point freed_at{};
};

// A quarter of the machine's memory, at most 4 GiB: enough to hold the
// decoded footer of 100,000 columns x 20 row groups (~1 GB) between two
// decodes, small enough not to matter when it is idle for a decay.
size_t default_burst_limit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  const size_t four_gib = size_t{4} << 30;
  if (pages <= 0 || page_size <= 0) return size_t{1} << 30;
  return std::min(four_gib, static_cast<size_t>(pages) / 4 * static_cast<size_t>(page_size));
}

// Never destroyed: containers with static storage may free blocks during exit.
struct Cache {
  std::mutex mutex;
  std::array<Cached, kMaxCachedBlocks> blocks{};
  size_t count = 0;
  size_t bytes = 0;
  size_t limit = size_t{256} << 20;
  size_t burst_limit = default_burst_limit();
  Clock::duration burst_decay = std::chrono::seconds(10);
  uint64_t mapped = 0;
  uint64_t reused = 0;
  uint64_t requests = 0;
  uint64_t requested_bytes = 0;
  uint64_t frees = 0;
};

Cache& cache() {
  static Cache* instance = new Cache;
  return *instance;
}

size_t mapped_size_of(const char* base) {
  size_t mapped;
  std::memcpy(&mapped, base, sizeof mapped);
  return mapped;
}

char* map_block(size_t mapped) {
  // No MADV_HUGEPAGE: with the kernel's usual "defrag on madvise" setting a
  // huge-page fault may compact memory synchronously, which made a first
  // decode of a 100 MB footer take seconds instead of milliseconds.
  void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return static_cast<char*>(p);
}

void unmap_block(char* base, size_t mapped) {
  PARQUETRY_UNPOISON(base, mapped);
  munmap(base, mapped);
}

/// Unmaps cached blocks until the cache fits `limit`; called with the lock held.
void shrink_locked(Cache& c, size_t limit) {
  while (c.bytes > limit && c.count != 0) {
    Cached victim = c.blocks[--c.count];
    c.bytes -= victim.mapped;
    unmap_block(victim.base, victim.mapped);
  }
}

/// The most bytes the cache may hold now: a lasting limit of 0 turns it off,
/// bursts included.
size_t capacity_locked(const Cache& c) { return c.limit == 0 ? 0 : std::max(c.limit, c.burst_limit); }

/// While the cache holds more than its lasting limit, unmaps the blocks that
/// were freed longer than the burst decay ago, oldest first; called with the
/// lock held.
void decay_locked(Cache& c, Clock::time_point now) {
  while (c.bytes > c.limit) {
    size_t oldest = kMaxCachedBlocks;
    for (size_t i = 0; i < c.count; ++i) {
      if (now - c.blocks[i].freed_at < c.burst_decay) continue;
      if (oldest == kMaxCachedBlocks || c.blocks[i].freed_at < c.blocks[oldest].freed_at) oldest = i;
    }
    if (oldest == kMaxCachedBlocks) return;
    const Cached victim = c.blocks[oldest];
    c.blocks[oldest] = c.blocks[--c.count];
    c.bytes -= victim.mapped;
    unmap_block(victim.base, victim.mapped);
  }
}

}  // namespace

void set_large_block_cache_limit(size_t bytes) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.limit = bytes;
  shrink_locked(c, capacity_locked(c));
  decay_locked(c, Clock::now());
}

void set_large_block_burst(size_t bytes, std::chrono::milliseconds decay) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.burst_limit = bytes;
  c.burst_decay = decay;
  shrink_locked(c, capacity_locked(c));
  decay_locked(c, Clock::now());
}

size_t large_block_burst_limit() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.burst_limit;
}

size_t large_block_cache_limit() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.limit;
}

LargeBlockStats large_block_stats() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return LargeBlockStats{c.bytes, c.count, c.mapped, c.reused, c.requests, c.requested_bytes, c.frees};
}

namespace detail {

void* large_block_allocate(size_t bytes) {
  if (bytes > SIZE_MAX / 4) throw std::bad_alloc();
  const size_t mapped = round_up(bytes + kHeader, kPage);
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    ++c.requests;
    c.requested_bytes += bytes;
    decay_locked(c, Clock::now());
    // Best fit among blocks that are large enough but not more than twice
    // the request, so a small request does not pin a huge block.
    size_t best = kMaxCachedBlocks;
    for (size_t i = 0; i < c.count; ++i) {
      const size_t size = c.blocks[i].mapped;
      if (size >= mapped && size <= 2 * mapped &&
          (best == kMaxCachedBlocks || size < c.blocks[best].mapped)) {
        best = i;
      }
    }
    if (best != kMaxCachedBlocks) {
      Cached hit = c.blocks[best];
      c.blocks[best] = c.blocks[--c.count];
      c.bytes -= hit.mapped;
      ++c.reused;
      PARQUETRY_UNPOISON(hit.base + kHeader, hit.mapped - kHeader);
      return hit.base + kHeader;
    }
    ++c.mapped;
  }
  char* base = map_block(mapped);
  std::memcpy(base, &mapped, sizeof mapped);
  return base + kHeader;
}

void* large_block_reallocate(void* block, size_t new_bytes) {
  if (block == nullptr) return large_block_allocate(new_bytes);
  if (new_bytes > SIZE_MAX / 4) throw std::bad_alloc();
  char* base = static_cast<char*>(block) - kHeader;
  const size_t mapped = mapped_size_of(base);
  const size_t wanted = round_up(new_bytes + kHeader, kPage);
  if (wanted <= mapped) return block;
  // mremap moves the page table entries: the bytes already written are
  // neither copied nor faulted in again, and the old range is gone at once
  // (a copy into a fresh block would touch every page twice).
  void* moved = mremap(base, mapped, wanted, MREMAP_MAYMOVE);
  if (moved == MAP_FAILED) throw std::bad_alloc();
  char* fresh = static_cast<char*>(moved);
  PARQUETRY_UNPOISON(fresh, wanted);
  std::memcpy(fresh, &wanted, sizeof wanted);
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    ++c.requests;
    c.requested_bytes += new_bytes;
  }
  return fresh + kHeader;
}

void large_block_free(void* block, size_t bytes) noexcept {
  (void)bytes;  // the header knows the mapped size (the block may be a larger cached one)
  if (block == nullptr) return;
  char* base = static_cast<char*>(block) - kHeader;
  const size_t mapped = mapped_size_of(base);
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    ++c.frees;
    const Clock::time_point now = Clock::now();
    decay_locked(c, now);
    if (c.count < kMaxCachedBlocks && c.bytes + mapped <= capacity_locked(c)) {
      c.blocks[c.count++] = Cached{base, mapped, now};
      c.bytes += mapped;
      PARQUETRY_POISON(base + kHeader, mapped - kHeader);
      return;
    }
  }
  unmap_block(base, mapped);
}

}  // namespace detail
}  // namespace parquetry
