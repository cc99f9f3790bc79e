// `parquetry rewrite` keeps the input's schema annotation for annotation and
// its values, on every public parquet-testing file and on files the tests
// write (the annotation zoo, through WriterOptions::parquet_schema and
// through the Arrow-derived mapping, two files the protobuf layer writes,
// and the data and delete files the Iceberg tests write):
//   - `parquetry schema` (text and --json) prints the same for input and
//     output, the footers hold equal SchemaElement lists and key-value
//     metadata, and the default rewrite keeps the row groups;
//   - FileReader reads the same values from both (INT96 as raw bytes);
//   - DuckDB reads the same values from both (bench/peers/duckdb_same.mjs,
//     one process for every pair);
//   - with --codec, --v1/--v2 or --no-dictionary, `meta --json` of the output
//     differs from the default rewrite's only in what the option names (and
//     in sizes and offsets, which follow).
// Files the reader cannot read are listed with the reason; the list is
// asserted, so a file that starts or stops failing shows up here.
// large_string_map.brotli.parquet (two 1 GiB keys) has a test of its own at
// the end: its values are compared as digests, in one-row batches, and
// DuckDB's side is a query of lengths and MD5s (to_json of it does not fit).
#include <gtest/gtest.h>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/text_format.h>
#include <simdjson.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <xxhash.h>

#include "../iceberg_table/test_table.h"
#include "annotation_zoo.h"
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/proto.h"
#include "parquetry/reader.h"
#include "parquetry/variant_builder.h"
#include "parquetry/variant_json.h"
#include "parquetry/variant_parquet.h"
#include "parquetry/variant_writer.h"
#include "parquetry/writer.h"
#include "test_support.h"
#include "write_test_support.h"

#ifndef PARQUETRY_CLI_PATH
#error "tests/write/CMakeLists.txt defines PARQUETRY_CLI_PATH"
#endif

