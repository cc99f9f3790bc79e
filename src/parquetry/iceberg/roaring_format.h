// Validation of CRoaring's 32-bit portable serialization (RoaringFormatSpec),
// done on the raw bytes before CRoaring sees them: CRoaring 0.2.66 only bounds
// its reads and has no roaring_bitmap_internal_validate, so unsorted arrays,
// overlapping runs or wrong cardinalities would otherwise be accepted.
#pragma once

#include <cstddef>
#include <cstdint>

namespace parquetry::iceberg {

struct Portable32Info {
  size_t size = 0;           ///< bytes the bitmap occupies
  uint64_t cardinality = 0;  ///< number of values
  uint32_t max_value = 0;    ///< largest value (when cardinality > 0)
};

/// Validates the 32-bit portable bitmap at data[0, available). `base_offset`
/// is where `data` sits in the enclosing input, for error messages. Throws
/// kCorrupt naming the first violation.
Portable32Info validate_portable32(const uint8_t* data, size_t available, int64_t base_offset);

}  // namespace parquetry::iceberg
