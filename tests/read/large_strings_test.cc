// Strings too long for one batch: parquet-testing's large_string_map (a
// MAP<string, int32> whose two keys are 1 GiB each, from parquet-cpp-arrow
// 11) reads with the default options as two one-row batches, the key bytes
// and values checked; read whole, the row group fails by name rather than
// wrapping 32-bit offsets. Needs about 4.2 GB of memory, so the public-file
// sweeps leave this file to this test (testing::needs_gigabytes).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "test_support.h"

namespace parquetry {
namespace {

constexpr int64_t kKeyBytes = int64_t(1) << 30;

std::string path() { return testing::parquet_testing("data/large_string_map.brotli.parquet").string(); }

// Whether all `size` bytes at `data` are `byte` (memcmp against a block, so
// a sanitized build checks 1 GiB in about a second).
bool all_bytes_are(const uint8_t* data, int64_t size, uint8_t byte) {
  static const std::vector<uint8_t> block(1 << 20, byte);
  for (int64_t at = 0; at < size; at += int64_t(block.size())) {
    const size_t n = size_t(std::min<int64_t>(int64_t(block.size()), size - at));
    if (std::memcmp(data + at, block.data(), n) != 0) return false;
  }
  return true;
}

TEST(LargeStrings, GigabyteMapKeysStreamInBatchesThatFitTheirOffsets) {
  ASSERT_TRUE(testing::needs_gigabytes(path()));
  auto reader = FileReader::open(path());
  auto batches = reader->batches();
  RecordBatch batch;
  int64_t rows = 0;
  std::vector<char> key_bytes;
  while (batches->next(batch)) {
    SCOPED_TRACE("batch of row " + std::to_string(rows));
    ASSERT_EQ(batch.num_rows, 1);
    ASSERT_EQ(batch.columns.size(), 1u);
    const ArrayData& map = *batch.columns[0];
    // The map's one entry: offsets [0, 1] after the batch's offset.
    const int32_t* map_offsets = reinterpret_cast<const int32_t*>(map.buffers[1].data) + map.offset;
    ASSERT_EQ(map_offsets[1] - map_offsets[0], 1);
    const ArrayData& entries = *map.children.at(0);
    const ArrayData& keys = *entries.children.at(0);
    const ArrayData& values = *entries.children.at(1);
    const int64_t entry = entries.offset + map_offsets[0];
    const int32_t* key_offsets = reinterpret_cast<const int32_t*>(keys.buffers[1].data) + keys.offset;
    const int64_t begin = key_offsets[entry - entries.offset];
    const int64_t end = key_offsets[entry - entries.offset + 1];
    EXPECT_EQ(end - begin, kKeyBytes);
    // The two keys are 1 GiB of 'a' each; checking the first differs tells
    // a wrong slice apart.
    const uint8_t* key = keys.buffers[2].data + begin;
    EXPECT_EQ(key[0], 'a');
    EXPECT_TRUE(all_bytes_are(key, end - begin, 'a'));
    const int32_t* value = reinterpret_cast<const int32_t*>(values.buffers[1].data) + values.offset;
    EXPECT_EQ(value[entry - entries.offset], 1);
    ++rows;
  }
  EXPECT_EQ(rows, 2);
}

TEST(LargeStrings, ReadWholeTheRowGroupFailsByNameInsteadOfWrapping) {
  auto reader = FileReader::open(path());
  try {
    reader->read_row_group(0);
    FAIL() << "2 GiB of keys in one array";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kLimitExceeded);
    const std::string message = e.what();
    EXPECT_NE(message.find("arr.key_value.key"), std::string::npos) << message;
    EXPECT_NE(message.find("2 GiB"), std::string::npos) << message;
  }
}

TEST(LargeStrings, ATighterPageLimitRefusesTheFileBeforeInflatingIt) {
  ReaderOptions options;
  options.limits.max_dictionary_size = int64_t(1) << 30;
  auto reader = FileReader::open(path(), options);
  auto batches = reader->batches();
  RecordBatch batch;
  try {
    batches->next(batch);
    FAIL() << "1 GiB dictionary page accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kLimitExceeded);
    EXPECT_NE(std::string(e.what()).find("dictionary page of 1073741828 bytes"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace parquetry
