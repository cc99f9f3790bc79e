// Runs the built `parquetry` binary on the public parquet-testing files and
// checks exit codes, stderr and the JSON it prints.
#include <gtest/gtest.h>
#include <simdjson.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace parquetry {
namespace {

namespace fs = std::filesystem;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string cli_path() {
  // PARQUETRY_CLI overrides the binary built alongside this test.
  if (const char* env = std::getenv("PARQUETRY_CLI"); env != nullptr && *env != '\0') return env;
  return PARQUETRY_CLI_PATH;
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

RunResult run(const std::vector<std::string>& args) {
  static int counter = 0;
  fs::path err_file = testing::temp_dir() / ("stderr" + std::to_string(counter++));
  std::string command = shell_quote(cli_path());
  for (const std::string& arg : args) command += " " + shell_quote(arg);
  command += " 2>" + shell_quote(err_file.string());
  RunResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "popen failed for " << command;
    return result;
  }
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) result.out.append(buffer, n);
  int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_file);
  std::stringstream text;
  text << err.rdbuf();
  result.err = text.str();
  return result;
}

size_t count_lines(const std::string& text) {
  size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

simdjson::dom::element parse(simdjson::dom::parser& parser, const std::string& json) {
  simdjson::dom::element doc;
  auto error = parser.parse(json).get(doc);
  EXPECT_EQ(error, simdjson::SUCCESS) << simdjson::error_message(error) << "\n" << json.substr(0, 400);
  return doc;
}

// DuckDB's row counts for the files it read (duckdb-baseline/index.json).
std::map<std::string, int64_t> baseline_rows() {
  std::map<std::string, int64_t> rows;
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.load(testing::duckdb_baseline("index.json").string());
  for (auto [key, value] : simdjson::dom::object(root["files"])) {
    int64_t count;
    if (value["rows"].get_int64().get(count) == simdjson::SUCCESS) rows[std::string(key)] = count;
  }
  return rows;
}

TEST(CliTest, SchemaAndMetaSucceedOnEveryPublicFile) {
  const std::map<std::string, int64_t> rows = baseline_rows();
  const fs::path data = testing::parquet_testing("data");
  simdjson::dom::parser parser;
  size_t files = 0;
  for (const fs::path& path : testing::public_parquet_files()) {
    const std::string key = "data/" + fs::relative(path, data).generic_string();
    SCOPED_TRACE(key);
    ++files;

    RunResult schema = run({"schema", path.string()});
    EXPECT_EQ(schema.exit_code, 0) << schema.err;
    EXPECT_EQ(schema.err, "");
    EXPECT_EQ(schema.out.rfind("message ", 0), 0u) << schema.out.substr(0, 200);
    EXPECT_EQ(schema.out.substr(schema.out.size() - 2), "}\n");

    RunResult schema_json = run({"schema", "--json", path.string()});
    ASSERT_EQ(schema_json.exit_code, 0) << schema_json.err;
    simdjson::dom::element schema_doc = parse(parser, schema_json.out);
    int64_t schema_columns = schema_doc["num_columns"].get_int64();
    EXPECT_EQ(int64_t(simdjson::dom::array(schema_doc["columns"]).size()), schema_columns);

    RunResult meta = run({"meta", "--json", path.string()});
    ASSERT_EQ(meta.exit_code, 0) << meta.err;
    EXPECT_EQ(meta.err, "");
    EXPECT_EQ(count_lines(meta.out), 1u);
    simdjson::dom::parser meta_parser;
    simdjson::dom::element doc = parse(meta_parser, meta.out);
    int64_t num_rows = doc["num_rows"].get_int64();
    if (auto found = rows.find(key); found != rows.end()) {
      EXPECT_EQ(num_rows, found->second);
    }
    EXPECT_EQ(int64_t(doc["num_columns"].get_int64()), schema_columns);
    simdjson::dom::array row_groups = doc["row_groups"];
    EXPECT_EQ(int64_t(row_groups.size()), int64_t(doc["num_row_groups"].get_int64()));
    int64_t row_group_rows = 0;
    for (simdjson::dom::element group : row_groups) {
      row_group_rows += int64_t(group["num_rows"].get_int64());
      EXPECT_EQ(int64_t(simdjson::dom::array(group["columns"]).size()), schema_columns);
    }
    EXPECT_EQ(row_group_rows, num_rows);

    RunResult meta_text = run({"meta", path.string()});
    EXPECT_EQ(meta_text.exit_code, 0) << meta_text.err;
    EXPECT_NE(meta_text.out.find("rows: " + std::to_string(num_rows) + "\n"), std::string::npos);
  }
  EXPECT_GE(files, 40u);
}

TEST(CliTest, EncryptedFilesWithoutKeysFailWithOneLineNamingTheMissingKey) {
  std::vector<fs::path> encrypted;
  for (const auto& entry : fs::recursive_directory_iterator(testing::parquet_testing("data"))) {
    if (entry.is_regular_file() && entry.path().extension() == ".encrypted")
      encrypted.push_back(entry.path());
  }
  ASSERT_GE(encrypted.size(), 5u);
  for (const fs::path& path : encrypted) {
    SCOPED_TRACE(path.string());
    const std::string name = path.filename().string();
    const bool plaintext_footer = name.find("plaintext_footer") != std::string::npos;
    for (const char* command : {"schema", "meta"}) {
      RunResult result = run({command, "--json", path.string()});
      if (plaintext_footer) {
        // The footer is readable without keys: schema and metadata are public.
        EXPECT_EQ(result.exit_code, 0) << result.err;
        EXPECT_NE(result.out.find("float_field"), std::string::npos) << result.out;
        continue;
      }
      EXPECT_EQ(result.exit_code, 1);
      EXPECT_EQ(result.out, "");
      EXPECT_EQ(count_lines(result.err), 1u) << result.err;
      EXPECT_EQ(result.err.rfind("parquetry: invalid argument: " + path.string() + ": ", 0), 0u)
          << result.err;
      const bool names_missing_key = result.err.find("no footer key was given") != std::string::npos ||
                                     result.err.find("AAD prefix") != std::string::npos;
      EXPECT_TRUE(names_missing_key) << result.err;
    }
    // Reading values needs the column keys even where the footer is plaintext; the error names the column.
    RunResult values = run({"cat", path.string()});
    EXPECT_EQ(values.exit_code, 1);
    EXPECT_EQ(count_lines(values.err), 1u) << values.err;
    if (plaintext_footer) {
      EXPECT_NE(values.err.find("row group 0, column float_field"), std::string::npos) << values.err;
      EXPECT_NE(values.err.find("no key was given for it"), std::string::npos) << values.err;
    }
  }
}

TEST(CliTest, EncryptedFileReadsWithKeysGivenInHex) {
  // parquet-testing's keys are the ASCII digit strings below; the CLI takes keys in hex.
  const auto hex = [](const std::string& ascii) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : ascii) {
      out += digits[c >> 4];
      out += digits[c & 15];
    }
    return out;
  };
  const fs::path path = testing::parquet_testing("data") / "uniform_encryption.parquet.encrypted";
  RunResult result = run({"head", "-n", "2", "--footer-key", hex("0123456789012345"), path.string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  // Decoded values, as the parquet-testing generator wrote them: row 0 has ba_field "parquet000"
  // (base64 below), row 1 has double_field 1.1111111.
  EXPECT_NE(result.out.find("\"ba_field\":\"cGFycXVldDAwMA==\""), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\"double_field\":1.1111111"), std::string::npos) << result.out;
  RunResult wrong = run({"head", "-n", "2", "--footer-key", hex("1123456789012345"), path.string()});
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_EQ(wrong.out, "");
  EXPECT_EQ(count_lines(wrong.err), 1u) << wrong.err;
  EXPECT_NE(wrong.err.find("tag mismatch in footer"), std::string::npos) << wrong.err;
}

