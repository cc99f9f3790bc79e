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
#include <string_view>

namespace parquetry::testing {

namespace json_compare_detail {

using simdjson::dom::element;
using simdjson::dom::element_type;

inline bool numeric(element e, double& out) {
  if (e.is_int64()) return out = double(int64_t(e)), true;
  if (e.is_uint64()) return out = double(uint64_t(e)), true;
  if (e.is_double()) return out = double(e), true;
  return false;
}

inline std::string mismatch(element expected, element actual) {
  return ": expected " + simdjson::to_string(expected) + " got " + simdjson::to_string(actual);
}

// On a difference fills `path` (built while unwinding, so matching values
// cost no string work) and `detail`, and returns false.
inline bool same(element expected, element actual, double tolerance, std::string& path, std::string& detail) {
  double a, b;
  if (numeric(expected, a) && numeric(actual, b)) {
    if (a == b || std::fabs(a - b) <= tolerance * std::max(std::fabs(a), std::fabs(b))) return true;
    detail = mismatch(expected, actual);
    return false;
  }
  if (expected.type() != actual.type()) {
    detail = mismatch(expected, actual);
    return false;
  }
  switch (expected.type()) {
    case element_type::ARRAY: {
      auto ea = expected.get_array().value();
      auto aa = actual.get_array().value();
      if (ea.size() != aa.size()) {
        detail = ": array of " + std::to_string(ea.size()) + " vs " + std::to_string(aa.size()) + ": " +
                 simdjson::to_string(expected) + " vs " + simdjson::to_string(actual);
        return false;
      }
      size_t i = 0;
      auto it = aa.begin();
      for (element e : ea) {
        if (!same(e, *it, tolerance, path, detail)) {
          path = "[" + std::to_string(i) + "]" + path;
          return false;
        }
        ++it;
        ++i;
      }
      return true;
    }
    case element_type::OBJECT: {
      auto eo = expected.get_object().value();
      auto ao = actual.get_object().value();
      if (eo.size() != ao.size()) {
        detail =
            ": object sizes differ: " + simdjson::to_string(expected) + " vs " + simdjson::to_string(actual);
        return false;
      }
      for (auto field : eo) {
        auto other = ao[field.key];
        if (other.error()) {
          detail = ": missing key " + std::string(field.key);
          return false;
        }
        if (!same(field.value, other.value(), tolerance, path, detail)) {
          path = "." + std::string(field.key) + path;
          return false;
        }
      }
      return true;
    }
    case element_type::STRING:
      if (std::string_view(expected) == std::string_view(actual)) return true;
      detail = mismatch(expected, actual);
      return false;
    case element_type::BOOL:
      if (bool(expected) == bool(actual)) return true;
      detail = mismatch(expected, actual);
      return false;
    case element_type::NULL_VALUE: return true;
    default:
      if (simdjson::to_string(expected) == simdjson::to_string(actual)) return true;
      detail = mismatch(expected, actual);
      return false;
  }
}

}  // namespace json_compare_detail

/// True when `expected` and `actual` hold the same value: numbers within a
/// relative tolerance (0 = exactly; engines may print floats differently),
/// int/uint/double forms of one number alike, arrays element by element,
/// objects key by key (any order), everything else exactly.
/// On a difference, `why` names the first differing place under `where`.
inline bool json_same(simdjson::dom::element expected, simdjson::dom::element actual, std::string& why,
                      const std::string& where, double relative_tolerance = 1e-6) {
  std::string path, detail;
  if (json_compare_detail::same(expected, actual, relative_tolerance, path, detail)) return true;
  why = where + path + detail;
  return false;
}

}  // namespace parquetry::testing
