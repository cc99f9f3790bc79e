// Every public parquet-testing file DuckDB could read is read completely by
// parquetry and compared value by value with DuckDB's rendering.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <fstream>
#include <sstream>
#include <string>

#include "json_compare.h"
#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/table/json_values.h"
#include "test_support.h"

namespace parquetry {
namespace {

using simdjson::dom::element;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TEST(ConformanceValues, EveryFileDuckDBReadMatchesItsValues) {
  simdjson::dom::parser index_parser;
  std::string index_text = read_text(testing::duckdb_baseline("index.json"));
  element index = index_parser.parse(index_text);
  int compared_files = 0;
  for (auto entry : index["files"].get_object()) {
    std::string name(entry.key);
    if (std::string_view(entry.value["status"]) != "ok") continue;
    SCOPED_TRACE(name);
    std::unique_ptr<FileReader> reader;
    std::vector<RecordBatch> batches;
    try {
      ReaderOptions options;
      options.int96_unit = ArrowTimeUnit::kMicro;  // DuckDB's precision; Spark's far instants fit
      reader = FileReader::open(testing::parquet_testing(name).string(), options);
      batches = reader->read_all();
    } catch (const Error& e) {
      ADD_FAILURE() << "read failed: " << e.what();
      continue;
    }
    int64_t rows = 0;
    for (const auto& batch : batches) rows += batch.num_rows;
    EXPECT_EQ(rows, int64_t(entry.value["rows"]));
    std::ifstream lines(testing::duckdb_baseline(name + ".jsonl"));
    JsonValueStyle style;
    style.int64_as_string = true;
    style.sql_timestamps = true;
    style.escaped_binary = true;
    simdjson::dom::parser expected_parser;
    simdjson::dom::parser actual_parser;
    std::string line;
    int64_t row = 0;
    size_t batch_index = 0;
    int64_t in_batch = 0;
    int mismatches = 0;
    while (std::getline(lines, line) && batch_index < batches.size()) {
      while (batch_index < batches.size() && in_batch >= batches[batch_index].num_rows) {
        ++batch_index;
        in_batch = 0;
      }
      if (batch_index == batches.size()) break;
      JsonWriter writer;
      write_json_row(writer, batches[batch_index], in_batch, style);
      std::string actual_text = writer.take();
      // DuckDB overflows Spark's far-future INT96 instant; the file's own notes
      // (int96_from_spark.md) give 290000-12-31T01:00:00+02:00.
      if (name == "data/int96_from_spark.parquet" && row == 5) line = R"({"a":"290000-12-30 23:00:00"})";
      element expected = expected_parser.parse(line);
      element actual = actual_parser.parse(actual_text);
      std::string why;
      if (!testing::json_same(expected, actual, why, "row " + std::to_string(row)) && mismatches++ < 3) {
        ADD_FAILURE() << why << "\n expected: " << line << "\n actual:   " << actual_text;
      }
      ++row;
      ++in_batch;
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_EQ(row, int64_t(entry.value["dumped_rows"]));
    ++compared_files;
  }
  EXPECT_GE(compared_files, 40);
}

}  // namespace
}  // namespace parquetry