namespace parquetry {
namespace {

namespace fs = std::filesystem;

struct CliRun {
  int exit_code = -1;
  std::string out;
};

// Runs the CLI; stderr goes to a file that is appended to `out` on failure.
CliRun cli(const std::vector<std::string>& args) {
  static int counter = 0;
  const fs::path err = testing::temp_dir() / ("stderr" + std::to_string(counter++));
  std::string command = testing::shell_quote(PARQUETRY_CLI_PATH);
  for (const std::string& arg : args) command += " " + testing::shell_quote(arg);
  command += " 2>" + testing::shell_quote(err.string());
  CliRun run;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) run.out.append(buffer, n);
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (run.exit_code != 0) run.out += testing::read_text(err);
  return run;
}

FileMetaData footer(const fs::path& path) {
  FileSource source(path.string());
  return read_file_metadata(source);
}

// Every value of a file, rendered canonically (INT96 as its stored bytes).
std::vector<std::string> values_of(const fs::path& path) {
  ReaderOptions options;
  options.int96_as_binary = true;
  return testing::render_rows(FileReader::open(path.string(), options)->read_all());
}

// `schema --json` with the file's own path taken out.
std::string schema_json(const fs::path& path) {
  CliRun run = cli({"schema", "--json", path.string()});
  EXPECT_EQ(run.exit_code, 0) << run.out;
  const std::string quoted = "\"" + path.string() + "\"";
  const size_t at = run.out.find(quoted);
  if (at != std::string::npos) run.out.replace(at, quoted.size(), "\"FILE\"");
  return run.out;
}

// `meta --json` flattened to path -> value, e.g. "row_groups[0].columns[2].codec" -> "\"ZSTD\"".
void flatten(simdjson::dom::element e, const std::string& path, std::map<std::string, std::string>& out) {
  if (e.is_object()) {
    for (auto [key, value] : simdjson::dom::object(e)) flatten(value, path + "." + std::string(key), out);
  } else if (e.is_array()) {
    size_t i = 0;
    for (auto value : simdjson::dom::array(e)) flatten(value, path + "[" + std::to_string(i++) + "]", out);
  } else {
    out[path] = simdjson::to_string(e);
  }
}

std::map<std::string, std::string> meta_of(const fs::path& path) {
  CliRun run = cli({"meta", "--json", path.string()});
  EXPECT_EQ(run.exit_code, 0) << run.out;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::map<std::string, std::string> flat;
  if (parser.parse(run.out).get(doc) != simdjson::SUCCESS) {
    ADD_FAILURE() << "meta --json printed no JSON for " << path << ": " << run.out;
    return flat;
  }
  flatten(doc, "", flat);
  return flat;
}

// The last member name of a flattened path ("a.b[3].c" -> "c"; array items -> their array's name).
std::string leaf_key(const std::string& path) {
  std::string p = path;
  while (!p.empty() && p.back() == ']') p.erase(p.rfind('['));
  return p.substr(p.rfind('.') + 1);
}

// The flattened path of the column chunk a path lies in ("...columns[2]"), or "".
std::string chunk_of(const std::string& path) {
  const size_t at = path.find(".columns[", path.find("row_groups["));
  if (path.rfind(".row_groups[", 0) != 0 || at == std::string::npos) return "";
  return path.substr(0, path.find(']', at) + 1);
}

// Sizes and offsets move with any change of the bytes.
const std::set<std::string> kLayoutKeys = {"file",
                                           "file_size",
                                           "total_compressed_size",
                                           "total_uncompressed_size",
                                           "total_byte_size",
                                           "data_page_offset",
                                           "dictionary_page_offset",
                                           "index_page_offset",
                                           "file_offset",
                                           "column_index_offset",
                                           "column_index_length",
                                           "offset_index_offset",
                                           "offset_index_length",
                                           "bloom_filter_offset",
                                           "bloom_filter_length"};

struct Variant {
  std::string name;
  std::vector<std::string> args;
  std::set<std::string> changes;  ///< member names the option may change besides the layout
};

// The keys of `variant` that differ from `base` must be what the option changes.
void expect_only_option_differs(const std::map<std::string, std::string>& base,
                                const std::map<std::string, std::string>& variant, const Variant& v,
                                const std::string& file) {
  std::set<std::string> keys;
  for (const auto& [k, unused] : base) keys.insert(k);
  for (const auto& [k, unused] : variant) keys.insert(k);
  int changed_by_option = 0;
  for (const std::string& key : keys) {
    auto a = base.find(key);
    auto b = variant.find(key);
    if (a != base.end() && b != variant.end() && a->second == b->second) continue;
    const std::string name = leaf_key(key);
    if (kLayoutKeys.count(name)) continue;
    bool allowed = v.changes.count(name) > 0;
    if (!allowed && v.name == "page_version" && (name == "encodings" || name == "encoding")) {
      // DATA_PAGE_V2 writes booleans RLE-encoded (docs/writer.md): allowed for BOOLEAN chunks only.
      const std::string chunk = chunk_of(key);
      auto type = base.find(chunk + ".type");
      allowed = type != base.end() && type->second == "\"BOOLEAN\"";
    }
    EXPECT_TRUE(allowed) << file << " " << v.name << ": " << key << " is "
                         << (a == base.end() ? "<absent>" : a->second) << " by default, "
                         << (b == variant.end() ? "<absent>" : b->second) << " with the option";
    changed_by_option += allowed && !kLayoutKeys.count(name);
  }
  (void)changed_by_option;
}

// Which page type the first data page of the first chunk has, from meta's encoding stats.
bool uses_v2(const std::map<std::string, std::string>& meta) {
  for (const auto& [key, value] : meta) {
    if (leaf_key(key) == "page_type" && value == "\"DATA_PAGE_V2\"") return true;
  }
  return false;
}

struct Case {
  std::string name;
  fs::path input;
  bool written = false;  // by this test (not a public file)
};

// A VARIANT column parquetry shreds itself (its shredding inferred from the
// rows): objects with a shredded scalar, a nested object and an array,
// rows whose types differ from the shredding, Variant nulls and SQL NULLs.
fs::path write_shredded_variant(const fs::path& path) {
  VariantJsonParser parser;
  std::vector<std::optional<OwnedVariant>> owned;
  for (int i = 0; i < 900; ++i) {
    if (i % 17 == 5) {
      owned.emplace_back(std::nullopt);
      continue;
    }
    std::string json;
    if (i % 13 == 7) {
      json = i % 2 ? std::to_string(i) : "null";
    } else {
      json = "{\"id\": " + (i % 29 == 3 ? "\"x" + std::to_string(i) + "\"" : std::to_string(i)) +
             ", \"user\": {\"name\": \"u" + std::to_string(i % 41) +
             "\", \"score\": " + std::to_string(i * 0.5) + "}, \"tags\": [" + (i % 3 ? "\"a\", \"b\"" : "") +
             "]" + (i % 7 == 0 ? ", \"extra\": true" : "") + "}";
    }
    VariantBuilder builder;
    parser.parse(json, builder);
    OwnedVariant row;
    const auto metadata = builder.metadata();
    row.metadata.assign(metadata.begin(), metadata.end());
    row.value.assign(builder.value().begin(), builder.value().end());
    owned.emplace_back(std::move(row));
  }
  std::vector<std::optional<parquetry::Variant>> rows;
  for (const auto& row : owned)
    rows.emplace_back(row ? std::optional<parquetry::Variant>(row->view()) : std::nullopt);
  const VariantShredding shredding = infer_variant_shredding(rows);
  EXPECT_EQ(shredding.kind, VariantShredding::Kind::kObject) << shredding.to_string();
  WriterOptions options;
  options.row_group_rows = 400;
  write_variant_file(path.string(), "var", rows, shredding, options, 128);
  return path;
}

// Files the tests write: the zoo through its Parquet schema, and the same
// batches through the writer's own Arrow -> Parquet mapping.
std::vector<Case> written_files(const fs::path& dir) {
  const std::vector<SchemaElement> elements = testing::zoo_schema();
  const BatchSchema schema = testing::zoo_batch_schema(elements);
  testing::RandomArrays random(424242);
  const std::vector<RecordBatch> batches{random.batch(schema, 700), random.batch(schema, 123)};
  std::vector<Case> cases;
  for (bool given : {true, false}) {
    WriterOptions options;
    options.row_group_rows = 500;
    if (given) {
      options.parquet_schema = elements;
      options.schema_metadata = false;
      options.key_value_metadata = testing::zoo_metadata();
    }
    // The Arrow mapping cannot express a legacy map with MAP_KEY_VALUE or a
    // bare repeated field's id; it writes what it maps them to.
    const fs::path path = dir / (given ? "zoo_given_schema.parquet" : "zoo_mapped_schema.parquet");
    auto writer = FileWriter::open(path.string(), schema, options);
    for (const RecordBatch& batch : batches) writer->write(batch);
    writer->close();
    cases.push_back({path.filename().string(), path, true});
  }
  cases.push_back(
      {"variant_shredded.parquet", write_shredded_variant(dir / "variant_shredded.parquet"), true});
  return cases;
}

// Rewrites every case with the defaults (and every third one with each
// option) and checks schema, metadata, row groups and values here, then the
// values through DuckDB, which refuses exactly `expected_duckdb_refusals`.
void check_rewrites(const fs::path& dir, const std::vector<Case>& cases,
                    const std::set<std::string>& expected_duckdb_refusals) {
  std::map<std::string, std::string> unreadable;  // file -> the reader's error
  std::vector<std::pair<fs::path, fs::path>> duckdb_pairs;
  std::vector<int64_t> duckdb_rows;
  int index = 0;
  int case_number = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> input_values;
    try {
      input_values = values_of(c.input);
    } catch (const Error& e) {
      unreadable[c.name] = e.message();
      continue;
    }
    const FileMetaData input = footer(c.input);
    const std::string input_text = cli({"schema", c.input.string()}).out;
    const std::string input_json = schema_json(c.input);
    ASSERT_FALSE(input_text.empty());

    const fs::path base = dir / (std::to_string(index++) + "_default.parquet");
    CliRun rewrite = cli({"rewrite", c.input.string(), base.string()});
    ASSERT_EQ(rewrite.exit_code, 0) << rewrite.out;
    const std::map<std::string, std::string> base_meta = meta_of(base);
    std::vector<Variant> variants = {
        {"default", {}, {}},
        {"codec", {"--codec", "zstd"}, {"codec"}},
        {"page_version", {uses_v2(base_meta) ? "--v1" : "--v2"}, {"page_type"}},
        {"no_dictionary",
         {"--no-dictionary"},
         {"encodings", "encoding", "page_type", "count", "distinct_count"}},
    };
    // Every file is rewritten with the defaults; the option variants run on
    // every third file and the written ones (the comparison is the same, and
    // each variant costs several processes under ASan).
    const bool all_variants = c.written || case_number % 3 == 0;
    ++case_number;
    for (const Variant& v : variants) {
      if (!all_variants && v.name != "default") continue;
      SCOPED_TRACE(v.name);
      fs::path out = base;
      if (v.name != "default") {
        out = dir / (std::to_string(index++) + "_" + v.name + ".parquet");
        std::vector<std::string> args{"rewrite", c.input.string(), out.string()};
        args.insert(args.end(), v.args.begin(), v.args.end());
        CliRun run = cli(args);
        ASSERT_EQ(run.exit_code, 0) << run.out;
        expect_only_option_differs(base_meta, meta_of(out), v, c.name);
      }
      EXPECT_EQ(cli({"schema", out.string()}).out, input_text);
      EXPECT_EQ(schema_json(out), input_json);
      const FileMetaData output = footer(out);
      ASSERT_EQ(output.schema.size(), input.schema.size());
      for (size_t i = 0; i < input.schema.size(); ++i) {
        EXPECT_EQ(output.schema[i], input.schema[i])
            << "schema element " << i << " (" << input.schema[i].name << ")";
      }
      EXPECT_EQ(output.key_value_metadata, input.key_value_metadata);
      EXPECT_EQ(output.num_rows, input.num_rows);
      // Row groups are kept, empty ones too (column_chunk_key_value_metadata.parquet has one).
      std::vector<int64_t> input_groups, output_groups;
      for (const RowGroup& g : input.row_groups) input_groups.push_back(g.num_rows);
      for (const RowGroup& g : output.row_groups) output_groups.push_back(g.num_rows);
      EXPECT_EQ(output_groups, input_groups);
      EXPECT_EQ(values_of(out), input_values);
      duckdb_pairs.emplace_back(c.input, out);
      duckdb_rows.push_back(input.num_rows);
    }
  }
  // The reader reads every public file but the ones listed (none today).
  std::map<std::string, std::string> expected_unreadable;
  EXPECT_EQ(unreadable, expected_unreadable);

