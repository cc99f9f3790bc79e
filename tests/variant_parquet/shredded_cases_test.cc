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
#include "variant_cases.h"

namespace parquetry {
namespace {

using namespace variant_testing;

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
