// Every case of parquet-testing/shredded_variant: positive cases rebuild to
// the expected variants (compared value for value), error cases fail with a
// message naming the problem, and variant_get answers every object path the
// same way whatever plan it picks.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/variant.h"
#include "parquetry/variant_json.h"
#include "parquetry/variant_parquet.h"
#include "test_support.h"

namespace parquetry {
namespace {

std::filesystem::path case_path(const std::string& name) {
  return parquetry::testing::parquet_testing("shredded_variant/" + name);
}

struct Case {
  int number = 0;
  std::string parquet_file;
  std::vector<std::optional<std::string>> expected_files;  // nullopt = SQL NULL row
  std::string error;
};

std::vector<Case> load_cases() {
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
OwnedVariant load_expected(const std::string& name) {
  const std::vector<uint8_t> bytes = parquetry::testing::read_bytes(case_path(name));
  const VariantMetadata metadata(bytes);
  OwnedVariant out;
  out.metadata.assign(bytes.begin(), bytes.begin() + std::ptrdiff_t(metadata.encoded_size()));
  out.value.assign(bytes.begin() + std::ptrdiff_t(metadata.encoded_size()), bytes.end());
  return out;
}

// Value-for-value equality: same logical types, same values, same object
// keys; encodings (short vs long strings, widths, child order) may differ.
::testing::AssertionResult same_variant(const Variant& a, const Variant& b, const std::string& where) {
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

// Every object-key path of `v` (depth-first), plus one missing key per object.
void collect_paths(const Variant& v, const std::string& prefix, std::vector<std::string>& out, int depth) {
  if (!v.is_object() || depth > 3) return;
  for (const auto& field : v.get_object()) {
    const std::string path = prefix.empty() ? std::string(field.key) : prefix + "." + std::string(field.key);
    out.push_back(path);
    collect_paths(field.value, path, out, depth + 1);
  }
  out.push_back(prefix.empty() ? "no_such_key" : prefix + ".no_such_key");
}

TEST(ShreddedVariantCases, EveryCaseRebuildsOrFailsClearly) {
  const std::vector<Case> cases = load_cases();
  ASSERT_EQ(cases.size(), 93u);
  int positive = 0, errors = 0, rows = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE("case " + std::to_string(c.number));
    const std::string file = case_path(c.parquet_file).string();
    if (!c.error.empty()) {
      std::string message;
      try {
        read_variant_column(file, "var");
      } catch (const Error& e) {
        message = e.what();
      }
      ASSERT_FALSE(message.empty()) << "expected the error: " << c.error;
      if (c.number == 40) {
        EXPECT_NE(message.find("conflicting value and typed_value"), std::string::npos) << message;
      }
      if (c.number == 87) {
        EXPECT_NE(message.find("non-object value with shredded fields"), std::string::npos) << message;
      }
      if (c.number == 127) {
        EXPECT_NE(message.find("INTEGER(32,false)"), std::string::npos) << message;
      }
      if (c.number == 137) {
        EXPECT_NE(message.find("fixed_len_byte_array(4)"), std::string::npos) << message;
      }
      EXPECT_NE(message.find("var"), std::string::npos) << "the message names the column: " << message;
      ++errors;
      continue;
    }
    const auto got = read_variant_column(file, "var");
    ASSERT_EQ(got.size(), c.expected_files.size());
    for (size_t row = 0; row < got.size(); ++row) {
      if (!c.expected_files[row]) {
        EXPECT_FALSE(got[row].has_value()) << "row " << row << " is SQL NULL";
        continue;
      }
      ASSERT_TRUE(got[row].has_value()) << "row " << row;
      const OwnedVariant expected = load_expected(*c.expected_files[row]);
      got[row]->view().validate(kVariantMaxDepth, true);
      EXPECT_TRUE(same_variant(got[row]->view(), expected.view(), "row " + std::to_string(row)));
      ++rows;

      // variant_get: every path, whichever plan the file allows, agrees
      // with extracting the path from the expected variant.
      std::vector<std::string> paths;
      collect_paths(expected.view(), "", paths, 0);
      for (const std::string& path : paths) {
        SCOPED_TRACE("path " + path);
        const VariantGetResult result = variant_get(file, "var", path);
        ASSERT_EQ(result.values.size(), got.size());
        const std::optional<Variant> want = variant_find_path(expected.view(), split_variant_path(path));
        ASSERT_EQ(result.values[row].has_value(), want.has_value())
            << variant_get_plan_name(result.plan.plan);
        if (want) {
          EXPECT_TRUE(same_variant(result.values[row]->view(), *want, path));
        }
      }
    }
    ++positive;
  }
  EXPECT_EQ(errors, 4);
  EXPECT_EQ(positive, 89);
  EXPECT_GE(rows, 89);
}

TEST(ShreddedVariantCases, DecodedPrimitivesHaveTheirValues) {
  auto one = [](const std::string& file) {
    auto rows = read_variant_column(case_path(file).string(), "var");
    EXPECT_EQ(rows.size(), 1u);
    return std::move(*rows.at(0));
  };
  EXPECT_TRUE(one("case-004.parquet").view().get_boolean());
  EXPECT_EQ(one("case-006.parquet").view().get_int8(), 34);
  const OwnedVariant uuid = one("case-037.parquet");
  ASSERT_EQ(uuid.view().type(), VariantValueType::kUuid);
  EXPECT_EQ(uuid.to_json().size(), 38u);  // quoted 36-character text form
  const OwnedVariant decimal = one("case-028.parquet");
  ASSERT_EQ(decimal.view().type(), VariantValueType::kDecimal16);
  const OwnedVariant expected = load_expected("case-028_row-0.variant.bin");
  EXPECT_EQ(decimal.view().get_decimal(), expected.view().get_decimal());
  // Array of strings fully shredded into a LIST.
  const OwnedVariant array = one("case-001.parquet");
  EXPECT_EQ(array.to_json(), R"(["comedy","drama"])");
}

TEST(ShreddedVariantCases, ConflictingKeyPolicyKeepsTheShreddedSide) {
  // case 43: the residual repeats a shredded key; typed_value wins and the
  // residual copy is dropped.
  const auto rows = read_variant_column(case_path("case-043-INVALID.parquet").string(), "var");
  ASSERT_EQ(rows.size(), 1u);
  const OwnedVariant expected = load_expected("case-043-INVALID_row-0.variant.bin");
  EXPECT_TRUE(same_variant(rows[0]->view(), expected.view(), "case 43"));
}

TEST(ShreddedVariantCases, SchemaClassification) {
  auto columns = find_variant_columns(case_path("case-047.parquet").string());
  ASSERT_EQ(columns.size(), 1u);
  EXPECT_EQ(columns[0].path, "var");
  EXPECT_TRUE(columns[0].annotated);
  EXPECT_FALSE(columns[0].shredded());

  columns = find_variant_columns(case_path("case-044.parquet").string());
  ASSERT_EQ(columns.size(), 1u);
  ASSERT_TRUE(columns[0].shredded());
  EXPECT_EQ(columns[0].root.kind, VariantShredKind::kObject);

  columns = find_variant_columns(case_path("case-001.parquet").string());
  ASSERT_EQ(columns.size(), 1u);
  EXPECT_EQ(columns[0].root.kind, VariantShredKind::kArray);
  ASSERT_NE(columns[0].root.element, nullptr);
  EXPECT_EQ(columns[0].root.element->kind, VariantShredKind::kPrimitive);
  EXPECT_EQ(columns[0].root.element->primitive_id, uint8_t(VariantPrimitive::kString));
}

}  // namespace
}  // namespace parquetry
