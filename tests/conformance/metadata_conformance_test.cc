// Footer and schema of every public parquet-testing file, checked against
// what DuckDB reports for the same files (duckdb-baseline/index.json) and, for
// a dozen files, against facts checked by hand (codecs, encodings, logical
// types, levels, statistics).
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "parquetry/schema.h"
#include "parquetry/schema/value_text.h"
#include "test_support.h"

namespace parquetry {
namespace {

namespace fs = std::filesystem;

struct BaselineFile {
  std::string status;
  std::optional<int64_t> rows;
  std::vector<std::pair<std::string, std::string>> columns;  // DuckDB name, type
};

const std::map<std::string, BaselineFile>& baseline() {
  static const std::map<std::string, BaselineFile> files = [] {
    std::map<std::string, BaselineFile> out;
    simdjson::dom::parser parser;
    simdjson::dom::element root = parser.load(testing::duckdb_baseline("index.json").string());
    for (auto [key, value] : simdjson::dom::object(root["files"])) {
      BaselineFile file;
      file.status = std::string(std::string_view(value["status"]));
      int64_t rows;
      if (value["rows"].get_int64().get(rows) == simdjson::SUCCESS) file.rows = rows;
      simdjson::dom::array columns;
      if (value["columns"].get_array().get(columns) == simdjson::SUCCESS) {
        for (simdjson::dom::element column : columns) {
          simdjson::dom::array pair = column.get_array();
          file.columns.emplace_back(std::string(std::string_view(pair.at(0))),
                                    std::string(std::string_view(pair.at(1))));
        }
      }
      out.emplace(std::string(key), std::move(file));
    }
    return out;
  }();
  return files;
}

FileMetaData read_footer_at(const fs::path& path) {
  FileSource source(path.string());
  return read_file_metadata(source);
}

/// `relative` to parquet-testing, e.g. "data/alltypes_plain.parquet".
FileMetaData read_footer(const std::string& relative) {
  return read_footer_at(testing::parquet_testing(relative));
}

// ---------------------------------------------------------------------------
// Our schema nodes rendered as DuckDB type names.

std::string duckdb_type(const SchemaNode& node);

std::string duckdb_leaf_type(const SchemaNode& leaf) {
  const std::optional<LogicalType>& logical = leaf.logical_type();
  if (logical) {
    if (const auto* decimal = logical->get_if<DecimalType>()) {
      return "DECIMAL(" + std::to_string(decimal->precision) + "," + std::to_string(decimal->scale) + ")";
    }
    if (const auto* integer = logical->get_if<IntType>()) {
      static const std::map<int, std::string> kSigned = {
          {8, "TINYINT"}, {16, "SMALLINT"}, {32, "INTEGER"}, {64, "BIGINT"}};
      static const std::map<int, std::string> kUnsigned = {
          {8, "UTINYINT"}, {16, "USMALLINT"}, {32, "UINTEGER"}, {64, "UBIGINT"}};
      return (integer->is_signed ? kSigned : kUnsigned).at(integer->bit_width);
    }
    if (logical->is<StringType>() || logical->is<EnumType>() || logical->is<JsonType>()) return "VARCHAR";
    if (logical->is<DateType>()) return "DATE";
    if (logical->is<TimeType>()) return "TIME";
    if (const auto* timestamp = logical->get_if<TimestampType>()) {
      return timestamp->unit == TimeUnit::NANOS ? "TIMESTAMP_NS" : "TIMESTAMP";
    }
    if (logical->is<Float16Type>()) return "FLOAT";
    if (logical->is<UuidType>()) return "UUID";
    if (logical->is<GeometryType>() || logical->is<GeographyType>()) return "GEOMETRY";
  }
  switch (leaf.physical_type()) {
    case Type::BOOLEAN: return "BOOLEAN";
    case Type::INT32: return "INTEGER";
    case Type::INT64: return "BIGINT";
    case Type::INT96: return "TIMESTAMP";
    case Type::FLOAT: return "FLOAT";
    case Type::DOUBLE: return "DOUBLE";
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY: return "BLOB";
  }
  return "?";
}

std::string duckdb_kind_type(const SchemaNode& node) {
  switch (node.kind()) {
    case NodeKind::kLeaf: return duckdb_leaf_type(node);
    case NodeKind::kList: return duckdb_type(*node.list_element()) + "[]";
    case NodeKind::kMap:
      return "MAP(" + duckdb_type(*node.map_key()) + ", " +
             (node.map_value() ? duckdb_type(*node.map_value()) : std::string("NULL")) + ")";
    case NodeKind::kStruct: {
      std::string text = "STRUCT(";
      for (size_t i = 0; i < node.children().size(); ++i) {
        if (i != 0) text += ", ";
        text += node.children()[i]->name() + " " + duckdb_type(*node.children()[i]);
      }
      return text + ")";
    }
  }
  return "?";
}

// An unannotated repeated field is a list of its own type.
std::string duckdb_type(const SchemaNode& node) {
  std::string type = duckdb_kind_type(node);
  return node.is_bare_repeated() ? type + "[]" : type;
}

// DuckDB shows UTC-adjusted timestamps either way depending on settings.
std::string normalise_duckdb_type(std::string type) {
  const std::string with_zone = "TIMESTAMP WITH TIME ZONE";
  for (size_t at = type.find(with_zone); at != std::string::npos; at = type.find(with_zone)) {
    type.replace(at, with_zone.size(), "TIMESTAMP");
  }
  return type;
}

// ---------------------------------------------------------------------------

TEST(MetadataConformanceTest, EveryPublicFileMatchesTheDuckDBBaseline) {
  const fs::path data = testing::parquet_testing("data");
  std::vector<fs::path> files = testing::all_public_parquet_files();
  ASSERT_GE(files.size(), 40u);
  size_t checked_rows = 0;
  std::map<std::string, bool> seen;
  for (const fs::path& path : files) {
    const std::string key = "data/" + fs::relative(path, data).generic_string();
    SCOPED_TRACE(key);
    auto found = baseline().find(key);
    ASSERT_NE(found, baseline().end()) << "no DuckDB baseline for " << key;
    const BaselineFile& expected = found->second;
    seen[key] = true;

    FileMetaData metadata = read_footer_at(path);
    Schema schema = Schema::from_metadata(metadata);

    // Rows: the footer total, and the sum over row groups.
    int64_t row_group_rows = 0;
    for (const RowGroup& group : metadata.row_groups) row_group_rows += group.num_rows;
    EXPECT_EQ(row_group_rows, metadata.num_rows);
    if (expected.status == "ok" || expected.status == "metadata-only") {
      ASSERT_TRUE(expected.rows.has_value());
      EXPECT_EQ(metadata.num_rows, *expected.rows);
      ++checked_rows;
    }

    // Top-level columns: names and types, in order.
    const auto& fields = schema.root().children();
    ASSERT_EQ(fields.size(), expected.columns.size());
    for (size_t i = 0; i < fields.size(); ++i) {
      EXPECT_EQ(fields[i]->name(), expected.columns[i].first);
      EXPECT_EQ(duckdb_type(*fields[i]), normalise_duckdb_type(expected.columns[i].second))
          << "column " << fields[i]->name();
    }

    // Every row group has one chunk per leaf, in leaf order, of the leaf's type.
    for (const RowGroup& group : metadata.row_groups) {
      ASSERT_EQ(group.columns.size(), schema.num_columns());
      for (size_t c = 0; c < group.columns.size(); ++c) {
        const ColumnChunk& chunk = group.columns[c];
        ASSERT_TRUE(chunk.meta_data.has_value());
        EXPECT_EQ(chunk.meta_data->path_in_schema, schema.column(c).path_parts);
        EXPECT_EQ(chunk.meta_data->type, schema.column(c).physical_type);
      }
    }
    // The printer names every leaf.
    std::string text = schema.to_string();
    for (const ColumnDescriptor& column : schema.columns()) {
      EXPECT_NE(text.find(" " + column.path_parts.back()), std::string::npos) << column.path;
    }
  }
  // Every baseline entry that DuckDB read (ok or metadata-only) was covered.
  for (const auto& [key, file] : baseline()) {
    if (file.status == "ok" || file.status == "metadata-only") {
      EXPECT_TRUE(seen.count(key)) << key;
    }
  }
  EXPECT_GE(checked_rows, 40u);
}

TEST(MetadataConformanceTest, EncryptedFooterIsRefusedClearly) {
  try {
    read_footer("data/encrypt_columns_and_footer.parquet.encrypted");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("encrypted"), std::string::npos);
  }
  // A plaintext footer is readable and says the file is encrypted.
  FileMetaData plaintext = read_footer("data/encrypt_columns_plaintext_footer.parquet.encrypted");
  EXPECT_TRUE(plaintext.encryption_algorithm.has_value());
}

// ---------------------------------------------------------------------------
// Files checked by hand

const ColumnMetaData& chunk(const FileMetaData& metadata, size_t row_group, size_t column) {
  return *metadata.row_groups.at(row_group).columns.at(column).meta_data;
}

bool has_encoding(const ColumnMetaData& meta, Encoding encoding) {
  for (Encoding e : meta.encodings) {
    if (e == encoding) return true;
  }
  return false;
}

TEST(MetadataConformanceTest, AlltypesPlain) {
  FileMetaData metadata = read_footer("data/alltypes_plain.parquet");
  Schema schema = Schema::from_metadata(metadata);
  EXPECT_EQ(metadata.num_rows, 8);
  ASSERT_EQ(metadata.row_groups.size(), 1u);
  ASSERT_EQ(schema.num_columns(), 11u);
  EXPECT_EQ(*metadata.created_by,
            "impala version 1.3.0-INTERNAL (build 8a48ddb1eff84592b3fc06bc6f51ec120e1fffc9)");
  const std::vector<std::string> names = {
      "id",        "bool_col",   "tinyint_col",     "smallint_col", "int_col",      "bigint_col",
      "float_col", "double_col", "date_string_col", "string_col",   "timestamp_col"};
  const std::vector<Type> types = {Type::INT32,      Type::BOOLEAN,    Type::INT32, Type::INT32,
                                   Type::INT32,      Type::INT64,      Type::FLOAT, Type::DOUBLE,
                                   Type::BYTE_ARRAY, Type::BYTE_ARRAY, Type::INT96};
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(schema.column(i).path, names[i]);
    EXPECT_EQ(schema.column(i).physical_type, types[i]);
    EXPECT_EQ(schema.column(i).max_definition_level, 1);
    EXPECT_FALSE(schema.column(i).logical_type) << names[i];
    EXPECT_EQ(chunk(metadata, 0, i).codec, CompressionCodec::UNCOMPRESSED);
    EXPECT_TRUE(has_encoding(chunk(metadata, 0, i), Encoding::PLAIN_DICTIONARY));
  }
  EXPECT_EQ(schema.find_column("timestamp_col")->sort_order, SortOrder::kUnknown);
  EXPECT_EQ(chunk(metadata, 0, 0).dictionary_page_offset, 4);
  EXPECT_EQ(chunk(metadata, 0, 0).data_page_offset, 49);

