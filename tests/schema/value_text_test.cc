#include "parquetry/schema/value_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "schema_builder.h"

namespace parquetry {
namespace {

using namespace parquetry::testing;

template <typename T>
std::string plain(T value) {
  std::string bytes(sizeof(T), '\0');
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

// Decodes `bytes` as the single column of a one-leaf schema.
std::string decoded(SchemaElement leaf_element, const std::string& bytes) {
  Schema schema = Schema::from_elements(std::vector<SchemaElement>{root(1), std::move(leaf_element)});
  return decode_plain_value(schema.column(0), bytes).to_string();
}

DisplayValue decoded_value(SchemaElement leaf_element, const std::string& bytes) {
  Schema schema = Schema::from_elements(std::vector<SchemaElement>{root(1), std::move(leaf_element)});
  return decode_plain_value(schema.column(0), bytes);
}

TEST(ValueTextTest, Dates) {
  EXPECT_EQ(format_date(0), "1970-01-01");
  EXPECT_EQ(format_date(-1), "1969-12-31");
  EXPECT_EQ(format_date(11016), "2000-02-29");
  EXPECT_EQ(format_date(19723), "2024-01-01");
  EXPECT_EQ(format_date(-719528), "0000-01-01");
  EXPECT_EQ(format_date(2932896), "9999-12-31");
  EXPECT_EQ(format_date(-719529), "-0001-12-31");
}

TEST(ValueTextTest, TimestampsAndTimes) {
  // The examples of LogicalTypes.md: 172800000 ms is 1970-01-03 00:00:00.
  EXPECT_EQ(format_timestamp(172800000, TimeUnit::MILLIS, true), "1970-01-03T00:00:00Z");
  EXPECT_EQ(format_timestamp(169200000, TimeUnit::MILLIS, false), "1970-01-02T23:00:00");
  EXPECT_EQ(format_timestamp(-1, TimeUnit::MICROS, false), "1969-12-31T23:59:59.999999");
  EXPECT_EQ(format_timestamp(1700000000123456789, TimeUnit::NANOS, true), "2023-11-14T22:13:20.123456789Z");
  EXPECT_EQ(format_timestamp(std::numeric_limits<int64_t>::min(), TimeUnit::NANOS, false),
            "1677-09-21T00:12:43.145224192");
  EXPECT_EQ(format_time_of_day(45296789, TimeUnit::MILLIS), "12:34:56.789");
  EXPECT_EQ(format_time_of_day(0, TimeUnit::MICROS), "00:00:00");
  EXPECT_EQ(format_time_of_day(-5, TimeUnit::MICROS), "-5");
}

TEST(ValueTextTest, Decimals) {
  EXPECT_EQ(format_decimal(-1250, 2), "-12.50");
  EXPECT_EQ(format_decimal(5, 3), "0.005");
  EXPECT_EQ(format_decimal(-5, 3), "-0.005");
  EXPECT_EQ(format_decimal(42, 0), "42");
  EXPECT_EQ(format_decimal(std::numeric_limits<int64_t>::min(), 0), "-9223372036854775808");
  EXPECT_EQ(format_decimal_bytes(std::string("\xff\x38", 2), 2), "-2.00");
  EXPECT_EQ(format_decimal_bytes(std::string("\x00\x90", 2), 0), "144");
  EXPECT_EQ(format_decimal_bytes(std::string("\x80", 1), 1), "-12.8");
  EXPECT_EQ(format_decimal_bytes(std::string(1, '\0'), 2), "0.00");
  // 2^127 - 1 and -2^127 in 16 bytes.
  std::string max16(16, '\xff');
  max16[0] = '\x7f';
  EXPECT_EQ(format_decimal_bytes(max16, 0), "170141183460469231731687303715884105727");
  std::string min16(16, '\0');
  min16[0] = '\x80';
  EXPECT_EQ(format_decimal_bytes(min16, 38), "-1.70141183460469231731687303715884105728");
}

TEST(ValueTextTest, HalfFloats) {
  EXPECT_EQ(half_to_double(0x3C00), 1.0);
  EXPECT_EQ(half_to_double(0xC000), -2.0);
  EXPECT_EQ(half_to_double(0x7BFF), 65504.0);
  EXPECT_EQ(half_to_double(0x0001), std::ldexp(1.0, -24));
  EXPECT_TRUE(std::isinf(half_to_double(0x7C00)));
  EXPECT_TRUE(std::isnan(half_to_double(0x7E00)));
  EXPECT_TRUE(std::signbit(half_to_double(0x8000)));
}

TEST(ValueTextTest, PlainValuesThroughTheirColumnType) {
  EXPECT_EQ(decoded(leaf(kOptional, Type::BOOLEAN, "b"), std::string(1, '\1')), "true");
  EXPECT_EQ(decoded(leaf(kOptional, Type::INT32, "i"), plain<int32_t>(-7)), "-7");
  EXPECT_EQ(decoded(leaf(kOptional, Type::INT32, "u", ConvertedType::UINT_32), plain<int32_t>(-1)),
            "4294967295");
  EXPECT_EQ(decoded(leaf(kOptional, Type::INT64, "u", ConvertedType::UINT_64), plain<int64_t>(-1)),
            "18446744073709551615");
  EXPECT_EQ(decoded(leaf(kOptional, Type::INT32, "d", ConvertedType::DATE), plain<int32_t>(11016)),
            "2000-02-29");
  EXPECT_EQ(decoded(with_decimal(leaf(kOptional, Type::INT32, "d", ConvertedType::DECIMAL), 4, 2),
                    plain<int32_t>(-1234)),
            "-12.34");
  EXPECT_EQ(
      decoded(leaf(kOptional, Type::INT64, "t", ConvertedType::TIMESTAMP_MICROS), plain<int64_t>(1000001)),
      "1970-01-01T00:00:01.000001Z");
  EXPECT_EQ(decoded(leaf(kOptional, Type::INT32, "t", ConvertedType::TIME_MILLIS), plain<int32_t>(1)),
            "00:00:00.001");
  EXPECT_EQ(decoded(leaf(kOptional, Type::FLOAT, "f"), plain<float>(1.5f)), "1.5");
  EXPECT_EQ(decoded(leaf(kOptional, Type::DOUBLE, "g"), plain<double>(0.1)), "0.1");
  EXPECT_EQ(decoded(leaf(kOptional, Type::DOUBLE, "g"), plain<double>(std::nan(""))), "NaN");
  EXPECT_EQ(decoded(leaf(kOptional, Type::DOUBLE, "g"), plain<double>(-INFINITY)), "-Infinity");
  // INT96: nanoseconds of the day, then the Julian day (2440588 = 1970-01-01).
  std::string int96 = plain<int64_t>(3600LL * 1000000000 + 5) + plain<uint32_t>(2440589);
  EXPECT_EQ(decoded(leaf(kOptional, Type::INT96, "ts"), int96), "1970-01-02T01:00:00.000000005");
  EXPECT_EQ(decoded(leaf(kOptional, Type::BYTE_ARRAY, "s", ConvertedType::UTF8), "h\xC3\xA9llo"),
            "h\xC3\xA9llo");
  EXPECT_EQ(decoded(leaf(kOptional, Type::BYTE_ARRAY, "s", ConvertedType::UTF8), "\xff\xfe"), "0xfffe");
  EXPECT_EQ(decoded(leaf(kOptional, Type::BYTE_ARRAY, "raw"), "plain"), "plain");
  EXPECT_EQ(decoded(leaf(kOptional, Type::BYTE_ARRAY, "raw"), std::string("\x00\x01", 2)), "0x0001");
  EXPECT_EQ(
      decoded(with_length(
                  leaf(kOptional, Type::FIXED_LEN_BYTE_ARRAY, "h", std::nullopt, logical(Float16Type{})), 2),
              plain<uint16_t>(0xC000)),
      "-2");
  EXPECT_EQ(
      decoded(with_length(
                  leaf(kOptional, Type::FIXED_LEN_BYTE_ARRAY, "id", std::nullopt, logical(UuidType{})), 16),
              std::string("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16)),
      "00112233-4455-6677-8899-aabbccddeeff");
  EXPECT_EQ(
      decoded(with_length(leaf(kOptional, Type::FIXED_LEN_BYTE_ARRAY, "iv", ConvertedType::INTERVAL), 12),
              plain<uint32_t>(1) + plain<uint32_t>(2) + plain<uint32_t>(3)),
      "months=1 days=2 millis=3");
}

TEST(ValueTextTest, KindsSuitJson) {
  EXPECT_EQ(decoded_value(leaf(kOptional, Type::INT64, "i"), plain<int64_t>(5)).kind,
            DisplayValue::Kind::kInt);
  DisplayValue unsigned_value =
      decoded_value(leaf(kOptional, Type::INT64, "u", ConvertedType::UINT_64), plain<int64_t>(-2));
  EXPECT_EQ(unsigned_value.kind, DisplayValue::Kind::kUInt);
  EXPECT_EQ(unsigned_value.uint_value, 18446744073709551614ULL);
  EXPECT_EQ(decoded_value(leaf(kOptional, Type::DOUBLE, "d"), plain<double>(2.5)).double_value, 2.5);
  EXPECT_EQ(decoded_value(leaf(kOptional, Type::INT32, "d", ConvertedType::DATE), plain<int32_t>(0)).kind,
            DisplayValue::Kind::kText);
}

TEST(ValueTextTest, WrongSizesAreReportedNotRead) {
  DisplayValue short_int = decoded_value(leaf(kOptional, Type::INT32, "i"), "abc");
  EXPECT_EQ(short_int.kind, DisplayValue::Kind::kInvalid);
  EXPECT_EQ(short_int.text, "invalid INT32 value of 3 bytes: 0x616263");
  EXPECT_EQ(decoded_value(leaf(kOptional, Type::DOUBLE, "d"), "").kind, DisplayValue::Kind::kInvalid);
  EXPECT_EQ(decoded_value(leaf(kOptional, Type::BOOLEAN, "b"), "xy").kind, DisplayValue::Kind::kInvalid);
  EXPECT_EQ(decoded_value(leaf(kOptional, Type::INT96, "t"), "short").kind, DisplayValue::Kind::kInvalid);
  // An INT96 whose time of day is out of range is shown as raw bytes.
  std::string bad_nanos = plain<int64_t>(-1) + plain<uint32_t>(2440588);
  EXPECT_EQ(decoded(leaf(kOptional, Type::INT96, "t"), bad_nanos), "0xffffffffffffffff8c3d2500");
}

}  // namespace
}  // namespace parquetry