  if (!testing::duckdb_peer_available()) {
    GTEST_SKIP() << "DuckDB peer not installed (bench/peers/node_modules): values not cross-checked";
  }
  const fs::path list = dir / "pairs.tsv";
  {
    std::ofstream out(list);
    for (const auto& [a, b] : duckdb_pairs) out << a.string() << '\t' << b.string() << '\n';
  }
  int status = 0;
  const std::vector<std::string> lines =
      testing::run_peer("duckdb_same.mjs", testing::shell_quote(list.string()), &status);
  ASSERT_EQ(status, 0) << (lines.empty() ? "" : lines.back());
  ASSERT_EQ(lines.size(), duckdb_pairs.size());
  std::set<std::string> duckdb_cannot_read;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const std::string name = duckdb_pairs[i].first.filename().string();
    if (line.rfind("ERROR A ", 0) == 0) {
      duckdb_cannot_read.insert(name);  // DuckDB refuses the input itself
      std::printf("DuckDB refuses %s: %s\n", name.c_str(), line.c_str());
      continue;
    }
    EXPECT_EQ(line, "SAME " + std::to_string(duckdb_rows[i]))
        << duckdb_pairs[i].first << " -> " << duckdb_pairs[i].second;
  }
  EXPECT_EQ(duckdb_cannot_read, expected_duckdb_refusals);
}

