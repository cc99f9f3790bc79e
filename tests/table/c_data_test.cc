#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "parquetry/arrow_export.h"
#include "parquetry/error.h"
#include "parquetry/table.h"

namespace parquetry {
namespace {

// Counts live buffers so a test can prove every release callback ran.
struct LiveCounter {
  int live = 0;
};

BufferRef counted(Buffer buffer, LiveCounter* counter) {
  ++counter->live;
  auto* raw = new Buffer(std::move(buffer));
  BufferRef ref;
  ref.data = raw->data();
  ref.size = int64_t(raw->size());
  ref.owner = std::shared_ptr<const void>(raw, [counter](const Buffer* b) {
    --counter->live;
    delete b;
  });
  return ref;
}

template <typename T>
Buffer values_buffer(const std::vector<T>& values) {
  Buffer buffer;
  buffer.append(values.data(), values.size() * sizeof(T));
  return buffer;
}

Buffer bitmap(const std::vector<bool>& valid) {
  Buffer buffer((valid.size() + 7) / 8);
  std::memset(buffer.data(), 0, buffer.size());
  for (size_t i = 0; i < valid.size(); ++i) {
    if (valid[i]) buffer.data()[i / 8] |= uint8_t(1u << (i % 8));
  }
  return buffer;
}

std::shared_ptr<ArrayData> int64_column(LiveCounter* counter) {
  auto array = std::make_shared<ArrayData>();
  array->type = std::make_shared<const DataType>(DataType::make(TypeId::kInt64));
  array->length = 4;
  array->null_count = 1;
  array->buffers = {counted(bitmap({true, false, true, true}), counter),
                    counted(values_buffer<int64_t>({10, 0, -30, 1LL << 40}), counter)};
  return array;
}

std::shared_ptr<ArrayData> string_column(LiveCounter* counter) {
  auto array = std::make_shared<ArrayData>();
  array->type = std::make_shared<const DataType>(DataType::make(TypeId::kString));
  array->length = 4;
  std::string data =
      "ab"
      ""
      "cde"
      "f";
  array->buffers = {BufferRef{}, counted(values_buffer<int32_t>({0, 2, 2, 5, 6}), counter),
                    counted(values_buffer<char>(std::vector<char>(data.begin(), data.end())), counter)};
  return array;
}

std::shared_ptr<ArrayData> list_column(LiveCounter* counter) {
  auto item = std::make_shared<ArrayData>();
  item->type = std::make_shared<const DataType>(DataType::make(TypeId::kInt32));
  item->length = 5;
  item->buffers = {BufferRef{}, counted(values_buffer<int32_t>({1, 2, 3, 4, 5}), counter)};
  auto list = std::make_shared<ArrayData>();
  list->type = std::make_shared<const DataType>(DataType::list(Field{"element", *item->type, false, -1, {}}));
  list->length = 4;
  list->null_count = 1;
  // [[1,2], null, [], [3,4,5]]
  list->buffers = {counted(bitmap({true, false, true, true}), counter),
                   counted(values_buffer<int32_t>({0, 2, 2, 2, 5}), counter)};
  list->children = {item};
  return list;
}

std::shared_ptr<ArrayData> dictionary_column(LiveCounter* counter) {
  auto values = std::make_shared<ArrayData>();
  values->type = std::make_shared<const DataType>(DataType::make(TypeId::kString));
  values->length = 2;
  std::string data = "NY";
  values->buffers = {BufferRef{}, counted(values_buffer<int32_t>({0, 1, 2}), counter),
                     counted(values_buffer<char>(std::vector<char>(data.begin(), data.end())), counter)};
  auto array = std::make_shared<ArrayData>();
  array->type = std::make_shared<const DataType>(DataType::dictionary(DataType::make(TypeId::kString)));
  array->length = 4;
  array->buffers = {BufferRef{}, counted(values_buffer<int32_t>({1, 0, 0, 1}), counter)};
  array->dictionary = values;
  return array;
}

RecordBatch make_batch(LiveCounter* counter) {
  auto schema = std::make_shared<BatchSchema>();
  RecordBatch batch;
  batch.columns = {int64_column(counter), string_column(counter), list_column(counter),
                   dictionary_column(counter)};
  const char* names[] = {"id", "name", "values", "flag"};
  for (size_t i = 0; i < batch.columns.size(); ++i) {
    schema->fields.push_back(Field{names[i], *batch.columns[i]->type, true, int32_t(i + 1), {}});
  }
  schema->fields[3].metadata.emplace_back("origin", "test");
  batch.schema = schema;
  batch.num_rows = 4;
  return batch;
}

// A reader that yields the same batch `count` times, then fails if asked to.
class RepeatReader final : public BatchReader {
 public:
  RepeatReader(RecordBatch batch, int count, bool fail_at_end)
      : batch_(std::move(batch)), remaining_(count), fail_at_end_(fail_at_end) {}
  std::shared_ptr<const BatchSchema> schema() const override { return batch_.schema; }
  bool next(RecordBatch& out) override {
    if (remaining_ == 0) {
      if (fail_at_end_) throw_corrupt("page 3 is truncated");
      return false;
    }
    --remaining_;
    out = batch_;
    return true;
  }

