// Cross-check with DuckDB: for every codec x format version x dictionary
// setting, DuckDB writes a seeded random table (every type its Parquet writer
// produces, nesting up to depth 4, nulls at every level, empty lists and maps)
// through bench/peers/xcheck_write.js and dumps what it reads back as JSON
// lines; parquetry reads the same file and every value must render equal.
//
// DuckDB 1.5.6 writes DATA_PAGE (v1) page headers in both format versions;
// PARQUET_VERSION V2 switches its encodings to DELTA_BINARY_PACKED,
// DELTA_LENGTH_BYTE_ARRAY, BYTE_STREAM_SPLIT and RLE_DICTIONARY, which is what
// the version axis of the matrix exercises.
//
// PARQUETRY_XCHECK_SEED=<n> runs the matrix with other seeds (the default is
// fixed so that a failure reproduces).
#include <gtest/gtest.h>
#include <simdjson.h>
#include <sys/wait.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "json_compare.h"
#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/table/json_values.h"
#include "parquetry/types.h"
#include "test_support.h"

#ifndef PARQUETRY_SOURCE_DIR
#error "tests/xcheck/CMakeLists.txt defines PARQUETRY_SOURCE_DIR"
#endif

namespace parquetry {
namespace {

using simdjson::dom::element;

struct Codec {
  const char* duckdb_name;
  CompressionCodec parquet;
};

// Every codec DuckDB 1.5.6 writes (its "lz4" is LZ4_RAW too).
const Codec kCodecs[] = {
    {"uncompressed", CompressionCodec::UNCOMPRESSED},
    {"snappy", CompressionCodec::SNAPPY},
    {"gzip", CompressionCodec::GZIP},
    {"zstd", CompressionCodec::ZSTD},
    {"lz4_raw", CompressionCodec::LZ4_RAW},
    {"brotli", CompressionCodec::BROTLI},
};

struct Case {
  std::string name;
  uint32_t seed = 0;
  int64_t rows = 0;
  Codec codec;
  bool format_v2 = false;
  bool dictionary = false;
};

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

uint32_t base_seed() {
  const char* text = std::getenv("PARQUETRY_XCHECK_SEED");
  return text != nullptr ? uint32_t(std::strtoul(text, nullptr, 10)) : 20261202u;
}

std::vector<Case> matrix(uint32_t seed) {
  std::vector<Case> cases;
  for (const Codec& codec : kCodecs) {
    for (bool v2 : {false, true}) {
      for (bool dictionary : {true, false}) {
        Case c;
        c.seed = seed + uint32_t(cases.size());
        // Two row groups (DuckDB's minimum is 2048 rows), the last one partial:
        // enough to cross row-group boundaries while keeping the run short.
        c.rows = 2100 + int64_t((c.seed * 2654435761u) % 700u);
        c.codec = codec;
        c.format_v2 = v2;
        c.dictionary = dictionary;
        c.name = std::string(codec.duckdb_name) + (v2 ? "_v2" : "_v1") + (dictionary ? "_dict" : "_plain");
        cases.push_back(c);
      }
    }
  }
  return cases;
}

bool is_dictionary(Encoding e) { return e == Encoding::PLAIN_DICTIONARY || e == Encoding::RLE_DICTIONARY; }
bool is_delta(Encoding e) {
  return e == Encoding::DELTA_BINARY_PACKED || e == Encoding::DELTA_LENGTH_BYTE_ARRAY ||
         e == Encoding::DELTA_BYTE_ARRAY;
}

// The file really has the layout the case asks DuckDB for: the codec on every
// chunk, several row groups, dictionaries only when enabled (ENUMs aside), DELTA and
// BYTE_STREAM_SPLIT never in format V1 and surely in V2 without dictionaries.
void check_layout(const Case& c, const FileMetaData& metadata) {
  EXPECT_GE(metadata.row_groups.size(), 2u);
  bool any_dictionary = false;
  bool any_delta = false;
  bool any_byte_stream_split = false;
  for (const RowGroup& group : metadata.row_groups) {
    for (const ColumnChunk& chunk : group.columns) {
      ASSERT_TRUE(chunk.meta_data.has_value());
      const ColumnMetaData& meta = *chunk.meta_data;
      EXPECT_EQ(meta.codec, c.codec.parquet);
      if (!meta.path_in_schema.empty() && meta.path_in_schema[0] == "enum") {
        // DuckDB writes an ENUM as RLE_DICTIONARY whatever the settings (so V1 files hold it too).
        EXPECT_TRUE(meta.dictionary_page_offset.has_value());
        continue;
      }
      for (Encoding e : meta.encodings) {
        any_dictionary |= is_dictionary(e);
        any_delta |= is_delta(e);
        any_byte_stream_split |= e == Encoding::BYTE_STREAM_SPLIT;
      }
      if (!c.dictionary) {
        EXPECT_FALSE(meta.dictionary_page_offset.has_value());
      }
    }
  }
  EXPECT_EQ(any_dictionary, c.dictionary);
  if (!c.format_v2) {
    EXPECT_FALSE(any_delta);
    EXPECT_FALSE(any_byte_stream_split);
  } else if (!c.dictionary) {
    EXPECT_TRUE(any_delta);
    EXPECT_TRUE(any_byte_stream_split);
  }
}

// Reads the file in batches of `batch_size` rows and compares every row with
// DuckDB's dump; returns the number of rows read.
int64_t compare_rows(const Case& c, const std::filesystem::path& dir, element manifest_case) {
  const std::filesystem::path file = dir / (c.name + ".parquet");
  ReaderOptions options;
  // Batches that straddle row groups and pages, different per case.
  options.batch_size = 300 + int64_t(c.seed % 1700u);
  // Both decode paths (columns in parallel or on the caller's thread) and both sources.
  options.threads = 1 + int(c.seed % 2u);
  options.use_mmap = c.seed % 3u != 0;
  auto reader = FileReader::open(file.string(), options);
  check_layout(c, reader->metadata());

  const auto schema = reader->batch_schema();
  auto columns = manifest_case["columns"].get_array().value();
  EXPECT_EQ(schema->fields.size(), columns.size());
  size_t k = 0;
  for (element column : columns) {
    if (k < schema->fields.size()) {
      EXPECT_EQ(schema->fields[k].name, std::string_view(column.at(0)));
    }
    ++k;
  }

  JsonValueStyle style;  // DuckDB's JSON conventions, as in the conformance baseline
  style.int64_as_string = true;
  style.sql_timestamps = true;
  style.escaped_binary = true;
  std::ifstream lines(dir / (c.name + ".jsonl"));
  simdjson::dom::parser expected_parser;
  simdjson::dom::parser actual_parser;
  std::string line;
  int64_t row = 0;
  int mismatches = 0;
  auto batches = reader->batches();
  RecordBatch batch;
  while (batches->next(batch)) {
    for (int64_t i = 0; i < batch.num_rows; ++i, ++row) {
      if (!std::getline(lines, line)) {
        ADD_FAILURE() << "parquetry read more rows than DuckDB dumped (" << row << "+)";
        return row + batch.num_rows - i;
      }
      JsonWriter writer;
      write_json_row(writer, batch, i, style);
      const std::string actual_text = writer.take();
      element expected = expected_parser.parse(line);
      element actual = actual_parser.parse(actual_text);
      std::string why;
      // Exact numbers: both sides print doubles as their shortest round-trip text.
      if (!testing::json_same(expected, actual, why, "row " + std::to_string(row), 0.0) && mismatches++ < 3) {
        ADD_FAILURE() << why << "\n expected: " << line << "\n actual:   " << actual_text;
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
  return row;
}

TEST(DuckDBCrossCheck, EveryCodecVersionAndDictionarySettingReadsLikeDuckDB) {
  if (std::system("node --version >/dev/null 2>&1") != 0) {
    GTEST_SKIP()
        << "node is not on PATH: the DuckDB cross-check needs Node.js (see scripts/install-peers.sh)";
  }
  const std::filesystem::path peers = std::filesystem::path(PARQUETRY_SOURCE_DIR) / "bench" / "peers";
  const std::filesystem::path dir = testing::temp_dir();
  const std::vector<Case> cases = matrix(base_seed());

  {
    std::ofstream spec(dir / "spec.json");
    spec << "{\"cases\": [";
    for (size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      spec << (i ? ",\n" : "") << "{\"name\": \"" << c.name << "\", \"seed\": " << c.seed
           << ", \"rows\": " << c.rows << ", \"codec\": \"" << c.codec.duckdb_name << "\", \"version\": \""
           << (c.format_v2 ? "V2" : "V1") << "\", \"dictionary\": " << (c.dictionary ? "true" : "false")
           << "}";
    }
    spec << "]}\n";
  }
  const std::string command =
      "cd " + shell_quote(peers.string()) + " && node xcheck_write.js --spec " +
      shell_quote((dir / "spec.json").string()) + " --out " + shell_quote(dir.string()) + " >" +
      shell_quote((dir / "manifest.json").string()) + " 2>" + shell_quote((dir / "stderr.txt").string());
  const int status = std::system(command.c_str());
  const int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (exit_code == 3) {
    GTEST_SKIP() << "DuckDB's Node module is not installed in bench/peers (run scripts/install-peers.sh): "
                 << read_text(dir / "stderr.txt");
  }
  ASSERT_EQ(exit_code, 0) << "xcheck_write.js failed:\n" << read_text(dir / "stderr.txt");

  simdjson::dom::parser manifest_parser;
  const std::string manifest_text = read_text(dir / "manifest.json");
  element manifest = manifest_parser.parse(manifest_text);
  auto written = manifest["cases"].get_array().value();
  ASSERT_EQ(written.size(), cases.size());
  size_t index = 0;
  for (element manifest_case : written) {
    const Case& c = cases[index++];
    SCOPED_TRACE(c.name + " (seed " + std::to_string(c.seed) + ", " + std::to_string(c.rows) + " rows)");
    ASSERT_EQ(std::string_view(manifest_case["name"]), c.name);
    EXPECT_EQ(int64_t(manifest_case["rows"]), c.rows);
    try {
      EXPECT_EQ(compare_rows(c, dir, manifest_case), c.rows);
    } catch (const Error& e) {
      ADD_FAILURE() << "parquetry failed to read " << c.name << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace parquetry
