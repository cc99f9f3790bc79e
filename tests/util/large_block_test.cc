#include "parquetry/large_block.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace parquetry {
namespace {

// The cache is process-wide: each test sets its own limits and restores the
// defaults, and compares counter deltas rather than absolute values. Bursts
// are off unless a test turns them on.
class LargeBlockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_limit_ = large_block_cache_limit();
    saved_burst_ = large_block_burst_limit();
    set_large_block_cache_limit(0);  // start from an empty cache
    set_large_block_burst(0, std::chrono::seconds(10));
  }
  void TearDown() override {
    set_large_block_cache_limit(saved_limit_);
    set_large_block_burst(saved_burst_, std::chrono::seconds(10));
  }

  size_t saved_limit_ = 0;
  size_t saved_burst_ = 0;
};

TEST_F(LargeBlockTest, BurstKeepsBlocksBeyondTheLimitUntilTheirDecay) {
  set_large_block_cache_limit(size_t{5} << 20);
  const size_t size = size_t{3} << 20;  // maps 3 MiB + one page
  const size_t mapped = size + 4096;
  set_large_block_burst(4 * mapped, std::chrono::hours(1));
  LargeBlockAllocator<char> alloc;
  std::vector<char*> blocks;
  for (int i = 0; i < 5; ++i) blocks.push_back(alloc.allocate(size));
  for (char* b : blocks) alloc.deallocate(b, size);
  // Four fit the burst limit; the fifth is unmapped at once.
  EXPECT_EQ(large_block_stats().cached_blocks, 4u);
  EXPECT_EQ(large_block_stats().cached_bytes, 4 * mapped);

  // A second round is served from the cache without mapping anything.
  const LargeBlockStats before = large_block_stats();
  for (int i = 0; i < 4; ++i) blocks[static_cast<size_t>(i)] = alloc.allocate(size);
  EXPECT_EQ(large_block_stats().mapped, before.mapped);
  EXPECT_EQ(large_block_stats().reused - before.reused, 4u);
  for (int i = 0; i < 4; ++i) alloc.deallocate(blocks[static_cast<size_t>(i)], size);

  // With a short decay, the next call after it leaves only the lasting limit.
  set_large_block_burst(4 * mapped, std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  char* probe = alloc.allocate(size_t{8} << 20);  // no cached block fits it
  EXPECT_EQ(large_block_stats().cached_blocks, 1u);
  EXPECT_EQ(large_block_stats().cached_bytes, mapped);
  alloc.deallocate(probe, size_t{8} << 20);  // freed now: kept until its own decay
  EXPECT_EQ(large_block_stats().cached_blocks, 2u);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  // Any call applies the decay; the oldest expired block goes first (the
  // 3 MiB one), then the 8 MiB one, which alone is still above the limit.
  set_large_block_cache_limit(size_t{5} << 20);
  EXPECT_EQ(large_block_stats().cached_blocks, 0u);
  EXPECT_EQ(large_block_stats().cached_bytes, 0u);
}

TEST_F(LargeBlockTest, ZeroLimitTurnsBurstsOffToo) {
  set_large_block_burst(size_t{64} << 20, std::chrono::hours(1));
  LargeBlockAllocator<char> alloc;
  char* block = alloc.allocate(size_t{1} << 20);
  alloc.deallocate(block, size_t{1} << 20);
  EXPECT_EQ(large_block_stats().cached_blocks, 0u);
}

TEST_F(LargeBlockTest, SmallRequestsBypassTheLargePath) {
  set_large_block_cache_limit(size_t{64} << 20);
  const LargeBlockStats before = large_block_stats();
  LargeBlockAllocator<uint64_t> alloc;
  uint64_t* p = alloc.allocate(16);
  p[15] = 7;
  alloc.deallocate(p, 16);
  const LargeBlockStats after = large_block_stats();
  EXPECT_EQ(after.requests, before.requests);
  EXPECT_EQ(after.cached_blocks, 0u);
}

TEST_F(LargeBlockTest, FreedBlockIsReusedForASimilarRequest) {
  set_large_block_cache_limit(size_t{64} << 20);
  const LargeBlockStats before = large_block_stats();
  const size_t n = (3 << 20) / sizeof(uint64_t);  // 3 MiB
  LargeBlockAllocator<uint64_t> alloc;
  uint64_t* first = alloc.allocate(n);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 64, 0u);
  for (size_t i = 0; i < n; i += 512) first[i] = i;
  first[n - 1] = 42;
  alloc.deallocate(first, n);
  LargeBlockStats mid = large_block_stats();
  EXPECT_EQ(mid.cached_blocks, 1u);
  EXPECT_EQ(mid.cached_bytes, (size_t{3} << 20) + 4096);  // 3 MiB + header, rounded to pages
  EXPECT_EQ(mid.frees - before.frees, 1u);

  // A slightly smaller request takes the cached block whole...
  uint64_t* second = alloc.allocate(n - 1000);
  EXPECT_EQ(second, first);
  second[n - 1001] = 1;
  LargeBlockStats after = large_block_stats();
  EXPECT_EQ(after.reused - before.reused, 1u);
  EXPECT_EQ(after.mapped - before.mapped, 1u);
  EXPECT_EQ(after.cached_blocks, 0u);
  EXPECT_EQ(after.requests - before.requests, 2u);
  EXPECT_EQ(after.requested_bytes - before.requested_bytes, (2 * n - 1000) * sizeof(uint64_t));
  // ...and frees it whole (the header keeps the mapped size).
  alloc.deallocate(second, n - 1000);
  EXPECT_EQ(large_block_stats().cached_bytes, (size_t{3} << 20) + 4096);
}

