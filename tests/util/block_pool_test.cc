#include "parquetry/util/block_pool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "parquetry/large_block.h"
#include "parquetry/util/buffer.h"
#include "parquetry/util/process_usage.h"

namespace parquetry {
namespace {

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = uint8_t(i * 31 + seed);
  return out;
}

std::vector<uint8_t> contents(const BlockChain& chain) {
  std::vector<uint8_t> out(chain.size());
  chain.copy_to(out.data());
  return out;
}

TEST(BlockChain, KeepsBytesInOrderAcrossBlockBoundaries) {
  BlockPool pool;
  BlockChain chain(pool);
  std::vector<uint8_t> expected;
  // Pieces that straddle the small first block and several large ones.
  for (size_t piece : {size_t(10), size_t(16 * 1024), size_t(300 * 1024), size_t(1), size_t(700 * 1024)}) {
    const std::vector<uint8_t> bytes = pattern(piece, uint8_t(piece));
    chain.append(bytes.data(), bytes.size());
    expected.insert(expected.end(), bytes.begin(), bytes.end());
  }
  EXPECT_EQ(chain.size(), expected.size());
  EXPECT_EQ(contents(chain), expected);
  // One small block, then large ones: no more than one block of slack.
  EXPECT_EQ(chain.capacity(), BlockPool::kSmallBlockBytes + 4 * BlockPool::kLargeBlockBytes);
  size_t pieces = 0, total = 0;
  chain.for_each_piece([&](std::span<const uint8_t> piece) {
    ++pieces;
    total += piece.size();
  });
  EXPECT_EQ(pieces, 5u);
  EXPECT_EQ(total, expected.size());
}

TEST(BlockChain, ClearedBlocksServeTheNextChunkWithoutNewAllocations) {
  BlockPool pool;
  const std::vector<uint8_t> chunk = pattern(1 << 20, 7);
  {
    // Row group 1: three columns of 1 MiB each.
    std::vector<BlockChain> columns;
    for (int c = 0; c < 3; ++c) columns.emplace_back(pool);
    for (BlockChain& column : columns) column.append(chunk.data(), chunk.size());
    const uint64_t first = pool.stats().allocated;
    EXPECT_EQ(first, 3u * (1 + 4));  // a small block, then four large ones each
    // Row groups 2..10: every chunk is written, then its blocks go back.
    for (int group = 0; group < 9; ++group) {
      for (BlockChain& column : columns) {
        column.clear();
        column.append(chunk.data(), chunk.size());
        EXPECT_EQ(contents(column), chunk);
      }
    }
    EXPECT_EQ(pool.stats().allocated, first);  // every later chunk reused blocks
    EXPECT_EQ(pool.stats().in_use, first);
  }
  // Destroyed chains hand their blocks back as idle.
  EXPECT_EQ(pool.stats().in_use, 0u);
  EXPECT_EQ(pool.stats().idle_bytes, 3 * (BlockPool::kSmallBlockBytes + 4 * BlockPool::kLargeBlockBytes));
}

TEST(BlockPool, RetainsIdleBlocksOnlyUpToItsLimit) {
  BlockPool pool(BlockPool::kLargeBlockBytes * 2);
  std::vector<uint8_t*> blocks;
  for (int i = 0; i < 5; ++i) blocks.push_back(pool.acquire(true));
  for (uint8_t* block : blocks) pool.release(block, true);
  EXPECT_EQ(pool.stats().idle_bytes, 2 * BlockPool::kLargeBlockBytes);
  pool.set_retained_limit(0);
  EXPECT_EQ(pool.stats().idle_bytes, 0u);
  EXPECT_EQ(pool.stats().in_use, 0u);
}

TEST(LargeBuffer, GrowsWithoutCopyingOrFaultingItsPagesAgain) {
  // A buffer past the large-block size that keeps doubling: its bytes stay
  // and the pages already written are not touched again (mremap), so the
  // faults of growing to 64 MiB stay near the 16,384 pages written once.
  Buffer buffer;
  const std::vector<uint8_t> piece = pattern(64 * 1024, 3);
  const ProcessUsage before = current_process_usage();
  for (int i = 0; i < 1024; ++i) buffer.append(piece.data(), piece.size());
  const ProcessUsage after = current_process_usage();
  ASSERT_EQ(buffer.size(), size_t{64} << 20);
  for (size_t at = 0; at < buffer.size(); at += 4093)
    ASSERT_EQ(buffer.data()[at], piece[at % piece.size()]) << at;
  const int64_t pages = int64_t(buffer.size() / 4096);
  // A copy at each doubling would fault about twice the pages. (Sanitizer
  // builds fault their shadow memory too: an eighth more.)
  EXPECT_LT(usage_between(before, after).minor_faults, pages + pages / 4 + 512);
}

TEST(ProcessUsage, CountsTheFaultsOfFreshMemory) {
  const ProcessUsage before = current_process_usage();
  std::vector<uint8_t> fresh(size_t{16} << 20);
  for (size_t at = 0; at < fresh.size(); at += 4096) fresh[at] = 1;
  const ProcessUsage spent = usage_between(before, current_process_usage());
  EXPECT_GE(spent.minor_faults, int64_t(fresh.size() / 4096) - 16);
  EXPECT_GE(spent.peak_rss_bytes, int64_t(fresh.size()));
  EXPECT_GE(spent.user_seconds + spent.kernel_seconds, 0.0);
}

}  // namespace
}  // namespace parquetry
