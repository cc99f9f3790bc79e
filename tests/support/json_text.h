// Values and rows of Arrow-layout data as JSON text, for tests that compare
// what two readers return value for value.
#pragma once

#include <cstdint>
#include <string>

#include "parquetry/table/json_values.h"
#include "parquetry/util/json_writer.h"

namespace parquetry::testing {

/// Row `row` of `array` as JSON ("null" for a null).
inline std::string value_json(const ArrayData& array, int64_t row) {
  JsonWriter writer;
  write_json_value(writer, array, row);
  return writer.take();
}

/// Row `row` of `batch` as one JSON object.
inline std::string row_json(const RecordBatch& batch, int64_t row) {
  JsonWriter writer;
  write_json_row(writer, batch, row);
  return writer.take();
}

}  // namespace parquetry::testing
