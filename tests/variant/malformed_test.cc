// Hostile variants: every malformation yields a parquetry::Error with the
// right code, never a crash (this binary runs under ASan+UBSan).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/variant.h"
#include "parquetry/variant_builder.h"
#include "parquetry/variant_json.h"
#include "test_support.h"

namespace parquetry {
namespace {

using Bytes = std::vector<uint8_t>;

const char* kCases[] = {
    "array_nested",     "array_primitive", "object_empty",           "object_primitive",
    "primitive_binary", "primitive_date",  "primitive_decimal16",    "primitive_decimal4",
    "primitive_int16",  "primitive_int64", "primitive_int8",         "primitive_null",
    "primitive_string", "primitive_time",  "primitive_timestamp",    "primitive_timestampntz_nanos",
    "primitive_uuid",   "short_string",    "primitive_boolean_true",
};

Bytes load(const std::string& file) {
  return testing::read_bytes(testing::parquet_testing("variant/" + file));
}

// Everything a reader might do with an untrusted variant.
void exercise(const Bytes& metadata, const Bytes& value) {
  const Variant v(VariantMetadata(metadata), value);
  v.validate(kVariantMaxDepth, true);
  std::string json;
  variant_to_json(v, json);
  VariantBuilder b;
  b.append_variant(v);
}

ErrorCode code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "no parquetry::Error thrown";
  return ErrorCode::kInternal;
}

ErrorCode validate_code(const Bytes& metadata, const Bytes& value) {
  return code_of([&] { exercise(metadata, value); });
}

TEST(VariantMalformedTest, TruncationAtEveryByte) {
  for (const char* name : kCases) {
    SCOPED_TRACE(name);
    const Bytes metadata = load(std::string(name) + ".metadata");
    const Bytes value = load(std::string(name) + ".value");
    exercise(metadata, value);  // the intact pair is fine
    for (size_t n = 0; n < value.size(); ++n) {
      const Bytes cut(value.begin(), value.begin() + n);
      EXPECT_EQ(validate_code(metadata, cut), ErrorCode::kCorrupt) << "value cut at " << n;
    }
    for (size_t n = 0; n < metadata.size(); ++n) {
      const Bytes cut(metadata.begin(), metadata.begin() + n);
      EXPECT_EQ(validate_code(cut, value), ErrorCode::kCorrupt) << "metadata cut at " << n;
    }
  }
}

// Every byte replaced by several patterns: the outcome may be success or an
// Error, never anything else. Sanitizers catch out-of-range reads.
TEST(VariantMalformedTest, ByteMutationSweepNeverCrashes) {
  int errors = 0, accepted = 0;
  for (const char* name : kCases) {
    const Bytes metadata = load(std::string(name) + ".metadata");
    const Bytes value = load(std::string(name) + ".value");
    for (int target = 0; target < 2; ++target) {
      const Bytes& original = target == 0 ? value : metadata;
      for (size_t i = 0; i < original.size(); ++i) {
        for (uint8_t pattern : {0x00, 0xFF, 0x01, 0x80, 0x7F, 0x40}) {
          Bytes mutated = original;
          mutated[i] = pattern == 0x01   ? uint8_t(original[i] ^ 1)
                       : pattern == 0x80 ? uint8_t(original[i] ^ 0x80)
                                         : pattern;
          try {
            if (target == 0) {
              exercise(metadata, mutated);
            } else {
              exercise(mutated, value);
            }
            ++accepted;
          } catch (const Error&) {
            ++errors;
          }
        }
      }
    }
  }
  EXPECT_GT(errors, 0);
  EXPECT_GT(accepted, 0);
}

TEST(VariantMalformedTest, Metadata) {
  const Bytes value = {0x00};
  EXPECT_EQ(validate_code({0x02, 0x00, 0x00}, value), ErrorCode::kCorrupt);  // version 2
  EXPECT_EQ(validate_code({0x00, 0x00, 0x00}, value), ErrorCode::kCorrupt);  // version 0
  EXPECT_EQ(validate_code({}, value), ErrorCode::kCorrupt);
  // Dictionary of 200 keys in a 4-byte buffer.
  EXPECT_EQ(validate_code({0x01, 200, 0, 0}, value), ErrorCode::kCorrupt);
  // Last offset beyond the string bytes.
  EXPECT_EQ(validate_code({0x01, 1, 0, 5, 'a'}, value), ErrorCode::kCorrupt);
  // First offset not 0.
  EXPECT_EQ(validate_code({0x01, 1, 1, 1, 'a'}, value), ErrorCode::kCorrupt);
  // Offsets decrease.
  EXPECT_EQ(validate_code({0x01, 2, 0, 2, 1, 'a', 'b'}, value), ErrorCode::kCorrupt);
  // Invalid UTF-8 key (lone continuation byte, overlong encoding).
  EXPECT_EQ(validate_code({0x01, 1, 0, 1, 0x80}, value), ErrorCode::kCorrupt);
  EXPECT_EQ(validate_code({0x01, 1, 0, 2, 0xC0, 0xAF}, value), ErrorCode::kCorrupt);
  // sorted_strings set but unsorted / duplicated.
  EXPECT_EQ(validate_code({0x11, 2, 0, 1, 2, 'b', 'a'}, value), ErrorCode::kCorrupt);
  EXPECT_EQ(validate_code({0x11, 2, 0, 1, 2, 'a', 'a'}, value), ErrorCode::kCorrupt);
  // The same keys without the flag are fine (duplicates allowed in an unsorted dictionary).
  exercise({0x01, 2, 0, 1, 2, 'a', 'a'}, value);
  exercise({0x11, 2, 0, 1, 2, 'a', 'b'}, value);
  // Key lookup outside the dictionary.
  const Bytes meta = {0x01, 1, 0, 1, 'a'};
  EXPECT_EQ(code_of([&] { (void)VariantMetadata(meta).key(1); }), ErrorCode::kCorrupt);
  // 4-byte dictionary size near 2^32 must not overflow the size arithmetic.
  EXPECT_EQ(validate_code({0xC1, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0}, value), ErrorCode::kCorrupt);
}

TEST(VariantMalformedTest, Objects) {
  const Bytes meta = {0x01, 2, 0, 1, 2, 'a', 'b'};  // a=0, b=1
  // Good: {"a": 1, "b": true}
  exercise(meta, {0x02, 2, 0, 1, 0, 2, 3, 0x0C, 1, 0x04});
  // Keys unsorted (b before a).
  EXPECT_EQ(validate_code(meta, {0x02, 2, 1, 0, 0, 2, 3, 0x0C, 1, 0x04}), ErrorCode::kCorrupt);
  // Duplicate key id, and duplicate key text under different ids.
  EXPECT_EQ(validate_code(meta, {0x02, 2, 0, 0, 0, 2, 3, 0x0C, 1, 0x04}), ErrorCode::kCorrupt);
  EXPECT_EQ(validate_code({0x01, 2, 0, 1, 2, 'a', 'a'}, {0x02, 2, 0, 1, 0, 2, 3, 0x0C, 1, 0x04}),
            ErrorCode::kCorrupt);
  // Field id out of range.
  EXPECT_EQ(validate_code(meta, {0x02, 1, 7, 0, 1, 0x00}), ErrorCode::kCorrupt);
  // Field offset beyond the data.
  EXPECT_EQ(validate_code(meta, {0x02, 1, 0, 9, 1, 0x00}), ErrorCode::kCorrupt);
  // Last offset beyond the buffer.
  EXPECT_EQ(validate_code(meta, {0x02, 1, 0, 0, 50, 0x00}), ErrorCode::kCorrupt);
  // Child longer than the object's data (int64 header with 1 data byte).
  EXPECT_EQ(validate_code(meta, {0x02, 1, 0, 0, 1, 0x18, 0, 0, 0, 0, 0, 0, 0, 0}), ErrorCode::kCorrupt);
  // Element count larger than the buffer (is_large, 2^32-1 fields).
  EXPECT_EQ(validate_code(meta, {0x42, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0}), ErrorCode::kCorrupt);
  // Lookups on an unvalidated object never read out of range.
  const Bytes bad = {0x02, 2, 1, 9, 0, 2, 3, 0x0C, 1, 0x04};
  const Variant v(VariantMetadata(meta), bad);
  EXPECT_EQ(code_of([&] { (void)v.get_field("zzz"); }), ErrorCode::kCorrupt);
}

TEST(VariantMalformedTest, ArraysStringsAndPrimitives) {
  const Bytes meta = {0x01, 0, 0};
  exercise(meta, {0x03, 2, 0, 1, 2, 0x00, 0x04});
  EXPECT_EQ(validate_code(meta, {0x03, 2, 0, 5, 2, 0x00, 0x04}), ErrorCode::kCorrupt);  // offset out of data
  EXPECT_EQ(validate_code(meta, {0x03, 2, 0, 1, 9, 0x00, 0x04}), ErrorCode::kCorrupt);  // data past buffer
  EXPECT_EQ(validate_code(meta, {0x13, 0xFF, 0xFF, 0xFF, 0x7F, 0}), ErrorCode::kCorrupt);  // huge count
  // Strings: bad UTF-8 (short and long), surrogate code point, length past the end.
  EXPECT_EQ(validate_code(meta, {0x09, 0xFF, 'a'}), ErrorCode::kCorrupt);
  EXPECT_EQ(validate_code(meta, {0x40, 2, 0, 0, 0, 'a', 0xC3}), ErrorCode::kCorrupt);
  EXPECT_EQ(validate_code(meta, {0x0D, 0xED, 0xA0, 0x80}), ErrorCode::kCorrupt);
  EXPECT_EQ(validate_code(meta, {0x40, 0xFF, 0xFF, 0xFF, 0xFF, 'a'}), ErrorCode::kCorrupt);
  EXPECT_EQ(validate_code(meta, {0x3C, 0x10, 0, 0, 0, 1}), ErrorCode::kCorrupt);  // binary
  // Decimal scale 39.
  EXPECT_EQ(validate_code(meta, {0x20, 39, 1, 0, 0, 0}), ErrorCode::kCorrupt);
  // Unknown primitive id 21: unsupported, not corrupt.
  EXPECT_EQ(validate_code(meta, {uint8_t(21 << 2)}), ErrorCode::kUnsupported);
  // Time outside one day cannot be rendered, and validation rejects it too
  // (the shredded fuzzer found a value that validated but could not render).
  EXPECT_EQ(code_of([&] {
              const Bytes t = {0x44, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
              (void)variant_to_json(Variant(VariantMetadata(meta), t));
            }),
            ErrorCode::kCorrupt);
  // 86,400,000,000 us = 0x141DD76000: midnight of the next day.
  EXPECT_EQ(validate_code(meta, {0x44, 0x00, 0x60, 0xD7, 0x1D, 0x14, 0, 0, 0}), ErrorCode::kCorrupt);
  {
    // One microsecond earlier is the last valid time of day.
    const Bytes last = {0x44, 0xFF, 0x5F, 0xD7, 0x1D, 0x14, 0, 0, 0};
    const Variant v(VariantMetadata(meta), last);
    v.validate(kVariantMaxDepth, true);
    EXPECT_EQ(v.get_time_ntz_micros(), 86'399'999'999);
    EXPECT_EQ(variant_to_json(v), "\"23:59:59.999999\"");
  }
  // Trailing bytes after the value when an exact size is required.
  EXPECT_EQ(code_of([&] {
              const Bytes extra = {0x00, 0x00};
              Variant(VariantMetadata(meta), extra).validate(kVariantMaxDepth, true);
            }),
            ErrorCode::kCorrupt);
  // An empty value buffer.
  EXPECT_EQ(code_of([&] { Variant(VariantMetadata(meta), Bytes{}); }), ErrorCode::kCorrupt);
}

TEST(VariantMalformedTest, NestingDepthIsBounded) {
  // 100 nested single-element arrays around a null.
  Bytes value;
  VariantBuilder b;
  for (int i = 0; i < 100; ++i) b.start_array();
  b.append_null();
  for (int i = 0; i < 100; ++i) b.finish_array();
  const Bytes meta = {0x01, 0, 0};
  value.assign(b.value().begin(), b.value().end());
  EXPECT_EQ(validate_code(meta, value), ErrorCode::kLimitExceeded);
  const Variant v(VariantMetadata(meta), value);
  v.validate(200, true);  // a larger explicit limit accepts it
  std::string json;
  EXPECT_EQ(code_of([&] { variant_to_json(v, json); }), ErrorCode::kLimitExceeded);
  json.clear();  // the failed attempt left a partial prefix
  variant_to_json(v, json, 200);
  EXPECT_EQ(json, std::string(100, '[') + "null" + std::string(100, ']'));
}

}  // namespace
}  // namespace parquetry