  FileMetaData snappy = read_footer("data/alltypes_plain.snappy.parquet");
  EXPECT_EQ(snappy.num_rows, 2);
  for (const ColumnChunk& c : snappy.row_groups.at(0).columns)
    EXPECT_EQ(c.meta_data->codec, CompressionCodec::SNAPPY);
}

TEST(MetadataConformanceTest, NestedMapsIsAMapOfMaps) {
  Schema schema = Schema::from_metadata(read_footer("data/nested_maps.snappy.parquet"));
  const SchemaNode& a = *schema.find_node("a");
  ASSERT_EQ(a.kind(), NodeKind::kMap);
  EXPECT_EQ(a.map_key()->logical_type()->is<StringType>(), true);
  const SchemaNode& inner = *a.map_value();
  ASSERT_EQ(inner.kind(), NodeKind::kMap);
  EXPECT_EQ(inner.map_key()->physical_type(), Type::INT32);
  EXPECT_EQ(inner.map_value()->physical_type(), Type::BOOLEAN);
  const ColumnDescriptor& value = *schema.find_column("a.key_value.value.key_value.value");
  EXPECT_EQ(value.max_repetition_level, 2);
  EXPECT_EQ(value.max_definition_level, 4);
  EXPECT_EQ(schema.find_column("b")->max_definition_level, 0);
  EXPECT_EQ(schema.num_columns(), 5u);
}

