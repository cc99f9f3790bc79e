// Test helpers: position-delete Parquet files written with parquetry's own
// writer, with small row groups and pages so that pruning has work to do.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "parquetry/iceberg_scan.h"
#include "parquetry/table.h"
#include "parquetry/writer.h"

namespace parquetry::testing {

struct DeleteRow {
  std::string path;
  int64_t pos = 0;
};

inline BufferRef copy_to_buffer(const void* data, size_t size) {
  Buffer buffer(size);
  if (size != 0) std::memcpy(buffer.data(), data, size);
  return BufferRef::adopt(std::move(buffer));
}

/// Writes `rows` (in the given order) as a position-delete file. With
/// `field_ids` the columns carry Iceberg's reserved ids; without, only the
/// names identify them.
inline void write_delete_file(const std::string& file, const std::vector<DeleteRow>& rows,
                              bool field_ids = true, int64_t row_group_rows = 1000, int64_t page_rows = 100) {
  BatchSchema schema;
  Field path_field{"file_path",
                   DataType::make(TypeId::kString),
                   false,
                   field_ids ? iceberg::kDeleteFilePathFieldId : -1,
                   {}};
  Field pos_field{
      "pos", DataType::make(TypeId::kInt64), false, field_ids ? iceberg::kDeletePosFieldId : -1, {}};
  schema.fields = {path_field, pos_field};
  auto paths = std::make_shared<ArrayData>();
  paths->type = std::make_shared<DataType>(path_field.type);
  paths->length = int64_t(rows.size());
  std::vector<int32_t> offsets{0};
  std::string bytes;
  std::vector<int64_t> positions;
  for (const DeleteRow& row : rows) {
    bytes += row.path;
    offsets.push_back(int32_t(bytes.size()));
    positions.push_back(row.pos);
  }
  paths->buffers = {BufferRef{}, copy_to_buffer(offsets.data(), offsets.size() * 4),
                    copy_to_buffer(bytes.data(), bytes.size())};
  auto pos = std::make_shared<ArrayData>();
  pos->type = std::make_shared<DataType>(pos_field.type);
  pos->length = int64_t(rows.size());
  pos->buffers = {BufferRef{}, copy_to_buffer(positions.data(), positions.size() * 8)};
  RecordBatch batch;
  batch.schema = std::make_shared<BatchSchema>(schema);
  batch.columns = {paths, pos};
  batch.num_rows = int64_t(rows.size());
  WriterOptions options;
  options.row_group_rows = row_group_rows;
  options.page_rows = page_rows;
  options.max_statistics_bytes = 1024;
  auto writer = FileWriter::open(file, schema, options);
  writer->write(batch);
  writer->close();
}

}  // namespace parquetry::testing
