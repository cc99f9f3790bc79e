// DuckDB reads what parquetry writes: the same values row by row, and its
// parquet_metadata() sees our row groups, encodings and statistics. DuckDB
// runs through bench/peers/duckdb_check.mjs (installed by
// scripts/install-peers.sh); without node or the peer the test is skipped.
#include <gtest/gtest.h>
#include <simdjson.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>

#include "json_compare.h"
#include "parquetry/table/json_values.h"
#include "test_support.h"
#include "write_test_support.h"

namespace parquetry {
namespace {

using simdjson::dom::element;
using testing::make_batch;
using testing::make_fixed;
using testing::make_strings;

std::vector<std::string> run_duckdb(const std::string& file, const std::string& mode) {
  int status = 0;
  std::vector<std::string> lines =
      testing::run_peer("duckdb_check.mjs", testing::shell_quote(file) + " " + mode, &status);
  EXPECT_EQ(status, 0) << (lines.empty() ? "" : lines.back());
  return lines;
}

struct Case {
  const char* name;
  CompressionCodec codec;
  bool v2;
  std::optional<Encoding> encoding;
  bool dictionary;
  /// An encoding for the `amount` (double) column alone, which keeps the
  /// dictionary on: the writer's dictionary trial drops it for these random
  /// values, so the pages use this encoding.
  std::optional<Encoding> amount_encoding = std::nullopt;
};

TEST(WriterDuckDB, DuckDBReadsIdenticalValuesAndMetadata) {
  if (!testing::duckdb_peer_available())
    GTEST_SKIP() << "node or the DuckDB peer is not installed (scripts/install-peers.sh)";
  std::mt19937_64 rng(77);
  const int64_t rows = 3000;
  std::vector<int64_t> ids(rows);
  std::vector<int32_t> small(rows);
  std::vector<double> amounts(rows);
  std::vector<int64_t> stamps(rows);
  std::vector<int32_t> days(rows);
  std::vector<uint8_t> flags(rows);
  std::vector<std::string> names(rows);
  std::vector<bool> valid(rows);
  for (int64_t i = 0; i < rows; ++i) {
    ids[size_t(i)] = i * 1000003 - 5000000;
    small[size_t(i)] = int32_t(rng() % 200) - 100;
    amounts[size_t(i)] = double(int64_t(rng() % 100000)) / 100.0;
    stamps[size_t(i)] = 1640995200000000LL + int64_t(rng() % 2678400000000ULL);
    days[size_t(i)] = int32_t(18000 + rng() % 1000);
    flags[size_t(i)] = uint8_t(rng() % 2);
    names[size_t(i)] = "name-" + std::to_string(rng() % 50);
    valid[size_t(i)] = rng() % 10 != 0;
  }
  // list<int32> with nulls and empty lists; struct<a: int64, b: string>.
  std::vector<int32_t> offsets{0};
  std::vector<int32_t> elements;
  std::vector<bool> list_valid(rows);
  for (int64_t i = 0; i < rows; ++i) {
    list_valid[size_t(i)] = i % 7 != 3;
    const int n = list_valid[size_t(i)] ? int(i % 4) : 0;
    for (int k = 0; k < n; ++k) elements.push_back(int32_t(i * 10 + k));
    offsets.push_back(int32_t(elements.size()));
  }
  BatchSchema schema;
  Field item_field{"element", DataType::make(TypeId::kInt32), false, -1, {}};
  schema.fields = {Field{"id", DataType::make(TypeId::kInt64), false, -1, {}},
                   Field{"small", DataType::make(TypeId::kInt16), true, -1, {}},
                   Field{"amount", DataType::make(TypeId::kFloat64), true, -1, {}},
                   Field{"ts", DataType::timestamp(ArrowTimeUnit::kMicro, ""), false, -1, {}},
                   Field{"day", DataType::make(TypeId::kDate32), false, -1, {}},
                   Field{"name", DataType::make(TypeId::kString), true, -1, {}},
                   Field{"tags", DataType::list(item_field), true, -1, {}},
                   Field{"rec",
                         DataType::struct_({Field{"a", DataType::make(TypeId::kInt64), true, -1, {}},
                                            Field{"b", DataType::make(TypeId::kString), false, -1, {}}}),
                         true,
                         -1,
                         {}}};
  std::vector<int16_t> small16(small.begin(), small.end());
  auto list = std::make_shared<ArrayData>();
  list->type = std::make_shared<DataType>(schema.fields[6].type);
  list->length = rows;
  list->buffers = {testing::validity_of(list_valid, &list->null_count), testing::adopt_vector(offsets)};
  list->children.push_back(make_fixed(DataType::make(TypeId::kInt32), elements));
  auto rec = std::make_shared<ArrayData>();
  rec->type = std::make_shared<DataType>(schema.fields[7].type);
  rec->length = rows;
  rec->buffers = {testing::validity_of(list_valid, &rec->null_count)};
  rec->children.push_back(make_fixed(DataType::make(TypeId::kInt64), ids, valid));
  rec->children.push_back(make_strings(DataType::make(TypeId::kString), names));
  auto shared = std::make_shared<const BatchSchema>(schema);
  RecordBatch batch =
      make_batch(shared, {make_fixed(DataType::make(TypeId::kInt64), ids),
                          make_fixed(DataType::make(TypeId::kInt16), small16, valid),
                          make_fixed(DataType::make(TypeId::kFloat64), amounts, valid),
                          make_fixed(DataType::timestamp(ArrowTimeUnit::kMicro, ""), stamps),
                          make_fixed(DataType::make(TypeId::kDate32), days),
                          make_strings(DataType::make(TypeId::kString), names, valid), list, rec});

  const Case cases[] = {
      {"snappy-v1-dict", CompressionCodec::SNAPPY, false, std::nullopt, true},
      {"zstd-v2-delta", CompressionCodec::ZSTD, true, Encoding::DELTA_BINARY_PACKED, false},
      {"gzip-v1-plain", CompressionCodec::GZIP, false, Encoding::PLAIN, false},
      {"none-v2-dba", CompressionCodec::UNCOMPRESSED, true, Encoding::DELTA_BYTE_ARRAY, false},
      // DuckDB reads BYTE_STREAM_SPLIT on FLOAT/DOUBLE only, so it goes on the double column.
      {"lz4-v1-bss", CompressionCodec::LZ4_RAW, false, std::nullopt, true, Encoding::BYTE_STREAM_SPLIT},
  };
  const std::string dir =
      std::filesystem::temp_directory_path() / ("pq_writer_duckdb_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = dir + "/" + c.name + ".parquet";
    WriterOptions options;
    options.codec = c.codec;
    options.data_page_v2 = c.v2;
    options.encoding = c.encoding;
    options.dictionary = c.dictionary;
    if (c.amount_encoding) {
      options.columns["amount"].encoding = c.amount_encoding;
      options.columns["amount"].dictionary = true;
    }
    options.row_group_rows = 1000;
    options.page_rows = 300;
    auto writer = FileWriter::open(path, schema, options);
    writer->write(batch);
    writer->close();

    // Rows: our JSON rendering of the batch vs DuckDB's to_json of what it read.
    std::vector<std::string> lines = run_duckdb(path, "");
    ASSERT_EQ(int64_t(lines.size()), rows);
    JsonValueStyle style;
    style.sql_timestamps = true;
    simdjson::dom::parser expected_parser, actual_parser;
    int mismatches = 0;
    for (int64_t r = 0; r < rows; ++r) {
      JsonWriter json;
      write_json_row(json, batch, r, style);
      std::string ours = json.take();
      element expected = expected_parser.parse(ours);
      element actual = actual_parser.parse(lines[size_t(r)]);
      std::string why;
      if (!testing::json_same(expected, actual, why, "") && mismatches++ < 3) {
        ADD_FAILURE() << "row " << r << ": " << why << "\n ours:   " << ours
                      << "\n duckdb: " << lines[size_t(r)];
      }
    }
    EXPECT_EQ(mismatches, 0);

    // Metadata: 3 row groups x 9 leaves, our encodings and statistics.
    std::vector<std::string> meta = run_duckdb(path, "--metadata");
    ASSERT_EQ(meta.size(), 3u * 9u);
    FileMetaData ours = FileReader::open(path)->metadata();
    simdjson::dom::parser parser;
    for (const std::string& line : meta) {
      element row = parser.parse(line);
      const int64_t group = int64_t(row["row_group_id"]);
      const int64_t column = int64_t(row["column_id"]);
      const ColumnMetaData& cm = *ours.row_groups[size_t(group)].columns[size_t(column)].meta_data;
      EXPECT_EQ(int64_t(row["row_group_num_rows"]), 1000);
      EXPECT_EQ(int64_t(row["num_values"]), cm.num_values);
      EXPECT_EQ(std::string(std::string_view(row["compression"])), std::string(codec_name(c.codec)));
      std::string encodings{std::string_view(row["encodings"])};
      for (Encoding e : cm.encodings) {
        EXPECT_NE(encodings.find(std::string(encoding_name(e))), std::string::npos) << encodings;
      }
      EXPECT_EQ(int64_t(row["stats_null_count"]), *cm.statistics->null_count);
      if (column == 2 && c.amount_encoding) {  // amount: the dictionary was dropped for BSS
        EXPECT_EQ(cm.encodings.front(), *c.amount_encoding);
        EXPECT_NE(encodings.find(std::string(encoding_name(*c.amount_encoding))), std::string::npos);
      }
      if (column == 0) {  // id: ascending int64, exact bounds
        const int64_t first = (group * 1000) * 1000003 - 5000000;
        EXPECT_EQ(std::string(std::string_view(row["stats_min_value"])), std::to_string(first));
        EXPECT_EQ(std::string(std::string_view(row["stats_max_value"])),
                  std::to_string(first + 999 * 1000003));
      }
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace parquetry
