// A string column of only empty values whose data buffer has no address
// (nothing to point at): statistics compare empty values without handing a
// null pointer to memcmp, and the file reads back.
#include <gtest/gtest.h>

#include "parquetry/reader.h"
#include "parquetry/writer.h"
#include "test_support.h"

namespace parquetry {
namespace {

TEST(EmptyStrings, OnlyEmptyValuesWithANullDataBufferWriteStatistics) {
  BatchSchema schema;
  Field field;
  field.name = "s";
  field.type = DataType::make(TypeId::kString);
  field.nullable = false;
  schema.fields.push_back(field);
  Buffer offsets(size_t(11) * 4);
  for (int i = 0; i <= 10; ++i) offsets.as<int32_t>()[i] = 0;
  auto array = std::make_shared<ArrayData>();
  array->type = std::make_shared<DataType>(field.type);
  array->length = 10;
  array->buffers = {BufferRef{}, BufferRef::adopt(std::move(offsets)), BufferRef{}};
  RecordBatch batch;
  batch.schema = std::make_shared<BatchSchema>(schema);
  batch.num_rows = 10;
  batch.columns = {array};
  const auto path = (testing::temp_dir() / "empty_strings.parquet").string();
  WriterOptions options;
  options.dictionary = false;
  auto writer = FileWriter::open(path, schema, options);
  writer->write(batch);
  writer->close();

  auto reader = FileReader::open(path);
  const auto& meta = *reader->metadata().row_groups.at(0).columns.at(0).meta_data;
  ASSERT_TRUE(meta.statistics.has_value());
  ASSERT_TRUE(meta.statistics->min_value.has_value());
  EXPECT_EQ(std::string(*meta.statistics->min_value), "");
  EXPECT_EQ(std::string(*meta.statistics->max_value), "");
  const auto batches = reader->read_all();
  ASSERT_EQ(batches.at(0).num_rows, 10);
  const int32_t* read_offsets = batches[0].columns[0]->buffers[1].as<int32_t>();
  for (int i = 0; i <= 10; ++i) EXPECT_EQ(read_offsets[batches[0].columns[0]->offset + i], 0);
}

}  // namespace
}  // namespace parquetry