TEST(RewriteFidelityTest, SchemaAndValuesSurviveEveryFile) {
  const fs::path dir = testing::temp_dir();
  std::vector<Case> cases;
  for (const fs::path& file : testing::public_parquet_files()) {
    const std::string name = fs::relative(file, testing::parquet_testing("data")).string();
    cases.push_back({name, file});
  }
  for (Case& c : written_files(dir)) cases.push_back(std::move(c));
  ASSERT_GE(cases.size(), 48u);  // 46 public files of data/ (large_string_map: its own test) + 3 written
  // DuckDB 1.5.6 refuses these inputs itself (BYTE_STREAM_SPLIT on integer
  // and FLBA columns; the deprecated LZ4 codec; the zoo's BSON column, whose
  // converted type 20 it does not know); their outputs are then not compared
  // by it.
  check_rewrites(dir, cases,
                 {"byte_stream_split_extended.gzip.parquet", "hadoop_lz4_compressed.parquet",
                  "non_hadoop_lz4_compressed.parquet", "zoo_given_schema.parquet"});
}

// The shredded VARIANT files of parquet-testing (parquet-java's shredding
// cases: every primitive, objects, arrays, partial shredding, type mismatches
// between value and typed_value): a rewrite keeps each VARIANT group's
// layout, column for column, and its values.
TEST(RewriteFidelityTest, ShreddedVariantFilesKeepTheirLayout) {
  const fs::path dir = testing::temp_dir();
  const fs::path folder = testing::parquet_testing("shredded_variant");
  std::vector<Case> cases;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path().extension() == ".parquet")
      cases.push_back({entry.path().filename().string(), entry.path()});
  }
  std::sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
  ASSERT_GE(cases.size(), 93u);
  // DuckDB 1.5.6 refuses these inputs itself: typed_value before value in
  // the group (041, 131), an object in `value` beside a shredded object
  // (087), an unsigned integer in typed_value (127).
  check_rewrites(dir, cases,
                 {"case-041.parquet", "case-087.parquet", "case-127.parquet", "case-131.parquet"});
}