 private:
  RecordBatch batch_;
  int remaining_;
  bool fail_at_end_;
};

TEST(ArrowFormatTest, FormatStrings) {
  EXPECT_EQ(arrow_format(DataType::make(TypeId::kInt64)), "l");
  EXPECT_EQ(arrow_format(DataType::timestamp(ArrowTimeUnit::kMicro, "UTC")), "tsu:UTC");
  EXPECT_EQ(arrow_format(DataType::timestamp(ArrowTimeUnit::kNano, "")), "tsn:");
  EXPECT_EQ(arrow_format(DataType::decimal(10, 2)), "d:10,2");
  EXPECT_EQ(arrow_format(DataType::decimal(50, 3)), "d:50,3,256");
  EXPECT_EQ(arrow_format(DataType::fixed_size_binary(16)), "w:16");
  EXPECT_EQ(arrow_format(DataType::time(ArrowTimeUnit::kMilli)), "ttm");
  EXPECT_EQ(DataType::time(ArrowTimeUnit::kMilli).id, TypeId::kTime32);
  EXPECT_EQ(DataType::time(ArrowTimeUnit::kNano).id, TypeId::kTime64);
}

TEST(ArrowSchemaTest, RoundTripsNestedSchemaWithMetadata) {
  BatchSchema schema;
  schema.fields.push_back(Field{"m",
                                DataType::map(Field{"key", DataType::make(TypeId::kString), false, -1, {}},
                                              Field{"value", DataType::decimal(9, 3), true, 7, {}}),
                                true,
                                3,
                                {{"k", "v"}}});
  DataType uuid = DataType::fixed_size_binary(16);
  uuid.extension_name = "arrow.uuid";
  schema.fields.push_back(Field{"u", uuid, false, -1, {}});
  schema.fields.push_back(Field{"ts", DataType::timestamp(ArrowTimeUnit::kMilli, "UTC"), true, -1, {}});
  ArrowSchema c_schema{};
  export_schema(schema, &c_schema);
  EXPECT_STREQ(c_schema.format, "+s");
  ASSERT_EQ(c_schema.n_children, 3);
  EXPECT_STREQ(c_schema.children[0]->format, "+m");
  EXPECT_STREQ(c_schema.children[1]->format, "w:16");
  EXPECT_EQ(c_schema.children[1]->flags & ARROW_FLAG_NULLABLE, 0);
  BatchSchema back = import_schema(&c_schema);
  EXPECT_EQ(c_schema.release, nullptr);
  EXPECT_EQ(back, schema);
}

TEST(ArrowArrayTest, ExportedBuffersAreTheSameMemory) {
  LiveCounter counter;
  {
    RecordBatch batch = make_batch(&counter);
    const void* id_values = batch.columns[0]->buffers[1].data;
    ArrowArray array{};
    export_batch(batch, &array);
    ASSERT_EQ(array.n_children, 4);
    EXPECT_EQ(array.length, 4);
    EXPECT_EQ(array.children[0]->buffers[1], id_values);  // zero copy
    const auto* ids = static_cast<const int64_t*>(array.children[0]->buffers[1]);
    EXPECT_EQ(ids[3], 1LL << 40);
    EXPECT_EQ(array.children[0]->null_count, 1);
    const auto* offsets = static_cast<const int32_t*>(array.children[1]->buffers[1]);
    const auto* chars = static_cast<const char*>(array.children[1]->buffers[2]);
    EXPECT_EQ(std::string(chars + offsets[2], size_t(offsets[3] - offsets[2])), "cde");
    ASSERT_NE(array.children[3]->dictionary, nullptr);
    EXPECT_EQ(array.children[3]->dictionary->length, 2);
    batch = RecordBatch{};
    EXPECT_GT(counter.live, 0);  // the export still holds the buffers
    array.release(&array);
    EXPECT_EQ(array.release, nullptr);
  }
  EXPECT_EQ(counter.live, 0);
}

TEST(ArrowStreamTest, ConsumerReadsValuesAndEveryReleaseRuns) {
  LiveCounter counter;
  {
    ArrowArrayStream stream{};
    export_stream(std::make_unique<RepeatReader>(make_batch(&counter), 3, false), &stream);
    std::unique_ptr<BatchReader> reader = import_stream(&stream);
    EXPECT_EQ(stream.release, nullptr);
    EXPECT_EQ(reader->schema()->fields.size(), 4u);
    EXPECT_EQ(reader->schema()->fields[0].field_id, 1);
    EXPECT_EQ(reader->schema()->fields[3].metadata.at(0).second, "test");
    int batches = 0;
    RecordBatch batch;
    while (reader->next(batch)) {
      ++batches;
      ASSERT_EQ(batch.num_rows, 4);
      const ArrayData& ids = *batch.columns[0];
      EXPECT_TRUE(ids.is_valid(0));
      EXPECT_FALSE(ids.is_valid(1));
      EXPECT_EQ(ids.buffers[1].as<int64_t>()[2], -30);
      const ArrayData& names = *batch.columns[1];
      EXPECT_EQ(names.buffers[2].size, 6);
      const ArrayData& lists = *batch.columns[2];
      EXPECT_FALSE(lists.is_valid(1));
      EXPECT_EQ(lists.buffers[1].as<int32_t>()[4], 5);
      EXPECT_EQ(lists.children[0]->buffers[1].as<int32_t>()[4], 5);
      const ArrayData& flags = *batch.columns[3];
      EXPECT_EQ(flags.buffers[1].as<int32_t>()[0], 1);
      EXPECT_EQ(std::string(flags.dictionary->buffers[2].as<char>(), 2), "NY");
    }
    EXPECT_EQ(batches, 3);
  }
  EXPECT_EQ(counter.live, 0);
}

TEST(ArrowStreamTest, ProducerErrorReachesConsumer) {
  LiveCounter counter;
  ArrowArrayStream stream{};
  export_stream(std::make_unique<RepeatReader>(make_batch(&counter), 1, true), &stream);
  std::unique_ptr<BatchReader> reader = import_stream(&stream);
  RecordBatch batch;
  ASSERT_TRUE(reader->next(batch));
  try {
    reader->next(batch);
    FAIL() << "expected the producer's error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("page 3 is truncated"), std::string::npos);
  }
}

TEST(ArrowArrayTest, ImportRejectsBadOffsets) {
  LiveCounter counter;
  auto strings = string_column(&counter);
  Buffer bad = values_buffer<int32_t>({0, 2, 1, 5, 6});
  strings->buffers[1] = BufferRef::adopt(std::move(bad));
  ArrowArray array{};
  export_array(strings, &array);
  EXPECT_THROW(import_array(&array, DataType::make(TypeId::kString)), Error);
  EXPECT_EQ(array.release, nullptr);  // ownership was taken even though import failed
}

}  // namespace
}  // namespace parquetry
