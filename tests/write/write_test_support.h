// Helpers of the writer tests: building Arrow-layout arrays by hand or at
// random, rendering values canonically (so that string vs large_string vs
// string_view, or a dictionary vs its values, compare equal when the values
// do), and writing to / reading from memory.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "parquetry/io.h"
#include "parquetry/reader.h"
#include "parquetry/table.h"
#include "parquetry/util/bit_util.h"
#include "parquetry/writer.h"

namespace parquetry::testing {

inline BufferRef adopt_bytes(const void* data, size_t size) {
  Buffer buffer(size);
  if (size) std::memcpy(buffer.data(), data, size);
  return BufferRef::adopt(std::move(buffer));
}

template <typename T>
BufferRef adopt_vector(const std::vector<T>& v) {
  return adopt_bytes(v.data(), v.size() * sizeof(T));
}

/// A validity bitmap from one flag per slot; null BufferRef when all are valid.
inline BufferRef validity_of(const std::vector<bool>& valid, int64_t* null_count) {
  *null_count = 0;
  std::vector<uint8_t> bitmap((valid.size() + 7) / 8, 0);
  for (size_t i = 0; i < valid.size(); ++i) {
    if (valid[i]) {
      bitmap[i >> 3] |= uint8_t(1u << (i & 7));
    } else {
      ++*null_count;
    }
  }
  if (*null_count == 0) return {};
  return adopt_vector(bitmap);
}

template <typename T>
std::shared_ptr<ArrayData> make_fixed(DataType type, const std::vector<T>& values,
                                      std::vector<bool> valid = {}) {
  auto a = std::make_shared<ArrayData>();
  a->type = std::make_shared<DataType>(std::move(type));
  a->length = int64_t(values.size());
  if (valid.empty()) valid.assign(values.size(), true);
  a->buffers.push_back(validity_of(valid, &a->null_count));
  a->buffers.push_back(adopt_vector(values));
  return a;
}

inline std::shared_ptr<ArrayData> make_strings(DataType type, const std::vector<std::string>& values,
                                               std::vector<bool> valid = {}) {
  auto a = std::make_shared<ArrayData>();
  a->type = std::make_shared<DataType>(std::move(type));
  a->length = int64_t(values.size());
  if (valid.empty()) valid.assign(values.size(), true);
  a->buffers.push_back(validity_of(valid, &a->null_count));
  std::vector<int32_t> offsets{0};
  std::string data;
  for (const auto& v : values) {
    data += v;
    offsets.push_back(int32_t(data.size()));
  }
  a->buffers.push_back(adopt_vector(offsets));
  a->buffers.push_back(adopt_bytes(data.data(), data.size()));
  return a;
}

/// Canonical text of value i (relative to the array's offset).
inline void render(const ArrayData& a, int64_t i, std::string& out) {
  const DataType& type = *a.type;
  if (type.id == TypeId::kNull || !a.is_valid(i)) {
    out += "null";
    return;
  }
  const int64_t p = a.offset + i;
  auto hex = [&](const uint8_t* bytes, int64_t n) {
    static const char* digits = "0123456789abcdef";
    out += '"';
    for (int64_t k = 0; k < n; ++k) {
      out += digits[bytes[k] >> 4];
      out += digits[bytes[k] & 15];
    }
    out += '"';
  };
  switch (type.id) {
    case TypeId::kBool: out += bits::get_bit(a.buffers[1].data, p) ? "true" : "false"; return;
    case TypeId::kDictionary: render(*a.dictionary, a.buffers[1].as<int32_t>()[p], out); return;
    case TypeId::kBinary:
    case TypeId::kString: {
      const int32_t* o = a.buffers[1].as<int32_t>();
      hex(a.buffers[2].data + o[p], o[p + 1] - o[p]);
      return;
    }
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: {
      const int64_t* o = a.buffers[1].as<int64_t>();
      hex(a.buffers[2].data + o[p], o[p + 1] - o[p]);
      return;
    }
    case TypeId::kBinaryView:
    case TypeId::kStringView: {
      const uint8_t* view = a.buffers[1].data + p * 16;
      int32_t length = bits::load<int32_t>(view);
      if (length <= 12) {
        hex(view + 4, length);
      } else {
        int32_t buffer = bits::load<int32_t>(view + 8);
        int32_t offset = bits::load<int32_t>(view + 12);
        hex(a.buffers[size_t(2 + buffer)].data + offset, length);
      }
      return;
    }
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kLargeList: {
      int64_t begin, end;
      if (type.id == TypeId::kLargeList) {
        begin = a.buffers[1].as<int64_t>()[p];
        end = a.buffers[1].as<int64_t>()[p + 1];
      } else {
        begin = a.buffers[1].as<int32_t>()[p];
        end = a.buffers[1].as<int32_t>()[p + 1];
      }
      out += '[';
      for (int64_t k = begin; k < end; ++k) {
        if (k > begin) out += ',';
        render(*a.children[0], k, out);
      }
      out += ']';
      return;
    }
    case TypeId::kStruct: {
      out += '{';
      for (size_t c = 0; c < a.children.size(); ++c) {
        if (c) out += ',';
        render(*a.children[c], p, out);
      }
      out += '}';
      return;
    }
    default: {
      const int width = type.fixed_width();
      hex(a.buffers[1].data + p * width, width);
      return;
    }
  }
}

/// Every row of the batches, rendered, column by column.
inline std::vector<std::string> render_rows(const std::vector<RecordBatch>& batches) {
  std::vector<std::string> rows;
  for (const RecordBatch& batch : batches) {
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      std::string row;
      for (size_t c = 0; c < batch.columns.size(); ++c) {
        if (c) row += " | ";
        render(*batch.columns[c], r, row);
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

/// Writes batches into memory and returns the file's bytes.
inline std::vector<uint8_t> write_to_memory(const BatchSchema& schema,
                                            const std::vector<RecordBatch>& batches,
                                            const WriterOptions& options = {}) {
  auto sink = std::make_unique<MemorySink>();
  MemorySink* raw = sink.get();
  auto writer = FileWriter::open(std::move(sink), schema, options);
  for (const RecordBatch& batch : batches) writer->write(batch);
  writer->close();
  const Buffer& bytes = raw->buffer();
  return std::vector<uint8_t>(bytes.data(), bytes.data() + bytes.size());
}

inline std::unique_ptr<FileReader> open_memory(std::vector<uint8_t> bytes) {
  ReaderOptions options;
  options.verify_crc = true;
  return FileReader::open(std::make_shared<MemorySource>(std::move(bytes)), options);
}

inline RecordBatch make_batch(std::shared_ptr<const BatchSchema> schema,
                              std::vector<std::shared_ptr<ArrayData>> columns) {
  RecordBatch batch;
  batch.schema = std::move(schema);
  batch.num_rows = columns.empty() ? 0 : columns[0]->length;
  batch.columns = std::move(columns);
  return batch;
}

}  // namespace parquetry::testing