// Files the Iceberg tests write (tests/iceberg_table/test_table.h and
// tests/iceberg_read/delete_file_support.h): a data file with field ids and
// a nullable string, equality-delete files on one and two columns, and
// position-delete files with Iceberg's reserved field ids and without.
TEST(RewriteFidelityTest, FilesTheIcebergTestsWriteKeepTheirSchema) {
  const fs::path dir = testing::temp_dir();
  std::vector<testing::ModelRow> rows;
  for (int64_t id = 0; id < 1500; ++id) rows.push_back({id, int32_t(id % 3), testing::name_of(id)});
  std::vector<Case> cases;
  auto add = [&](const std::string& name) {
    cases.push_back({name, dir / name, true});
    return (dir / name).string();
  };
  testing::write_data_file(add("iceberg_data.parquet"), rows, 600);
  testing::write_equality_file(add("iceberg_equality_id.parquet"), {1}, rows);
  testing::write_equality_file(add("iceberg_equality_id_name.parquet"), {1, 3}, rows);
  std::vector<testing::DeleteRow> deletes;
  for (int64_t pos = 0; pos < 2000; pos += 3)
    deletes.push_back({"s3://bucket/wh/t/data/f" + std::to_string(pos / 500) + ".parquet", pos});
  testing::write_delete_file(add("iceberg_position_deletes.parquet"), deletes, true, 400, 50);
  testing::write_delete_file(add("iceberg_position_deletes_no_ids.parquet"), deletes, false, 400, 50);
  check_rewrites(dir, cases, {});
}

// Files the protobuf layer writes (ProtoWriter by reflection, as
// tests/proto does with generated types): a message of every scalar kind,
// an enum, a nested message, repeated scalars and messages and a map, in
// the default layout (3-level LIST/MAP, unsigned annotations, ENUM strings)
// and parquet-java's legacy one. The descriptor is built at run time.
const google::protobuf::Descriptor* fidelity_message(google::protobuf::DescriptorPool& pool) {
  google::protobuf::FileDescriptorProto file;
  const bool parsed = google::protobuf::TextFormat::ParseFromString(
      R"pb(
        name: "fidelity.proto"
        package: "fidelity"
        syntax: "proto3"
        enum_type {
          name: "Color"
          value { name: "RED" number: 0 }
          value { name: "GREEN" number: 1 }
        }
        message_type {
          name: "Inner"
          field { name: "x" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 }
          field { name: "tag" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
        }
        message_type {
          name: "Row"
          field { name: "i32" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 }
          field { name: "i64" number: 2 label: LABEL_OPTIONAL type: TYPE_INT64 }
          field { name: "u32" number: 3 label: LABEL_OPTIONAL type: TYPE_UINT32 }
          field { name: "u64" number: 4 label: LABEL_OPTIONAL type: TYPE_UINT64 }
          field { name: "s32" number: 5 label: LABEL_OPTIONAL type: TYPE_SINT32 }
          field { name: "fx64" number: 6 label: LABEL_OPTIONAL type: TYPE_FIXED64 }
          field { name: "d" number: 7 label: LABEL_OPTIONAL type: TYPE_DOUBLE }
          field { name: "f" number: 8 label: LABEL_OPTIONAL type: TYPE_FLOAT }
          field { name: "b" number: 9 label: LABEL_OPTIONAL type: TYPE_BOOL }
          field { name: "s" number: 10 label: LABEL_OPTIONAL type: TYPE_STRING }
          field { name: "by" number: 11 label: LABEL_OPTIONAL type: TYPE_BYTES }
          field {
            name: "color"
            number: 12
            label: LABEL_OPTIONAL
            type: TYPE_ENUM
            type_name: ".fidelity.Color"
          }
          field {
            name: "inner"
            number: 13
            label: LABEL_OPTIONAL
            type: TYPE_MESSAGE
            type_name: ".fidelity.Inner"
          }
          field { name: "nums" number: 14 label: LABEL_REPEATED type: TYPE_INT64 }
          field {
            name: "inners"
            number: 15
            label: LABEL_REPEATED
            type: TYPE_MESSAGE
            type_name: ".fidelity.Inner"
          }
          field {
            name: "attrs"
            number: 16
            label: LABEL_REPEATED
            type: TYPE_MESSAGE
            type_name: ".fidelity.Row.AttrsEntry"
          }
          nested_type {
            name: "AttrsEntry"
            field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
            field { name: "value" number: 2 label: LABEL_OPTIONAL type: TYPE_INT32 }
            options { map_entry: true }
          }
        }
      )pb",
      &file);
  EXPECT_TRUE(parsed);
  const google::protobuf::FileDescriptor* built = pool.BuildFile(file);
  EXPECT_NE(built, nullptr);
  return built == nullptr ? nullptr : built->FindMessageTypeByName("Row");
}

