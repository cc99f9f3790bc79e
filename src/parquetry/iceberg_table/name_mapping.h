// The table's default name mapping (`schema.name-mapping.default`,
// format/spec.md "Column Projection"): how files written without field ids
// name their columns.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "parquetry/iceberg_table.h"

namespace parquetry::iceberg {

/// Top-level field id -> the column names it may carry in files without ids.
/// Empty when the table has no mapping. Throws kCorrupt on a malformed one.
std::unordered_map<int32_t, std::vector<std::string>> parse_name_mapping(const TableMetadata& m, const std::string& what);

/// The predicate with literals on float, uuid columns (of `schema`) brought
/// to the column's type, as SQL casts a literal to the column it meets:
/// float literals rounded to float, uuid text to its 16 bytes.
Predicate type_literals(const Predicate& predicate, const IcebergSchema& schema);

}  // namespace parquetry::iceberg
