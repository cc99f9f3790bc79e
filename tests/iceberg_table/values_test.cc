// Bucket hashes (format/spec.md Appendix B's examples), transforms, bounds
// and defaults.
#include <gtest/gtest.h>

#include "parquetry/error.h"
#include "parquetry/iceberg_table.h"
#include "parquetry/iceberg_table/values.h"
#include "table_writer.h"

namespace parquetry::testing {
namespace {

using namespace parquetry::iceberg;

IcebergType type(TypeKind kind, int32_t precision = 0, int32_t scale = 0) {
  IcebergType t;
  t.kind = kind;
  t.precision = precision;
  t.scale = scale;
  return t;
}

TEST(Murmur3, SpecExamples) {
  EXPECT_EQ(murmur3_32(le64(34)), 2017239379);                  // int and long 34
  EXPECT_EQ(murmur3_32(le64(17486)), -653330422);               // date 2017-11-16
  EXPECT_EQ(murmur3_32(le64(81068000000)), -662762989);         // time 22:31:08
  EXPECT_EQ(murmur3_32(le64(1510871468000000)), -2047944441);   // timestamp 2017-11-16T22:31:08
  EXPECT_EQ(murmur3_32("iceberg"), 1210000089);
  EXPECT_EQ(murmur3_32(std::string("\x00\x01\x02\x03", 4)), -188683207);
  EXPECT_EQ(murmur3_32(decimal_bytes(1420)), -500754589);       // decimal 14.20
  const std::string uuid("\xf7\x9c\x3e\x09\x67\x7c\x4b\xbd\xa4\x79\x3f\x34\x9c\xb7\x85\xe7", 16);
  EXPECT_EQ(murmur3_32(uuid), 1488055340);
}

TEST(Transforms, ApplyToValues) {
  const IcebergType i = type(TypeKind::kInt);
  auto bucket = apply_transform(Transform::parse("bucket[16]"), i, Value::integer(34));
  ASSERT_TRUE(bucket);
  EXPECT_EQ(bucket->i, (2017239379 & INT32_MAX) % 16);
  EXPECT_EQ(apply_transform(Transform::parse("truncate[10]"), i, Value::integer(-1))->i, -10);
  EXPECT_EQ(apply_transform(Transform::parse("truncate[10]"), i, Value::integer(17))->i, 10);
  Value s;
  s.kind = Value::Kind::kBytes;
  s.bytes = "iceberg";
  EXPECT_EQ(apply_transform(Transform::parse("truncate[3]"), type(TypeKind::kString), s)->bytes, "ice");
  const IcebergType ts = type(TypeKind::kTimestamp);
  const Value t = Value::integer(1510871468000000);  // 2017-11-16T22:31:08
  EXPECT_EQ(apply_transform(Transform::parse("year"), ts, t)->i, 47);
  EXPECT_EQ(apply_transform(Transform::parse("month"), ts, t)->i, 47 * 12 + 10);
  EXPECT_EQ(apply_transform(Transform::parse("day"), ts, t)->i, 17486);
  EXPECT_EQ(apply_transform(Transform::parse("hour"), ts, t)->i, 17486 * 24 + 22);
  EXPECT_EQ(apply_transform(Transform::parse("day"), ts, Value::integer(-1))->i, -1);  // floor, not truncation
  EXPECT_TRUE(apply_transform(Transform::parse("void"), i, Value::integer(3))->is_null());
  EXPECT_EQ(Transform::parse("zorder").kind, Transform::Kind::kUnknown);
  EXPECT_EQ(Transform::parse("bucket[0]").kind, Transform::Kind::kUnknown);
}

TEST(Values, BoundsLiteralsDefaults) {
  EXPECT_EQ(decode_bound(type(TypeKind::kLong), le32(-7))->i, -7);  // promoted column, 4-byte bound
  EXPECT_EQ(decode_bound(type(TypeKind::kDecimal, 9, 2), std::string("\xff\x38", 2))->i128, -200);
  EXPECT_FALSE(decode_bound(type(TypeKind::kInt), "abc"));
  EXPECT_EQ(from_literal(type(TypeKind::kDate), Literal("2025-01-04"))->i, 20092);
  EXPECT_EQ(from_literal(type(TypeKind::kDecimal, 9, 2), Literal(1.5))->i128, 150);
  EXPECT_FALSE(from_literal(type(TypeKind::kDecimal, 9, 2), Literal(1.555)));
  EXPECT_EQ(from_literal(type(TypeKind::kFloat), Literal(1.23))->d, double(1.23f));
  EXPECT_EQ(from_default_json(type(TypeKind::kDecimal, 16, 2), "\"12345.00\"", "t").i128, 1234500);
  EXPECT_EQ(from_default_json(type(TypeKind::kTimestampTz), "\"1970-01-01T00:00:00.012345+00:00\"", "t").i, 12345);
  EXPECT_EQ(from_default_json(type(TypeKind::kLong), "-9223372036854775808", "t").i, INT64_MIN);
  EXPECT_EQ(from_default_json(type(TypeKind::kTime), "\"00:00:00.012345\"", "t").i, 12345);
  EXPECT_THROW(from_default_json(type(TypeKind::kInt), "\"x\"", "t"), Error);
  EXPECT_THROW(from_default_json(type(TypeKind::kInt), "9999999999", "t"), Error);
}

}  // namespace
}  // namespace parquetry::testing