TEST(MetadataConformanceTest, OldListStructureIsALegacyTwoLevelList) {
  Schema schema = Schema::from_metadata(read_footer("data/old_list_structure.parquet"));
  EXPECT_EQ(schema.root().name(), "my_record");
  const SchemaNode& a = *schema.find_node("a");
  ASSERT_EQ(a.kind(), NodeKind::kList);
  const SchemaNode& element = *a.list_element();
  EXPECT_EQ(&element, a.list_repeated());  // rule 3: the repeated group is the element
  ASSERT_EQ(element.kind(), NodeKind::kList);
  EXPECT_EQ(element.list_element()->physical_type(), Type::INT32);
  ASSERT_EQ(schema.num_columns(), 1u);
  EXPECT_EQ(schema.column(0).path, "a.array.array");
  EXPECT_EQ(schema.column(0).max_definition_level, 2);
  EXPECT_EQ(schema.column(0).max_repetition_level, 2);
}

TEST(MetadataConformanceTest, RepeatedPrimitivesWithoutListAnnotation) {
  Schema schema = Schema::from_metadata(read_footer("data/repeated_primitive_no_list.parquet"));
  ASSERT_EQ(schema.num_columns(), 4u);
  const SchemaNode& ints = *schema.find_node("Int32_list");
  EXPECT_TRUE(ints.is_bare_repeated());
  EXPECT_EQ(ints.kind(), NodeKind::kLeaf);
  EXPECT_EQ(schema.find_column("String_list")->logical_type->is<StringType>(), true);
  const SchemaNode& group = *schema.find_node("group_of_lists");
  EXPECT_EQ(group.kind(), NodeKind::kStruct);
  EXPECT_FALSE(group.is_bare_repeated());
  EXPECT_TRUE(group.child("Int32_list_in_group")->is_bare_repeated());
  EXPECT_EQ(schema.find_column("group_of_lists.String_list_in_group")->max_repetition_level, 1);
  EXPECT_EQ(schema.find_column("group_of_lists.String_list_in_group")->max_definition_level, 1);
}

