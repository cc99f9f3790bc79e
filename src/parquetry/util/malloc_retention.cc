#include "parquetry/malloc_retention.h"

#include <algorithm>
#include <climits>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace parquetry {

bool retain_freed_malloc_memory(size_t bytes) {
#if defined(__GLIBC__)
  // glibc caps the mapping threshold at 32 MiB on 64-bit machines.
  constexpr size_t kMaxMmapThreshold = size_t{32} << 20;
  const int trim = int(std::min<size_t>(bytes, INT_MAX));
  const int mmap_threshold = int(std::min(bytes, kMaxMmapThreshold));
  return mallopt(M_TRIM_THRESHOLD, trim) == 1 && mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1;
#else
  (void)bytes;
  return false;
#endif
}

}  // namespace parquetry
