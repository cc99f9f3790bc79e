// Files other readers open must open here too: annotations newer than this
// code read as the physical type (with a note in `schema`), any byte string
// is a column name (and the CLI can address it), decimals wider than Arrow's
// 76 digits read exactly as their bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/schema.h"
#include "quirky_file.h"

// GCC 12 at -O1 under ASan reports std::variant's move constructor as reading
// uninitialised storage when a Datum temporary is pushed into a vector: a
// false positive of the inliner, not a read of anything uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace parquetry {
namespace {

using testing::FooterEdit;
using testing::make_batch;
using testing::run_cli;
using testing::TestColumn;
using testing::write_quirky_file;

Field field(const std::string& name, DataType type, bool nullable = false) {
  return Field{name, std::move(type), nullable, -1, {}};
}

// Renames the column `from` (a top-level leaf) to `to` in the schema and in
// every chunk's path_in_schema.
void rename(FooterEdit& f, const std::string& from, const std::string& to) {
  bool found = false;
  for (SchemaElement& element : f.metadata.schema) {
    if (element.name == from) {
      element.name = to;
      found = true;
    }
  }
  EXPECT_TRUE(found) << from;
  for (RowGroup& group : f.metadata.row_groups) {
    for (ColumnChunk& chunk : group.columns) {
      std::vector<std::string> parts;
      for (std::string_view part : chunk.meta_data->path_in_schema)
        parts.emplace_back(part == from ? to : std::string(part));
      chunk.meta_data->path_in_schema = parts;
    }
  }
}

SchemaElement& element_named(FooterEdit& f, const std::string& name) {
  for (SchemaElement& element : f.metadata.schema) {
    if (element.name == name) return element;
  }
  ADD_FAILURE() << "no element " << name;
  return f.metadata.schema.front();
}

int64_t int_at(const ArrayData& a, int64_t i) {
  return a.type->id == TypeId::kInt64 ? a.buffers[1].as<int64_t>()[a.offset + i]
                                      : a.buffers[1].as<int32_t>()[a.offset + i];
}

std::string string_at(const ArrayData& a, int64_t i) {
  const int32_t* offsets = a.buffers[1].as<int32_t>() + a.offset;
  return std::string(a.buffers[2].as<char>() + offsets[i], size_t(offsets[i + 1] - offsets[i]));
}

TEST(ForwardCompatibleSchema, UnknownConvertedAndLogicalTypesReadAsPhysical) {
  TestColumn a{field("a", DataType::make(TypeId::kInt32)), {Datum(7), Datum(-3), Datum(12)}};
  TestColumn b{field("b", DataType::make(TypeId::kInt64)), {Datum(int64_t(1) << 40), Datum(2), Datum(3)}};
  TestColumn c{field("c", DataType::make(TypeId::kString)), {Datum("x"), Datum("y"), Datum("z")}};
  const std::string path =
      write_quirky_file("unknown_annotations.parquet", make_batch({a, b, c}), {}, [](FooterEdit& f) {
        element_named(f, "a").converted_type = ConvertedType(24);  // from a newer writer
        element_named(f, "a").logical_type.reset();
        element_named(f, "b").logical_type = LogicalType{UnrecognizedLogicalType{25}};
        element_named(f, "b").converted_type.reset();
        // A new logical type with a converted type for older readers: the converted type wins.
        element_named(f, "c").logical_type = LogicalType{UnrecognizedLogicalType{30}};
        element_named(f, "c").converted_type = ConvertedType::UTF8;
        // Statistics of an annotation we cannot read prove nothing.
        Statistics& stats = *f.metadata.row_groups[0].columns[1].meta_data->statistics;
        stats.min_value = std::string(8, '\x7f');
        stats.max_value = std::string(8, '\x7f');
      });
  auto reader = FileReader::open(path);
  const Schema& schema = reader->schema();
  EXPECT_EQ(schema.column(0).node->annotation_note(), "unknown converted type 24; read as INT32");
  EXPECT_FALSE(schema.column(0).converted_type);
  EXPECT_EQ(schema.column(1).node->annotation_note(), "unknown logical type (union field 25); read as INT64");
  EXPECT_EQ(schema.column(1).sort_order, SortOrder::kUnknown);
  EXPECT_EQ(schema.column(2).node->annotation_note(),
            "unknown logical type (union field 30); read as STRING");
  const std::string text = schema.to_string();
  EXPECT_NE(text.find("required int32 a /* unknown converted type 24; read as INT32 */;"), std::string::npos)
      << text;
  EXPECT_NE(text.find("required int64 b /* unknown logical type (union field 25); read as INT64 */;"),
            std::string::npos)
      << text;

  const std::vector<RecordBatch> batches = reader->read_all();
  ASSERT_EQ(batches.size(), 1u);
  const RecordBatch& batch = batches[0];
  EXPECT_EQ(batch.schema->fields[0].type.id, TypeId::kInt32);
  EXPECT_EQ(batch.schema->fields[1].type.id, TypeId::kInt64);
  EXPECT_EQ(batch.schema->fields[2].type.id, TypeId::kString);
  EXPECT_EQ(int_at(*batch.columns[0], 1), -3);
  EXPECT_EQ(int_at(*batch.columns[1], 0), int64_t(1) << 40);
  EXPECT_EQ(string_at(*batch.columns[2], 2), "z");
  // The bogus bounds of b would exclude b = 2; they are not used.
  EXPECT_EQ(testing::scanned_rows(path, col("b") == 2), std::vector<int64_t>{1});

  testing::CliResult cli = run_cli({"schema", path});
  EXPECT_EQ(cli.exit_code, 0) << cli.out;
  EXPECT_NE(cli.out.find("unknown converted type 24; read as INT32"), std::string::npos) << cli.out;
  cli = run_cli({"schema", "--json", path});
  EXPECT_NE(cli.out.find("unknown logical type (union field 25); read as INT64"), std::string::npos)
      << cli.out;
  // Annotations this code does not know are written back as they were.
  testing::expect_rewrite_keeps_schema(path);
}

// Columns named "", "a.b", "with space", `quo"te`, "naïve", and a struct
// child "x.y", read whole and addressed by --columns and --where.
TEST(ForwardCompatibleSchema, AnyByteStringIsAColumnName) {
  std::vector<TestColumn> columns;
  for (const char* name : {"c0", "c1", "c2", "c3", "c4"}) {
    columns.push_back({field(name, DataType::make(TypeId::kInt32)), {}});
    for (int i = 0; i < 4; ++i) columns.back().values.push_back(Datum(i * 10 + int(columns.size())));
  }
  Field inner = field("c5", DataType::make(TypeId::kString));
  TestColumn s{field("s", DataType::struct_({inner})), {}};
  // Structs are filled through Datum lists of their fields.
  for (int i = 0; i < 4; ++i) s.values.push_back(Datum::list({Datum("v" + std::to_string(i))}));
  columns.push_back(s);
  const std::vector<std::string> names = {"", "a.b", "with space", "quo\"te", "na\xc3\xafve"};
  const std::string path =
      write_quirky_file("odd_names.parquet", make_batch(columns), {}, [&](FooterEdit& f) {
        for (size_t i = 0; i < names.size(); ++i) rename(f, "c" + std::to_string(i), names[i]);
        rename(f, "c5", "x.y");
      });
  auto reader = FileReader::open(path);
  const Schema& schema = reader->schema();
  ASSERT_EQ(schema.num_columns(), 6u);
  EXPECT_EQ(schema.column(0).path, "");
  EXPECT_EQ(schema.column(1).path_parts, std::vector<std::string>{"a.b"});
  EXPECT_EQ(schema.column(5).path_parts, (std::vector<std::string>{"s", "x.y"}));
  EXPECT_EQ(schema.find_column(std::string_view("")), &schema.column(0));
  const std::vector<RecordBatch> batches = reader->read_all();
  ASSERT_EQ(batches.size(), 1u);
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(batches[0].schema->fields[i].name, names[i]);
    EXPECT_EQ(int_at(*batches[0].columns[i], 3), int64_t(30 + i + 1));
  }
  EXPECT_EQ(string_at(*batches[0].columns[5]->children[0], 2), "v2");

