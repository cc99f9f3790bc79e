// Counting allocator hook. The benchmark binaries replace the global
// operator new/delete (alloc_counter.cc) with versions that add every
// allocation to process-wide counters, so the harness can report bytes and
// allocations per operation the way JMH's `-prof gc` reports
// gc.alloc.rate.norm. The harness resets the counters right before the
// measured iterations and reads them right after.
#pragma once

#include <cstdint>

namespace parquetry::bench {

/// Totals since the last reset_alloc_counters().
struct AllocCounts {
  int64_t allocations = 0;    ///< calls to operator new (all forms)
  int64_t bytes = 0;          ///< bytes requested from operator new
  int64_t deallocations = 0;  ///< calls to operator delete with a non-null pointer
};

/// Sets every counter to zero.
void reset_alloc_counters();
/// The counters now (relaxed reads; exact once the measured threads are joined).
AllocCounts read_alloc_counters();

}  // namespace parquetry::bench
