#include "remote_support.h"

#include "parquetry/table/json_values.h"
#include "parquetry/util/json_writer.h"
#include "parquetry/writer.h"

#include <stdexcept>

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

std::vector<std::string> flat_values(FileReader& reader) {
  std::vector<std::string> columns(reader.batch_schema()->fields.size());
  auto batches = reader.batches();
  RecordBatch batch;
  while (batches->next(batch)) {
    for (size_t c = 0; c < batch.columns.size(); ++c) {
      const ArrayData& array = *batch.columns[c];
      if (array.null_count != 0)
        throw std::runtime_error("flat_values: nulls in column " + std::to_string(c));
      std::string& out = columns[c];
      const int32_t width = array.type->fixed_width();
      if (width > 0) {
        out.append(reinterpret_cast<const char*>(array.buffers[1].data) + array.offset * width,
                   size_t(array.length * width));
      } else if (array.type->id == TypeId::kString) {
        const int32_t* offsets = array.buffers[1].as<int32_t>() + array.offset;
        const char* chars = reinterpret_cast<const char*>(array.buffers[2].data);
        for (int64_t i = 0; i < array.length; ++i) {
          const int32_t size = offsets[i + 1] - offsets[i];
          out.append(reinterpret_cast<const char*>(&size), 4);
          out.append(chars + offsets[i], size_t(size));
        }
      } else {
        throw std::runtime_error("flat_values: column type " + array.type->to_string() + " is not flat");
      }
    }
  }
  return columns;
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
