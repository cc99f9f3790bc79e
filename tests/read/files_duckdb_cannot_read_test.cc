// Files the DuckDB baseline does not cover, checked against the values their
// own documentation gives (and, for the LZ4 variants, against each other).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parquetry/reader.h"
#include "parquetry/table/json_values.h"
#include "test_support.h"

namespace parquetry {
namespace {

std::vector<std::string> rows_of(const std::string& name) {
  auto reader = FileReader::open(testing::parquet_testing(name).string());
  std::vector<std::string> rows;
  for (const RecordBatch& batch : reader->read_all()) {
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      JsonWriter writer;
      write_json_row(writer, batch, r);
      rows.push_back(writer.take());
    }
  }
  return rows;
}

// The three LZ4 flavours (Hadoop framing, raw block under the LZ4 codec id,
// LZ4_RAW) hold the same table: c0 timestamps in seconds, c1 "abc"/"def",
// v11 doubles.
TEST(FilesDuckDBCannotRead, EveryLz4FlavourDecodesTheSameRows) {
  const std::vector<std::string> expected = {R"({"c0":1593604800,"c1":"YWJj","v11":42})",   // "abc" in base64
                                             R"({"c0":1593604800,"c1":"ZGVm","v11":7.7})",  // "def"
                                             R"({"c0":1593604801,"c1":"YWJj","v11":42.125})",
                                             R"({"c0":1593604801,"c1":"ZGVm","v11":7.7})"};
  EXPECT_EQ(rows_of("data/hadoop_lz4_compressed.parquet"), expected);
  EXPECT_EQ(rows_of("data/non_hadoop_lz4_compressed.parquet"), expected);
  EXPECT_EQ(rows_of("data/lz4_raw_compressed.parquet"), expected);
}

// Each *_plain column and its *_byte_stream_split twin hold identical values
// (the file checks itself), for FLOAT16, FLOAT, DOUBLE, INT32, INT64, FLBA(5)
// and DECIMAL(7,3) on FLBA(4).
TEST(FilesDuckDBCannotRead, ByteStreamSplitColumnsEqualTheirPlainTwins) {
  auto reader =
      FileReader::open(testing::parquet_testing("data/byte_stream_split_extended.gzip.parquet").string());
  int64_t rows = 0;
  int pairs = 0;
  int non_null = 0;
  for (const RecordBatch& batch : reader->read_all()) {
    rows += batch.num_rows;
    const auto& fields = batch.schema->fields;
    ASSERT_EQ(fields.size(), 14u);
    for (size_t c = 0; c + 1 < fields.size(); c += 2) {
      ASSERT_EQ(fields[c].name.substr(0, fields[c].name.size() - 6),
                fields[c + 1].name.substr(0, fields[c + 1].name.size() - 18));
      ++pairs;
      for (int64_t r = 0; r < batch.num_rows; ++r) {
        JsonWriter plain, split;
        write_json_value(plain, *batch.columns[c], r);
        write_json_value(split, *batch.columns[c + 1], r);
        ASSERT_EQ(plain.str(), split.str()) << fields[c].name << " row " << r;
        non_null += plain.str() != "null";
      }
    }
  }
  EXPECT_EQ(rows, 200);
  EXPECT_EQ(pairs, 7);
  EXPECT_GT(non_null, 1000);  // the comparison is over real values, not nulls
}

}  // namespace
}  // namespace parquetry
