// The table's default name mapping (`schema.name-mapping.default`,
// format/spec.md "Column Projection"): how files written without field ids
// name their columns.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "parquetry/iceberg_table.h"

namespace parquetry::iceberg {

/// Top-level field id -> the column names it may carry in files without ids.
/// nullopt when the table has no mapping; an empty map when the mapping is
/// present but maps nothing (then no column of an id-less file is read).
/// Throws kCorrupt on a malformed one.
std::optional<std::unordered_map<int32_t, std::vector<std::string>>> parse_name_mapping(
    const TableMetadata& m, const std::string& what);

/// The predicate with literals on float, uuid columns (of `schema`) brought
/// to the column's type, as SQL casts a literal to the column it meets:
/// float literals rounded to float, uuid text to its 16 bytes.
Predicate type_literals(const Predicate& predicate, const IcebergSchema& schema);

}  // namespace parquetry::iceberg
