// ScanAccumulator's string min/max (compared by an 8-byte prefix key first)
// equals std::string ordering: short and long strings, shared prefixes of
// 8 bytes and more, embedded zero bytes, bytes above 0x7F, the empty string,
// nulls, sliced arrays, and strings that end at the very end of their data
// buffer (no byte past it is read).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parquetry/array_builder.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"

namespace parquetry {
namespace {

std::string random_string(std::mt19937_64& rng) {
  static const char alphabet[] = {'\0', 'a', 'b', '\x7f', '\x80', '\xff'};
  const size_t length = size_t(rng() % 14);
  std::string s = rng() % 3 == 0 ? std::string("abcdefgh") : std::string();  // a shared 8-byte prefix
  for (size_t i = 0; i < length; ++i) s += alphabet[rng() % sizeof(alphabet)];
  return s;
}

TEST(FoldStrings, MinAndMaxFollowByteOrder) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 300; ++round) {
    const Field field{"s", DataType::make(round % 2 ? TypeId::kLargeBinary : TypeId::kString), true, -1, {}};
    ArrayBuilder builder(field);
    std::vector<std::string> values;
    const int n = 1 + int(rng() % 40);
    for (int i = 0; i < n; ++i) {
      if (rng() % 7 == 0) {
        builder.append_null();
        values.emplace_back();
        continue;
      }
      values.push_back(random_string(rng));
      builder.append_bytes(values.back());
    }
    auto array = builder.finish();
    // A slice from a random row, so offsets do not start at 0.
    const int64_t from = int64_t(rng() % uint64_t(n));
    auto part = slice(array, from, n - from);
    BatchSchema schema;
    schema.fields = {field};
    RecordBatch batch;
    batch.schema = std::make_shared<const BatchSchema>(schema);
    batch.num_rows = part->length;
    batch.columns = {part};
    ScanAccumulator accumulator(schema);
    accumulator.add(batch);
    const ColumnScanSummary& got = accumulator.summary().columns[0];
    std::vector<std::string> present;
    for (int64_t i = from; i < n; ++i) {
      if (array->is_valid(i)) present.push_back(values[size_t(i)]);
    }
    SCOPED_TRACE("round " + std::to_string(round));
    ASSERT_EQ(got.count, int64_t(present.size()));
    if (present.empty()) continue;
    EXPECT_EQ(std::get<std::string>(got.min), *std::min_element(present.begin(), present.end()));
    EXPECT_EQ(std::get<std::string>(got.max), *std::max_element(present.begin(), present.end()));
  }
}

TEST(FoldStrings, StringsEndingAtTheBufferEndAreReadInBounds) {
  // Hand-made buffers with no padding byte past the data: a reader of 8
  // bytes past a short string's start would leave the buffer (ASan).
  const std::string text =
      "zzzb"
      "a"
      "zc";
  const int32_t offsets[] = {0, 4, 5, 7};
  ArrayData array;
  array.type = std::make_shared<DataType>(DataType::make(TypeId::kString));
  array.length = 3;
  Buffer offset_buffer(sizeof(offsets));
  std::memcpy(offset_buffer.data(), offsets, sizeof(offsets));
  auto exact = std::make_shared<std::vector<uint8_t>>(text.begin(), text.end());
  array.buffers = {BufferRef{}, BufferRef::adopt(std::move(offset_buffer)),
                   BufferRef{exact->data(), int64_t(exact->size()), exact}};
  BatchSchema schema;
  schema.fields = {Field{"s", *array.type, false, -1, {}}};
  RecordBatch batch;
  batch.schema = std::make_shared<const BatchSchema>(schema);
  batch.num_rows = 3;
  batch.columns = {std::make_shared<ArrayData>(array)};
  ScanAccumulator accumulator(schema);
  accumulator.add(batch);
  EXPECT_EQ(std::get<std::string>(accumulator.summary().columns[0].min), "a");
  EXPECT_EQ(std::get<std::string>(accumulator.summary().columns[0].max), "zzzb");

  // Only empty strings, with no data buffer at all (nothing may be read).
  const int32_t zeros[] = {0, 0, 0};
  Buffer zero_offsets(sizeof(zeros));
  std::memcpy(zero_offsets.data(), zeros, sizeof(zeros));
  ArrayData empty;
  empty.type = array.type;
  empty.length = 2;
  empty.buffers = {BufferRef{}, BufferRef::adopt(std::move(zero_offsets)), BufferRef{}};
  batch.num_rows = 2;
  batch.columns = {std::make_shared<ArrayData>(empty)};
  ScanAccumulator empties(schema);
  empties.add(batch);
  EXPECT_EQ(empties.summary().columns[0].count, 2);
  EXPECT_EQ(std::get<std::string>(empties.summary().columns[0].min), "");
  EXPECT_EQ(std::get<std::string>(empties.summary().columns[0].max), "");
}

}  // namespace
}  // namespace parquetry
