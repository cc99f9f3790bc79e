// Helpers of the variant_parquet tests: the parquet-testing shredded_variant
// cases (cases.json, expected .variant.bin files) and value-for-value
// comparison of variants.
#pragma once

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "parquetry/variant.h"
#include "parquetry/variant_json.h"
#include "parquetry/variant_parquet.h"
#include "test_support.h"

namespace parquetry::variant_testing {

inline std::filesystem::path case_path(const std::string& name) {
  return parquetry::testing::parquet_testing("shredded_variant/" + name);
}

struct Case {
  int number = 0;
  std::string parquet_file;
  std::vector<std::optional<std::string>> expected_files;  // nullopt = SQL NULL row
  std::string error;
};

inline std::vector<Case> load_cases() {
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.load(case_path("cases.json").string());
  std::vector<Case> cases;
  for (simdjson::dom::element entry : root.get_array()) {
    Case c;
    c.number = int(int64_t(entry["case_number"]));
    std::string_view file;
    if (entry["parquet_file"].get(file) != simdjson::SUCCESS) continue;  // placeholder without files
    c.parquet_file = std::string(file);
    std::string_view text;
    if (entry["error_message"].get(text) == simdjson::SUCCESS) c.error = std::string(text);
    if (entry["variant_file"].get(text) == simdjson::SUCCESS)
      c.expected_files.emplace_back(std::string(text));
    simdjson::dom::array files;
    if (entry["variant_files"].get(files) == simdjson::SUCCESS) {
      for (simdjson::dom::element f : files) {
        if (f.is_null()) {
          c.expected_files.emplace_back(std::nullopt);
        } else {
          c.expected_files.emplace_back(std::string(std::string_view(f)));
        }
      }
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

// A .variant.bin file: metadata bytes immediately followed by value bytes.
inline OwnedVariant load_expected(const std::string& name) {
  const std::vector<uint8_t> bytes = parquetry::testing::read_bytes(case_path(name));
  const VariantMetadata metadata(bytes);
  OwnedVariant out;
  out.metadata.assign(bytes.begin(), bytes.begin() + std::ptrdiff_t(metadata.encoded_size()));
  out.value.assign(bytes.begin() + std::ptrdiff_t(metadata.encoded_size()), bytes.end());
  return out;
}

// Value-for-value equality: same logical types, same values, same object
// keys; encodings (short vs long strings, widths, child order) may differ.
inline ::testing::AssertionResult same_variant(const Variant& a, const Variant& b, const std::string& where) {
  if (a.type() != b.type()) {
    return ::testing::AssertionFailure()
           << where << ": type " << variant_type_name(a.type()) << " vs " << variant_type_name(b.type());
  }
  auto fail = [&]() {
    return ::testing::AssertionFailure()
           << where << ": " << variant_to_json(a) << " vs " << variant_to_json(b);
  };
  switch (a.type()) {
    case VariantValueType::kNull: return ::testing::AssertionSuccess();
    case VariantValueType::kBoolean:
      return a.get_boolean() == b.get_boolean() ? ::testing::AssertionSuccess() : fail();
    case VariantValueType::kInt8:
    case VariantValueType::kInt16:
    case VariantValueType::kInt32:
    case VariantValueType::kInt64: return a.get_int() == b.get_int() ? ::testing::AssertionSuccess() : fail();
    case VariantValueType::kDouble: {
      const double x = a.get_double(), y = b.get_double();
      return std::memcmp(&x, &y, sizeof x) == 0 ? ::testing::AssertionSuccess() : fail();
    }
    case VariantValueType::kFloat: {
      const float x = a.get_float(), y = b.get_float();
      return std::memcmp(&x, &y, sizeof x) == 0 ? ::testing::AssertionSuccess() : fail();
    }
    case VariantValueType::kDecimal4:
    case VariantValueType::kDecimal8:
    case VariantValueType::kDecimal16:
      return a.get_decimal() == b.get_decimal() ? ::testing::AssertionSuccess() : fail();
    case VariantValueType::kDate:
      return a.get_date() == b.get_date() ? ::testing::AssertionSuccess() : fail();
    case VariantValueType::kTimestampMicros:
    case VariantValueType::kTimestampNtzMicros:
    case VariantValueType::kTimestampNanos:
    case VariantValueType::kTimestampNtzNanos:
    case VariantValueType::kTimeNtzMicros: {
      // All are 8-byte payloads after the header.
      const auto x = a.encoded_bytes(), y = b.encoded_bytes();
      return std::equal(x.begin(), x.end(), y.begin(), y.end()) ? ::testing::AssertionSuccess() : fail();
    }
    case VariantValueType::kString:
      return a.get_string() == b.get_string() ? ::testing::AssertionSuccess() : fail();
    case VariantValueType::kBinary: {
      const auto x = a.get_binary(), y = b.get_binary();
      return std::equal(x.begin(), x.end(), y.begin(), y.end()) ? ::testing::AssertionSuccess() : fail();
    }
    case VariantValueType::kUuid: {
      const auto x = a.get_uuid(), y = b.get_uuid();
      return std::equal(x.begin(), x.end(), y.begin(), y.end()) ? ::testing::AssertionSuccess() : fail();
    }
    case VariantValueType::kObject: {
      const VariantObject x = a.get_object(), y = b.get_object();
      if (x.size() != y.size()) return fail();
      for (uint32_t i = 0; i < x.size(); ++i) {
        if (x.key(i) != y.key(i)) return fail();
        auto r = same_variant(x.value(i), y.value(i), where + "." + std::string(x.key(i)));
        if (!r) return r;
      }
      return ::testing::AssertionSuccess();
    }
    case VariantValueType::kArray: {
      const VariantArray x = a.get_array(), y = b.get_array();
      if (x.size() != y.size()) return fail();
      for (uint32_t i = 0; i < x.size(); ++i) {
        auto r = same_variant(x[i], y[i], where + "[" + std::to_string(i) + "]");
        if (!r) return r;
      }
      return ::testing::AssertionSuccess();
    }
  }
  return fail();
}

}  // namespace parquetry::variant_testing
