// FileWriter given the Parquet schema to write (WriterOptions::parquet_schema):
// the footer holds exactly those elements, every value reads back, the
// conversions (INT96 from timestamps and raw bytes, decimals on INT32 /
// INT64 / FLBA / BYTE_ARRAY, scaled units) are exact, and batches that do not
// fit the schema are refused naming the node.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "annotation_zoo.h"
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/reader.h"
#include "parquetry/writer.h"
#include "write_test_support.h"

namespace parquetry {
namespace {

using testing::make_batch;
using testing::make_fixed;
using testing::make_strings;
using testing::open_memory;
using testing::render_rows;
using testing::write_to_memory;

FileMetaData footer_of(const std::vector<uint8_t>& bytes) {
  MemorySource source{std::span<const uint8_t>(bytes)};
  return read_file_metadata(source);
}

TEST(ParquetSchemaTest, ZooKeepsEveryElementAndValue) {
  const std::vector<SchemaElement> elements = testing::zoo_schema();
  const BatchSchema schema = testing::zoo_batch_schema(elements);
  testing::RandomArrays random(2026);
  std::vector<RecordBatch> batches{random.batch(schema, 300), random.batch(schema, 77)};
  WriterOptions options;
  options.parquet_schema = elements;
  options.schema_metadata = false;
  options.key_value_metadata = testing::zoo_metadata();
  options.page_rows = 64;  // several pages per chunk
  const std::vector<uint8_t> bytes = write_to_memory(schema, batches, options);
  const FileMetaData footer = footer_of(bytes);
  ASSERT_EQ(footer.schema.size(), elements.size());
  for (size_t i = 0; i < elements.size(); ++i) {
    EXPECT_EQ(footer.schema[i], elements[i]) << "element " << i << " " << elements[i].name;
  }
  EXPECT_EQ(footer.key_value_metadata, testing::zoo_metadata());
  EXPECT_EQ(footer.num_rows, 377);
  // Values: the reader maps the schema to the batch schema the batches were made for.
  auto reader = open_memory(bytes);
  ASSERT_EQ(reader->batch_schema()->fields.size(), schema.fields.size());
  for (size_t f = 0; f < schema.fields.size(); ++f) {
    EXPECT_EQ(reader->batch_schema()->fields[f].type.to_string(), schema.fields[f].type.to_string())
        << schema.fields[f].name;
  }
  EXPECT_EQ(render_rows(reader->read_all()), render_rows(batches));
}

TEST(ParquetSchemaTest, WithoutSchemaMetadataTheListIsVerbatim) {
  BatchSchema schema;
  schema.fields.push_back(Field{"v", DataType::make(TypeId::kInt32), true, -1, {}});
  schema.metadata.emplace_back("from.schema", "x");
  auto shared = std::make_shared<BatchSchema>(schema);
  RecordBatch batch = make_batch(shared, {make_fixed<int32_t>(DataType::make(TypeId::kInt32), {1, 2})});
  WriterOptions options;
  options.key_value_metadata = {KeyValue{"only", std::nullopt}};
  EXPECT_EQ(footer_of(write_to_memory(schema, {batch}, options)).key_value_metadata.size(), 2u);
  options.schema_metadata = false;
  const FileMetaData footer = footer_of(write_to_memory(schema, {batch}, options));
  ASSERT_EQ(footer.key_value_metadata.size(), 1u);
  EXPECT_EQ(footer.key_value_metadata[0].key, "only");
  EXPECT_FALSE(footer.key_value_metadata[0].value.has_value());
}

// One optional leaf under the root.
std::vector<SchemaElement> one_leaf(SchemaElement leaf) {
  return {testing::zoo_group("schema", std::nullopt, 1), std::move(leaf)};
}

TEST(ParquetSchemaTest, Int96FromTimestampsAndRawBytes) {
  using R = FieldRepetitionType;
  const auto elements = one_leaf(testing::zoo_leaf("t", R::OPTIONAL, Type::INT96));
  // 1970-01-01T00:00:00, one nanosecond before it, 2024-01-01T12:34:56.123456789, and 1677-09-22.
  const std::vector<int64_t> nanos{0, -1, 1704112496123456789, -9'200'000'000'000'000'000};
  BatchSchema schema;
  schema.fields.push_back(Field{"t", DataType::timestamp(ArrowTimeUnit::kNano, ""), true, -1, {}});
  auto shared = std::make_shared<BatchSchema>(schema);
  WriterOptions options;
  options.parquet_schema = elements;
  const auto bytes = write_to_memory(
      schema, {make_batch(shared, {make_fixed<int64_t>(schema.fields[0].type, nanos)})}, options);
  EXPECT_EQ(footer_of(bytes).schema, elements);
  // The raw INT96 of -1 ns: Julian day 2440587, nanos of day 86399999999999.
  ReaderOptions raw_options;
  raw_options.int96_as_binary = true;
  auto raw_reader =
      FileReader::open(std::make_shared<MemorySource>(std::vector<uint8_t>(bytes)), raw_options);
  ASSERT_EQ(raw_reader->batch_schema()->fields[0].type.extension_name, kInt96Extension);
  RecordBatch raw = raw_reader->read_row_group(0);
  const uint8_t* stored = raw.columns[0]->buffers[1].data;
  int64_t nanos_of_day;
  int32_t julian_day;
  std::memcpy(&nanos_of_day, stored + 12, 8);
  std::memcpy(&julian_day, stored + 20, 4);
  EXPECT_EQ(nanos_of_day, 86'399'999'999'999);
  EXPECT_EQ(julian_day, 2'440'587);
  // Read as timestamps: the same instants.
  RecordBatch read = open_memory(bytes)->read_row_group(0);
  const int64_t* values = read.columns[0]->buffers[1].as<int64_t>();
  for (size_t i = 0; i < nanos.size(); ++i) EXPECT_EQ(values[i], nanos[i]);

  // The raw bytes write back as INT96 bit for bit, or as INT64 TIMESTAMP(MICROS) when the schema says so.
  WriterOptions copy;
  copy.parquet_schema = elements;
  const auto copied = write_to_memory(*raw_reader->batch_schema(), {raw}, copy);
  RecordBatch again =
      FileReader::open(std::make_shared<MemorySource>(std::vector<uint8_t>(copied)), raw_options)
          ->read_row_group(0);
  EXPECT_EQ(std::memcmp(again.columns[0]->buffers[1].data, stored, 48), 0);
  auto micros = one_leaf(
      testing::zoo_leaf("t", R::OPTIONAL, Type::INT64, LogicalType{TimestampType{false, TimeUnit::MICROS}}));
  copy.parquet_schema = micros;
  const auto converted = write_to_memory(*raw_reader->batch_schema(), {raw}, copy);
  RecordBatch as_micros = open_memory(converted)->read_row_group(0);
  EXPECT_EQ(as_micros.columns[0]->type->to_string(), "timestamp[us]");
  const int64_t* us = as_micros.columns[0]->buffers[1].as<int64_t>();
  EXPECT_EQ(us[0], 0);
  EXPECT_EQ(us[1], -1);  // floor of -1 ns
  EXPECT_EQ(us[2], 1704112496123456);
  EXPECT_EQ(us[3], -9'200'000'000'000'000);
}

TEST(ParquetSchemaTest, Int96OutsideTheUnitIsRefused) {
  using R = FieldRepetitionType;
  // Julian day 5373484 (year 9999) is past the int64 nanosecond range.
  std::vector<uint8_t> raw(12, 0);
  const int32_t day = 5'373'484;
  std::memcpy(raw.data() + 8, &day, 4);
  DataType type = DataType::fixed_size_binary(12);
  type.extension_name = kInt96Extension;
  BatchSchema schema;
  schema.fields.push_back(Field{"t", type, true, -1, {}});
  auto shared = std::make_shared<BatchSchema>(schema);
  auto column = make_fixed<uint8_t>(type, raw);
  column->length = 1;
  WriterOptions options;
  options.parquet_schema = one_leaf(
      testing::zoo_leaf("t", R::OPTIONAL, Type::INT64, LogicalType{TimestampType{false, TimeUnit::NANOS}}));
  try {
    write_to_memory(schema, {make_batch(shared, {column})}, options);
    FAIL() << "an instant outside int64 nanoseconds was written";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("outside the int64 range"), std::string::npos) << e.what();
  }
  // Microseconds hold it: 9999-01-01 less a day... exactly (5373484 - 2440588) days.
  options.parquet_schema = one_leaf(
      testing::zoo_leaf("t", R::OPTIONAL, Type::INT64, LogicalType{TimestampType{false, TimeUnit::MICROS}}));
  RecordBatch read =
      open_memory(write_to_memory(schema, {make_batch(shared, {column})}, options))->read_row_group(0);
  EXPECT_EQ(read.columns[0]->buffers[1].as<int64_t>()[0], int64_t(5'373'484 - 2'440'588) * 86'400'000'000);
}

TEST(ParquetSchemaTest, DecimalsOnEveryPhysicalTypeAndTheirRange) {
  const std::vector<__int128> values{0, 1, -1, 127, -128, 128, -129, 99999999, -99999999, 32767, -32768};
  for (Type physical : {Type::INT32, Type::INT64, Type::FIXED_LEN_BYTE_ARRAY, Type::BYTE_ARRAY}) {
    SCOPED_TRACE(type_name(physical));
    const auto elements = one_leaf(
        testing::zoo_decimal("d", physical, 9, 2, physical == Type::FIXED_LEN_BYTE_ARRAY ? 4 : 0, true));
    BatchSchema schema;
    schema.fields.push_back(Field{"d", DataType::decimal(9, 2), true, -1, {}});
    auto shared = std::make_shared<BatchSchema>(schema);
    RecordBatch batch = make_batch(shared, {make_fixed<__int128>(schema.fields[0].type, values)});
    WriterOptions options;
    options.parquet_schema = elements;
    const auto bytes = write_to_memory(schema, {batch}, options);
    const FileMetaData footer = footer_of(bytes);
    EXPECT_EQ(footer.schema, elements);
    EXPECT_EQ(render_rows(open_memory(bytes)->read_all()), render_rows({batch}));
    // Statistics in the decimal's signed order.
    const Statistics& stats = *footer.row_groups[0].columns[0].meta_data->statistics;
    if (physical == Type::BYTE_ARRAY) {
      // Minimal big-endian two's complement: -99999999 = FA 0A 1F 01, 99999999 = 05 F5 E0 FF.
      EXPECT_EQ(*stats.min_value, std::string("\xFA\x0A\x1F\x01", 4));
      EXPECT_EQ(*stats.max_value, std::string("\x05\xF5\xE0\xFF", 4));
    }
  }
  // A value that does not fit INT32 is refused, not truncated.
  const auto elements = one_leaf(testing::zoo_decimal("d", Type::INT32, 9, 0, 0, true));
  BatchSchema schema;
  schema.fields.push_back(Field{"d", DataType::decimal(12, 0), true, -1, {}});
  auto shared = std::make_shared<BatchSchema>(schema);
  WriterOptions options;
  options.parquet_schema = elements;
  const std::vector<__int128> big{__int128(1) << 40};
  EXPECT_THROW(write_to_memory(
                   schema, {make_batch(shared, {make_fixed<__int128>(schema.fields[0].type, big)})}, options),
               Error);
}

TEST(ParquetSchemaTest, TimesScaleUpAndNeverDown) {
  using R = FieldRepetitionType;
  BatchSchema schema;
  schema.fields.push_back(Field{"t", DataType::timestamp(ArrowTimeUnit::kMilli, "UTC"), true, -1, {}});
  auto shared = std::make_shared<BatchSchema>(schema);
  RecordBatch batch =
      make_batch(shared, {make_fixed<int64_t>(schema.fields[0].type, {1, -2, 1700000000123})});
  WriterOptions options;
  options.parquet_schema = one_leaf(
      testing::zoo_leaf("t", R::OPTIONAL, Type::INT64, LogicalType{TimestampType{true, TimeUnit::NANOS}}));
  RecordBatch read = open_memory(write_to_memory(schema, {batch}, options))->read_row_group(0);
  const int64_t* ns = read.columns[0]->buffers[1].as<int64_t>();
  EXPECT_EQ(ns[0], 1'000'000);
  EXPECT_EQ(ns[1], -2'000'000);
  EXPECT_EQ(ns[2], 1700000000123'000'000);
  // Overflow of the finer unit is refused.
  RecordBatch huge = make_batch(shared, {make_fixed<int64_t>(schema.fields[0].type, {INT64_MAX / 10})});
  EXPECT_THROW(write_to_memory(schema, {huge}, options), Error);
  // A coarser unit would lose precision: refused at open.
  options.parquet_schema = one_leaf(
      testing::zoo_leaf("t", R::OPTIONAL, Type::INT64, LogicalType{TimestampType{true, TimeUnit::MILLIS}}));
  schema.fields[0].type = DataType::timestamp(ArrowTimeUnit::kMicro, "UTC");
  EXPECT_THROW(FileWriter::open(std::make_unique<MemorySink>(), schema, options), Error);
}

TEST(ParquetSchemaTest, MismatchedShapesAreRefusedNamingTheNode) {
  using R = FieldRepetitionType;
  const auto elements = testing::zoo_schema();
  BatchSchema schema = testing::zoo_batch_schema(elements);
  auto refused = [&](const BatchSchema& s, const std::vector<SchemaElement>& e, const std::string& needle) {
    WriterOptions options;
    options.parquet_schema = e;
    try {
      FileWriter::open(std::make_unique<MemorySink>(), s, options);
      ADD_FAILURE() << "accepted; expected an error mentioning " << needle;
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ErrorCode::kInvalidArgument) << error.what();
      EXPECT_NE(error.message().find(needle), std::string::npos) << error.what();
    }
  };
  BatchSchema fewer = schema;
  fewer.fields.pop_back();
  refused(fewer, elements, "top-level fields");
  BatchSchema renamed = schema;
  renamed.fields[0].name = "other";
  refused(renamed, elements, "time_ms_utc");
  BatchSchema flat = schema;
  for (Field& f : flat.fields) {
    if (f.name == "list_two_level") f.type = DataType::make(TypeId::kInt32);
  }
  refused(flat, elements, "list_two_level");
  BatchSchema wrong_leaf = schema;
  wrong_leaf.fields[0].type = DataType::make(TypeId::kFloat64);
  refused(wrong_leaf, elements, "cannot be written as INT32");
  // Not a valid Parquet schema at all.
  std::vector<SchemaElement> truncated = one_leaf(testing::zoo_leaf("v", R::OPTIONAL, Type::INT32));
  truncated[0].num_children = 2;
  refused(schema, truncated, "not valid");
}

TEST(ParquetSchemaTest, NullInRequiredNodeFailsTheWrite) {
  using R = FieldRepetitionType;
  BatchSchema schema;
  schema.fields.push_back(Field{"v", DataType::make(TypeId::kInt32), true, -1, {}});
  auto shared = std::make_shared<BatchSchema>(schema);
  WriterOptions options;
  options.parquet_schema = one_leaf(testing::zoo_leaf("v", R::REQUIRED, Type::INT32));
  RecordBatch ok = make_batch(shared, {make_fixed<int32_t>(schema.fields[0].type, {1, 2, 3})});
  const auto bytes = write_to_memory(schema, {ok}, options);
  EXPECT_EQ(footer_of(bytes).schema[1].repetition_type, R::REQUIRED);
  EXPECT_EQ(render_rows(open_memory(bytes)->read_all()), render_rows({ok}));
  RecordBatch with_null =
      make_batch(shared, {make_fixed<int32_t>(schema.fields[0].type, {1, 2, 3}, {true, false, true})});
  EXPECT_THROW(write_to_memory(schema, {with_null}, options), Error);
}

}  // namespace
}  // namespace parquetry
