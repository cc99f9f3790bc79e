// Rendering array values as JSON: `parquetry cat` output and the
// conformance tests' comparison with the DuckDB baseline.
#pragma once

#include <cstdint>

#include "parquetry/table.h"
#include "parquetry/util/json_writer.h"

namespace parquetry {

struct JsonValueStyle {
  /// int64/uint64 as JSON strings (exact for consumers that parse numbers as doubles).
  bool int64_as_string = false;
  /// Timestamps as "YYYY-MM-DD hh:mm:ss[.ffffff]" (DuckDB's text) instead of ISO-8601 with 'T' and 'Z'.
  bool sql_timestamps = false;
  /// Binary as "\xNN"-escaped text for non-printable bytes (DuckDB's BLOB text) instead of base64.
  bool escaped_binary = false;
};

/// Writes the value at `row` (relative to array.offset) as JSON.
void write_json_value(JsonWriter& out, const ArrayData& array, int64_t row, const JsonValueStyle& style = {});

/// Writes row `row` of a batch as one JSON object keyed by column name.
void write_json_row(JsonWriter& out, const RecordBatch& batch, int64_t row, const JsonValueStyle& style = {});

/// Text of a decimal stored as 16 or 32 little-endian bytes with `scale`.
std::string decimal_to_string(const uint8_t* bytes, int width, int32_t scale);

/// Civil date of days since 1970-01-01 as "YYYY-MM-DD" (proleptic Gregorian).
std::string date_to_string(int64_t days);

}  // namespace parquetry
