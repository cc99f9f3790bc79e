// Human-readable forms of single PLAIN-encoded values (statistics min/max,
// column index bounds) interpreted through a column's physical and logical
// type: integers signed or unsigned as annotated, decimals with their scale,
// dates and timestamps in ISO 8601, strings as text, other bytes as hex.
// Used by the CLI (`meta`, `stats`) and by error messages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "parquetry/schema.h"

namespace parquetry {

/// A decoded value, in the form that suits JSON: a number when the value is
/// one, else text.
struct DisplayValue {
  enum class Kind : uint8_t {
    kBool,
    kInt,     ///< int_value
    kUInt,    ///< uint_value
    kDouble,  ///< double_value (may be NaN or infinite)
    kText,    ///< text: strings, decimals, dates, timestamps, hex bytes
    kInvalid  ///< text explains why the bytes do not fit the type
  };
  Kind kind = Kind::kInvalid;
  bool bool_value = false;
  int64_t int_value = 0;
  uint64_t uint_value = 0;
  double double_value = 0;
  std::string text;

  /// The value as one line of text ("42", "2024-01-31", "0x00ff", "NaN").
  std::string to_string() const;
};

/// Decodes one PLAIN-encoded value of `column` (byte arrays without their
/// length prefix, as statistics store them). Never throws on bad bytes: a
/// value whose size does not fit the type comes back as kInvalid.
DisplayValue decode_plain_value(const ColumnDescriptor& column, std::string_view bytes);

/// "0x" followed by two lowercase hex digits per byte.
std::string hex_bytes(std::string_view bytes);

/// Calendar helpers (proleptic Gregorian, UTC), exposed for tests and the
/// row printers: days since 1970-01-01 -> "YYYY-MM-DD"; a count of `unit`s
/// since the epoch -> "YYYY-MM-DDTHH:MM:SS[.fraction]" (+ "Z" when `utc`).
std::string format_date(int64_t days_since_epoch);
std::string format_timestamp(int64_t value, TimeUnit unit, bool utc);
/// A time of day: "HH:MM:SS[.fraction]".
std::string format_time_of_day(int64_t value, TimeUnit unit);
/// An unscaled two's-complement integer (big-endian bytes) as a decimal with
/// `scale` digits after the point ("-12.50").
std::string format_decimal_bytes(std::string_view big_endian, int32_t scale);
std::string format_decimal(int64_t unscaled, int32_t scale);
/// IEEE 754 half precision (little-endian bytes as stored) to double.
double half_to_double(uint16_t bits);

}  // namespace parquetry
