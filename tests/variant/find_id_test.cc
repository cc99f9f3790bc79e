// Field lookup by dictionary id (VariantObject::find_id,
// variant_field_bytes_by_id): agrees with lookup by name for every key of
// objects over sorted and unsorted dictionaries, with 1- and 2-byte ids and
// is_large objects; absent ids, non-objects and truncated objects.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/variant.h"
#include "parquetry/variant_builder.h"

namespace parquetry {
namespace {

struct Owned {
  std::vector<uint8_t> metadata;
  std::vector<uint8_t> value;
};

// An object of `fields` int fields (value = field number) whose keys enter
// the dictionary in ascending order (sorted dictionary) or descending order
// (unsorted), after `filler` keys of an earlier value sharing the
// dictionary, which push the object's ids past one byte.
Owned build(uint32_t fields, bool ascending, uint32_t filler) {
  VariantBuilder b;
  char key[16];
  if (filler > 0) {
    b.start_object();
    for (uint32_t i = 0; i < filler; ++i) {
      std::snprintf(key, sizeof(key), "a%05u", i);  // sorts before the real keys
      b.field(key);
      b.append_null();
    }
    b.finish_object();
    b.clear_value();
  }
  b.start_object();
  for (uint32_t j = 0; j < fields; ++j) {
    const uint32_t i = ascending ? j : fields - 1 - j;
    std::snprintf(key, sizeof(key), "k%05u", i);
    b.field(key);
    b.append_int(int64_t(i));
  }
  b.finish_object();
  Owned out;
  out.metadata.assign(b.metadata().begin(), b.metadata().end());
  out.value.assign(b.value().begin(), b.value().end());
  return out;
}

void expect_lookups_agree(const Owned& o, uint32_t fields, bool sorted) {
  const VariantMetadata metadata(o.metadata);
  ASSERT_EQ(metadata.sorted_strings(), sorted);
  const Variant v(metadata, o.value);
  v.validate();
  const VariantObject object = v.get_object();
  char key[16];
  for (uint32_t i = 0; i < fields; ++i) {
    std::snprintf(key, sizeof(key), "k%05u", i);
    const std::optional<uint32_t> id = metadata.find(key);
    ASSERT_TRUE(id.has_value()) << key;
    const std::optional<Variant> by_id = object.find_id(*id);
    ASSERT_TRUE(by_id.has_value()) << key;
    EXPECT_EQ(by_id->get_int(), int64_t(i)) << key;
    const std::span<const uint8_t> bytes = variant_field_bytes_by_id(o.value, *id, sorted);
    ASSERT_FALSE(bytes.empty()) << key;
    EXPECT_EQ(bytes.data(), object.find(key)->bytes().data()) << key;
  }
  // An id of the dictionary that the object does not use, and ids past it.
  if (const std::optional<uint32_t> unused = metadata.find("a00000")) {
    EXPECT_FALSE(object.find_id(*unused).has_value());
    EXPECT_TRUE(variant_field_bytes_by_id(o.value, *unused, sorted).empty());
  }
  EXPECT_FALSE(object.find_id(metadata.size()).has_value());
  EXPECT_FALSE(object.find_id(0xFFFFFFu).has_value());
}

TEST(VariantFindId, AgreesWithNameLookup) {
  for (bool ascending : {true, false}) {
    SCOPED_TRACE(ascending ? "sorted dictionary" : "unsorted dictionary");
    expect_lookups_agree(build(5, ascending, 0), 5, ascending);      // small object, 1-byte ids
    expect_lookups_agree(build(40, ascending, 0), 40, ascending);    // beyond the short scan
    expect_lookups_agree(build(300, ascending, 0), 300, ascending);  // 2-byte ids, is_large
    expect_lookups_agree(build(20, ascending, 280), 20, ascending);  // 2-byte ids, small object
    expect_lookups_agree(build(3, ascending, 70000), 3, ascending);  // 3-byte ids
  }
}

TEST(VariantFindId, NonObjectsAndTruncation) {
  const Owned o = build(5, false, 0);
  const VariantMetadata metadata(o.metadata);
  const uint32_t id = *metadata.find("k00002");
  // Not an object: a string, an array.
  const std::vector<uint8_t> short_string = {uint8_t(1 | (2 << 2)), 'h', 'i'};
  EXPECT_TRUE(variant_field_bytes_by_id(short_string, id, false).empty());
  const std::vector<uint8_t> array = {0x03, 0x00, 0x00};
  EXPECT_TRUE(variant_field_bytes_by_id(array, 0, false).empty());
  EXPECT_TRUE(variant_field_bytes_by_id({}, 0, false).empty());
  // Every truncation of the object either still finds the field's bytes
  // inside the truncated buffer or throws kCorrupt.
  for (size_t size = 1; size < o.value.size(); ++size) {
    const std::span<const uint8_t> cut(o.value.data(), size);
    try {
      const std::span<const uint8_t> bytes = variant_field_bytes_by_id(cut, id, false);
      EXPECT_TRUE(bytes.empty() || bytes.data() + bytes.size() <= cut.data() + cut.size());
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kCorrupt) << size;
    }
  }
}

}  // namespace
}  // namespace parquetry
