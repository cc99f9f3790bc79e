// decode_dictionary: a dictionary array's rows as a plain array of its
// value type, for fixed-width values and strings, with nulls, slices and
// indices outside the dictionary.
#include "parquetry/table/decode_dictionary.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/util/buffer.h"

namespace parquetry {
namespace {

template <typename T>
BufferRef buffer_of(const std::vector<T>& values) {
  Buffer buffer;
  buffer.append(values.data(), values.size() * sizeof(T));
  return BufferRef::adopt(std::move(buffer));
}

BufferRef bitmap_of(const std::vector<bool>& valid) {
  Buffer buffer((valid.size() + 7) / 8);
  std::memset(buffer.data(), 0, buffer.size());
  for (size_t i = 0; i < valid.size(); ++i) {
    if (valid[i]) buffer.data()[i / 8] |= uint8_t(1u << (i % 8));
  }
  return BufferRef::adopt(std::move(buffer));
}

std::shared_ptr<ArrayData> plain(DataType type, int64_t length, std::vector<BufferRef> buffers) {
  auto array = std::make_shared<ArrayData>();
  array->type = std::make_shared<const DataType>(std::move(type));
  array->length = length;
  array->buffers = std::move(buffers);
  return array;
}

// A dictionary array over `dictionary` with `indices`; `valid` empty = no nulls.
std::shared_ptr<ArrayData> dictionary_array(std::shared_ptr<ArrayData> dictionary,
                                            std::vector<int32_t> indices,
                                            const std::vector<bool>& valid = {}) {
  auto array = std::make_shared<ArrayData>();
  array->type = std::make_shared<const DataType>(DataType::dictionary(*dictionary->type));
  array->length = int64_t(indices.size());
  for (bool v : valid) array->null_count += !v;
  array->buffers = {valid.empty() ? BufferRef{} : bitmap_of(valid), buffer_of(indices)};
  array->dictionary = std::move(dictionary);
  return array;
}

std::vector<std::string> strings_of(const ArrayData& a) {
  std::vector<std::string> out;
  const int32_t* offsets = a.buffers[1].as<int32_t>() + a.offset;
  for (int64_t i = 0; i < a.length; ++i) {
    out.emplace_back(reinterpret_cast<const char*>(a.buffers[2].data) + offsets[i],
                     size_t(offsets[i + 1] - offsets[i]));
  }
  return out;
}

TEST(DecodeDictionary, DoublesWithNullsTakeTheirEntriesAndNullsAreZero) {
  auto dictionary =
      plain(DataType::make(TypeId::kFloat64), 3, {BufferRef{}, buffer_of<double>({2.5, -1.0, 7.0})});
  // Row 3 is null and points outside the dictionary: allowed, it reads as 0.
  auto array = dictionary_array(dictionary, {2, 0, 1, 99, 2, 0}, {true, true, true, false, true, true});
  auto out = decode_dictionary(*array);
  EXPECT_EQ(out->type->id, TypeId::kFloat64);
  ASSERT_EQ(out->length, 6);
  EXPECT_EQ(out->null_count, 1);
  const double* values = out->buffers[1].as<double>();
  EXPECT_EQ(std::vector<double>(values, values + 6), (std::vector<double>{7.0, 2.5, -1.0, 0.0, 7.0, 2.5}));
  EXPECT_TRUE(out->is_valid(2));
  EXPECT_FALSE(out->is_valid(3));
  out->validate();
}

TEST(DecodeDictionary, EveryFixedWidth) {
  auto bytes = plain(DataType::make(TypeId::kInt8), 2, {BufferRef{}, buffer_of<int8_t>({-7, 100})});
  auto out8 = decode_dictionary(*dictionary_array(bytes, {1, 1, 0}));
  EXPECT_EQ(std::vector<int8_t>(out8->buffers[1].as<int8_t>(), out8->buffers[1].as<int8_t>() + 3),
            (std::vector<int8_t>{100, 100, -7}));
  auto shorts = plain(DataType::make(TypeId::kInt16), 2, {BufferRef{}, buffer_of<int16_t>({-300, 12})});
  auto out16 = decode_dictionary(*dictionary_array(shorts, {0, 1}));
  EXPECT_EQ(out16->buffers[1].as<int16_t>()[0], -300);
  EXPECT_EQ(out16->buffers[1].as<int16_t>()[1], 12);
  auto ints = plain(DataType::make(TypeId::kDate32), 2, {BufferRef{}, buffer_of<int32_t>({19000, -5})});
  auto out32 = decode_dictionary(*dictionary_array(ints, {1, 0, 1}));
  EXPECT_EQ(out32->type->id, TypeId::kDate32);
  EXPECT_EQ(std::vector<int32_t>(out32->buffers[1].as<int32_t>(), out32->buffers[1].as<int32_t>() + 3),
            (std::vector<int32_t>{-5, 19000, -5}));
  // Sixteen-byte values (a UUID-like fixed_size_binary) go through the generic copy.
  std::vector<uint8_t> sixteen(32);
  for (size_t i = 0; i < sixteen.size(); ++i) sixteen[i] = uint8_t(i);
  auto uuids = plain(DataType::fixed_size_binary(16), 2, {BufferRef{}, buffer_of<uint8_t>(sixteen)});
  auto out128 = decode_dictionary(*dictionary_array(uuids, {1, 0}));
  EXPECT_EQ(out128->buffers[1].data[0], 16);
  EXPECT_EQ(out128->buffers[1].data[15], 31);
  EXPECT_EQ(out128->buffers[1].data[16], 0);
  EXPECT_EQ(out128->buffers[1].data[31], 15);
}

TEST(DecodeDictionary, StringsWithNullsAndASlice) {
  auto dictionary = plain(DataType::make(TypeId::kString), 3,
                          {BufferRef{}, buffer_of<int32_t>({0, 3, 3, 8}),
                           buffer_of<char>({'a', 'b', 'c', 'h', 'e', 'l', 'l', 'o'})});
  auto array = dictionary_array(dictionary, {2, 1, 0, 7, 2, 0, 2, 1, 0, 0},
                                {true, true, true, false, true, true, true, true, true, true});
  auto whole = decode_dictionary(*array);
  EXPECT_EQ(strings_of(*whole),
            (std::vector<std::string>{"hello", "", "abc", "", "hello", "abc", "hello", "", "abc", "abc"}));
  EXPECT_EQ(whole->null_count, 1);
  EXPECT_FALSE(whole->is_valid(3));
  whole->validate();
  // Rows 3..9 (offset 3: the validity is copied, not shared at a bit offset).
  auto sliced = std::make_shared<ArrayData>(*array);
  sliced->offset = 3;
  sliced->length = 7;
  auto part = decode_dictionary(*sliced);
  EXPECT_EQ(strings_of(*part), (std::vector<std::string>{"", "hello", "abc", "hello", "", "abc", "abc"}));
  EXPECT_FALSE(part->is_valid(0));
  EXPECT_TRUE(part->is_valid(1));
  part->validate();
}

TEST(DecodeDictionary, AValidRowOutsideTheDictionaryIsAnError) {
  auto dictionary = plain(DataType::make(TypeId::kInt64), 2, {BufferRef{}, buffer_of<int64_t>({1, 2})});
  EXPECT_THROW(decode_dictionary(*dictionary_array(dictionary, {0, 2})), Error);
  EXPECT_THROW(decode_dictionary(*dictionary_array(dictionary, {-1, 0})), Error);
  auto strings = plain(DataType::make(TypeId::kString), 1,
                       {BufferRef{}, buffer_of<int32_t>({0, 1}), buffer_of<char>({'x'})});
  EXPECT_THROW(decode_dictionary(*dictionary_array(strings, {0, 5}, {true, true})), Error);
  // An empty dictionary: only null rows may point into it.
  auto empty = plain(DataType::make(TypeId::kInt64), 0, {BufferRef{}, BufferRef{}});
  auto all_null = decode_dictionary(*dictionary_array(empty, {0, 0}, {false, false}));
  EXPECT_EQ(all_null->null_count, 2);
  EXPECT_EQ(all_null->buffers[1].as<int64_t>()[1], 0);
  EXPECT_THROW(decode_dictionary(*dictionary_array(empty, {0}, {true})), Error);
}

TEST(DecodeDictionary, RefusesWhatItCannotDecode) {
  EXPECT_FALSE(can_decode_dictionary(DataType::make(TypeId::kBool)));
  EXPECT_FALSE(can_decode_dictionary(DataType::make(TypeId::kLargeString)));
  EXPECT_TRUE(can_decode_dictionary(DataType::make(TypeId::kBinary)));
  EXPECT_TRUE(can_decode_dictionary(DataType::decimal(10, 2)));
  auto plain_int = plain(DataType::make(TypeId::kInt64), 1, {BufferRef{}, buffer_of<int64_t>({1})});
  EXPECT_THROW(decode_dictionary(*plain_int), Error);
}

}  // namespace
}  // namespace parquetry