std::vector<Case> proto_written_files(const fs::path& dir) {
  google::protobuf::DescriptorPool pool;
  const google::protobuf::Descriptor* row = fidelity_message(pool);
  if (row == nullptr) return {};
  google::protobuf::DynamicMessageFactory factory(&pool);
  auto field = [&](const char* name) { return row->FindFieldByName(name); };
  std::vector<Case> cases;
  for (const bool legacy : {false, true}) {
    const fs::path path = dir / (legacy ? "proto_legacy.parquet" : "proto_default.parquet");
    auto writer = proto::ProtoWriter::open(path.string(), row,
                                           legacy ? proto::ProtoOptions::legacy() : proto::ProtoOptions{});
    for (int i = 0; i < 40; ++i) {
      std::unique_ptr<google::protobuf::Message> message(factory.GetPrototype(row)->New());
      const google::protobuf::Reflection* r = message->GetReflection();
      r->SetInt32(message.get(), field("i32"), i * 7 - 100);
      r->SetInt64(message.get(), field("i64"), int64_t(i) * 1'000'000'007 - (int64_t(1) << 40));
      r->SetUInt32(message.get(), field("u32"), 4'000'000'000u + uint32_t(i));
      r->SetUInt64(message.get(), field("u64"), ~uint64_t(0) - uint64_t(i));
      r->SetInt32(message.get(), field("s32"), -i);
      r->SetUInt64(message.get(), field("fx64"), uint64_t(i) << 33);
      r->SetDouble(message.get(), field("d"), i * 0.25 - 3);
      r->SetFloat(message.get(), field("f"), float(i) / 8);
      r->SetBool(message.get(), field("b"), i % 3 == 0);
      r->SetString(message.get(), field("s"), "row " + std::to_string(i));
      r->SetString(message.get(), field("by"), std::string(size_t(i % 4), char(i)));
      r->SetEnumValue(message.get(), field("color"), i % 2);
      if (i % 5 != 0) {
        google::protobuf::Message* inner = r->MutableMessage(message.get(), field("inner"));
        inner->GetReflection()->SetInt32(inner, inner->GetDescriptor()->FindFieldByName("x"), i);
        inner->GetReflection()->SetString(inner, inner->GetDescriptor()->FindFieldByName("tag"),
                                          "t" + std::to_string(i));
      }
      for (int k = 0; k < i % 4; ++k) r->AddInt64(message.get(), field("nums"), int64_t(i) * 10 + k);
      for (int k = 0; k < i % 3; ++k) {
        google::protobuf::Message* inner = r->AddMessage(message.get(), field("inners"));
        inner->GetReflection()->SetInt32(inner, inner->GetDescriptor()->FindFieldByName("x"), k);
      }
      for (int k = 0; k < i % 3; ++k) {
        google::protobuf::Message* entry = r->AddMessage(message.get(), field("attrs"));
        entry->GetReflection()->SetString(entry, entry->GetDescriptor()->FindFieldByName("key"),
                                          "k" + std::to_string(k));
        entry->GetReflection()->SetInt32(entry, entry->GetDescriptor()->FindFieldByName("value"), i + k);
      }
      writer->write(*message);
    }
    writer->close();
    cases.push_back({path.filename().string(), path, true});
  }
  return cases;
}

TEST(RewriteFidelityTest, FilesTheProtobufLayerWritesKeepTheirSchema) {
  const fs::path dir = testing::temp_dir();
  std::vector<Case> cases = proto_written_files(dir);
  ASSERT_EQ(cases.size(), 2u);
  check_rewrites(dir, cases, {});
}

// Rewrites `input` with --int96-as `unit`: the INT96 leaves (one here) become
// INT64 TIMESTAMP(unit, not UTC-adjusted) and nothing else changes.
void expect_int96_converted(const fs::path& input, const fs::path& output, const std::string& unit,
                            TimeUnit parquet_unit) {
  CliRun run = cli({"rewrite", input.string(), output.string(), "--int96-as", unit});
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const FileMetaData before = footer(input);
  const FileMetaData after = footer(output);
  ASSERT_EQ(after.schema.size(), before.schema.size());
  int int96 = 0;
  for (size_t i = 0; i < before.schema.size(); ++i) {
    SchemaElement expected = before.schema[i];
    if (expected.type == Type::INT96) {
      ++int96;
      expected.type = Type::INT64;
      expected.logical_type = LogicalType{TimestampType{false, parquet_unit}};
    }
    EXPECT_EQ(after.schema[i], expected) << before.schema[i].name;
  }
  EXPECT_EQ(int96, 1);
  EXPECT_EQ(after.key_value_metadata, before.key_value_metadata);
}

TEST(RewriteFidelityTest, Int96AsAskedUnitOnly) {
  const fs::path dir = testing::temp_dir();
  // Kept as INT96 by default (the fidelity test above covers the values).
  const fs::path spark = testing::parquet_testing("data/int96_from_spark.parquet");
  ASSERT_EQ(cli({"rewrite", spark.string(), (dir / "kept.parquet").string()}).exit_code, 0);
  EXPECT_EQ(footer(dir / "kept.parquet").schema, footer(spark).schema);

  // alltypes_plain: whole seconds, the same instants at microseconds.
  const fs::path alltypes = testing::parquet_testing("data/alltypes_plain.parquet");
  expect_int96_converted(alltypes, dir / "alltypes_micros.parquet", "MICROS", TimeUnit::MICROS);
  ReaderOptions micros;
  micros.int96_unit = ArrowTimeUnit::kMicro;
  EXPECT_EQ(testing::render_rows(FileReader::open((dir / "alltypes_micros.parquet").string())->read_all()),
            testing::render_rows(FileReader::open(alltypes.string(), micros)->read_all()));

  // int96_from_spark: the last value is stored with Julian day -105862232
  // (Spark wrapped it), i.e. -9357363680509551616 us, below int64
  // microseconds: MILLIS holds every value, MICROS and NANOS refuse the file
  // rather than wrap (the output then does not appear).
  expect_int96_converted(spark, dir / "spark_millis.parquet", "MILLIS", TimeUnit::MILLIS);
  RecordBatch batch = FileReader::open((dir / "spark_millis.parquet").string())->read_row_group(0);
  ASSERT_EQ(batch.num_rows, 6);
  const int64_t* ms = batch.columns[0]->buffers[1].as<int64_t>();
  EXPECT_EQ(ms[0], 1704141296123);
  EXPECT_EQ(ms[1], 1704070800000);
  EXPECT_EQ(ms[2], 253402225200000);  // 9999-12-31T03:00Z, beyond int64 nanoseconds
  EXPECT_EQ(ms[3], 1735599600000);
  EXPECT_FALSE(batch.columns[0]->is_valid(4));
  EXPECT_EQ(ms[5], -9357363680509552);  // floor of -9357363680509551.616
  for (const std::string unit : {"MICROS", "NANOS"}) {
    const fs::path out = dir / ("spark_" + unit + ".parquet");
    CliRun run = cli({"rewrite", spark.string(), out.string(), "--int96-as", unit});
    EXPECT_NE(run.exit_code, 0) << unit;
    EXPECT_NE(run.out.find("outside the int64 range"), std::string::npos) << run.out;
    EXPECT_FALSE(fs::exists(out));
  }
  CliRun bad = cli({"rewrite", spark.string(), (dir / "bad.parquet").string(), "--int96-as", "SECONDS"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("MILLIS, MICROS or NANOS"), std::string::npos) << bad.out;
}

// parquet-testing's large_string_map (MAP<string, int32>, two keys of 1 GiB
// each, Brotli): the rewrite keeps its schema and footer, reads back in
// one-row batches to the same entries, and DuckDB sees the same key lengths,
// key MD5s and values in both files. About 5 GB at its peak.
std::vector<std::string> map_entry_digests(const fs::path& path) {
  std::vector<std::string> out;
  auto batches = FileReader::open(path.string())->batches();
  RecordBatch batch;
  while (batches->next(batch)) {
    const ArrayData& map = *batch.columns.at(0);
    const ArrayData& entries = *map.children.at(0);
    const ArrayData& keys = *entries.children.at(0);
    const ArrayData& values = *entries.children.at(1);
    const int32_t* map_offsets = map.buffers[1].as<int32_t>() + map.offset;
    const int32_t* key_offsets = keys.buffers[1].as<int32_t>() + keys.offset;
    const int32_t* value_data = values.buffers[1].as<int32_t>() + values.offset;
    // Map offsets index entries; entry e is key and value e + entries.offset.
    for (int32_t e = map_offsets[0]; e < map_offsets[batch.num_rows]; ++e) {
      const int64_t child = e + entries.offset;
      const int64_t begin = key_offsets[child];
      const int64_t length = key_offsets[child + 1] - begin;
      const uint64_t hash = XXH64(keys.buffers[2].data + begin, size_t(length), 0);
      out.push_back(std::to_string(length) + " " + std::to_string(hash) + " " +
                    std::to_string(value_data[child]));
    }
  }
  return out;
}

TEST(RewriteFidelityTest, GigabyteMapKeysKeepSchemaAndValues) {
  const fs::path input = testing::parquet_testing("data/large_string_map.brotli.parquet");
  ASSERT_TRUE(testing::needs_gigabytes(input));
  const fs::path out = testing::temp_dir() / "large_string_map.parquet";
  CliRun run = cli({"rewrite", input.string(), out.string()});
  ASSERT_EQ(run.exit_code, 0) << run.out;
  EXPECT_EQ(cli({"schema", out.string()}).out, cli({"schema", input.string()}).out);
  EXPECT_EQ(schema_json(out), schema_json(input));
  const FileMetaData in_footer = footer(input);
  const FileMetaData out_footer = footer(out);
  EXPECT_EQ(out_footer.schema, in_footer.schema);
  EXPECT_EQ(out_footer.key_value_metadata, in_footer.key_value_metadata);
  ASSERT_EQ(out_footer.row_groups.size(), 1u);
  EXPECT_EQ(out_footer.row_groups[0].num_rows, 2);

  const std::vector<std::string> expected = map_entry_digests(input);
  // Both keys are 1 GiB of 'a' mapped to 1.
  static const std::string a_block(1 << 20, 'a');
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, 0);
  for (int i = 0; i < 1024; ++i) XXH64_update(state, a_block.data(), a_block.size());
  const std::string entry = "1073741824 " + std::to_string(XXH64_digest(state)) + " 1";
  XXH64_freeState(state);
  ASSERT_EQ(expected, (std::vector<std::string>{entry, entry}));
  EXPECT_EQ(map_entry_digests(out), expected);

  if (!testing::duckdb_peer_available()) {
    GTEST_SKIP() << "DuckDB peer not installed (bench/peers/node_modules): values not cross-checked";
  }
  auto duckdb_rows = [](const fs::path& file) {
    const std::string literal = "'" + file.string() + "'";
    int status = 0;
    std::vector<std::string> lines = testing::run_peer(
        "duckdb_query.mjs",
        testing::shell_quote(
            "SELECT length(e.key), md5(e.key), e.value FROM (SELECT unnest(map_entries(arr)) AS e "
            "FROM read_parquet(" +
            literal + "))"),
        &status);
    EXPECT_EQ(status, 0) << (lines.empty() ? "" : lines.back());
    return lines;
  };
  const std::vector<std::string> duckdb_input = duckdb_rows(input);
  ASSERT_EQ(duckdb_input.size(), 2u);
  // MD5 of 2^30 bytes of 'a', as DuckDB prints it.
  EXPECT_EQ(duckdb_input[0], "1073741824\tadb5a28fda6ec2a01075b9945887a083\t1");
  EXPECT_EQ(duckdb_rows(out), duckdb_input);
}

}  // namespace
}  // namespace parquetry
