// Test files with hand-written footers: the pages come from FileWriter, the
// footer is decoded, edited as a test needs (created_by, statistics, column
// orders, schema annotations) and encoded again; a replacement column index
// is appended after the pages. Also a runner for the `parquetry` binary.
#pragma once

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "parquetry/array_builder.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "parquetry/predicate.h"
#include "parquetry/reader.h"
#include "parquetry/record.h"
#include "parquetry/writer.h"
#include "test_support.h"

namespace parquetry::testing {

/// The bytes of a file before its footer, and its decoded footer.
struct FooterEdit {
  std::vector<uint8_t> data;
  FileMetaData metadata;

  /// Appends an encoded column index after the pages and points `chunk` at it.
  void replace_column_index(ColumnChunk& chunk, const ColumnIndex& index) {
    Buffer encoded;
    encode_column_index(index, encoded);
    chunk.column_index_offset = int64_t(data.size());
    chunk.column_index_length = int32_t(encoded.size());
    data.insert(data.end(), encoded.data(), encoded.data() + encoded.size());
  }
  /// The chunk's column index as written.
  ColumnIndex column_index(const ColumnChunk& chunk) const {
    EXPECT_TRUE(chunk.column_index_offset && chunk.column_index_length);
    return decode_column_index(std::span<const uint8_t>(data.data() + *chunk.column_index_offset,
                                                        size_t(*chunk.column_index_length)));
  }
};

/// One column of a test batch.
struct TestColumn {
  Field field;
  std::vector<Datum> values;
};

inline RecordBatch make_batch(const std::vector<TestColumn>& columns) {
  RecordBatch batch;
  auto schema = std::make_shared<BatchSchema>();
  for (const TestColumn& column : columns) {
    schema->fields.push_back(column.field);
    ArrayBuilder builder(column.field);
    for (const Datum& value : column.values) builder.append(value);
    batch.columns.push_back(builder.finish());
    batch.num_rows = int64_t(column.values.size());
  }
  batch.schema = schema;
  return batch;
}

/// Writes `batch` to `name` in the temp directory with `options`, then
/// rewrites its footer through `edit`. Returns the path.
inline std::string write_quirky_file(const std::string& name, const RecordBatch& batch, WriterOptions options,
                                     const std::function<void(FooterEdit&)>& edit) {
  const std::string path = (temp_dir() / name).string();
  {
    auto writer = FileWriter::open(path, *batch.schema, options);
    writer->write(batch);
    writer->close();
  }
  std::vector<uint8_t> bytes = read_bytes(path);
  const uint32_t length = uint32_t(bytes[bytes.size() - 8]) | uint32_t(bytes[bytes.size() - 7]) << 8 |
                          uint32_t(bytes[bytes.size() - 6]) << 16 | uint32_t(bytes[bytes.size() - 5]) << 24;
  FooterEdit footer;
  footer.metadata =
      decode_file_metadata(std::span<const uint8_t>(bytes.data() + bytes.size() - 8 - length, length));
  footer.data.assign(bytes.begin(), bytes.end() - 8 - int64_t(length));
  edit(footer);
  Buffer encoded;
  encode_file_metadata(footer.metadata, encoded);
  std::vector<uint8_t> out = footer.data;
  out.insert(out.end(), encoded.data(), encoded.data() + encoded.size());
  const uint32_t new_length = uint32_t(encoded.size());
  for (int i = 0; i < 4; ++i) out.push_back(uint8_t(new_length >> (8 * i)));
  for (char c : {'P', 'A', 'R', '1'}) out.push_back(uint8_t(c));
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(out.data()), std::streamsize(out.size()));
  return path;
}

/// Rows of the whole file (no pruning) that `predicate` selects, as file row numbers.
inline std::vector<int64_t> naive_rows(const std::string& path, const Predicate& predicate) {
  std::vector<int64_t> rows;
  int64_t first = 0;
  for (const RecordBatch& batch : FileReader::open(path)->read_all()) {
    std::vector<uint8_t> bitmap;
    evaluate_predicate(predicate, batch, bitmap);
    for (int64_t i = 0; i < batch.num_rows; ++i) {
      if ((bitmap[size_t(i >> 3)] >> (i & 7)) & 1) rows.push_back(first + i);
    }
    first += batch.num_rows;
  }
  return rows;
}

/// Rows the filtered scan returns (file row numbers), with its stats.
inline std::vector<int64_t> scanned_rows(const std::string& path, const Predicate& predicate,
                                         FilterStats* stats = nullptr, bool use_statistics = true) {
  FilteredScanOptions options;
  options.filter = predicate;
  options.columns = {kRowNumberColumn};
  options.use_statistics = use_statistics;
  auto scan = FilteredScan::open(path, options);
  std::vector<int64_t> rows;
  RecordBatch batch;
  while (scan->next(batch)) {
    const ArrayData& numbers = *batch.columns.at(0);
    for (int64_t i = 0; i < batch.num_rows; ++i)
      rows.push_back(numbers.buffers[1].as<int64_t>()[numbers.offset + i]);
  }
  if (stats != nullptr) *stats = scan->stats();
  return rows;
}

struct CliResult {
  int exit_code = -1;
  std::string out;
};

/// Runs the built `parquetry` binary (PARQUETRY_CLI overrides its path).
inline CliResult run_cli(const std::vector<std::string>& args) {
  std::string binary = PARQUETRY_CLI_PATH;
  if (const char* env = std::getenv("PARQUETRY_CLI"); env != nullptr && *env != '\0') binary = env;
  std::string command = shell_quote(binary);
  for (const std::string& arg : args) command += " " + shell_quote(arg);
  command += " 2>&1";
  CliResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

/// `parquetry rewrite` of `path` keeps its schema: `schema` prints the same
/// (text and JSON, the path aside), the footers hold equal schema elements
/// and key-value metadata, and every value reads the same. The output's path
/// is returned.
inline std::string expect_rewrite_keeps_schema(const std::string& path) {
  const std::string out = path + ".rewritten.parquet";
  const CliResult rewrite = run_cli({"rewrite", path, out});
  EXPECT_EQ(rewrite.exit_code, 0) << rewrite.out;
  auto schema_of = [](const std::string& file, bool json) {
    std::vector<std::string> args{"schema", file};
    if (json) args.push_back("--json");
    CliResult run = run_cli(args);
    EXPECT_EQ(run.exit_code, 0) << run.out;
    for (size_t at; (at = run.out.find(file)) != std::string::npos;) run.out.replace(at, file.size(), "FILE");
    return run.out;
  };
  EXPECT_EQ(schema_of(out, false), schema_of(path, false));
  EXPECT_EQ(schema_of(out, true), schema_of(path, true));
  auto input = FileReader::open(path);
  auto output = FileReader::open(out);
  EXPECT_EQ(output->metadata().schema, input->metadata().schema);
  EXPECT_EQ(output->metadata().key_value_metadata, input->metadata().key_value_metadata);
  auto rows_of = [](FileReader& reader) {
    std::vector<std::string> rows;
    for (const RecordBatch& batch : reader.read_all()) {
      for (int64_t r = 0; r < batch.num_rows; ++r) rows.push_back(Row(&batch, r).to_json());
    }
    return rows;
  };
  const std::vector<std::string> expected = rows_of(*input);
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(rows_of(*output), expected);
  return out;
}

}  // namespace parquetry::testing
