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

/// Reads an array append_key() keys as an int64 (integers of any width but
/// uint64, dates, times, timestamps) as int64 values; `valid` is false for
/// any other type.
struct IntegerValues {
  const uint8_t* data = nullptr;  ///< the value at the array's offset
  TypeId type = TypeId::kNull;
  bool valid = false;
  int64_t at(int64_t row) const {
    switch (type) {
      case TypeId::kInt8: return reinterpret_cast<const int8_t*>(data)[row];
      case TypeId::kInt16: return reinterpret_cast<const int16_t*>(data)[row];
      case TypeId::kUInt8: return reinterpret_cast<const uint8_t*>(data)[row];
      case TypeId::kUInt16: return reinterpret_cast<const uint16_t*>(data)[row];
      case TypeId::kUInt32: return reinterpret_cast<const uint32_t*>(data)[row];
      case TypeId::kInt32:
      case TypeId::kDate32:
      case TypeId::kTime32: return reinterpret_cast<const int32_t*>(data)[row];
      default: return reinterpret_cast<const int64_t*>(data)[row];
    }
  }
};
IntegerValues integer_values(const ArrayData& array);

}  // namespace parquetry::iceberg
