// Dremel assembly: definition/repetition levels + dense leaf values ->
// Arrow validity bitmaps, list offsets and spaced leaf values.
//
// Every Arrow array of a nested field has one slot per level entry i with
// rep[i] <= R and def[i] >= D, where R and D are the repetition and
// definition levels of the enclosing list's repeated node (0, 0 at the top).
// A slot is valid when def[i] reaches the node's own definition level; a
// list's child slots are those of its repeated node. This gives one linear
// pass over the levels per nesting level, with no recursion per value.
#pragma once

#include <memory>
#include <span>

#include "parquetry/column/chunk_decoder.h"
#include "parquetry/schema.h"
#include "parquetry/table.h"

namespace parquetry {

/// Builds the Arrow array of a top-level field from the decoded chunks of
/// its leaves. `leaves[c]` is the ChunkValues of column c (only the columns
/// under `node` are read). `type` must be arrow_field_for(node).type.
std::shared_ptr<ArrayData> assemble_field(const SchemaNode& node, std::shared_ptr<const DataType> type,
                                          const Schema& schema, std::span<ChunkValues* const> leaves);

/// Converts a leaf's dense physical values into the Arrow storage of `type`
/// (narrowing INT32 to int8/16, widening to decimal128/256, INT96 to
/// timestamp[ns], big-endian decimals to little-endian). Identity otherwise.
void convert_leaf_values(const ColumnDescriptor& column, const DataType& type, ChunkValues& values);

}  // namespace parquetry
