// `parquetry iceberg index` and `parquetry cat --deletes` on generated files.
#include <gtest/gtest.h>
#include <simdjson.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "delete_file_support.h"
#include "parquetry/reader.h"
#include "test_support.h"

namespace parquetry::testing {
namespace {

#ifdef PARQUETRY_CLI_PATH
std::string quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs the CLI; returns stdout and sets *exit_code.
std::string run_cli(const std::vector<std::string>& args, int* exit_code) {
  const char* env = std::getenv("PARQUETRY_CLI");
  std::string command = quote(env != nullptr && *env != '\0' ? env : PARQUETRY_CLI_PATH);
  for (const std::string& arg : args) command += " " + quote(arg);
  command += " 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  const int status = ::pclose(pipe);
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

TEST(IcebergCli, IndexPrintsCardinalityPerDataFile) {
  std::vector<DeleteRow> rows;
  for (int64_t p = 0; p < 1500; p += 3) rows.push_back({"s3://b/t/data/00001-data.parquet", p});
  for (int64_t p = 10; p < 17; ++p) rows.push_back({"s3://b/t/data/00002-data.parquet", p});
  rows.push_back({"s3://b/t/data/00003-data.parquet", 42});
  const std::string file = (temp_dir() / "cli_deletes.parquet").string();
  write_delete_file(file, rows);
  int code = -1;
  const std::string out = run_cli({"iceberg", "index", "--json", file}, &code);
  ASSERT_EQ(code, 0) << out;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(out).get(doc), simdjson::SUCCESS) << out;
  simdjson::dom::object files;
  ASSERT_EQ(doc["files"].get(files), simdjson::SUCCESS) << out;
  EXPECT_EQ(files.size(), 3u);
  EXPECT_EQ(int64_t(files["s3://b/t/data/00001-data.parquet"]["cardinality"]), 500);
  EXPECT_EQ(int64_t(files["s3://b/t/data/00002-data.parquet"]["cardinality"]), 7);
  EXPECT_EQ(int64_t(files["s3://b/t/data/00003-data.parquet"]["cardinality"]), 1);

  const std::string text = run_cli({"iceberg", "index", file}, &code);
  EXPECT_EQ(code, 0);
  EXPECT_NE(text.find("s3://b/t/data/00002-data.parquet\t7\n"), std::string::npos) << text;
  EXPECT_NE(text.find("data files: 3, deletes: 508"), std::string::npos) << text;
}

TEST(IcebergCli, CatAppliesDeletes) {
  const std::string data = parquet_testing("data/alltypes_plain.parquet").string();
  // alltypes_plain has 8 rows with ids 4, 5, 6, 7, 2, 3, 0, 1.
  const std::string deletes = (temp_dir() / "cat_deletes.parquet").string();
  write_delete_file(deletes, {{data, 0}, {data, 3}, {data, 4}, {data, 7}});
  int code = -1;
  std::string out = run_cli({"cat", "--columns", "id", "--csv", "--deletes", deletes, data}, &code);
  ASSERT_EQ(code, 0);
  EXPECT_EQ(out, "id\n5\n6\n3\n0\n");
  // A delete file for one data file stored elsewhere applies too.
  const std::string other = (temp_dir() / "cat_other.parquet").string();
  write_delete_file(other,
                    {{"s3://bucket/alltypes_plain.parquet", 1}, {"s3://bucket/alltypes_plain.parquet", 2}});
  out = run_cli({"cat", "--columns", "id", "--csv", "--deletes", other, data}, &code);
  ASSERT_EQ(code, 0);
  EXPECT_EQ(out, "id\n4\n7\n2\n3\n0\n1\n");
  // And a deletion vector in a Puffin file.
  iceberg::PositionDeleteIndex dv;
  dv.add_range(0, 6);
  iceberg::PuffinWriter puffin;
  puffin.add_deletion_vector(data, dv);
  std::vector<uint8_t> bytes = puffin.finish();
  const std::string puffin_file = (temp_dir() / "cat.puffin").string();
  std::ofstream(puffin_file, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  out = run_cli({"cat", "--columns", "id", "--csv", "--deletes", puffin_file, data}, &code);
  ASSERT_EQ(code, 0);
  EXPECT_EQ(out, "id\n0\n1\n");
}
#endif

}  // namespace
}  // namespace parquetry::testing