TEST(MetadataConformanceTest, NullListHasAnUnknownElementType) {
  Schema schema = Schema::from_metadata(read_footer("data/null_list.parquet"));
  const SchemaNode& list = *schema.find_node("emptylist");
  ASSERT_EQ(list.kind(), NodeKind::kList);
  const SchemaNode& item = *list.list_element();
  EXPECT_EQ(item.name(), "item");
  ASSERT_TRUE(item.logical_type());
  EXPECT_TRUE(item.logical_type()->is<NullType>());
  EXPECT_EQ(item.physical_type(), Type::INT32);
  EXPECT_TRUE(list.list_element_nullable());
  EXPECT_EQ(schema.column(0).max_definition_level, 3);
}

TEST(MetadataConformanceTest, Float16ColumnAndItsStatistics) {
  FileMetaData metadata = read_footer("data/float16_nonzeros_and_nans.parquet");
  Schema schema = Schema::from_metadata(metadata);
  const ColumnDescriptor& x = schema.column(0);
  EXPECT_EQ(x.physical_type, Type::FIXED_LEN_BYTE_ARRAY);
  EXPECT_EQ(x.type_length, 2);
  ASSERT_TRUE(x.logical_type);
  EXPECT_TRUE(x.logical_type->is<Float16Type>());
  EXPECT_EQ(x.sort_order, SortOrder::kSigned);
  const Statistics& stats = *chunk(metadata, 0, 0).statistics;
  EXPECT_EQ(stats.null_count, 1);
  EXPECT_EQ(decode_plain_value(x, *stats.min_value).double_value, -2.0);
  EXPECT_EQ(decode_plain_value(x, *stats.max_value).double_value, 2.0);
}

TEST(MetadataConformanceTest, DecimalsOnEveryPhysicalType) {
  Schema byte_array = Schema::from_metadata(read_footer("data/byte_array_decimal.parquet"));
  EXPECT_EQ(byte_array.column(0).physical_type, Type::BYTE_ARRAY);
  EXPECT_EQ(byte_array.column(0).precision, 4);
  EXPECT_EQ(byte_array.column(0).scale, 2);
  Schema int32 = Schema::from_metadata(read_footer("data/int32_decimal.parquet"));
  EXPECT_EQ(int32.column(0).physical_type, Type::INT32);
  EXPECT_EQ(*int32.column(0).logical_type, (LogicalType{DecimalType{2, 4}}));
  FileMetaData fixed_metadata = read_footer("data/fixed_length_decimal.parquet");
  Schema fixed = Schema::from_metadata(fixed_metadata);
  EXPECT_EQ(fixed.column(0).physical_type, Type::FIXED_LEN_BYTE_ARRAY);
  EXPECT_EQ(fixed.column(0).type_length, 11);
  EXPECT_EQ(fixed.column(0).precision, 25);
  // parquet-mr wrote only the deprecated signed min/max: 1.00 .. 24.00 scaled.
  const Statistics& stats = *chunk(fixed_metadata, 0, 0).statistics;
  ASSERT_TRUE(stats.min.has_value());
  EXPECT_EQ(decode_plain_value(fixed.column(0), *stats.min).to_string(), "2.00");
  EXPECT_EQ(decode_plain_value(fixed.column(0), *stats.max).to_string(), "24.00");
}

