#include "parquetry/util/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "parquetry/error.h"

namespace parquetry {
namespace {

std::string escaped(std::string_view text) {
  std::string out;
  JsonWriter::escape_string(out, text);
  return out;
}

std::string double_text(double value) {
  std::string out;
  JsonWriter::append_double(out, value);
  return out;
}

TEST(JsonWriterTest, NestedContainersGetCommasAndColons) {
  JsonWriter w;
  w.begin_object()
      .field("rows", int64_t{8})
      .key("columns")
      .begin_array()
      .string("id")
      .string("name")
      .end_array()
      .key("nested")
      .begin_object()
      .field("ok", true)
      .key("none")
      .null()
      .end_object()
      .key("empty_array")
      .begin_array()
      .end_array()
      .key("empty_object")
      .begin_object()
      .end_object()
      .end_object();
  EXPECT_EQ(w.str(), R"({"rows":8,"columns":["id","name"],"nested":{"ok":true,"none":null},)"
                     R"("empty_array":[],"empty_object":{}})");
  EXPECT_TRUE(w.complete());
}

TEST(JsonWriterTest, PrettyPrintIndents) {
  JsonWriter w(2);
  w.begin_object().field("a", int64_t{1}).key("b").begin_array().int64(2).int64(3).end_array();
  w.key("c").begin_array().end_array().end_object();
  EXPECT_EQ(w.str(), "{\n  \"a\": 1,\n  \"b\": [\n    2,\n    3\n  ],\n  \"c\": []\n}");
}

TEST(JsonWriterTest, IntegersAtTheLimits) {
  JsonWriter w;
  w.begin_array()
      .int64(std::numeric_limits<int64_t>::min())
      .int64(std::numeric_limits<int64_t>::max())
      .uint64(std::numeric_limits<uint64_t>::max())
      .int64(0)
      .int64(-1)
      .end_array();
  EXPECT_EQ(w.str(), "[-9223372036854775808,9223372036854775807,18446744073709551615,0,-1]");
}

TEST(JsonWriterTest, DoublesUseShortestRoundTripText) {
  EXPECT_EQ(double_text(0.1), "0.1");
  EXPECT_EQ(double_text(1.5), "1.5");
  EXPECT_EQ(double_text(-2.0), "-2");
  EXPECT_EQ(double_text(1e300), "1e+300");
  EXPECT_EQ(double_text(5e-324), "5e-324");
  EXPECT_EQ(double_text(0.30000000000000004), "0.30000000000000004");
  EXPECT_EQ(double_text(-0.0), "-0");
  EXPECT_EQ(double_text(std::nan("")), "null");
  EXPECT_EQ(double_text(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(double_text(-std::numeric_limits<double>::infinity()), "null");
}

TEST(JsonWriterTest, RandomDoublesRoundTripExactly) {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = rng();
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    if (!std::isfinite(value)) continue;
    std::string text = double_text(value);
    double parsed = std::strtod(text.c_str(), nullptr);
    ASSERT_EQ(std::memcmp(&parsed, &value, sizeof(value)), 0) << text;
  }
}

TEST(JsonWriterTest, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(escaped("plain"), "\"plain\"");
  EXPECT_EQ(escaped(""), "\"\"");
  EXPECT_EQ(escaped("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(escaped("\b\f\n\r\t"), R"("\b\f\n\r\t")");
  EXPECT_EQ(escaped(std::string_view("\0\x01\x1f\x7f", 4)), R"("\u0000\u0001\u001f\u007f")");
  EXPECT_EQ(escaped("/"), "\"/\"");
}

TEST(JsonWriterTest, KeepsValidMultiByteUtf8) {
  // é (2 bytes), € (3 bytes), 😀 (4 bytes), the largest code point U+10FFFF.
  EXPECT_EQ(escaped("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF"),
            "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF\"");
  // The line and paragraph separators are escaped for JavaScript's sake.
  EXPECT_EQ(escaped("a\xE2\x80\xA8"
                    "b\xE2\x80\xA9"),
            R"("a\u2028b\u2029")");
}

TEST(JsonWriterTest, ReplacesEachMaximalInvalidSubpartWithOneReplacementCharacter) {
  const std::string fffd = "\xEF\xBF\xBD";
  // A lone continuation byte, and bytes that never occur in UTF-8.
  EXPECT_EQ(escaped("a\x80z"), "\"a" + fffd + "z\"");
  EXPECT_EQ(escaped("\xC0\xAF"), "\"" + fffd + fffd + "\"");  // overlong '/'
  EXPECT_EQ(escaped("\xFF\xFE"), "\"" + fffd + fffd + "\"");
  // A truncated 3-byte sequence is one subpart; the ASCII after it survives.
  EXPECT_EQ(escaped("\xE2\x82z"), "\"" + fffd + "z\"");
  // A truncated 4-byte sequence at the very end.
  EXPECT_EQ(escaped("x\xF0\x9F\x98"), "\"x" + fffd + "\"");
  // A UTF-16 surrogate (U+D800) encoded in UTF-8 is not valid: each byte goes.
  EXPECT_EQ(escaped("\xED\xA0\x80"), "\"" + fffd + fffd + fffd + "\"");
  // Above U+10FFFF.
  EXPECT_EQ(escaped("\xF4\x90\x80\x80"), "\"" + fffd + fffd + fffd + fffd + "\"");
  // Overlong 3-byte form of U+0000.
  EXPECT_EQ(escaped("\xE0\x80\x80"), "\"" + fffd + fffd + fffd + "\"");
}

TEST(JsonWriterTest, ValidatesUtf8) {
  EXPECT_TRUE(JsonWriter::is_valid_utf8("hello \xC3\xA9"));
  EXPECT_TRUE(JsonWriter::is_valid_utf8(""));
  EXPECT_FALSE(JsonWriter::is_valid_utf8("\xC3"));
  EXPECT_FALSE(JsonWriter::is_valid_utf8("\xED\xBF\xBF"));
  EXPECT_FALSE(JsonWriter::is_valid_utf8("\x80"));
}

TEST(JsonWriterTest, RawInsertsJsonVerbatim) {
  JsonWriter w;
  w.begin_object().key("pre").raw("{\"x\":[1,2]}").field("after", "s").end_object();
  EXPECT_EQ(w.str(), R"({"pre":{"x":[1,2]},"after":"s"})");
}

TEST(JsonWriterTest, FieldAcceptsEveryIntegerType) {
  JsonWriter w;
  w.begin_object()
      .field("int", 1)
      .field("size", size_t{2})
      .field("i16", int16_t{-3})
      .field("u32", uint32_t{4000000000u})
      .field("ll", -5LL)
      .field("flag", false)
      .field("real", 0.5)
      .end_object();
  EXPECT_EQ(w.str(), R"({"int":1,"size":2,"i16":-3,"u32":4000000000,"ll":-5,"flag":false,"real":0.5})");
}

TEST(JsonWriterTest, KeysAreEscapedToo) {
  JsonWriter w;
  w.begin_object().field("a\"b\n", int64_t{1}).end_object();
  EXPECT_EQ(w.str(), R"({"a\"b\n":1})");
}

TEST(JsonWriterTest, MisuseThrowsInvalidArgument) {
  auto expect_invalid = [](auto&& action) {
    JsonWriter w;
    try {
      action(w);
      FAIL() << "expected an Error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    }
  };
  expect_invalid([](JsonWriter& w) { w.begin_object().int64(1); });               // value without key
  expect_invalid([](JsonWriter& w) { w.begin_array().key("k"); });                // key in array
  expect_invalid([](JsonWriter& w) { w.key("k"); });                              // key at top level
  expect_invalid([](JsonWriter& w) { w.begin_object().key("k").end_object(); });  // dangling key
  expect_invalid([](JsonWriter& w) { w.begin_array().end_object(); });            // wrong closer
  expect_invalid([](JsonWriter& w) { w.end_array(); });                           // nothing open
  expect_invalid([](JsonWriter& w) { w.int64(1).int64(2); });                     // two top-level values
}

TEST(JsonWriterTest, TakeResetsForReuse) {
  JsonWriter w;
  w.begin_array().boolean(false).end_array();
  EXPECT_EQ(w.take(), "[false]");
  EXPECT_FALSE(w.complete());
  w.string("again");
  EXPECT_EQ(w.str(), "\"again\"");
  EXPECT_TRUE(w.complete());
}

TEST(JsonWriterTest, IncompleteUntilEveryContainerIsClosed) {
  JsonWriter w;
  w.begin_object().key("a").begin_array();
  EXPECT_FALSE(w.complete());
  w.end_array();
  EXPECT_FALSE(w.complete());
  w.end_object();
  EXPECT_TRUE(w.complete());
}

}  // namespace
}  // namespace parquetry
