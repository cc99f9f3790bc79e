// Predicate results against DuckDB's: a generated matrix of predicates over
// every type (signed and unsigned integers of each width, float, double,
// decimals of the three physical forms, strings, binary, date, timestamps in
// three units, time, boolean), single leaves and random AND/OR/NOT trees,
// each run by FilteredScan (with every pruning level on) and by DuckDB's
// WHERE on the same file. The files: one DuckDB wrote and two parquetry
// rewrote from it with small row groups and pages, dictionaries, Bloom
// filters and page indexes (v1) or plain v2 pages, so pruning decides too.
#include <gtest/gtest.h>
#include <simdjson.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/predicate.h"
#include "parquetry/reader.h"
#include "parquetry/writer.h"
#include "test_support.h"

namespace parquetry {
namespace {

namespace fs = std::filesystem;

using testing::read_text;
using testing::shell_quote;

std::string sql_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// Runs the DuckDB peer script; its stdout, or a test failure with its stderr.
std::string run_peer(const std::string& args, const fs::path& dir) {
  const fs::path peers = fs::path(PARQUETRY_SOURCE_DIR) / "bench" / "peers";
  const fs::path out = dir / "peer_out.txt";
  const fs::path err = dir / "peer_err.txt";
  const std::string command = "cd " + shell_quote(peers.string()) + " && node predicate_check.mjs " + args +
                              " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  const int status = std::system(command.c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "predicate_check.mjs " << args << " failed (make test installs the DuckDB peer):\n"
      << read_text(err);
  return read_text(out);
}

void rewrite(const std::string& from, const std::string& to, const WriterOptions& options) {
  auto reader = FileReader::open(from);
  auto writer = FileWriter::open(to, *reader->batch_schema(), options);
  for (const RecordBatch& batch : reader->read_all()) writer->write(batch);
  writer->close();
}

std::vector<int64_t> parquetry_rows(const std::string& file, const std::string& where) {
  FilteredScanOptions options;
  options.columns = {kRowNumberColumn};
  options.filter = parse_predicate(where);
  auto scan = FilteredScan::open(file, options);
  std::vector<int64_t> rows;
  RecordBatch batch;
  while (scan->next(batch)) {
    const ArrayData& column = *batch.columns[0];
    const int64_t* values = column.buffers[1].as<int64_t>() + column.offset;
    rows.insert(rows.end(), values, values + batch.num_rows);
  }
  return rows;
}

// Columns whose literals are written bare (numbers, booleans); the rest are quoted.
bool bare_literal(const std::string& column) {
  return column == "b" || column[0] == 'i' || column[0] == 'u' || column[0] == 'f' ||
         (column[0] == 'd' && column != "dt");
}

std::vector<std::string> leaf_predicates(const std::string& c, std::vector<std::string> values) {
  for (std::string& v : values) {
    if (c == "b") {
      v = v == "true" ? "TRUE" : "FALSE";
    } else if (!bare_literal(c)) {
      v = sql_quote(v);
    }
  }
  const std::string& lo = values[0];
  const std::string& mid = values[1];
  const std::string& hi = values[2];
  return {c + " = " + mid,
          c + " != " + mid,
          c + " < " + mid,
          c + " <= " + lo,
          c + " > " + hi,
          c + " >= " + mid,
          c + " IN (" + lo + ", " + hi + ")",
          c + " NOT IN (" + lo + ", " + mid + ")",
          c + " BETWEEN " + lo + " AND " + hi,
          c + " IS NULL",
          c + " IS NOT NULL",
          "NOT (" + c + " < " + mid + ")"};
}

TEST(DuckDBPredicates, EveryTypeAndCombinationSelectsTheRowsDuckDBSelects) {
  ASSERT_EQ(std::system("node --version >/dev/null 2>&1"), 0)
      << "node is not on PATH: make test installs the DuckDB peer (scripts/install-peers.sh)";
  const fs::path dir = testing::temp_dir();

  // DuckDB's file and the literals drawn from its data.
  simdjson::dom::parser parser;
  const std::string generated = run_peer("--generate " + shell_quote(dir.string()), dir);
  ASSERT_FALSE(generated.empty());
  simdjson::dom::element manifest = parser.parse(generated);
  const std::string duckdb_file{std::string_view(manifest["file"])};
  std::vector<std::string> leaves;
  for (auto [column, literals] : manifest["literals"].get_object()) {
    std::vector<std::string> values;
    for (simdjson::dom::element v : literals.get_array()) values.emplace_back(std::string_view(v));
    ASSERT_EQ(values.size(), 3u) << column;
    for (std::string& p : leaf_predicates(std::string(column), values)) leaves.push_back(std::move(p));
  }
  ASSERT_GE(leaves.size(), 22u * 12u);

  // Random trees over the leaves.
  std::vector<std::string> predicates = leaves;
  std::mt19937 rng(20261202);
  for (int i = 0; i < 120; ++i) {
    auto leaf = [&] { return "(" + leaves[rng() % leaves.size()] + ")"; };
    std::string tree = leaf() + (rng() % 2 ? " AND " : " OR ") + leaf();
    if (rng() % 3 == 0) tree = "(" + tree + ")" + (rng() % 2 ? " OR " : " AND ") + leaf();
    if (rng() % 4 == 0) tree = "NOT (" + tree + ")";
    predicates.push_back(tree);
  }

  // parquetry's rewrites: small row groups and pages so pruning has work.
  const std::string dictionary_file = (dir / "parquetry_v1_dictionary_bloom.parquet").string();
  WriterOptions v1;
  v1.row_group_rows = 1000;
  v1.page_rows = 250;
  v1.bloom_filter = true;
  v1.page_header_statistics = true;
  rewrite(duckdb_file, dictionary_file, v1);
  const std::string plain_file = (dir / "parquetry_v2_plain.parquet").string();
  WriterOptions v2;
  v2.row_group_rows = 700;
  v2.page_rows = 100;
  v2.data_page_v2 = true;
  v2.dictionary = false;
  v2.codec = CompressionCodec::ZSTD;
  rewrite(duckdb_file, plain_file, v2);
  const std::vector<std::string> files = {duckdb_file, dictionary_file, plain_file};

  // One DuckDB process answers every query.
  {
    std::ofstream list(dir / "queries.json");
    list << "[";
    bool first = true;
    for (const std::string& file : files) {
      for (const std::string& where : predicates) {
        std::string escaped;
        for (char ch : where) {
          if (ch == '"' || ch == '\\') escaped += '\\';
          escaped += ch;
        }
        list << (first ? "" : ",\n") << "{\"file\": \"" << file << "\", \"where\": \"" << escaped << "\"}";
        first = false;
      }
    }
    list << "]\n";
  }
  const std::string answers = run_peer("--queries " + shell_quote((dir / "queries.json").string()), dir);
  std::istringstream lines(answers);
  std::string line;
  int checked = 0;
  int64_t selected_total = 0;
  int mismatches = 0;
  for (const std::string& file : files) {
    for (const std::string& where : predicates) {
      ASSERT_TRUE(std::getline(lines, line)) << "DuckDB answered fewer queries than asked";
      std::vector<int64_t> expected;
      for (simdjson::dom::element v : parser.parse(line).get_array()) expected.push_back(int64_t(v));
      std::vector<int64_t> got;
      try {
        got = parquetry_rows(file, where);
      } catch (const Error& e) {
        ADD_FAILURE() << fs::path(file).filename() << ": " << where << ": " << e.what();
        continue;
      }
      if (got != expected && mismatches++ < 10) {
        ADD_FAILURE() << fs::path(file).filename() << ": WHERE " << where << "\n  DuckDB selects "
                      << expected.size() << " rows, parquetry " << got.size();
      }
      selected_total += int64_t(expected.size());
      ++checked;
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(checked, int(files.size() * predicates.size()));
  // The matrix is not degenerate: predicates select a real share of rows.
  EXPECT_GT(selected_total, int64_t(checked) * 500);
}

}  // namespace
}  // namespace parquetry