TEST_F(LargeBlockTest, MuchSmallerRequestDoesNotPinABigBlock) {
  set_large_block_cache_limit(size_t{64} << 20);
  LargeBlockAllocator<char> alloc;
  char* big = alloc.allocate(size_t{16} << 20);
  alloc.deallocate(big, size_t{16} << 20);
  const LargeBlockStats before = large_block_stats();
  char* small = alloc.allocate(kLargeBlockMinBytes);
  std::memset(small, 1, kLargeBlockMinBytes);
  EXPECT_EQ(large_block_stats().reused, before.reused);
  EXPECT_EQ(large_block_stats().cached_blocks, 1u);
  alloc.deallocate(small, kLargeBlockMinBytes);
  EXPECT_EQ(large_block_stats().cached_blocks, 2u);
}

TEST_F(LargeBlockTest, LimitBoundsWhatIsKept) {
  set_large_block_cache_limit(size_t{5} << 20);
  LargeBlockAllocator<char> alloc;
  const size_t size = size_t{3} << 20;  // maps 3 MiB + one page
  char* a = alloc.allocate(size);
  char* b = alloc.allocate(size);
  alloc.deallocate(a, size);
  alloc.deallocate(b, size);  // would exceed 5 MiB: unmapped
  EXPECT_EQ(large_block_stats().cached_blocks, 1u);
  EXPECT_EQ(large_block_stats().cached_bytes, (size_t{3} << 20) + 4096);
  set_large_block_cache_limit(0);  // lowering releases what is cached
  EXPECT_EQ(large_block_stats().cached_blocks, 0u);
  EXPECT_EQ(large_block_stats().cached_bytes, 0u);
}

TEST_F(LargeBlockTest, VectorKeepsValuesAcrossGrowth) {
  set_large_block_cache_limit(size_t{64} << 20);
  std::vector<int64_t, LargeBlockAllocator<int64_t>> values;
  for (int64_t i = 0; i < 300'000; ++i) values.push_back(i * 3);  // grows through both paths
  int64_t sum = 0;
  for (int64_t v : values) sum += v;
  EXPECT_EQ(sum, 3 * (int64_t{299'999} * 300'000 / 2));
  EXPECT_EQ(values[123'456], 370'368);
}

}  // namespace
}  // namespace parquetry
