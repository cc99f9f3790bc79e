// VariantBuilder: widths and is_large at their boundaries, duplicate keys,
// nesting, copies, dictionary reuse, misuse.
#include "parquetry/variant_builder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/variant.h"
#include "parquetry/variant_json.h"

namespace parquetry {
namespace {

// The builder's output as owned bytes, validated.
struct Built {
  std::vector<uint8_t> metadata_bytes;
  std::vector<uint8_t> value_bytes;
  explicit Built(VariantBuilder& b) {
    const auto m = b.metadata();
    const auto v = b.value();
    metadata_bytes.assign(m.begin(), m.end());
    value_bytes.assign(v.begin(), v.end());
    variant().validate(kVariantMaxDepth, /*exact_size=*/true);
  }
  VariantMetadata metadata() const { return VariantMetadata(metadata_bytes); }
  Variant variant() const { return Variant(VariantMetadata(metadata_bytes), value_bytes); }
};

std::string key_name(uint32_t i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%06u", i);
  return buf;
}

TEST(VariantBuilderTest, EmptyContainersAndMetadata) {
  VariantBuilder b;
  b.start_object();
  b.finish_object();
  Built o(b);
  EXPECT_EQ(o.value_bytes, (std::vector<uint8_t>{0x02, 0x00, 0x00}));
  EXPECT_EQ(o.metadata_bytes, (std::vector<uint8_t>{0x01, 0x00, 0x00}));
  b.clear();
  b.start_array();
  b.finish_array();
  Built a(b);
  EXPECT_EQ(a.value_bytes, (std::vector<uint8_t>{0x03, 0x00, 0x00}));
}

TEST(VariantBuilderTest, ArrayIsLargeBoundary) {
  VariantBuilder b;
  for (uint32_t n : {255u, 256u}) {
    b.clear();
    b.start_array();
    for (uint32_t i = 0; i < n; ++i) b.append_int(int64_t(i));
    b.finish_array();
    Built built(b);
    const VariantArray array = built.variant().get_array();
    EXPECT_EQ(array.size(), n);
    EXPECT_EQ(array.is_large(), n > 255);
    EXPECT_EQ(built.value_bytes[0], n > 255 ? 0x17 : 0x07);  // 2-byte offsets (data > 255 bytes)
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(array[i].get_int(), int64_t(i));
  }
}

TEST(VariantBuilderTest, ArrayOffsetWidths) {
  // Data sizes 255 / 256 / 65535 / 65536 / 2^24 bytes → offsets of 1, 2, 2, 3, 4 bytes.
  struct Case {
    size_t data_size;
    int offset_size;
  };
  VariantBuilder b;
  for (const Case c : {Case{255, 1}, Case{256, 2}, Case{65535, 2}, Case{65536, 3}, Case{1u << 24, 4}}) {
    SCOPED_TRACE(c.data_size);
    b.clear();
    b.start_array();
    // One long string of the exact size: 5 header bytes + payload.
    const std::string s(c.data_size - 5, 'x');
    b.append_long_string(s);
    b.finish_array();
    Built built(b);
    const VariantArray array = built.variant().get_array();
    EXPECT_EQ(array.offset_size(), c.offset_size);
    EXPECT_EQ(array[0].get_string().size(), s.size());
    EXPECT_EQ(array.encoded_size(), built.value_bytes.size());
  }
}

TEST(VariantBuilderTest, ObjectIdWidthsAndIsLarge) {
  // 255 keys → ids 0..254 (1 byte), not large; 256 keys → large, ids still 1
  // byte; 257 keys → max id 256, 2-byte ids; 65537 keys → 3-byte ids.
  struct Case {
    uint32_t keys;
    int id_size;
    bool large;
  };
  VariantBuilder b;
  for (const Case c : {Case{255, 1, false}, Case{256, 1, true}, Case{257, 2, true}, Case{65537, 3, true}}) {
    SCOPED_TRACE(c.keys);
    b.clear();
    b.start_object();
    // Added in descending order so that the builder has to sort.
    for (uint32_t i = c.keys; i-- > 0;) {
      b.field(key_name(i));
      b.append_int(int64_t(i % 100));
    }
    b.finish_object();
    Built built(b);
    const VariantObject object = built.variant().get_object();
    EXPECT_EQ(object.size(), c.keys);
    EXPECT_EQ(object.id_size(), c.id_size);
    EXPECT_EQ(object.is_large(), c.large);
    for (uint32_t i = 0; i < c.keys; i += 97) {
      const auto field = object.find(key_name(i));
      ASSERT_TRUE(field.has_value());
      EXPECT_EQ(field->get_int(), int64_t(i % 100));
      EXPECT_EQ(object.key(i), key_name(i));  // stored in ascending key order
    }
    EXPECT_FALSE(object.find("k").has_value());
    EXPECT_FALSE(object.find("z").has_value());
    // Dictionary width: 7 bytes per key → 255*7 = 1785 > 255 → 2-byte offsets.
    EXPECT_EQ(built.metadata().offset_size(), c.keys * 7 > 65535 ? 3 : 2);
    EXPECT_EQ(built.metadata().size(), c.keys);
  }
}

TEST(VariantBuilderTest, FourByteWidthsAreReadable) {
  // Oversized widths are legal: hand-encode {"b": 1, "a": true} with 4-byte
  // ids/offsets/count and a 4-byte-offset metadata.
  const std::vector<uint8_t> metadata = {0xC1, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 'b', 'a'};
  const std::vector<uint8_t> value = {
      uint8_t(0x02 | 3 << 2 | 3 << 4 | 1 << 6),  // object, 4-byte offsets and ids, is_large
      2,
      0,
      0,
      0,  // two fields
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      0,  // ids: "a"=1, "b"=0
      2,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      3,
      0,
      0,
      0,  // offsets: a at 2, b at 0, end 3
      0x0C,
      1,
      0x04,  // int8 1, true
  };
  const Variant v(VariantMetadata(metadata), value);
  v.validate(kVariantMaxDepth, true);
  EXPECT_EQ(v.get_field("a")->get_boolean(), true);
  EXPECT_EQ(v.get_field("b")->get_int8(), 1);
  EXPECT_EQ(v.get_object().id_size(), 4);
  EXPECT_EQ(variant_to_json(v), R"({"a":true,"b":1})");
  // Copying re-encodes with minimal widths.
  VariantBuilder b;
  b.append_variant(v);
  Built copy(b);
  EXPECT_EQ(copy.variant().get_object().id_size(), 1);
  EXPECT_FALSE(copy.variant().get_object().is_large());
  EXPECT_EQ(variant_to_json(copy.variant()), R"({"a":true,"b":1})");
}

TEST(VariantBuilderTest, DuplicateKeysLastWins) {
  VariantBuilder b;
  b.start_object();
  b.field("a");
  b.append_string("first, dropped");
  b.field("b");
  b.append_int(2);
  b.field("a");
  b.append_int(3);
  b.finish_object();
  Built dup(b);
  EXPECT_EQ(dup.variant().get_object().size(), 2u);
  EXPECT_EQ(dup.variant().get_field("a")->get_int(), 3);
  EXPECT_EQ(dup.variant().get_field("b")->get_int(), 2);
  // The overwritten value's bytes are gone: same bytes as building b then a.
  b.clear();
  b.add_key("a");
  b.start_object();
  b.field("b");
  b.append_int(2);
  b.field("a");
  b.append_int(3);
  b.finish_object();
  Built clean(b);
  EXPECT_EQ(dup.value_bytes, clean.value_bytes);
}

TEST(VariantBuilderTest, NestedAndKeyOrderByUtf8Bytes) {
  VariantBuilder b;
  b.start_object();
  b.field("\xF0\x9F\x98\x80");  // U+1F600: sorts after U+FFFD in UTF-8 byte order
  b.append_int(1);
  b.field("\xEF\xBF\xBD");  // U+FFFD
  b.append_int(2);
  b.field("B");
  b.start_array();
  b.start_object();
  b.finish_object();
  b.start_array();
  b.append_null();
  b.finish_array();
  b.append_boolean(false);
  b.finish_array();
  b.field("a");
  b.start_object();
  b.field("x");
  b.append_double(0.5);
  b.finish_object();
  b.finish_object();
  Built built(b);
  const VariantObject o = built.variant().get_object();
  ASSERT_EQ(o.size(), 4u);
  EXPECT_EQ(o.key(0), "B");
  EXPECT_EQ(o.key(1), "a");
  EXPECT_EQ(o.key(2), "\xEF\xBF\xBD");
  EXPECT_EQ(o.key(3), "\xF0\x9F\x98\x80");
  EXPECT_EQ(built.variant().get_field("a")->get_field("x")->get_double(), 0.5);
  EXPECT_EQ(built.variant().get_field("\xF0\x9F\x98\x80")->get_int(), 1);
  EXPECT_EQ(variant_to_json(built.variant()),
            "{\"B\":[{},[null],false],\"a\":{\"x\":0.5},\"\xEF\xBF\xBD\":2,\"\xF0\x9F\x98\x80\":1}");
}

TEST(VariantBuilderTest, EveryPrimitiveRoundTrips) {
  VariantBuilder b;
  const uint8_t uuid[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  const uint8_t bin[3] = {0xFF, 0x00, 0x7F};
  b.start_array();
  b.append_null();
  b.append_boolean(true);
  b.append_boolean(false);
  b.append_int8(-128);
  b.append_int16(-32768);
  b.append_int32(INT32_MIN);
  b.append_int64(INT64_MIN);
  b.append_double(-2.5);
  b.append_decimal4(-999999999, 9);
  b.append_decimal8(INT64_MAX, 18);
  b.append_decimal16(-(__int128(1) << 100), 38);
  b.append_date(-1);
  b.append_timestamp_micros(-1);
  b.append_timestamp_ntz_micros(1);
  b.append_float(1.5f);
  b.append_binary(bin);
  b.append_long_string("long");
  b.append_time_ntz_micros(86'399'999'999);
  b.append_timestamp_nanos(1);
  b.append_timestamp_ntz_nanos(-1);
  b.append_uuid(uuid);
  b.append_string("");
  b.finish_array();
  Built built(b);
  const VariantArray a = built.variant().get_array();
  ASSERT_EQ(a.size(), 22u);
  const VariantValueType types[] = {
      VariantValueType::kNull,
      VariantValueType::kBoolean,
      VariantValueType::kBoolean,
      VariantValueType::kInt8,
      VariantValueType::kInt16,
      VariantValueType::kInt32,
      VariantValueType::kInt64,
      VariantValueType::kDouble,
      VariantValueType::kDecimal4,
      VariantValueType::kDecimal8,
      VariantValueType::kDecimal16,
      VariantValueType::kDate,
      VariantValueType::kTimestampMicros,
      VariantValueType::kTimestampNtzMicros,
      VariantValueType::kFloat,
      VariantValueType::kBinary,
      VariantValueType::kString,
      VariantValueType::kTimeNtzMicros,
      VariantValueType::kTimestampNanos,
      VariantValueType::kTimestampNtzNanos,
      VariantValueType::kUuid,
      VariantValueType::kString,
  };
  for (uint32_t i = 0; i < 22; ++i) EXPECT_EQ(a[i].type(), types[i]) << i;
  EXPECT_TRUE(a[1].get_boolean());
  EXPECT_FALSE(a[2].get_boolean());
  EXPECT_EQ(a[3].get_int8(), -128);
  EXPECT_EQ(a[4].get_int16(), -32768);
  EXPECT_EQ(a[5].get_int32(), INT32_MIN);
  EXPECT_EQ(a[6].get_int64(), INT64_MIN);
  EXPECT_EQ(a[7].get_double(), -2.5);
  EXPECT_EQ(a[8].get_decimal(), (VariantDecimal{-999999999, 9}));
  EXPECT_EQ(a[9].get_decimal(), (VariantDecimal{INT64_MAX, 18}));
  EXPECT_EQ(a[10].get_decimal(), (VariantDecimal{-(__int128(1) << 100), 38}));
  EXPECT_EQ(a[11].get_date(), -1);
  EXPECT_EQ(a[12].get_timestamp_micros(), -1);
  EXPECT_EQ(a[13].get_timestamp_ntz_micros(), 1);
  EXPECT_EQ(a[14].get_float(), 1.5f);
  EXPECT_EQ(std::vector<uint8_t>(a[15].get_binary().begin(), a[15].get_binary().end()),
            (std::vector<uint8_t>{0xFF, 0x00, 0x7F}));
  EXPECT_EQ(a[16].get_string(), "long");
  EXPECT_EQ(a[16].basic_type(), VariantBasicType::kPrimitive);
  EXPECT_EQ(a[17].get_time_ntz_micros(), 86'399'999'999);
  EXPECT_EQ(a[18].get_timestamp_nanos(), 1);
  EXPECT_EQ(a[19].get_timestamp_ntz_nanos(), -1);
  EXPECT_EQ(a[20].get_uuid()[15], 15);
  EXPECT_EQ(a[21].get_string(), "");
  // Type mismatches are kInvalidArgument.
  try {
    (void)a[3].get_string();
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(e.message(), "variant value is int8, not string");
  }
  EXPECT_THROW((void)a[0].get_object(), Error);
  EXPECT_THROW((void)a[13].get_timestamp_micros(), Error);
  EXPECT_THROW(b.append_decimal4(1, 39), Error);
  EXPECT_THROW(b.append_decimal({1, 39}), Error);
}

TEST(VariantBuilderTest, AppendIntAndDecimalPickNarrowest) {
  VariantBuilder b;
  const struct {
    int64_t v;
    VariantValueType t;
  } ints[] = {{0, VariantValueType::kInt8},          {127, VariantValueType::kInt8},
              {-128, VariantValueType::kInt8},       {128, VariantValueType::kInt16},
              {-129, VariantValueType::kInt16},      {32768, VariantValueType::kInt32},
              {INT32_MIN, VariantValueType::kInt32}, {int64_t(INT32_MAX) + 1, VariantValueType::kInt64}};
  for (const auto& c : ints) {
    b.clear();
    b.append_int(c.v);
    Built built(b);
    EXPECT_EQ(built.variant().type(), c.t) << c.v;
    EXPECT_EQ(built.variant().get_int(), c.v);
  }
  const struct {
    VariantDecimal d;
    VariantValueType t;
  } decimals[] = {{{999999999, 0}, VariantValueType::kDecimal4},
                  {{1000000000, 0}, VariantValueType::kDecimal8},
                  {{1, 10}, VariantValueType::kDecimal8},  // precision = max(digits, scale)
                  {{__int128(999999999999999999LL), 2}, VariantValueType::kDecimal8},
                  {{__int128(1000000000000000000LL), 2}, VariantValueType::kDecimal16},
                  {{-5, 38}, VariantValueType::kDecimal16}};
  for (const auto& c : decimals) {
    b.clear();
    b.append_decimal(c.d);
    Built built(b);
    EXPECT_EQ(built.variant().type(), c.t);
    EXPECT_EQ(built.variant().get_decimal(), c.d);
  }
}

TEST(VariantBuilderTest, SharedDictionaryAcrossValues) {
  VariantBuilder b;
  std::vector<std::vector<uint8_t>> values;
  for (int row = 0; row < 3; ++row) {
    b.clear_value();
    b.start_object();
    b.field("common");
    b.append_int(row);
    b.field("only_" + std::to_string(row));
    b.append_boolean(true);
    b.finish_object();
    values.emplace_back(b.value().begin(), b.value().end());
  }
  const auto m = b.metadata();
  const std::vector<uint8_t> metadata(m.begin(), m.end());
  EXPECT_EQ(VariantMetadata(metadata).size(), 4u);
  for (int row = 0; row < 3; ++row) {
    const Variant v(VariantMetadata(metadata), values[row]);
    v.validate(kVariantMaxDepth, true);
    EXPECT_EQ(v.get_field("common")->get_int(), row);
    EXPECT_TRUE(v.get_field("only_" + std::to_string(row))->get_boolean());
    EXPECT_FALSE(v.get_field("only_" + std::to_string((row + 1) % 3)).has_value());
  }
  // load_dictionary() lets new values reference an existing metadata's ids.
  VariantBuilder other;
  other.load_dictionary(VariantMetadata(metadata));
  other.start_object();
  other.field("only_2");
  other.append_int(9);
  other.finish_object();
  const auto m2 = other.metadata();
  EXPECT_EQ(std::vector<uint8_t>(m2.begin(), m2.end()), metadata);
  const Variant v(VariantMetadata(metadata), other.value());
  EXPECT_EQ(v.get_field("only_2")->get_int(), 9);
}

TEST(VariantBuilderTest, SortedFlagWhenDictionaryIsAscending) {
  VariantBuilder b;
  b.start_object();
  b.field("a");
  b.append_null();
  b.field("b");
  b.append_null();
  b.finish_object();
  Built sorted(b);
  EXPECT_TRUE(sorted.metadata().sorted_strings());
  EXPECT_EQ(sorted.metadata().find("b"), 1u);
  b.clear();
  b.start_object();
  b.field("b");
  b.append_null();
  b.field("a");
  b.append_null();
  b.finish_object();
  Built unsorted(b);
  EXPECT_FALSE(unsorted.metadata().sorted_strings());
  EXPECT_EQ(unsorted.metadata().find("a"), 1u);
}

TEST(VariantBuilderTest, Misuse) {
  VariantBuilder b;
  EXPECT_THROW(b.value(), Error);
  EXPECT_THROW(b.field("x"), Error);
  EXPECT_THROW(b.finish_object(), Error);
  b.start_object();
  EXPECT_THROW(b.append_int(1), Error);  // no field name
  b.field("x");
  EXPECT_THROW(b.field("y"), Error);  // x has no value yet
  EXPECT_THROW(b.finish_object(), Error);
  b.append_int(1);
  EXPECT_THROW(b.finish_array(), Error);
  b.finish_object();
  EXPECT_THROW(b.append_int(2), Error);  // a second top-level value
  b.clear_value();
  b.append_int(2);
  EXPECT_EQ(Built(b).variant().get_int(), 2);
}

TEST(VariantBuilderTest, CopyAcrossDictionariesReinternsKeys) {
  VariantBuilder src;
  src.add_key("unused");
  src.start_object();
  src.field("z");
  src.start_array();
  src.append_string("deep");
  src.finish_array();
  src.field("y");
  src.append_int(5);
  src.finish_object();
  Built original(src);
  VariantBuilder dst;
  dst.start_array();
  dst.append_variant(original.variant());
  dst.append_variant(*original.variant().get_field("y"));
  dst.finish_array();
  Built copy(dst);
  EXPECT_EQ(copy.metadata().size(), 2u);  // "unused" is not copied
  EXPECT_EQ(variant_to_json(copy.variant()), R"([{"y":5,"z":["deep"]},5])");
}

TEST(VariantBuilderTest, CopyWithAnotherLoadedDictionaryIsRebuilt) {
  // Source: {"a": 1, "b": 2} against the dictionary [b, a].
  VariantBuilder src;
  src.add_key("b");
  src.start_object();
  src.field("a");
  src.append_int(1);
  src.field("b");
  src.append_int(2);
  src.finish_object();
  Built original(src);
  // Destination loaded with [a, b]: same keys, other ids, so no verbatim copy.
  VariantBuilder keys;
  keys.add_key("a");
  keys.add_key("b");
  const std::vector<uint8_t> ab(keys.metadata().begin(), keys.metadata().end());
  VariantBuilder dst;
  dst.load_dictionary(VariantMetadata(ab));
  dst.append_variant(original.variant());
  Built copy(dst);
  EXPECT_EQ(copy.metadata_bytes, ab);
  EXPECT_EQ(copy.variant().get_object().field_id(0), 0u);  // "a" is id 0 here, id 1 in the source
  EXPECT_EQ(original.variant().get_object().field_id(0), 1u);
  EXPECT_EQ(variant_to_json(copy.variant()), R"({"a":1,"b":2})");
}

TEST(VariantBuilderTest, ReuseKeepsKeyTableConsistent) {
  VariantBuilder b;
  for (int round = 0; round < 50; ++round) {
    b.clear();
    b.start_object();
    for (int i = 0; i < 40; ++i) {
      b.field("key" + std::to_string((i * 7 + round) % 40));
      b.append_int(i);
    }
    b.finish_object();
    Built built(b);
    EXPECT_EQ(built.metadata().size(), 40u);
    EXPECT_EQ(built.variant().get_object().size(), 40u);
  }
}

}  // namespace
}  // namespace parquetry