TEST(MetadataConformanceTest, Int96FromSpark) {
  FileMetaData metadata = read_footer("data/int96_from_spark.parquet");
  Schema schema = Schema::from_metadata(metadata);
  EXPECT_EQ(metadata.num_rows, 6);
  ASSERT_EQ(schema.num_columns(), 1u);
  EXPECT_EQ(schema.column(0).physical_type, Type::INT96);
  EXPECT_EQ(schema.column(0).max_definition_level, 1);
  EXPECT_EQ(chunk(metadata, 0, 0).codec, CompressionCodec::SNAPPY);
  EXPECT_EQ(metadata.row_groups[0].columns[0].offset_index_offset, 117);
}

TEST(MetadataConformanceTest, NestedStructsRustHas216Leaves) {
  Schema schema = Schema::from_metadata(read_footer("data/nested_structs.rust.parquet"));
  EXPECT_EQ(schema.num_columns(), 216u);
  EXPECT_EQ(schema.root().children().size(), 36u);
  const SchemaNode& roll = *schema.find_node("roll_num");
  EXPECT_EQ(roll.kind(), NodeKind::kStruct);
  EXPECT_EQ(roll.num_columns(), 6);
  const ColumnDescriptor& count = *schema.find_column("roll_num.count");
  EXPECT_EQ(*count.logical_type, (LogicalType{IntType{64, false}}));
  EXPECT_EQ(count.max_definition_level, 0);
  EXPECT_EQ(*schema.find_column("ul_observation_date.min")->logical_type,
            (LogicalType{TimestampType{true, TimeUnit::MICROS}}));
}

TEST(MetadataConformanceTest, CodecsAndEncodings) {
  FileMetaData lz4_raw = read_footer("data/lz4_raw_compressed.parquet");
  EXPECT_EQ(chunk(lz4_raw, 0, 0).codec, CompressionCodec::LZ4_RAW);
  FileMetaData hadoop_lz4 = read_footer("data/hadoop_lz4_compressed.parquet");
  EXPECT_EQ(chunk(hadoop_lz4, 0, 0).codec, CompressionCodec::LZ4);
  FileMetaData brotli = read_footer("data/large_string_map.brotli.parquet");
  EXPECT_EQ(chunk(brotli, 0, 0).codec, CompressionCodec::BROTLI);
  EXPECT_EQ(chunk(brotli, 0, 0).total_uncompressed_size, 2147483749);
  FileMetaData delta = read_footer("data/delta_length_byte_array.parquet");
  EXPECT_EQ(chunk(delta, 0, 0).codec, CompressionCodec::ZSTD);
  EXPECT_TRUE(has_encoding(chunk(delta, 0, 0), Encoding::DELTA_LENGTH_BYTE_ARRAY));
  FileMetaData packed = read_footer("data/delta_binary_packed.parquet");
  EXPECT_EQ(Schema::from_metadata(packed).num_columns(), 66u);
  EXPECT_TRUE(has_encoding(chunk(packed, 0, 0), Encoding::DELTA_BINARY_PACKED));
  FileMetaData split = read_footer("data/byte_stream_split_extended.gzip.parquet");
  EXPECT_EQ(chunk(split, 0, 0).codec, CompressionCodec::GZIP);
  EXPECT_TRUE(has_encoding(chunk(split, 0, 1), Encoding::BYTE_STREAM_SPLIT));
}