  // The quoting syntax, parsed.
  EXPECT_EQ(parse_column_path("\"\""), "");
  EXPECT_EQ(parse_column_path("\"a.b\""), "a.b");
  EXPECT_EQ(parse_column_path("`quo\"te`"), "quo\"te");
  EXPECT_EQ(parse_column_path("\"quo\"\"te\""), "quo\"te");
  EXPECT_EQ(parse_column_path("na\xc3\xafve"), "na\xc3\xafve");
  EXPECT_EQ(parse_column_path("s.\"x.y\""), "s.x.y");
  EXPECT_EQ(parse_column_list("\"\", \"with space\",,\"a,b\""),
            (std::vector<std::string>{"", "with space", "a,b"}));
  EXPECT_THROW(parse_column_path("\"open"), Error);
  EXPECT_THROW(parse_column_path("a..b"), Error);
  EXPECT_THROW(parse_column_list("a b"), Error);
  const std::vector<std::string> parts = {"", "x\"y", "plain"};
  EXPECT_EQ(quote_column_path(parts), "\"\".\"x\"\"y\".plain");
  // Predicates print odd names so that they parse back.
  for (const std::string& name : names) {
    const Predicate p = col(name) > 5;
    EXPECT_EQ(parse_predicate(p.to_string()).column, name) << p.to_string();
  }

