// Semantic comparison of two JSON values, shared by the tests that check
// parquetry's rendering of decoded values against DuckDB's (the conformance
// baseline and the DuckDB cross-check). Header-only so that only the test
// binaries that link simdjson pull it in.
#pragma once

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace parquetry::testing {

/// True when `expected` and `actual` hold the same value: numbers within a
/// relative tolerance (0 = exactly; engines may print floats differently),
/// int/uint/double forms of one number alike, arrays element by element,
/// objects key by key (any order), everything else by its canonical text.
/// On a difference, `why` names the first differing place under `where`.
inline bool json_same(simdjson::dom::element expected, simdjson::dom::element actual, std::string& why,
                      const std::string& where, double relative_tolerance = 1e-6) {
  using simdjson::dom::element;
  using simdjson::dom::element_type;
  auto numeric = [](element e, double& out) {
    if (e.is_int64()) return out = double(int64_t(e)), true;
    if (e.is_uint64()) return out = double(uint64_t(e)), true;
    if (e.is_double()) return out = double(e), true;
    return false;
  };
  double a, b;
  if (numeric(expected, a) && numeric(actual, b)) {
    if (a == b || std::fabs(a - b) <= relative_tolerance * std::max(std::fabs(a), std::fabs(b))) return true;
    why = where + ": expected " + simdjson::to_string(expected) + " got " + simdjson::to_string(actual);
    return false;
  }
  if (expected.type() != actual.type()) {
    why = where + ": expected " + simdjson::to_string(expected) + " got " + simdjson::to_string(actual);
    return false;
  }
  switch (expected.type()) {
    case element_type::ARRAY: {
      auto ea = expected.get_array().value();
      auto aa = actual.get_array().value();
      if (ea.size() != aa.size()) {
        why = where + ": array of " + std::to_string(ea.size()) + " vs " + std::to_string(aa.size()) + ": " +
              simdjson::to_string(expected) + " vs " + simdjson::to_string(actual);
        return false;
      }
      size_t i = 0;
      auto it = aa.begin();
      for (element e : ea) {
        if (!json_same(e, *it, why, where + "[" + std::to_string(i) + "]", relative_tolerance)) return false;
        ++it;
        ++i;
      }
      return true;
    }
    case element_type::OBJECT: {
      auto eo = expected.get_object().value();
      auto ao = actual.get_object().value();
      if (eo.size() != ao.size()) {
        why = where + ": object sizes differ: " + simdjson::to_string(expected) + " vs " +
              simdjson::to_string(actual);
        return false;
      }
      for (auto field : eo) {
        auto other = ao[field.key];
        if (other.error()) {
          why = where + ": missing key " + std::string(field.key);
          return false;
        }
        if (!json_same(field.value, other.value(), why, where + "." + std::string(field.key),
                       relative_tolerance)) {
          return false;
        }
      }
      return true;
    }
    default:
      if (simdjson::to_string(expected) == simdjson::to_string(actual)) return true;
      why = where + ": expected " + simdjson::to_string(expected) + " got " + simdjson::to_string(actual);
      return false;
  }
}

}  // namespace parquetry::testing
