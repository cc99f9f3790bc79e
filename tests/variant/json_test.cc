// JSON <-> Variant rules (include/parquetry/variant_json.h).
#include "parquetry/variant_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/variant.h"
#include "parquetry/variant_builder.h"
#include "test_support.h"

namespace parquetry {
namespace {

struct Parsed {
  std::vector<uint8_t> metadata_bytes;
  std::vector<uint8_t> value_bytes;
  Variant variant() const { return Variant(VariantMetadata(metadata_bytes), value_bytes); }
};

Parsed parse(std::string_view json) {
  static VariantJsonParser parser;
  VariantBuilder b;
  parser.parse(json, b);
  Parsed out;
  out.metadata_bytes.assign(b.metadata().begin(), b.metadata().end());
  out.value_bytes.assign(b.value().begin(), b.value().end());
  out.variant().validate(kVariantMaxDepth, true);
  return out;
}

TEST(VariantJsonTest, IntegersPickTheNarrowestType) {
  const struct {
    const char* json;
    VariantValueType type;
    int64_t value;
  } cases[] = {
      {"0", VariantValueType::kInt8, 0},
      {"-0", VariantValueType::kInt8, 0},
      {"127", VariantValueType::kInt8, 127},
      {"-128", VariantValueType::kInt8, -128},
      {"128", VariantValueType::kInt16, 128},
      {"-32769", VariantValueType::kInt32, -32769},
      {"2147483648", VariantValueType::kInt64, 2147483648LL},
      {"9223372036854775807", VariantValueType::kInt64, INT64_MAX},
      {"-9223372036854775808", VariantValueType::kInt64, INT64_MIN},
  };
  for (const auto& c : cases) {
    const Parsed p = parse(c.json);
    EXPECT_EQ(p.variant().type(), c.type) << c.json;
    EXPECT_EQ(p.variant().get_int(), c.value) << c.json;
    EXPECT_EQ(variant_to_json(p.variant()), c.json[0] == '-' && c.json[1] == '0' ? "0" : c.json);
  }
}

TEST(VariantJsonTest, BigIntegersBecomeDecimal16ThenDouble) {
  const Parsed p = parse("9223372036854775808");
  EXPECT_EQ(p.variant().type(), VariantValueType::kDecimal16);
  EXPECT_EQ(p.variant().get_decimal(), (VariantDecimal{__int128(uint64_t(1) << 63), 0}));
  const Parsed n = parse("-99999999999999999999999999999999999999");  // 38 digits
  EXPECT_EQ(n.variant().type(), VariantValueType::kDecimal16);
  EXPECT_EQ(variant_to_json(n.variant()), "-99999999999999999999999999999999999999");
  const Parsed d = parse("123456789012345678901234567890123456789");  // 39 digits
  EXPECT_EQ(d.variant().type(), VariantValueType::kDouble);
  EXPECT_DOUBLE_EQ(d.variant().get_double(), 1.2345678901234568e38);
}

TEST(VariantJsonTest, FractionsAreExactDecimalsWhenTheyFit) {
  const struct {
    const char* json;
    VariantValueType type;
    VariantDecimal value;
    const char* back;
  } cases[] = {
      {"1.23456789", VariantValueType::kDecimal4, {123456789, 8}, "1.23456789"},
      {"12.34", VariantValueType::kDecimal4, {1234, 2}, "12.34"},
      {"1.50", VariantValueType::kDecimal4, {150, 2}, "1.50"},
      {"-0.05", VariantValueType::kDecimal4, {-5, 2}, "-0.05"},
      {"0.0", VariantValueType::kDecimal4, {0, 1}, "0.0"},
      {"1e3", VariantValueType::kDecimal4, {1000, 0}, "1000"},
      {"1.5E+3", VariantValueType::kDecimal4, {1500, 0}, "1500"},
      {"25e-3", VariantValueType::kDecimal4, {25, 3}, "0.025"},
      {"1e-10", VariantValueType::kDecimal8, {1, 10}, "0.0000000001"},
      {"12345678901.5", VariantValueType::kDecimal8, {123456789015, 1}, "12345678901.5"},
      {"1234567890123456789.5",
       VariantValueType::kDecimal16,
       {__int128(12345678901234567895ull), 1},
       "1234567890123456789.5"},
      // 42 digits: trailing zeros dropped only until 38 digits fit.
      {"1.00000000000000000000000000000000000000000",
       VariantValueType::kDecimal16,
       {__int128(10000000000000000000ull) * __int128(1000000000000000000ull), 37},
       "1.0000000000000000000000000000000000000"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.json);
    const Parsed p = parse(c.json);
    EXPECT_EQ(p.variant().type(), c.type);
    EXPECT_EQ(p.variant().get_decimal(), c.value);
    EXPECT_EQ(variant_to_json(p.variant()), c.back);
  }
}

TEST(VariantJsonTest, InexactNumbersBecomeDoubles) {
  EXPECT_EQ(parse("1e-50").variant().get_double(), 1e-50);
  EXPECT_EQ(parse("1.5e300").variant().get_double(), 1.5e300);
  EXPECT_EQ(parse("0.12345678901234567890123456789012345678901").variant().type(), VariantValueType::kDouble);
  EXPECT_EQ(parse("1e400").variant().get_double(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse("-1e400").variant().get_double(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse("1e-400").variant().get_double(), 0.0);
  EXPECT_EQ(variant_to_json(parse("1e400").variant()), "\"Infinity\"");
}

TEST(VariantJsonTest, DoublesAndFloatsPrintShortestRoundTrip) {
  VariantBuilder b;
  auto text = [&](auto append) {
    b.clear();
    append();
    const auto v = b.value();
    const std::vector<uint8_t> bytes(v.begin(), v.end());
    return variant_to_json(Variant(VariantMetadata(), bytes));
  };
  EXPECT_EQ(text([&] { b.append_double(0.1); }), "0.1");
  EXPECT_EQ(text([&] { b.append_double(-2.5e-300); }), "-2.5e-300");
  EXPECT_EQ(text([&] { b.append_double(1.2345678912345678e16); }), "12345678912345678");
  EXPECT_EQ(text([&] { b.append_float(0.1f); }), "0.1");
  EXPECT_EQ(text([&] { b.append_double(std::nan("")); }), "\"NaN\"");
  EXPECT_EQ(text([&] { b.append_float(-std::numeric_limits<float>::infinity()); }), "\"-Infinity\"");
  // Shortest text parses back to the same double.
  for (double d : {0.1, 1.0 / 3, 6.02214076e23, 5e-324, 1.7976931348623157e308}) {
    const std::string s = text([&] { b.append_double(d); });
    EXPECT_EQ(std::strtod(s.c_str(), nullptr), d) << s;
  }
}

TEST(VariantJsonTest, TemporalUuidAndBinaryText) {
  VariantBuilder b;
  auto text = [&](auto append) {
    b.clear();
    append();
    const auto v = b.value();
    const std::vector<uint8_t> bytes(v.begin(), v.end());
    return variant_to_json(Variant(VariantMetadata(), bytes));
  };
  EXPECT_EQ(text([&] { b.append_date(0); }), "\"1970-01-01\"");
  EXPECT_EQ(text([&] { b.append_date(-1); }), "\"1969-12-31\"");
  EXPECT_EQ(text([&] { b.append_date(11016); }), "\"2000-02-29\"");
  EXPECT_EQ(text([&] { b.append_date(-719528); }), "\"0000-01-01\"");
  EXPECT_EQ(text([&] { b.append_date(-719529); }), "\"-0001-12-31\"");
  EXPECT_EQ(text([&] { b.append_date(2932897); }), "\"+10000-01-01\"");
  EXPECT_EQ(text([&] { b.append_timestamp_micros(-1); }), "\"1969-12-31T23:59:59.999999Z\"");
  EXPECT_EQ(text([&] { b.append_timestamp_ntz_micros(1'000'000); }), "\"1970-01-01T00:00:01.000000\"");
  EXPECT_EQ(text([&] { b.append_timestamp_nanos(1); }), "\"1970-01-01T00:00:00.000000001Z\"");
  EXPECT_EQ(text([&] { b.append_timestamp_ntz_nanos(INT64_MIN); }), "\"1677-09-21T00:12:43.145224192\"");
  EXPECT_EQ(text([&] { b.append_timestamp_micros(INT64_MAX); }), "\"+294247-01-10T04:00:54.775807Z\"");
  EXPECT_EQ(text([&] { b.append_time_ntz_micros(0); }), "\"00:00:00.000000\"");
  EXPECT_EQ(text([&] { b.append_time_ntz_micros(86'399'999'999); }), "\"23:59:59.999999\"");
  const uint8_t uuid[16] = {0xf2, 0x4f, 0x9b, 0x64, 0x81, 0xfa, 0x49, 0xd1,
                            0xb7, 0x4e, 0x8c, 0x09, 0xa6, 0xe3, 0x1c, 0x56};
  EXPECT_EQ(text([&] { b.append_uuid(uuid); }), "\"f24f9b64-81fa-49d1-b74e-8c09a6e31c56\"");
  const uint8_t bin[] = {'M', 'a', 'n', 'y', 0xFB, 0xFF};
  EXPECT_EQ(text([&] { b.append_binary(std::span<const uint8_t>(bin, 0)); }), "\"\"");
  EXPECT_EQ(text([&] { b.append_binary(std::span<const uint8_t>(bin, 1)); }), "\"TQ==\"");
  EXPECT_EQ(text([&] { b.append_binary(std::span<const uint8_t>(bin, 2)); }), "\"TWE=\"");
  EXPECT_EQ(text([&] { b.append_binary(std::span<const uint8_t>(bin, 3)); }), "\"TWFu\"");
  EXPECT_EQ(text([&] { b.append_binary(bin); }), "\"TWFuefv/\"");
}

TEST(VariantJsonTest, StringsAreEscapedAndUnescaped) {
  const std::string raw = std::string("q\"b\\s/\b\f\n\r\t\x01\x1f") + "\xE2\x9D\xA4 \xF0\x9F\x90\xA2";
  VariantBuilder b;
  b.append_string(raw);
  const std::vector<uint8_t> bytes(b.value().begin(), b.value().end());
  const std::string json = variant_to_json(Variant(VariantMetadata(), bytes));
  EXPECT_EQ(json, "\"q\\\"b\\\\s/\\b\\f\\n\\r\\t\\u0001\\u001f\xE2\x9D\xA4 \xF0\x9F\x90\xA2\"");
  const Parsed back = parse(json);
  EXPECT_EQ(back.variant().get_string(), raw);
  // \u escapes, surrogate pairs included, decode to UTF-8.
  EXPECT_EQ(parse(R"("\u2764\ud83d\udc22")").variant().get_string(), "\xE2\x9D\xA4\xF0\x9F\x90\xA2");
  // 63 bytes stay short, 64 become the long form.
  EXPECT_EQ(parse("\"" + std::string(63, 'x') + "\"").variant().basic_type(), VariantBasicType::kShortString);
  EXPECT_EQ(parse("\"" + std::string(64, 'x') + "\"").variant().basic_type(), VariantBasicType::kPrimitive);
}

TEST(VariantJsonTest, EscapesAtEveryPositionOfLongStrings) {
  // The escaper skips 8 clean bytes at a time; put each special byte at every
  // offset of a 70-byte string (long form) and check the text round trip.
  VariantBuilder b;
  std::string json;
  for (const char special : {'"', '\\', '\n', '\x01', '\x1f', ' ', '~'}) {
    for (size_t at = 0; at < 70; ++at) {
      std::string raw(70, 'a');
      raw[at] = special;
      b.clear();
      b.append_string(raw);
      const std::vector<uint8_t> bytes(b.value().begin(), b.value().end());
      json.clear();
      variant_to_json(Variant(VariantMetadata(), bytes), json);
      ASSERT_EQ(parse(json).variant().get_string(), raw) << int(special) << " at " << at;
    }
  }
  // Invalid UTF-8 anywhere in a long string is rejected; valid multi-byte text passes.
  for (size_t at = 0; at < 70; ++at) {
    std::string raw(70, 'a');
    raw[at] = '\xC3';
    b.clear();
    b.append_string(raw);
    const std::vector<uint8_t> bytes(b.value().begin(), b.value().end());
    EXPECT_THROW(variant_to_json(Variant(VariantMetadata(), bytes)), Error) << at;
    if (at + 1 < 70) {
      raw[at + 1] = '\xA9';
      b.clear();
      b.append_string(raw);
      const std::vector<uint8_t> ok(b.value().begin(), b.value().end());
      EXPECT_EQ(parse(variant_to_json(Variant(VariantMetadata(), ok))).variant().get_string(), raw);
    }
  }
}

TEST(VariantJsonTest, DocumentsRoundTrip) {
  const char* docs[] = {
      "null",
      "true",
      "\"top-level string\"",
      "[]",
      "{}",
      R"({"a":1,"b":[true,false,null,{"c":"d"}],"e":{"f":{"g":[[],[1.5]]}}})",
      R"([{"id":1,"thing":{"names":["Contrarian","Spider"]}},null,{"id":2,"names":["Apple","Ray",null],"type":"if"}])",
      "{\"\":0,\"k\\\"ey\":\"v\",\"\xC3\xA9\":-12.340}",
  };
  for (const char* doc : docs) {
    const Parsed p = parse(doc);
    const std::string once = variant_to_json(p.variant());
    EXPECT_EQ(once, doc);
    EXPECT_EQ(variant_to_json(parse(once).variant()), once);
  }
  // Whitespace and key order are normalized; duplicate keys: last wins.
  EXPECT_EQ(variant_to_json(parse(" { \"b\" : 1 , \"a\" : [ 2 , 3 ] , \"b\" : 4 } ").variant()),
            R"({"a":[2,3],"b":4})");
}

TEST(VariantJsonTest, DictionaryVectorRoundTrip) {
  // Parse each entry of data_dictionary.json, render it back, compare JSON
  // text after our normalization (numbers keep their written digits).
  const auto text = testing::read_bytes(testing::parquet_testing("variant/data_dictionary.json"));
  const Parsed all = parse(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()));
  const Variant root = all.variant();
  ASSERT_TRUE(root.is_object());
  EXPECT_EQ(root.get_object().size(), 19u);
  EXPECT_EQ(root.get_field("primitive_int64")->get_int64(), 1234567890123456789LL);
  EXPECT_EQ(root.get_field("primitive_decimal4")->get_decimal(), (VariantDecimal{1234, 2}));
  EXPECT_EQ(root.get_field("primitive_decimal16")->get_decimal(), (VariantDecimal{12345678912345678, 0}));
  EXPECT_EQ(root.get_field("object_primitive")->get_field("double_field")->get_decimal(),
            (VariantDecimal{123456789, 8}));
  EXPECT_EQ(root.get_field("array_nested")->get_element(2)->get_field("type")->get_string(), "if");
  const std::string once = variant_to_json(root);
  EXPECT_EQ(variant_to_json(parse(once).variant()), once);
}

TEST(VariantJsonTest, MalformedJsonIsCorrupt) {
  VariantJsonParser parser;
  for (const char* bad :
       {"",   "{",     "[1,",   "{\"a\"}", "{\"a\":}", "tru", "nul",      "01",           "1.",   "-",
        "1e", "\"abc", "[1] 2", "{} x",    "\"\\x\"",  "1 2", "\"\xFF\"", "{\"\xC3\":1}", "[1,]", "NaN"}) {
    VariantBuilder b;
    try {
      parser.parse(bad, b);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kCorrupt) << bad;
    }
  }
  // Too deep.
  VariantBuilder b;
  EXPECT_THROW(parser.parse(std::string(100, '[') + std::string(100, ']'), b), Error);
  b.clear();
  parser.parse(std::string(100, '[') + std::string(100, ']'), b, 200);
  EXPECT_TRUE(b.done());
}

TEST(VariantJsonTest, ParseIntoAnOpenContainer) {
  VariantJsonParser parser;
  VariantBuilder b;
  b.start_object();
  b.field("x");
  parser.parse("[1,{\"y\":null}]", b);
  b.field("z");
  parser.parse("\"s\"", b);
  b.finish_object();
  const std::vector<uint8_t> m(b.metadata().begin(), b.metadata().end());
  const std::vector<uint8_t> v(b.value().begin(), b.value().end());
  EXPECT_EQ(variant_to_json(Variant(VariantMetadata(m), v)), R"({"x":[1,{"y":null}],"z":"s"})");
}

}  // namespace
}  // namespace parquetry
