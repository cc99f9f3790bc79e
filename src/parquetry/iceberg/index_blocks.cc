// Memory for the append-only stores of a PositionIndexMap (path bytes and
// entries). An index over a million data files holds well over 100 MB, all
// of it written once; faulting that in 4 KiB pages costs more than building
// the index (about 0.8 ms per MB on the benchmark host), so blocks of 2 MiB
// and more are mapped at 2 MiB alignment and offered to transparent huge
// pages (512 times fewer faults when the kernel grants them; harmless when
// it does not). Smaller blocks come from the heap, where a one-file index
// does not pay for a whole huge page.
#include <sys/mman.h>

#include <cstdint>
#include <new>

#include "parquetry/iceberg.h"

namespace parquetry::iceberg {
namespace {

constexpr size_t kHugePage = size_t(2) << 20;

}  // namespace

void PositionIndexMap::BlockFree::operator()(char* block) const noexcept {
  if (block == nullptr) return;
  if (mapped_length != 0) {
    munmap(block, mapped_length);
  } else {
    delete[] block;
  }
}

PositionIndexMap::Block PositionIndexMap::allocate_block(size_t bytes) {
  if (bytes < kHugePage) return Block(new char[bytes], BlockFree{0});  // not zero-filled
  const size_t length = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  // Over-map by one huge page, then trim the head and tail so that the
  // block starts on a 2 MiB boundary (only aligned ranges become huge pages).
  void* raw = mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePage - 1) & ~uintptr_t(kHugePage - 1);
  if (aligned != start) munmap(raw, aligned - start);
  const size_t tail = (start + length + kHugePage) - (aligned + length);
  if (tail != 0) munmap(reinterpret_cast<void*>(aligned + length), tail);
  char* block = reinterpret_cast<char*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(block, length, MADV_HUGEPAGE);  // a hint: failure only means 4 KiB pages
#endif
  return Block(block, BlockFree{length});
}

}  // namespace parquetry::iceberg
