// Variant <-> JSON text. The spec leaves the mapping to engines; these are
// parquetry's rules (docs/variant.md repeats them with examples).
//
// Variant -> JSON (variant_to_json):
//   null, true, false            as is
//   int8/16/32/64                decimal integer
//   decimal4/8/16                exact decimal number text: unscaled digits with the point
//                                placed by the scale, trailing zeros kept (1.50 stays 1.50)
//   double, float                shortest text that parses back to the same value (std::to_chars);
//                                NaN, Infinity, -Infinity become the strings "NaN", "Infinity", "-Infinity"
//   string                       JSON string: \" \\ \b \f \n \r \t escaped, other controls as \u00XX,
//                                non-ASCII UTF-8 passed through (invalid UTF-8 is an error)
//   binary                       string, standard base64 with '=' padding
//   date                         "YYYY-MM-DD" (proleptic Gregorian; years outside 0..9999 get a sign)
//   timestamp (UTC)              "YYYY-MM-DDTHH:MM:SS.ffffffZ" (micros) / ".fffffffffZ" (nanos)
//   timestamp without time zone  the same without the Z
//   time                         "HH:MM:SS.ffffff"
//   uuid                         "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lowercase
//   object                       {"key":value,...} in the stored (ascending key) order, no spaces
//   array                        [v,...]
//
// JSON -> Variant (VariantJsonParser, through simdjson):
//   null/true/false, strings     null, booleans, strings (short form under 64 bytes)
//   integer literal              narrowest of int8/16/32/64; beyond int64 with at most 38 digits:
//                                decimal16 with scale 0; longer: double
//   number with '.' or exponent  decimal when exact within 38 digits: the digits as written
//                                (1.50 -> 150 scale 2), the exponent moves the point, a negative
//                                resulting scale is folded into the digits (1.5e3 -> 1500 scale 0),
//                                trailing zeros are dropped only when needed to fit scale <= 38;
//                                width by precision max(digits, scale): <=9 decimal4, <=18 decimal8,
//                                <=38 decimal16. Otherwise double (1e400 -> Infinity).
//   object                       object; duplicate keys: the last one wins (VariantBuilder's rule)
//   array                        array
// Nesting deeper than max_depth throws kLimitExceeded; malformed JSON throws kCorrupt.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "parquetry/export.h"
#include "parquetry/variant.h"
#include "parquetry/variant_builder.h"

namespace parquetry {

/// Appends the JSON text of `value` to `out`.
PARQUETRY_API void variant_to_json(const Variant& value, std::string& out,
                                   int32_t max_depth = kVariantMaxDepth);
/// The JSON text of `value`.
PARQUETRY_API std::string variant_to_json(const Variant& value);

/// Converts JSON documents into variants. Reuse one parser for many
/// documents: it keeps its simdjson state and padded input buffer.
class PARQUETRY_API VariantJsonParser {
 public:
  VariantJsonParser();
  ~VariantJsonParser();
  VariantJsonParser(const VariantJsonParser&) = delete;
  VariantJsonParser& operator=(const VariantJsonParser&) = delete;

  /// Parses one JSON document and appends it to `builder` as one value (the
  /// builder must be ready for a value: empty, in an array, or after field()).
  void parse(std::string_view json, VariantBuilder& builder, int32_t max_depth = kVariantMaxDepth);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace parquetry
