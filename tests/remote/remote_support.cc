#include "remote_support.h"

#include "parquetry/table/json_values.h"
#include "parquetry/util/json_writer.h"
#include "parquetry/writer.h"

namespace parquetry::testing {

std::vector<std::string> all_rows(FileReader& reader) {
  std::vector<std::string> rows;
  auto batches = reader.batches();
  RecordBatch batch;
  while (batches->next(batch)) {
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      JsonWriter out;
      write_json_row(out, batch, r);
      rows.push_back(out.str());
    }
  }
  return rows;
}

void write_taxi_like(const std::filesystem::path& path) {
  BatchSchema schema;
  auto add = [&](const char* name, TypeId type) {
    Field field;
    field.name = name;
    field.type = DataType::make(type);
    field.nullable = false;
    schema.fields.push_back(field);
  };
  add("id", TypeId::kInt64);
  add("fare", TypeId::kFloat64);
  add("passengers", TypeId::kInt64);
  add("vendor", TypeId::kString);
  add("distance", TypeId::kFloat64);
  add("tip", TypeId::kFloat64);
  WriterOptions options;
  options.row_group_rows = kTaxiGroupRows;
  auto writer = FileWriter::open(path.string(), schema, options);
  const int64_t rows = kTaxiGroupRows * kTaxiRowGroups;
  RecordBatch batch;
  batch.schema = std::make_shared<BatchSchema>(schema);
  batch.num_rows = rows;
  auto fixed = [&](TypeId type, auto value_of) {
    Buffer values;
    for (int64_t row = 0; row < rows; ++row) {
      const auto v = value_of(row);
      values.append(&v, sizeof(v));
    }
    auto array = std::make_shared<ArrayData>();
    array->type = std::make_shared<DataType>(DataType::make(type));
    array->length = rows;
    array->buffers = {BufferRef{}, BufferRef::adopt(std::move(values))};
    batch.columns.push_back(array);
  };
  // Mixed-entropy values so pages compress a little but not to nothing.
  fixed(TypeId::kInt64, [](int64_t row) { return int64_t(row); });
  fixed(TypeId::kFloat64, [](int64_t row) { return double((row * 7919) % 10007) / 100.0; });
  fixed(TypeId::kInt64, [](int64_t row) { return int64_t(1 + row % 6); });
  {
    Buffer offsets;
    Buffer chars;
    int32_t offset = 0;
    offsets.append(&offset, 4);
    static const char* const kVendors[] = {"CMT", "VTS", "DDS", "yellow-cab-company"};
    for (int64_t row = 0; row < rows; ++row) {
      const std::string text = std::string(kVendors[row % 4]) + "-" + std::to_string(row % 97);
      chars.append(text.data(), text.size());
      offset += int32_t(text.size());
      offsets.append(&offset, 4);
    }
    auto array = std::make_shared<ArrayData>();
    array->type = std::make_shared<DataType>(DataType::make(TypeId::kString));
    array->length = rows;
    array->buffers = {BufferRef{}, BufferRef::adopt(std::move(offsets)), BufferRef::adopt(std::move(chars))};
    batch.columns.push_back(array);
  }
  fixed(TypeId::kFloat64, [](int64_t row) { return double((row * 104729) % 5003) / 97.0; });
  fixed(TypeId::kFloat64, [](int64_t row) { return row % 5 == 0 ? 0.0 : double(row % 1301) / 13.0; });
  writer->write(batch);
  writer->close();
}

}  // namespace parquetry::testing
