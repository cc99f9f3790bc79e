// Row selection on Arrow-layout arrays: copies the rows of a set of ranges
// into a new, compact array. Used where a reader decodes more rows than the
// caller asked for (whole pages around a page-index selection, rows removed
// by deletes or by a filter).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "parquetry/table.h"

namespace parquetry {

/// Sorted, non-overlapping, non-empty ranges whose union is the rows whose bit is set in
/// `bitmap[0..length)`.
std::vector<RowRange> ranges_from_bitmap(const uint8_t* bitmap, int64_t length);

/// `wanted` (sorted, disjoint rows of a row group) in the coordinates of an
/// array holding just the rows of `have` (sorted, disjoint) back to back;
/// the parts of `wanted` outside `have` are dropped.
std::vector<RowRange> to_local_ranges(std::span<const RowRange> wanted, std::span<const RowRange> have);

/// The rows of `ranges` (sorted, non-overlapping, within [0, array.length)) as a new array.
/// Nested children are copied through their offsets; a dictionary is shared.
std::shared_ptr<ArrayData> select_ranges(const ArrayData& array, std::span<const RowRange> ranges);

/// select_ranges over every column of a batch.
RecordBatch select_ranges(const RecordBatch& batch, std::span<const RowRange> ranges);

}  // namespace parquetry
