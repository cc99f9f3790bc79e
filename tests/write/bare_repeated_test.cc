// The legacy list layout and ENUM strings the protobuf layer asks for
// (writer.h: kRepeatedLayoutKey, kEnumExtension): a bare `repeated` field,
// read back as the same list, and BYTE_ARRAY (ENUM) columns.
#include <gtest/gtest.h>

#include "parquetry/error.h"
#include "write_test_support.h"

namespace parquetry {
namespace {

using testing::adopt_vector;
using testing::make_batch;
using testing::make_fixed;
using testing::make_strings;

// list<int32> rows [1, 2], [], [3] as a non-nullable list of non-nullable items.
std::shared_ptr<ArrayData> int_lists(const DataType& type) {
  auto list = std::make_shared<ArrayData>();
  list->type = std::make_shared<DataType>(type);
  list->length = 3;
  list->buffers.push_back(BufferRef{});
  list->buffers.push_back(adopt_vector(std::vector<int32_t>{0, 2, 2, 3}));
  list->children.push_back(make_fixed(DataType::make(TypeId::kInt32), std::vector<int32_t>{1, 2, 3}));
  return list;
}

TEST(WriterBareRepeated, WritesARepeatedLeafAndReadsTheListBack) {
  Field list{"values",
             DataType::list(Field{"element", DataType::make(TypeId::kInt32), false, -1, {}}),
             false,
             7,
             {{kRepeatedLayoutKey, kRepeatedLayoutBare}}};
  BatchSchema schema;
  schema.fields.push_back(list);
  const auto elements = parquet_schema_for(schema);
  ASSERT_EQ(elements.size(), 2u);  // root + one repeated leaf, no LIST group
  EXPECT_EQ(elements[1].name, "values");
  EXPECT_EQ(elements[1].repetition_type, FieldRepetitionType::REPEATED);
  EXPECT_EQ(elements[1].type, Type::INT32);
  EXPECT_EQ(elements[1].field_id, 7);
  EXPECT_FALSE(elements[1].converted_type.has_value());

  auto shared = std::make_shared<const BatchSchema>(schema);
  auto bytes = testing::write_to_memory(schema, {make_batch(shared, {int_lists(list.type)})});
  auto reader = testing::open_memory(std::move(bytes));
  auto batches = reader->batches();
  RecordBatch batch;
  ASSERT_TRUE(batches->next(batch));
  ASSERT_EQ(batch.num_rows, 3);
  const ArrayData& back = *batch.columns[0];
  ASSERT_EQ(back.type->id, TypeId::kList);
  const int32_t* offsets = back.buffers[1].as<int32_t>() + back.offset;
  EXPECT_EQ(offsets[1] - offsets[0], 2);
  EXPECT_EQ(offsets[2] - offsets[1], 0);
  EXPECT_EQ(offsets[3] - offsets[2], 1);
  const ArrayData& items = *back.children[0];
  EXPECT_EQ(items.buffers[1].as<int32_t>()[items.offset + offsets[2]], 3);
}

TEST(WriterBareRepeated, RefusesNullableListsOrItems) {
  for (bool list_nullable : {false, true}) {
    Field list{"values",
               DataType::list(Field{"element", DataType::make(TypeId::kInt32), !list_nullable, -1, {}}),
               list_nullable,
               -1,
               {{kRepeatedLayoutKey, kRepeatedLayoutBare}}};
    BatchSchema schema;
    schema.fields.push_back(list);
    EXPECT_THROW(parquet_schema_for(schema), Error);
  }
}

TEST(WriterBareRepeated, EnumExtensionIsAnnotatedEnum) {
  DataType type = DataType::make(TypeId::kString);
  type.extension_name = kEnumExtension;
  BatchSchema schema;
  schema.fields.push_back(Field{"color", type, true, -1, {}});
  const auto elements = parquet_schema_for(schema);
  EXPECT_EQ(elements[1].type, Type::BYTE_ARRAY);
  EXPECT_EQ(elements[1].logical_type, LogicalType{EnumType{}});
  EXPECT_EQ(elements[1].converted_type, ConvertedType::ENUM);
  auto shared = std::make_shared<const BatchSchema>(schema);
  auto bytes = testing::write_to_memory(schema, {make_batch(shared, {make_strings(type, {"RED", "BLUE"})})});
  auto reader = testing::open_memory(std::move(bytes));
  auto batches = reader->batches();
  RecordBatch batch;
  ASSERT_TRUE(batches->next(batch));
  const ArrayData& back = *batch.columns[0];
  ASSERT_EQ(back.type->id, TypeId::kString);
  const int32_t* offsets = back.buffers[1].as<int32_t>() + back.offset;
  EXPECT_EQ(
      std::string(reinterpret_cast<const char*>(back.buffers[2].data) + offsets[1], offsets[2] - offsets[1]),
      "BLUE");
}

}  // namespace
}  // namespace parquetry