  // The CLI: project and filter by the odd names.
  testing::CliResult cli = run_cli({"cat", path, "--columns", "\"\",`quo\"te`,s.\"x.y\"", "--where",
                                    "\"\" >= 11 AND \"with space\" < 33 AND na\xc3\xafve > 0"});
  ASSERT_EQ(cli.exit_code, 0) << cli.out;
  EXPECT_EQ(cli.out,
            "{\"\":11,\"quo\\\"te\":14,\"s\":{\"x.y\":\"v1\"}}\n"
            "{\"\":21,\"quo\\\"te\":24,\"s\":{\"x.y\":\"v2\"}}\n");
  cli = run_cli({"cat", path, "--columns", "\"a.b\"", "--where", "\"a.b\" = 32"});
  ASSERT_EQ(cli.exit_code, 0) << cli.out;
  EXPECT_EQ(cli.out, "{\"a.b\":32}\n");
  cli = run_cli({"scan", path, "--columns", "\"with space\"", "--where", "`with space` > 10", "--json"});
  ASSERT_EQ(cli.exit_code, 0) << cli.out;
  // "with space" holds 3, 13, 23, 33: three rows above 10.
  EXPECT_NE(cli.out.find("\"rows\":3,"), std::string::npos) << cli.out;
  EXPECT_NE(cli.out.find("\"min\":13,\"max\":33"), std::string::npos) << cli.out;
  EXPECT_NE(cli.out.find("\"with space\""), std::string::npos) << cli.out;
  testing::expect_rewrite_keeps_schema(path);
}

// DECIMAL(77, 2) in FIXED_LEN_BYTE_ARRAY(33) and DECIMAL(80, 0) in BYTE_ARRAY:
// no Arrow decimal holds them, so they read as their bytes, exactly, with
// the decimal in the field metadata.
TEST(ForwardCompatibleSchema, DecimalsAbove76DigitsReadExactly) {
  std::string big(33, '\0');
  big[0] = 0x7f;  // near the top of 77 digits
  for (size_t i = 1; i < big.size(); ++i) big[i] = char(i * 7);
  std::string negative(33, '\xff');
  negative[32] = '\xfe';  // -2
  TestColumn d{field("d", DataType::fixed_size_binary(33), true), {Datum(big), Datum(), Datum(negative)}};
  TestColumn e{
      field("e", DataType::make(TypeId::kBinary)),
      {Datum(std::string("\x01\x02", 2)), Datum(std::string(34, '\x11')), Datum(std::string(1, '\x80'))}};
  const std::string path = write_quirky_file("decimal77.parquet", make_batch({d, e}), {}, [](FooterEdit& f) {
    SchemaElement& wide = element_named(f, "d");
    wide.logical_type = LogicalType{DecimalType{2, 77}};
    wide.converted_type = ConvertedType::DECIMAL;
    wide.precision = 77;
    wide.scale = 2;
    SchemaElement& wider = element_named(f, "e");
    wider.logical_type = LogicalType{DecimalType{0, 80}};
    wider.converted_type = ConvertedType::DECIMAL;
    wider.precision = 80;
    wider.scale = 0;
  });
  auto reader = FileReader::open(path);
  EXPECT_EQ(reader->schema().column(0).precision, 77);
  const std::vector<RecordBatch> batches = reader->read_all();
  ASSERT_EQ(batches.size(), 1u);
  const Field& wide = batches[0].schema->fields[0];
  EXPECT_EQ(wide.type.id, TypeId::kFixedSizeBinary);
  EXPECT_EQ(wide.type.byte_width, 33);
  EXPECT_EQ(wide.metadata, (std::vector<std::pair<std::string, std::string>>{{kWideDecimalPrecisionKey, "77"},
                                                                             {kWideDecimalScaleKey, "2"}}));
  const ArrayData& values = *batches[0].columns[0];
  ASSERT_EQ(values.length, 3);
  EXPECT_FALSE(values.is_valid(1));
  EXPECT_EQ(std::string(values.buffers[1].as<char>() + 33 * values.offset, 33), big);
  EXPECT_EQ(std::string(values.buffers[1].as<char>() + 33 * (values.offset + 2), 33), negative);
  const Field& wider = batches[0].schema->fields[1];
  EXPECT_EQ(wider.type.id, TypeId::kBinary);
  EXPECT_EQ(wider.metadata[0].second, "80");
  EXPECT_EQ(string_at(*batches[0].columns[1], 1), std::string(34, '\x11'));
  EXPECT_EQ(string_at(*batches[0].columns[1], 2), std::string(1, '\x80'));
  testing::CliResult cli = run_cli({"schema", path});
  EXPECT_NE(cli.out.find("optional fixed_len_byte_array(33) d (DECIMAL(77,2));"), std::string::npos)
      << cli.out;
  testing::expect_rewrite_keeps_schema(path);
}

}  // namespace
}  // namespace parquetry
