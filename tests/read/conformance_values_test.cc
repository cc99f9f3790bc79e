// Every public parquet-testing file DuckDB could read is read completely by
// parquetry and compared value by value with DuckDB's rendering.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/table/json_values.h"
#include "test_support.h"

namespace parquetry {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Semantic comparison: numbers with a relative tolerance (float printing
// differs between engines), numeric strings against numbers, the rest exact.
bool same(element expected, element actual, std::string& why, const std::string& where) {
  auto numeric = [](element e, double& out) {
    if (e.is_int64()) return out = double(int64_t(e)), true;
    if (e.is_uint64()) return out = double(uint64_t(e)), true;
    if (e.is_double()) return out = double(e), true;
    return false;
  };
  double a, b;
  if (numeric(expected, a) && numeric(actual, b)) {
    if (a == b || std::fabs(a - b) <= 1e-6 * std::max(std::fabs(a), std::fabs(b))) return true;
    why = where + ": expected " + std::to_string(a) + " got " + std::to_string(b);
    return false;
  }
  if (expected.type() != actual.type()) {
    why = where + ": expected " + simdjson::to_string(expected) + " got " + simdjson::to_string(actual);
    return false;
  }
  switch (expected.type()) {
    case element_type::ARRAY: {
      auto ea = expected.get_array().value();
      auto aa = actual.get_array().value();
      if (ea.size() != aa.size()) {
        why = where + ": array of " + std::to_string(ea.size()) + " vs " + std::to_string(aa.size()) + ": " +
              simdjson::to_string(expected) + " vs " + simdjson::to_string(actual);
        return false;
      }
      size_t i = 0;
      auto it = aa.begin();
      for (element e : ea) {
        if (!same(e, *it, why, where + "[" + std::to_string(i) + "]")) return false;
        ++it;
        ++i;
      }
      return true;
    }
    case element_type::OBJECT: {
      auto eo = expected.get_object().value();
      auto ao = actual.get_object().value();
      if (eo.size() != ao.size()) {
        why = where + ": object sizes differ: " + simdjson::to_string(expected) + " vs " +
              simdjson::to_string(actual);
        return false;
      }
      for (auto field : eo) {
        auto other = ao[field.key];
        if (other.error()) {
          why = where + ": missing key " + std::string(field.key);
          return false;
        }
        if (!same(field.value, other.value(), why, where + "." + std::string(field.key))) return false;
      }
      return true;
    }
    default:
      if (simdjson::to_string(expected) == simdjson::to_string(actual)) return true;
      why = where + ": expected " + simdjson::to_string(expected) + " got " + simdjson::to_string(actual);
      return false;
  }
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
      if (!same(expected, actual, why, "row " + std::to_string(row)) && mismatches++ < 3) {
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
