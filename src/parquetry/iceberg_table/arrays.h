// Arrays the table scan makes itself: a column a data file lacks (null, an
// identity partition value or an `initial-default`, repeated), and the
// widening of a file's column to the table's type (int -> long, float ->
// double, decimal precision).
#pragma once

#include <memory>

#include "parquetry/iceberg_table.h"
#include "parquetry/iceberg_table/values.h"
#include "parquetry/table.h"

namespace parquetry::iceberg {

/// `rows` copies of `value` (null when value is null) as an array of `type`.
std::shared_ptr<ArrayData> constant_array(const std::shared_ptr<const DataType>& type, const Value& value, int64_t rows);

/// `array` as `target` when the file wrote a narrower type the table
/// promoted; the array itself otherwise.
std::shared_ptr<ArrayData> promote_array(const std::shared_ptr<ArrayData>& array, const IcebergType& target);

/// Appends a canonical byte form of row `row` of `array` to `key` (integers
/// as 8 bytes, floats as doubles, bytes length-prefixed, null as a tag), so
/// equal values of promoted types give equal keys.
void append_key(std::string& key, const ArrayData& array, int64_t row);

}  // namespace parquetry::iceberg