TEST(MetadataConformanceTest, PageIndexBloomFilterAndEncodingStats) {
  FileMetaData metadata = read_footer("data/data_index_bloom_encoding_stats.parquet");
  Schema schema = Schema::from_metadata(metadata);
  const ColumnChunk& c = metadata.row_groups.at(0).columns.at(0);
  EXPECT_EQ(c.column_index_offset, 156);
  EXPECT_EQ(c.column_index_length, 25);
  EXPECT_EQ(c.offset_index_offset, 181);
  EXPECT_EQ(c.offset_index_length, 11);
  EXPECT_EQ(c.meta_data->bloom_filter_offset, 192);
  ASSERT_EQ(c.meta_data->encoding_stats.size(), 1u);
  EXPECT_EQ(c.meta_data->encoding_stats[0].encoding, Encoding::PLAIN);
  const Statistics& stats = *c.meta_data->statistics;
  EXPECT_EQ(decode_plain_value(schema.column(0), *stats.min_value).to_string(), "Hello");
  EXPECT_EQ(decode_plain_value(schema.column(0), *stats.max_value).to_string(), "today");
}

TEST(MetadataConformanceTest, KeyValueMetadataSortingColumnsAndExactness) {
  FileMetaData kv = read_footer("data/column_chunk_key_value_metadata.parquet");
  const std::vector<KeyValue>& pairs = chunk(kv, 0, 0).key_value_metadata;
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].key, "foo");
  EXPECT_EQ(pairs[0].value, "bar");
  EXPECT_EQ(pairs[1].key, "thisiskeywithoutvalue");
  EXPECT_FALSE(pairs[1].value.has_value());

  FileMetaData sorted = read_footer("data/sort_columns.parquet");
  ASSERT_EQ(sorted.row_groups.size(), 2u);
  const std::vector<SortingColumn>& sorting = sorted.row_groups[0].sorting_columns;
  ASSERT_EQ(sorting.size(), 2u);
  EXPECT_EQ(sorting[0], (SortingColumn{0, true, true}));
  EXPECT_EQ(sorting[1], (SortingColumn{1, false, false}));

  FileMetaData truncated = read_footer("data/binary_truncated_min_max.parquet");
  const Statistics& full = *chunk(truncated, 0, 0).statistics;
  EXPECT_EQ(full.is_min_value_exact, false);
  EXPECT_EQ(full.is_max_value_exact, false);
  const Statistics& exact = *chunk(truncated, 0, 4).statistics;
  EXPECT_EQ(exact.is_min_value_exact, true);
  EXPECT_EQ(exact.is_max_value_exact, true);
}

TEST(MetadataConformanceTest, GeospatialAndUnknownLogicalTypes) {
  Schema srid = Schema::from_metadata(read_footer("data/geospatial/crs-srid.parquet"));
  const ColumnDescriptor& geometry = *srid.find_column("geometry");
  ASSERT_TRUE(geometry.logical_type);
  EXPECT_EQ(logical_type_to_string(*geometry.logical_type), "GEOMETRY(srid:5070)");
  EXPECT_EQ(geometry.sort_order, SortOrder::kUnknown);

  FileMetaData unknown_metadata = read_footer("data/unknown-logical-type.parquet");
  Schema unknown = Schema::from_metadata(unknown_metadata);
  EXPECT_TRUE(unknown.column(0).logical_type->is<StringType>());
  // The file carries a LogicalType id from the future; it is read as bytes.
  EXPECT_TRUE(unknown_metadata.schema.at(2).logical_type->is<UnrecognizedLogicalType>());
  EXPECT_FALSE(unknown.column(1).logical_type);
}

TEST(MetadataConformanceTest, ImpalaNestedTypesUseLegacyMapKeyValue) {
  Schema schema = Schema::from_metadata(read_footer("data/nullable.impala.parquet"));
  const SchemaNode& int_map = *schema.find_node("int_map");
  ASSERT_EQ(int_map.kind(), NodeKind::kMap);
  EXPECT_EQ(int_map.map_key_value()->converted_type(), ConvertedType::MAP_KEY_VALUE);
  const SchemaNode& map_array = *schema.find_node("int_Map_Array");
  ASSERT_EQ(map_array.kind(), NodeKind::kList);
  EXPECT_EQ(map_array.list_element()->kind(), NodeKind::kMap);
  const ColumnDescriptor& deepest = *schema.find_column("nested_struct.C.d.list.element.list.element.E");
  EXPECT_EQ(deepest.max_repetition_level, 2);
  EXPECT_EQ(deepest.max_definition_level, 8);
  EXPECT_EQ(schema.num_columns(), 13u);
}

}  // namespace
}  // namespace parquetry