TEST(CliTest, MissingFileGivesOneLineAndExitCodeOne) {
  for (const char* command : {"schema", "meta"}) {
    RunResult result = run({command, "/nonexistent/file.parquet"});
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(count_lines(result.err), 1u) << result.err;
    EXPECT_EQ(result.err.rfind("parquetry: io: /nonexistent/file.parquet: ", 0), 0u) << result.err;
    EXPECT_NE(result.err.find("No such file or directory"), std::string::npos) << result.err;
  }
}

TEST(CliTest, NotAParquetFileGivesOneLineAndExitCodeOne) {
  RunResult result = run({"meta", testing::parquet_testing("data/old_list_structure.md").string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(count_lines(result.err), 1u) << result.err;
  EXPECT_NE(result.err.find("not a Parquet file"), std::string::npos) << result.err;
}

TEST(CliTest, SchemaTextOfALegacyList) {
  RunResult result = run({"schema", testing::parquet_testing("data/old_list_structure.parquet").string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "message my_record {\n"
            "  required group a (LIST) {\n"
            "    repeated group array (LIST) {\n"
            "      repeated int32 array;\n"
            "    }\n"
            "  }\n"
            "}\n");
}

TEST(CliTest, SchemaJsonDescribesNestedMaps) {
  RunResult result =
      run({"schema", "--json", testing::parquet_testing("data/nested_maps.snappy.parquet").string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parse(parser, result.out);
  EXPECT_EQ(std::string_view(doc["name"]), "spark_schema");
  EXPECT_EQ(int64_t(doc["num_rows"]), 6);
  simdjson::dom::element a = doc["fields"].at(0);
  EXPECT_EQ(std::string_view(a["name"]), "a");
  EXPECT_EQ(std::string_view(a["kind"]), "map");
  EXPECT_EQ(std::string_view(a["logical_type"]), "MAP");
  EXPECT_EQ(std::string_view(a["map_key"]), "a.key_value.key");
  EXPECT_EQ(std::string_view(a["map_value"]), "a.key_value.value");
  simdjson::dom::element inner_value = doc["columns"].at(2);
  EXPECT_EQ(std::string_view(inner_value["path"]), "a.key_value.value.key_value.value");
  EXPECT_EQ(std::string_view(inner_value["physical_type"]), "BOOLEAN");
  EXPECT_EQ(int64_t(inner_value["max_repetition_level"]), 2);
  EXPECT_EQ(int64_t(inner_value["max_definition_level"]), 4);
}

TEST(CliTest, MetaJsonOfAlltypesPlain) {
  RunResult result =
      run({"meta", "--json", testing::parquet_testing("data/alltypes_plain.parquet").string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parse(parser, result.out);
  EXPECT_EQ(int64_t(doc["num_rows"]), 8);
  EXPECT_EQ(int64_t(doc["num_columns"]), 11);
  EXPECT_EQ(int64_t(doc["num_row_groups"]), 1);
  EXPECT_EQ(int64_t(doc["file_size"]), 1851);
  EXPECT_EQ(std::string_view(doc["created_by"]),
            "impala version 1.3.0-INTERNAL (build 8a48ddb1eff84592b3fc06bc6f51ec120e1fffc9)");
  simdjson::dom::element group = doc["row_groups"].at(0);
  EXPECT_EQ(int64_t(group["num_rows"]), 8);
  EXPECT_EQ(int64_t(group["total_byte_size"]), 671);
  simdjson::dom::element id = group["columns"].at(0);
  EXPECT_EQ(std::string_view(id["path"]), "id");
  EXPECT_EQ(std::string_view(id["type"]), "INT32");
  EXPECT_EQ(std::string_view(id["codec"]), "UNCOMPRESSED");
  std::set<std::string> encodings;
  for (simdjson::dom::element e : simdjson::dom::array(id["encodings"]))
    encodings.insert(std::string(std::string_view(e)));
  EXPECT_EQ(encodings, (std::set<std::string>{"RLE", "PLAIN_DICTIONARY", "PLAIN"}));
  EXPECT_EQ(int64_t(id["num_values"]), 8);
  EXPECT_EQ(int64_t(id["total_compressed_size"]), 73);
  EXPECT_EQ(int64_t(id["data_page_offset"]), 49);
  EXPECT_EQ(int64_t(id["dictionary_page_offset"]), 4);
  simdjson::dom::element timestamp = group["columns"].at(10);
  EXPECT_EQ(std::string_view(timestamp["path"]), "timestamp_col");
  EXPECT_EQ(std::string_view(timestamp["type"]), "INT96");
}

TEST(CliTest, MetaJsonStatisticsAreDecoded) {
  simdjson::dom::parser parser;
  {
    RunResult result =
        run({"meta", "--json",
             testing::parquet_testing("data/data_index_bloom_encoding_stats.parquet").string()});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    simdjson::dom::element chunk = parse(parser, result.out)["row_groups"].at(0)["columns"].at(0);
    EXPECT_EQ(std::string_view(chunk["statistics"]["min"]), "Hello");
    EXPECT_EQ(std::string_view(chunk["statistics"]["max"]), "today");
    EXPECT_EQ(int64_t(chunk["statistics"]["null_count"]), 0);
    EXPECT_EQ(int64_t(chunk["bloom_filter_offset"]), 192);
    EXPECT_EQ(int64_t(chunk["column_index_offset"]), 156);
    EXPECT_EQ(int64_t(chunk["column_index_length"]), 25);
    EXPECT_EQ(int64_t(chunk["offset_index_offset"]), 181);
    EXPECT_EQ(int64_t(chunk["offset_index_length"]), 11);
    EXPECT_EQ(std::string_view(chunk["encoding_stats"].at(0)["page_type"]), "DATA_PAGE");
  }
  {
    RunResult result =
        run({"meta", "--json", testing::parquet_testing("data/float16_nonzeros_and_nans.parquet").string()});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    simdjson::dom::element stats =
        parse(parser, result.out)["row_groups"].at(0)["columns"].at(0)["statistics"];
    EXPECT_EQ(double(stats["min"]), -2.0);
    EXPECT_EQ(double(stats["max"]), 2.0);
    EXPECT_EQ(int64_t(stats["null_count"]), 1);
  }
  {
    RunResult result =
        run({"meta", "--json", testing::parquet_testing("data/fixed_length_decimal.parquet").string()});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    simdjson::dom::element stats =
        parse(parser, result.out)["row_groups"].at(0)["columns"].at(0)["statistics"];
    EXPECT_EQ(std::string_view(stats["min"]), "2.00");
    EXPECT_EQ(std::string_view(stats["max"]), "24.00");
    EXPECT_EQ(bool(stats["legacy_min_max"]), true);
  }
  {
    RunResult result =
        run({"meta", "--json", testing::parquet_testing("data/binary_truncated_min_max.parquet").string()});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    simdjson::dom::element columns = parse(parser, result.out)["row_groups"].at(0)["columns"];
    EXPECT_EQ(bool(columns.at(0)["statistics"]["is_min_value_exact"]), false);
    EXPECT_EQ(bool(columns.at(4)["statistics"]["is_max_value_exact"]), true);
    EXPECT_EQ(std::string_view(columns.at(3)["statistics"]["max"]), "0xffff0102");
  }
  {
    RunResult result =
        run({"meta", "--json",
             testing::parquet_testing("data/column_chunk_key_value_metadata.parquet").string()});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    simdjson::dom::element pairs =
        parse(parser, result.out)["row_groups"].at(0)["columns"].at(0)["key_value_metadata"];
    EXPECT_EQ(std::string_view(pairs.at(0)["key"]), "foo");
    EXPECT_EQ(std::string_view(pairs.at(0)["value"]), "bar");
    EXPECT_TRUE(pairs.at(1)["value"].is_null());
  }
}

TEST(CliTest, MetaTextShowsRowGroupsAndStatistics) {
  RunResult result = run({"meta", testing::parquet_testing("data/sort_columns.parquet").string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("rows: 6\n"), std::string::npos);
  EXPECT_NE(result.out.find("row groups: 2\n"), std::string::npos);
  EXPECT_NE(result.out.find("row group 1: rows 3"), std::string::npos);
  EXPECT_NE(result.out.find("column 1 b: BYTE_ARRAY (STRING) SNAPPY [PLAIN, RLE, RLE_DICTIONARY]"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("statistics: min 1, max 2, nulls 1"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("statistics: min a, max c, nulls 0"), std::string::npos) << result.out;
}

}  // namespace
}  // namespace parquetry
