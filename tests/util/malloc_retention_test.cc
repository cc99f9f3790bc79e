// retain_freed_malloc_memory: glibc takes the setting (AddressSanitizer's
// allocator, which replaces glibc's, refuses it), and memory freed at the top
// of the heap then stays mapped: allocating it again faults no page in.
#include "parquetry/malloc_retention.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PARQUETRY_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PARQUETRY_TEST_ASAN 1
#endif

namespace parquetry {
namespace {

[[maybe_unused]] long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

TEST(MallocRetention, FreedHeapMemoryIsNotFaultedInAgain) {
#if defined(__GLIBC__) && !defined(PARQUETRY_TEST_ASAN)
  ASSERT_TRUE(retain_freed_malloc_memory(size_t{64} << 20));
  // 200 blocks of 40 KiB (8 MB, below the mapping threshold): freed, then
  // allocated and written again. Kept at the heap's top, the second round
  // finds its pages mapped.
  auto round = [] {
    std::vector<char*> blocks;
    for (int i = 0; i < 200; ++i) {
      char* p = static_cast<char*>(std::malloc(40 << 10));
      std::memset(p, i, 40 << 10);
      blocks.push_back(p);
    }
    for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) std::free(*it);
  };
  round();
  const long before = minor_faults();
  round();
  // 8 MB faulted in afresh would be ~2,000 faults.
  EXPECT_LT(minor_faults() - before, 200);
#else
  EXPECT_FALSE(retain_freed_malloc_memory(size_t{64} << 20));
#endif
}

}  // namespace
}  // namespace parquetry
