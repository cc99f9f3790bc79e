// filter_rows (keep-bitmap compaction, used by merge-on-read): every kept
// row equals the source row, for reader batches of the public files (nested
// and dictionary arrays included) and for synthetic arrays of each layout at
// every length phase around the 8/16/64-row vector and word boundaries.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "json_text.h"
#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/table/filter_rows.h"
#include "parquetry/table/json_values.h"
#include "parquetry/util/bit_util.h"
#include "test_support.h"

namespace parquetry {
namespace {

using testing::value_json;

// A keep bitmap of n rows padded to whole words, each row kept with
// probability `keep_percent`; returns the kept count through `kept`.
std::vector<uint64_t> random_keep(std::mt19937_64& rng, int64_t n, int keep_percent, int64_t& kept) {
  std::vector<uint64_t> words(size_t((n + 63) / 64) + 1, 0);
  // Garbage past the last row: filter_rows must ignore it.
  for (auto& w : words) w = rng();
  kept = 0;
  for (int64_t i = 0; i < n; ++i) {
    const bool keep = int(rng() % 100) < keep_percent;
    if (keep) {
      words[size_t(i >> 6)] |= uint64_t(1) << (i & 63);
      ++kept;
    } else {
      words[size_t(i >> 6)] &= ~(uint64_t(1) << (i & 63));
    }
  }
  return words;
}

void expect_filtered(const ArrayData& source, const std::vector<uint64_t>& keep, int64_t kept) {
  const auto* bits = reinterpret_cast<const uint8_t*>(keep.data());
  auto out = filter_rows(source, bits, kept);
  ASSERT_EQ(out->length, kept);
  EXPECT_NO_THROW(out->validate());
  int64_t k = 0, nulls = 0;
  for (int64_t i = 0; i < source.length; ++i) {
    if (!bits::get_bit(bits, i)) continue;
    ASSERT_EQ(value_json(*out, k), value_json(source, i)) << "source row " << i << " -> " << k;
    EXPECT_EQ(out->is_valid(k), source.is_valid(i));
    nulls += !source.is_valid(i);
    ++k;
  }
  EXPECT_EQ(k, kept);
  EXPECT_EQ(out->null_count, nulls);
}

TEST(FilterRows, ReaderBatchesOfThePublicFiles) {
  const char* files[] = {"data/alltypes_plain.parquet",      "data/alltypes_plain.snappy.parquet",
                         "data/nested_lists.snappy.parquet", "data/nested_maps.snappy.parquet",
                         "data/nullable.impala.parquet",     "data/datapage_v2.snappy.parquet",
                         "data/byte_array_decimal.parquet",  "data/fixed_length_decimal.parquet",
                         "data/int32_decimal.parquet"};
  std::mt19937_64 rng(5);
  for (const char* name : files) {
    SCOPED_TRACE(name);
    for (bool dictionary : {false, true}) {
      ReaderOptions options;
      options.dictionary_arrays = dictionary;
      auto reader = FileReader::open(testing::parquet_testing(name).string(), options);
      for (const RecordBatch& batch : reader->read_all()) {
        for (int percent : {0, 30, 90, 100}) {
          int64_t kept = 0;
          auto keep = random_keep(rng, batch.num_rows, percent, kept);
          for (const auto& column : batch.columns) expect_filtered(*column, keep, kept);
          RecordBatch out = filter_rows(batch, reinterpret_cast<const uint8_t*>(keep.data()), kept);
          EXPECT_EQ(out.num_rows, kept);
          EXPECT_EQ(out.columns.size(), batch.columns.size());
        }
      }
    }
  }
}

BufferRef random_bytes(std::mt19937_64& rng, size_t n) {
  Buffer buffer(n);
  for (size_t i = 0; i < n; ++i) buffer.data()[i] = uint8_t(rng());
  return BufferRef::adopt(std::move(buffer));
}

// Fixed-width arrays of widths 1..16 (vector paths for 4 and 8 bytes, runs
// for the rest), bools and strings, with and without nulls, at array
// offsets of every bit phase.
TEST(FilterRows, SyntheticArraysAtEveryPhase) {
  std::mt19937_64 rng(17);
  const TypeId fixed[] = {TypeId::kInt8,  TypeId::kInt16,   TypeId::kInt32,
                          TypeId::kInt64, TypeId::kFloat64, TypeId::kDecimal128};
  // 8191..8193 and 20001: long arrays of every keep density (runs of kept
  // strings longer than one 16-lane vector at 97%).
  for (int64_t length : {1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 127, 128, 129, 1000, 8191, 8192, 8193, 20001}) {
    for (int64_t offset : {0, 1, 3, 8, 13}) {
      for (bool with_nulls : {false, true}) {
        for (int percent : {10, 50, 97}) {
          SCOPED_TRACE("length " + std::to_string(length) + " offset " + std::to_string(offset) + " nulls " +
                       std::to_string(with_nulls) + " keep% " + std::to_string(percent));
          const int64_t total = offset + length;
          BufferRef validity;
          int64_t nulls = 0;
          if (with_nulls) {
            Buffer bits_buffer(size_t(bits::bytes_for_bits(total)));
            for (size_t i = 0; i < bits_buffer.size(); ++i) bits_buffer.data()[i] = uint8_t(rng() | 0x21);
            for (int64_t i = 0; i < length; ++i) nulls += !bits::get_bit(bits_buffer.data(), offset + i);
            validity = BufferRef::adopt(std::move(bits_buffer));
          }
          int64_t kept = 0;
          auto keep = random_keep(rng, length, percent, kept);
          for (TypeId id : fixed) {
            ArrayData array;
            array.type = std::make_shared<DataType>(id == TypeId::kDecimal128 ? DataType::decimal(30, 2)
                                                                              : DataType::make(id));
            array.length = length;
            array.offset = offset;
            array.null_count = nulls;
            array.buffers = {validity, random_bytes(rng, size_t(total) * size_t(array.type->fixed_width()))};
            expect_filtered(array, keep, kept);
          }
          {
            ArrayData array;
            array.type = std::make_shared<DataType>(DataType::make(TypeId::kBool));
            array.length = length;
            array.offset = offset;
            array.null_count = nulls;
            array.buffers = {validity, random_bytes(rng, size_t(bits::bytes_for_bits(total)))};
            expect_filtered(array, keep, kept);
          }
          {
            std::vector<int32_t> offsets{0};
            std::string text;
            for (int64_t i = 0; i < total; ++i) {
              text += std::string(size_t(rng() % 5), char('a' + i % 26));
              offsets.push_back(int32_t(text.size()));
            }
            ArrayData array;
            array.type = std::make_shared<DataType>(DataType::make(TypeId::kString));
            array.length = length;
            array.offset = offset;
            array.null_count = nulls;
            Buffer offset_buffer(offsets.size() * 4);
            std::memcpy(offset_buffer.data(), offsets.data(), offsets.size() * 4);
            Buffer text_buffer(text.size());
            if (!text.empty()) std::memcpy(text_buffer.data(), text.data(), text.size());
            array.buffers = {validity, BufferRef::adopt(std::move(offset_buffer)),
                             BufferRef::adopt(std::move(text_buffer))};
            expect_filtered(array, keep, kept);
            // The same strings with 64-bit offsets (runs shifted 8 lanes a vector).
            std::vector<int64_t> wide(offsets.begin(), offsets.end());
            Buffer wide_buffer(wide.size() * 8);
            std::memcpy(wide_buffer.data(), wide.data(), wide.size() * 8);
            ArrayData large = array;
            large.type = std::make_shared<DataType>(DataType::make(TypeId::kLargeString));
            large.buffers[1] = BufferRef::adopt(std::move(wide_buffer));
            expect_filtered(large, keep, kept);
          }
        }
      }
    }
  }
}

TEST(FilterRows, RejectsAKeptCountOutsideTheArray) {
  ArrayData array;
  array.type = std::make_shared<DataType>(DataType::make(TypeId::kInt64));
  array.length = 4;
  Buffer values(32);
  array.buffers = {BufferRef{}, BufferRef::adopt(std::move(values))};
  const uint64_t keep = 0xF;
  EXPECT_THROW(filter_rows(array, reinterpret_cast<const uint8_t*>(&keep), 5), Error);
  EXPECT_THROW(filter_rows(array, reinterpret_cast<const uint8_t*>(&keep), -1), Error);
  // Strings: a kept count that disagrees with the bitmap is refused, never
  // written past the offsets sized from it.
  ArrayData strings;
  strings.type = std::make_shared<DataType>(DataType::make(TypeId::kString));
  strings.length = 4;
  const int32_t offsets[] = {0, 1, 2, 3, 4};
  Buffer offset_buffer(sizeof(offsets));
  std::memcpy(offset_buffer.data(), offsets, sizeof(offsets));
  Buffer text(4);
  std::memcpy(text.data(), "abcd", 4);
  strings.buffers = {BufferRef{}, BufferRef::adopt(std::move(offset_buffer)),
                     BufferRef::adopt(std::move(text))};
  EXPECT_THROW(filter_rows(strings, reinterpret_cast<const uint8_t*>(&keep), 2), Error);
  const uint64_t two = 0x5;
  EXPECT_THROW(filter_rows(strings, reinterpret_cast<const uint8_t*>(&two), 3), Error);
  auto kept = filter_rows(strings, reinterpret_cast<const uint8_t*>(&two), 2);
  ASSERT_EQ(kept->length, 2);
  EXPECT_EQ(value_json(*kept, 0), "\"a\"");
  EXPECT_EQ(value_json(*kept, 1), "\"c\"");
}

}  // namespace
}  // namespace parquetry
