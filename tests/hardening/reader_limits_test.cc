// Limits the reader applies to what its caller asks for (as opposed to what
// a file declares, which the corrupt sweep covers).
#include <gtest/gtest.h>

#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "test_support.h"

namespace parquetry {
namespace {

const std::string kFile = testing::parquet_testing("data/alltypes_plain.parquet");

TEST(ReaderLimits, BatchSizeAboveMaxRowsPerBatchIsRefused) {
  ReaderOptions options;
  options.limits.max_rows_per_batch = 1000;
  options.batch_size = 1001;
  try {
    FileReader::open(kFile, options);
    FAIL() << "a batch size above the limit was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kLimitExceeded);
    EXPECT_NE(e.message().find("max_rows_per_batch"), std::string::npos) << e.what();
  }
}

TEST(ReaderLimits, BatchSizeAtTheLimitReadsEveryRowInSlices) {
  ReaderOptions options;
  options.limits.max_rows_per_batch = 3;
  options.batch_size = 3;
  auto reader = FileReader::open(kFile, options);
  auto batches = reader->batches();
  int64_t rows = 0;
  int slices = 0;
  RecordBatch batch;
  while (batches->next(batch)) {
    EXPECT_LE(batch.num_rows, 3);
    rows += batch.num_rows;
    ++slices;
  }
  EXPECT_EQ(rows, 8);  // alltypes_plain holds 8 rows
  EXPECT_EQ(slices, 3);
}

}  // namespace
}  // namespace parquetry
