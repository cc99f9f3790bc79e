// The parquet-testing variant/ vectors: every case decoded and its values
// asserted, compared semantically with data_dictionary.json, and rebuilt byte
// for byte with VariantBuilder.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/variant.h"
#include "parquetry/variant_builder.h"
#include "parquetry/variant_json.h"
#include "test_support.h"

namespace parquetry {
namespace {

const std::vector<std::string> kCases = {
    "array_nested",
    "array_primitive",
    "object_empty",
    "object_primitive",
    "primitive_binary",
    "primitive_boolean_true",
    "primitive_date",
    "primitive_decimal16",
    "primitive_decimal4",
    "primitive_int16",
    "primitive_int64",
    "primitive_int8",
    "primitive_null",
    "primitive_string",
    "primitive_time",
    "primitive_timestamp",
    "primitive_timestampntz_nanos",
    "primitive_uuid",
    "short_string",
};

struct Vector {
  std::vector<uint8_t> metadata_bytes;
  std::vector<uint8_t> value_bytes;
  VariantMetadata metadata() const { return VariantMetadata(metadata_bytes); }
  Variant variant() const { return Variant(VariantMetadata(metadata_bytes), value_bytes); }
};

Vector load(const std::string& name) {
  return {testing::read_bytes(testing::parquet_testing("variant/" + name + ".metadata")),
          testing::read_bytes(testing::parquet_testing("variant/" + name + ".value"))};
}

// Days since the epoch of a proleptic Gregorian date (for expected values).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = unsigned(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + int64_t(doe) - 719468;
}

double decimal_to_double(VariantDecimal d) { return double(d.unscaled) / std::pow(10.0, d.scale); }

// Semantic comparison of a decoded variant with a JSON value from the
// dictionary: same structure, same keys, numerically equal numbers, equal
// strings (temporal/binary/uuid values compared through our JSON rendering,
// which uses the same textual forms as the dictionary for these cases).
void expect_matches(const Variant& v, simdjson::dom::element e, const std::string& path) {
  SCOPED_TRACE(path);
  switch (e.type()) {
    case simdjson::dom::element_type::NULL_VALUE: EXPECT_TRUE(v.is_null()); return;
    case simdjson::dom::element_type::BOOL: EXPECT_EQ(v.get_boolean(), bool(e.get_bool())); return;
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64: {
      if (v.type() == VariantValueType::kDecimal4 || v.type() == VariantValueType::kDecimal8 ||
          v.type() == VariantValueType::kDecimal16) {
        EXPECT_EQ(decimal_to_double(v.get_decimal()), double(int64_t(e.get_int64())));
      } else {
        EXPECT_EQ(v.get_int(), int64_t(e.get_int64()));
      }
      return;
    }
    case simdjson::dom::element_type::DOUBLE: {
      const double expected = e.get_double();
      double actual;
      if (v.type() == VariantValueType::kDouble) {
        actual = v.get_double();
      } else {
        actual = decimal_to_double(v.get_decimal());
      }
      EXPECT_NEAR(actual, expected, std::abs(expected) * 1e-15);
      return;
    }
    case simdjson::dom::element_type::STRING: {
      const std::string expected(std::string_view(e.get_string()));
      if (v.type() == VariantValueType::kString) {
        EXPECT_EQ(v.get_string(), expected);
      } else {
        EXPECT_EQ(variant_to_json(v), "\"" + expected + "\"");
      }
      return;
    }
    case simdjson::dom::element_type::ARRAY: {
      simdjson::dom::array a = e.get_array();
      ASSERT_TRUE(v.is_array());
      VariantArray va = v.get_array();
      ASSERT_EQ(va.size(), a.size());
      uint32_t i = 0;
      for (simdjson::dom::element child : a) {
        expect_matches(va[i], child, path + "[" + std::to_string(i) + "]");
        ++i;
      }
      return;
    }
    case simdjson::dom::element_type::OBJECT: {
      simdjson::dom::object o = e.get_object();
      ASSERT_TRUE(v.is_object());
      VariantObject vo = v.get_object();
      ASSERT_EQ(vo.size(), o.size());
      for (auto [key, child] : o) {
        auto field = vo.find(key);
        ASSERT_TRUE(field.has_value()) << "missing key " << key;
        expect_matches(*field, child, path + "." + std::string(key));
      }
      return;
    }
  }
}

TEST(VariantVectorsTest, AllCasesValidateAndMatchDictionary) {
  simdjson::dom::parser parser;
  const auto text = testing::read_bytes(testing::parquet_testing("variant/data_dictionary.json"));
  simdjson::padded_string padded(reinterpret_cast<const char*>(text.data()), text.size());
  simdjson::dom::object dictionary = parser.parse(padded).get_object();
  for (const std::string& name : kCases) {
    SCOPED_TRACE(name);
    const Vector vec = load(name);
    const Variant v = vec.variant();
    v.validate(kVariantMaxDepth, /*exact_size=*/true);
    EXPECT_EQ(v.encoded_size(), vec.value_bytes.size());
    EXPECT_EQ(v.metadata().encoded_size(), vec.metadata_bytes.size());
    if (name == "primitive_time" || name == "primitive_timestamp") continue;  // lossy text, asserted below
    simdjson::dom::element expected = dictionary[name];
    expect_matches(v, expected, name);
  }
}

TEST(VariantVectorsTest, PrimitiveValues) {
  EXPECT_TRUE(load("primitive_null").variant().is_null());
  EXPECT_EQ(load("primitive_null").variant().type(), VariantValueType::kNull);
  EXPECT_TRUE(load("primitive_boolean_true").variant().get_boolean());
  EXPECT_EQ(load("primitive_int8").variant().get_int8(), 42);
  EXPECT_EQ(load("primitive_int16").variant().get_int16(), 1234);
  EXPECT_EQ(load("primitive_int64").variant().get_int64(), 1234567890123456789LL);
  EXPECT_THROW(load("primitive_int64").variant().get_int32(), Error);

  const VariantDecimal d4 = load("primitive_decimal4").variant().get_decimal();
  EXPECT_EQ(d4.unscaled, 1234);
  EXPECT_EQ(d4.scale, 2);
  EXPECT_EQ(load("primitive_decimal4").variant().type(), VariantValueType::kDecimal4);
  const VariantDecimal d16 = load("primitive_decimal16").variant().get_decimal();
  EXPECT_EQ(d16.unscaled, __int128(1234567891234567890LL));
  EXPECT_EQ(d16.scale, 2);
  EXPECT_EQ(load("primitive_decimal16").variant().type(), VariantValueType::kDecimal16);
  EXPECT_EQ(variant_to_json(load("primitive_decimal16").variant()), "12345678912345678.90");

  const int64_t days = days_from_civil(2025, 4, 16);
  EXPECT_EQ(load("primitive_date").variant().get_date(), days);
  // Spark wrote 2025-04-16 12:34:56.78 in a -04:00 zone.
  EXPECT_EQ(load("primitive_timestamp").variant().get_timestamp_micros(),
            (days * 86400 + 16 * 3600 + 34 * 60 + 56) * 1'000'000 + 780'000);
  EXPECT_EQ(variant_to_json(load("primitive_timestamp").variant()), "\"2025-04-16T16:34:56.780000Z\"");
  EXPECT_EQ(load("primitive_timestampntz_nanos").variant().get_timestamp_ntz_nanos(),
            (days_from_civil(2024, 11, 7) * 86400 + 12 * 3600 + 33 * 60 + 54) * 1'000'000'000 + 123'456'789);
  EXPECT_EQ(load("primitive_time").variant().get_time_ntz_micros(),
            (12 * 3600 + 33 * 60 + 54) * 1'000'000LL + 123456);
  EXPECT_EQ(variant_to_json(load("primitive_time").variant()), "\"12:33:54.123456\"");

  const std::vector<uint8_t> binary = {0x03, 0x13, 0x37, 0xde, 0xad, 0xbe, 0xef, 0xca, 0xfe};
  const Vector binary_vec = load("primitive_binary");
  const auto got = binary_vec.variant().get_binary();
  EXPECT_EQ(std::vector<uint8_t>(got.begin(), got.end()), binary);

  const std::vector<uint8_t> uuid = {0xf2, 0x4f, 0x9b, 0x64, 0x81, 0xfa, 0x49, 0xd1,
                                     0xb7, 0x4e, 0x8c, 0x09, 0xa6, 0xe3, 0x1c, 0x56};
  const Vector uuid_vec = load("primitive_uuid");
  const auto u = uuid_vec.variant().get_uuid();
  EXPECT_EQ(std::vector<uint8_t>(u.begin(), u.end()), uuid);

  const Vector long_string = load("primitive_string");
  EXPECT_EQ(long_string.variant().basic_type(), VariantBasicType::kPrimitive);
  EXPECT_EQ(long_string.variant().get_string().size(), 174u);
  EXPECT_TRUE(long_string.variant().get_string().starts_with("This string is longer than 64 bytes"));
  EXPECT_TRUE(long_string.variant().get_string().ends_with("\xF0\x9F\xA4\xA6!!"));
  const Vector short_string = load("short_string");
  EXPECT_EQ(short_string.variant().basic_type(), VariantBasicType::kShortString);
  EXPECT_EQ(short_string.variant().type(), VariantValueType::kString);
  EXPECT_EQ(short_string.variant().get_string(), "Less than 64 bytes (\xE2\x9D\xA4\xEF\xB8\x8F with utf8)");
}

TEST(VariantVectorsTest, ObjectPrimitive) {
  const Vector vec = load("object_primitive");
  const Variant v = vec.variant();
  const VariantObject o = v.get_object();
  ASSERT_EQ(o.size(), 7u);
  const char* expected_keys[] = {"boolean_false_field", "boolean_true_field", "double_field",   "int_field",
                                 "null_field",          "string_field",       "timestamp_field"};
  uint32_t i = 0;
  for (const auto field : o) EXPECT_EQ(field.key, expected_keys[i++]);
  EXPECT_FALSE(v.get_field("boolean_false_field")->get_boolean());
  EXPECT_TRUE(v.get_field("boolean_true_field")->get_boolean());
  EXPECT_EQ(v.get_field("double_field")->get_decimal(), (VariantDecimal{123456789, 8}));
  EXPECT_EQ(v.get_field("int_field")->get_int8(), 1);
  EXPECT_TRUE(v.get_field("null_field")->is_null());
  EXPECT_EQ(v.get_field("string_field")->get_string(), "Apache Parquet");
  EXPECT_EQ(v.get_field("timestamp_field")->get_string(), "2025-04-16T12:34:56.78");
  EXPECT_FALSE(v.get_field("missing").has_value());
  EXPECT_FALSE(v.get_field("").has_value());
  EXPECT_FALSE(v.get_field("zzz").has_value());
  EXPECT_FALSE(v.get_field("int_fielx").has_value());  // same length as a key
  EXPECT_FALSE(v.get_field("int_field_").has_value());
  // The metadata dictionary is unsorted (Spark's insertion order).
  EXPECT_FALSE(vec.metadata().sorted_strings());
  EXPECT_EQ(vec.metadata().key(0), "int_field");
  EXPECT_EQ(vec.metadata().find("null_field"), 5u);
  EXPECT_EQ(vec.metadata().find("nope"), std::nullopt);
}

TEST(VariantVectorsTest, ArraysAndNesting) {
  const Vector prim_vec = load("array_primitive");
  const Variant prim = prim_vec.variant();
  const VariantArray a = prim.get_array();
  ASSERT_EQ(a.size(), 4u);
  std::vector<int64_t> values;
  for (const Variant e : a) values.push_back(e.get_int());
  EXPECT_EQ(values, (std::vector<int64_t>{2, 1, 5, 9}));
  EXPECT_FALSE(prim.get_element(4).has_value());
  EXPECT_THROW(a[4], Error);

  const Vector vec = load("array_nested");
  const Variant nested = vec.variant();
  ASSERT_EQ(nested.get_array().size(), 3u);
  const Variant first = *nested.get_element(0);
  EXPECT_EQ(first.get_field("id")->get_int(), 1);
  const Variant names = *first.get_field("thing")->get_field("names");
  ASSERT_EQ(names.get_array().size(), 2u);
  EXPECT_EQ(names.get_element(0)->get_string(), "Contrarian");
  EXPECT_EQ(names.get_element(1)->get_string(), "Spider");
  EXPECT_TRUE(nested.get_element(1)->is_null());
  const Variant third = *nested.get_element(2);
  EXPECT_EQ(third.get_field("id")->get_int(), 2);
  EXPECT_EQ(third.get_field("type")->get_string(), "if");
  const VariantArray names2 = third.get_field("names")->get_array();
  ASSERT_EQ(names2.size(), 3u);
  EXPECT_EQ(names2[0].get_string(), "Apple");
  EXPECT_EQ(names2[1].get_string(), "Ray");
  EXPECT_TRUE(names2[2].is_null());
  // Child values stored out of key order (type before names): offsets are not monotonic.
  const VariantObject third_object = third.get_object();
  EXPECT_EQ(third_object.key(1), "names");
  EXPECT_EQ(third_object.key(2), "type");

  EXPECT_EQ(
      variant_to_json(nested),
      R"([{"id":1,"thing":{"names":["Contrarian","Spider"]}},null,{"id":2,"names":["Apple","Ray",null],"type":"if"}])");
  const Vector empty = load("object_empty");
  EXPECT_TRUE(empty.variant().get_object().empty());
  EXPECT_EQ(variant_to_json(empty.variant()), "{}");
}

// Rebuilds every vector with the builder and compares bytes.
TEST(VariantVectorsTest, BuilderReproducesVectorsByteForByte) {
  VariantBuilder b;
  auto expect_same = [&](const std::string& name) {
    SCOPED_TRACE(name);
    const Vector vec = load(name);
    ASSERT_TRUE(b.done());
    const auto value = b.value();
    const auto metadata = b.metadata();
    EXPECT_EQ(std::vector<uint8_t>(value.begin(), value.end()), vec.value_bytes);
    EXPECT_EQ(std::vector<uint8_t>(metadata.begin(), metadata.end()), vec.metadata_bytes);
    b.clear();
  };
  b.append_null();
  expect_same("primitive_null");
  b.append_boolean(true);
  expect_same("primitive_boolean_true");
  b.append_int8(42);
  expect_same("primitive_int8");
  b.append_int(1234);
  expect_same("primitive_int16");
  b.append_int(1234567890123456789LL);
  expect_same("primitive_int64");
  b.append_decimal({1234, 2});
  expect_same("primitive_decimal4");
  b.append_decimal({__int128(1234567891234567890LL), 2});
  expect_same("primitive_decimal16");
  b.append_date(int32_t(days_from_civil(2025, 4, 16)));
  expect_same("primitive_date");
  b.append_timestamp_micros((days_from_civil(2025, 4, 16) * 86400 + 16 * 3600 + 34 * 60 + 56) * 1'000'000 +
                            780'000);
  expect_same("primitive_timestamp");
  b.append_timestamp_ntz_nanos(
      (days_from_civil(2024, 11, 7) * 86400 + 12 * 3600 + 33 * 60 + 54) * 1'000'000'000 + 123'456'789);
  expect_same("primitive_timestampntz_nanos");
  b.append_time_ntz_micros((12 * 3600 + 33 * 60 + 54) * 1'000'000LL + 123456);
  expect_same("primitive_time");
  const uint8_t binary[] = {0x03, 0x13, 0x37, 0xde, 0xad, 0xbe, 0xef, 0xca, 0xfe};
  b.append_binary(binary);
  expect_same("primitive_binary");
  const uint8_t uuid[16] = {0xf2, 0x4f, 0x9b, 0x64, 0x81, 0xfa, 0x49, 0xd1,
                            0xb7, 0x4e, 0x8c, 0x09, 0xa6, 0xe3, 0x1c, 0x56};
  b.append_uuid(uuid);
  expect_same("primitive_uuid");
  b.append_string(load("primitive_string").variant().get_string());
  expect_same("primitive_string");
  b.append_string(load("short_string").variant().get_string());
  expect_same("short_string");

  b.start_object();
  b.finish_object();
  expect_same("object_empty");

  b.start_array();
  for (int v : {2, 1, 5, 9}) b.append_int(v);
  b.finish_array();
  expect_same("array_primitive");

  // Fields in Spark's insertion order: the dictionary follows first use, the
  // child bytes stay in that order, only the id/offset tables are sorted.
  b.start_object();
  b.field("int_field");
  b.append_int(1);
  b.field("double_field");
  b.append_decimal({123456789, 8});
  b.field("boolean_true_field");
  b.append_boolean(true);
  b.field("boolean_false_field");
  b.append_boolean(false);
  b.field("string_field");
  b.append_string("Apache Parquet");
  b.field("null_field");
  b.append_null();
  b.field("timestamp_field");
  b.append_string("2025-04-16T12:34:56.78");
  b.finish_object();
  expect_same("object_primitive");

  b.start_array();
  b.start_object();
  b.field("id");
  b.append_int(1);
  b.field("thing");
  b.start_object();
  b.field("names");
  b.start_array();
  b.append_string("Contrarian");
  b.append_string("Spider");
  b.finish_array();
  b.finish_object();
  b.finish_object();
  b.append_null();
  b.start_object();
  b.field("id");
  b.append_int(2);
  b.field("type");
  b.append_string("if");
  b.field("names");
  b.start_array();
  b.append_string("Apple");
  b.append_string("Ray");
  b.append_null();
  b.finish_array();
  b.finish_object();
  b.finish_array();
  expect_same("array_nested");
}

// With the source's metadata loaded, containers are copied verbatim: every
// vector comes back byte for byte, even objects with out-of-order children.
TEST(VariantVectorsTest, CopyWithLoadedDictionaryIsVerbatim) {
  VariantBuilder b;
  for (const std::string& name : kCases) {
    SCOPED_TRACE(name);
    const Vector vec = load(name);
    b.load_dictionary(vec.metadata());
    b.start_array();
    b.append_variant(vec.variant());
    b.finish_array();
    const auto value = b.value();
    const std::vector<uint8_t> bytes(value.begin(), value.end());
    const Variant copy(VariantMetadata(b.metadata()), bytes);
    copy.validate(kVariantMaxDepth, true);
    const auto element = copy.get_element(0)->encoded_bytes();
    EXPECT_EQ(std::vector<uint8_t>(element.begin(), element.end()), vec.value_bytes);
  }
}

// Copying each vector through append_variant gives back the same bytes when
// the source stores child values in key order (the vectors use minimal
// widths); objects whose children were stored out of key order come back
// rewritten in key order, equal in content.
TEST(VariantVectorsTest, CopyReproducesVectors) {
  VariantBuilder b;
  for (const std::string& name : kCases) {
    SCOPED_TRACE(name);
    const Vector vec = load(name);
    b.clear();
    for (uint32_t id = 0; id < vec.metadata().size(); ++id) b.add_key(vec.metadata().key(id));
    b.append_variant(vec.variant());  // rebuilt: no dictionary was loaded
    const auto value = b.value();
    const auto metadata = b.metadata();
    const Variant copy(VariantMetadata(metadata), value);
    copy.validate(kVariantMaxDepth, true);
    EXPECT_EQ(variant_to_json(copy), variant_to_json(vec.variant()));
    if (name == "object_primitive" || name == "array_nested") {
      EXPECT_EQ(value.size(), vec.value_bytes.size());
    } else {
      EXPECT_EQ(std::vector<uint8_t>(value.begin(), value.end()), vec.value_bytes);
    }
    EXPECT_EQ(std::vector<uint8_t>(metadata.begin(), metadata.end()), vec.metadata_bytes);
  }
}

}  // namespace
}  // namespace parquetry
