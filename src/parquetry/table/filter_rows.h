// Row filtering by a keep-bitmap: the rows of an Arrow-layout array whose
// bit is set, as a new compact array. The counterpart of select_ranges for
// selections made of many short runs (rows removed by scattered deletes),
// where one copy call per range would cost more than the copy itself: fixed
// width values are compacted with vector compress instructions where the
// build targets them (a branch-free loop otherwise), bitmaps with PEXT, and
// strings run by run.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "parquetry/table.h"
#include "parquetry/util/buffer.h"

namespace parquetry {

/// Output memory that filter_rows may reuse: one slot per buffer it writes,
/// reused once no array holds it any more (a reader that filters row group
/// after row group then writes into memory that is already mapped instead of
/// faulting in fresh pages every time).
struct FilterBuffers {
  std::vector<std::shared_ptr<Buffer>> slots;
};

/// The rows i of `array` (0 <= i < array.length, relative to array.offset)
/// whose bit i (LSB first) is set in `keep`, which must be readable in whole
/// 64-bit words: (array.length + 63) / 64 * 8 bytes. `kept` is the number of
/// set bits in [0, array.length). Nested types are copied through their
/// offsets (select_ranges); a dictionary is shared.
std::shared_ptr<ArrayData> filter_rows(const ArrayData& array, const uint8_t* keep, int64_t kept,
                                       FilterBuffers* reuse = nullptr);

/// filter_rows over every column of a batch; `reuse`, when given, holds
/// one FilterBuffers per column (resized as needed).
RecordBatch filter_rows(const RecordBatch& batch, const uint8_t* keep, int64_t kept,
                        std::vector<FilterBuffers>* reuse = nullptr);

}  // namespace parquetry
