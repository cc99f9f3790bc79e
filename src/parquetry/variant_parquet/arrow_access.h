// Helpers shared by the variant_parquet translation units: reading the Arrow
// arrays of a VARIANT group, and the byte-level operations variant_get needs.
// Deliberately free of variant.h and schema.h (see variant_parquet.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parquetry/table.h"
#include "parquetry/variant_parquet.h"

namespace parquetry::variant_parquet {

/// The child of struct `group` named `name`, or nullptr.
const ArrayData* struct_child(const ArrayData& group, std::string_view name);

/// Bytes of row `row` of a binary/string array (kBinary, kString and their
/// large forms). Call only for valid rows.
std::span<const uint8_t> binary_at(const ArrayData& array, int64_t row);

/// Extracts `path[first..]` from the variant (metadata, value) into `out`
/// (metadata copied, value trimmed to the found child). False when a step is
/// missing, crosses a non-object, or the value's type name differs from
/// `type` (when not empty).
bool extract_path(std::span<const uint8_t> metadata, std::span<const uint8_t> value,
                  const std::vector<std::string>& path, size_t first, std::string_view type,
                  OwnedVariant& out);

/// The variant value bytes of row `row` of the primitive typed_value column
/// `typed` of level `node` (the row must be valid), into `out` (cleared
/// first). Decimals keep the level's scale; strings under 64 bytes use the
/// short form, as VariantBuilder does.
void encode_shredded_primitive(const VariantShredNode& node, const ArrayData& typed, int64_t row,
                               std::vector<uint8_t>& out);

/// Whether `variant` has the type named `type` (variant_type_name); true for an empty name.
bool has_type(const OwnedVariant& variant, std::string_view type);

}  // namespace parquetry::variant_parquet
