// Pieces of a VariantShredding's Arrow type shared by shredding_schema.cc and
// shredder.cc.
#pragma once

#include <cstdint>

#include "parquetry/table.h"
#include "parquetry/variant_writer.h"

namespace parquetry::variant_parquet {

/// Decimal precision of a shredded decimal level: 9, 18 or 38 by width.
int32_t decimal_precision(VariantValueType type);
/// The Arrow type of one level's typed_value (the level must not be kNone).
DataType typed_value_type(const VariantShredding& s);
/// struct<value: binary, typed_value?> of a nested level (field group or array element).
DataType level_type(const VariantShredding& s);

}  // namespace parquetry::variant_parquet
