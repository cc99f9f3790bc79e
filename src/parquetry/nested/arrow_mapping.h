// The Arrow type parquetry produces for each Parquet schema node.
//
// Leaves map by physical + logical type (INT96 becomes timestamp[ns], UUID a
// fixed_size_binary(16) with the arrow.uuid extension, decimals decimal128
// or decimal256, ...); LIST groups become list<element>, MAP groups
// map<key, value>, other groups structs, and bare repeated fields lists of
// required elements (the LogicalTypes.md compatibility rules, decided by the
// schema layer).
#pragma once

#include "parquetry/schema.h"
#include "parquetry/table.h"

namespace parquetry {

/// Choices the mapping leaves to the reader.
struct ArrowMappingOptions {
  ArrowTimeUnit int96_unit = ArrowTimeUnit::kNano;  ///< INT96 -> timestamp[int96_unit]
  /// INT96 -> fixed_size_binary(12) "parquet.int96" (the stored bytes) instead.
  bool int96_as_binary = false;
};

/// The Arrow field for a schema node (name, type, nullability, field id).
Field arrow_field_for(const SchemaNode& node, const ArrowMappingOptions& options = {});
/// The Arrow type of a node ignoring its own repetition (a bare repeated
/// node's element type).
DataType arrow_element_type_for(const SchemaNode& node, const ArrowMappingOptions& options = {});

}  // namespace parquetry
