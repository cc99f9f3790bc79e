// Page CRC verification on the public checksum files: the corrupt file
// (datapage_v1-corrupt-checksum.parquet: column a page 0 and column b page 1
// carry a CRC that does not match their bytes) fails with verify_crc on,
// naming the page, and reads with it off.
#include <gtest/gtest.h>

#include <bit>

#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "test_support.h"

namespace parquetry {
namespace {

std::vector<int32_t> int32_column(const std::vector<RecordBatch>& batches, size_t column) {
  std::vector<int32_t> out;
  for (const RecordBatch& batch : batches) {
    const ArrayData& array = *batch.columns.at(column);
    const int32_t* values = array.buffers.at(1).as<int32_t>() + array.offset;
    out.insert(out.end(), values, values + array.length);
  }
  return out;
}

TEST(PageCrc, CorruptChecksumFailsWithVerificationNamingThePage) {
  const std::string path = testing::parquet_testing("data/datapage_v1-corrupt-checksum.parquet").string();
  ReaderOptions options;
  options.verify_crc = true;
  auto reader = FileReader::open(path, options);
  try {
    reader->read_all();
    FAIL() << "a page with a mismatching CRC was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
    EXPECT_NE(e.message().find("CRC"), std::string::npos) << e.what();
    EXPECT_EQ(e.where().file, path);
    EXPECT_EQ(e.where().row_group, 0);
    EXPECT_EQ(e.where().column, "a");
    EXPECT_EQ(e.where().page, 0);
    EXPECT_GT(e.where().offset, 0);
    // The rendered message carries the location too.
    EXPECT_NE(std::string(e.what()).find("page 0"), std::string::npos) << e.what();
  }
  // Column b alone: its first page is intact, its second is not.
  options.columns = {"b"};
  auto only_b = FileReader::open(path, options);
  try {
    only_b->read_all();
    FAIL() << "column b's second page has a mismatching CRC";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().column, "b");
    EXPECT_EQ(e.where().row_group, 0);
    EXPECT_EQ(e.where().page, 1);
  }
}

TEST(PageCrc, CorruptChecksumReadsWithoutVerification) {
  // The matching file holds the same values except for the damaged bytes.
  ReaderOptions verify;
  verify.verify_crc = true;
  auto good = FileReader::open(
      testing::parquet_testing("data/datapage_v1-uncompressed-checksum.parquet").string(), verify);
  const std::vector<RecordBatch> good_batches = good->read_all();
  auto corrupt =
      FileReader::open(testing::parquet_testing("data/datapage_v1-corrupt-checksum.parquet").string());
  const std::vector<RecordBatch> corrupt_batches = corrupt->read_all();
  for (size_t column = 0; column < 2; ++column) {
    SCOPED_TRACE(column == 0 ? "a" : "b");
    const std::vector<int32_t> expected = int32_column(good_batches, column);
    const std::vector<int32_t> actual = int32_column(corrupt_batches, column);
    ASSERT_EQ(actual.size(), expected.size());
    EXPECT_EQ(actual.size(), 5120u);
    // Exactly one value per column differs, in one byte: the damage the
    // CRC was meant to catch, read as is.
    int differing = 0;
    for (size_t i = 0; i < actual.size(); ++i) {
      if (actual[i] == expected[i]) continue;
      ++differing;
      const uint32_t changed = uint32_t(actual[i] ^ expected[i]);
      const int low_byte = std::countr_zero(changed) / 8;
      EXPECT_EQ(changed >> (8 * low_byte) >> 8, 0u) << "value " << i << " differs in more than one byte";
    }
    EXPECT_EQ(differing, 1);
  }
}

}  // namespace
}  // namespace parquetry
