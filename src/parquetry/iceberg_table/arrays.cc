// Constant and promoted arrays, equality-delete keys (see arrays.h).
#include "parquetry/iceberg_table/arrays.h"

#include <cstring>

#include "parquetry/array_builder.h"
#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::iceberg {

DataType arrow_type(const IcebergType& type) {
  switch (type.kind) {
    case TypeKind::kBoolean: return DataType::make(TypeId::kBool);
    case TypeKind::kInt: return DataType::make(TypeId::kInt32);
    case TypeKind::kLong: return DataType::make(TypeId::kInt64);
    case TypeKind::kFloat: return DataType::make(TypeId::kFloat32);
    case TypeKind::kDouble: return DataType::make(TypeId::kFloat64);
    case TypeKind::kDecimal: return DataType::decimal(type.precision, type.scale);
    case TypeKind::kDate: return DataType::make(TypeId::kDate32);
    case TypeKind::kTime: return DataType::time(ArrowTimeUnit::kMicro);
    case TypeKind::kTimestamp: return DataType::timestamp(ArrowTimeUnit::kMicro, "");
    case TypeKind::kTimestampTz: return DataType::timestamp(ArrowTimeUnit::kMicro, "UTC");
    case TypeKind::kTimestampNs: return DataType::timestamp(ArrowTimeUnit::kNano, "");
    case TypeKind::kTimestampTzNs: return DataType::timestamp(ArrowTimeUnit::kNano, "UTC");
    case TypeKind::kString: return DataType::make(TypeId::kString);
    case TypeKind::kUuid: return DataType::fixed_size_binary(16);
    case TypeKind::kFixed: return DataType::fixed_size_binary(type.length);
    case TypeKind::kBinary: return DataType::make(TypeId::kBinary);
    case TypeKind::kVariant:
    case TypeKind::kUnknown: return DataType::make(TypeId::kNull);
    case TypeKind::kStruct: {
      std::vector<Field> fields;
      for (const SchemaField& f : type.children) fields.push_back(Field{f.name, arrow_type(f.type), !f.required, f.id, {}});
      return DataType::struct_(std::move(fields));
    }
    case TypeKind::kList: {
      const SchemaField& e = type.children[0];
      return DataType::list(Field{"element", arrow_type(e.type), !e.required, e.id, {}});
    }
    case TypeKind::kMap: {
      const SchemaField& k = type.children[0];
      const SchemaField& v = type.children[1];
      return DataType::map(Field{"key", arrow_type(k.type), false, k.id, {}},
                           Field{"value", arrow_type(v.type), !v.required, v.id, {}});
    }
  }
  return DataType::make(TypeId::kNull);
}

namespace {

template <typename T>
void fill(Buffer& values, int64_t rows, T v) {
  values.resize(size_t(rows) * sizeof(T) + 1);
  T* out = values.as<T>();
  for (int64_t i = 0; i < rows; ++i) out[i] = v;
}

}  // namespace

std::shared_ptr<ArrayData> constant_array(const std::shared_ptr<const DataType>& type, const Value& value, int64_t rows) {
  auto out = std::make_shared<ArrayData>();
  out->type = type;
  out->length = rows;
  const TypeId id = type->id;
  if (id == TypeId::kNull) {
    out->null_count = rows;
    return out;
  }
  if (type->is_nested()) {
    // Nested columns a file lacks are null (no nested defaults).
    ArrayBuilder builder(Field{"", *type, true, -1, {}});
    for (int64_t i = 0; i < rows; ++i) builder.append_null();
    auto array = builder.finish();
    array->type = type;
    return array;
  }
  const size_t bitmap_bytes = size_t((rows + 7) / 8) + 1;
  Buffer validity(bitmap_bytes);
  std::memset(validity.data(), value.is_null() ? 0x00 : 0xff, bitmap_bytes);
  out->null_count = value.is_null() ? rows : 0;
  Buffer values;
  Buffer data;
  switch (id) {
    case TypeId::kBool:
      values.resize(bitmap_bytes);
      std::memset(values.data(), !value.is_null() && value.i != 0 ? 0xff : 0x00, bitmap_bytes);
      break;
    case TypeId::kInt8: fill<int8_t>(values, rows, int8_t(value.i)); break;
    case TypeId::kInt16: fill<int16_t>(values, rows, int16_t(value.i)); break;
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: fill<int32_t>(values, rows, int32_t(value.i)); break;
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: {
      int64_t v = value.i;
      // Values are kept in micros (nanos for _ns types); other units convert.
      if (id == TypeId::kTimestamp || id == TypeId::kTime64) {
        if (type->unit == ArrowTimeUnit::kMilli) v /= 1000;
        if (type->unit == ArrowTimeUnit::kSecond) v /= 1000000;
      }
      fill<int64_t>(values, rows, v);
      break;
    }
    case TypeId::kFloat32: fill<float>(values, rows, float(value.d)); break;
    case TypeId::kFloat64: fill<double>(values, rows, value.d); break;
    case TypeId::kDecimal128: {
      values.resize(size_t(rows) * 16 + 1);
      for (int64_t i = 0; i < rows; ++i) std::memcpy(values.data() + i * 16, &value.i128, 16);
      break;
    }
    case TypeId::kFixedSizeBinary: {
      const size_t width = size_t(type->byte_width);
      if (!value.is_null() && value.bytes.size() != width) throw_corrupt("constant of " + std::to_string(value.bytes.size()) + " bytes for " + type->to_string());
      values.resize(size_t(rows) * width + 1);
      std::memset(values.data(), 0, values.size());
      if (!value.is_null()) {
        for (int64_t i = 0; i < rows; ++i) std::memcpy(values.data() + size_t(i) * width, value.bytes.data(), width);
      }
      break;
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      const int64_t len = value.is_null() ? 0 : int64_t(value.bytes.size());
      if (len * rows > INT32_MAX) throw_limit("constant string column larger than 2 GiB");
      values.resize(size_t(rows + 1) * 4);
      int32_t* offsets = values.as<int32_t>();
      for (int64_t i = 0; i <= rows; ++i) offsets[i] = int32_t(i * len);
      data.resize(size_t(len * rows) + 1);
      for (int64_t i = 0; i < rows; ++i) std::memcpy(data.data() + i * len, value.bytes.data(), size_t(len));
      break;
    }
    default: throw_unsupported("iceberg: constant column of type " + type->to_string());
  }
  out->buffers.push_back(BufferRef::adopt(std::move(validity)));
  out->buffers.push_back(BufferRef::adopt(std::move(values)));
  if (id == TypeId::kString || id == TypeId::kBinary) out->buffers.push_back(BufferRef::adopt(std::move(data)));
  return out;
}

std::shared_ptr<ArrayData> promote_array(const std::shared_ptr<ArrayData>& array, const IcebergType& target) {
  const TypeId from = array->type->id;
  auto widen = [&](auto tag_from, auto tag_to, TypeId to_id) {
    using From = decltype(tag_from);
    using To = decltype(tag_to);
    auto out = std::make_shared<ArrayData>();
    out->type = std::make_shared<DataType>(DataType::make(to_id));
    out->length = array->length;
    out->null_count = array->null_count;
    Buffer values(size_t(array->length) * sizeof(To) + 1);
    const From* in = array->buffers[1].as<From>() + array->offset;
    To* o = values.as<To>();
    for (int64_t i = 0; i < array->length; ++i) o[i] = To(in[i]);
    // The validity bitmap is shared, with the array's offset carried over.
    out->offset = 0;
    if (array->buffers[0] && array->offset % 8 == 0) {
      BufferRef v = array->buffers[0];
      v.data += array->offset / 8;
      v.size -= array->offset / 8;
      out->buffers.push_back(v);
    } else if (array->buffers[0]) {
      Buffer bits(size_t((array->length + 7) / 8) + 1);
      std::memset(bits.data(), 0, bits.size());
      for (int64_t i = 0; i < array->length; ++i) {
        if (array->is_valid(i)) bits.data()[i >> 3] |= uint8_t(1u << (i & 7));
      }
      out->buffers.push_back(BufferRef::adopt(std::move(bits)));
    } else {
      out->buffers.emplace_back();
    }
    out->buffers.push_back(BufferRef::adopt(std::move(values)));
    return out;
  };
  if (target.kind == TypeKind::kLong && from == TypeId::kInt32) return widen(int32_t{}, int64_t{}, TypeId::kInt64);
  if (target.kind == TypeKind::kDouble && from == TypeId::kFloat32) return widen(float{}, double{}, TypeId::kFloat64);
  if (target.kind == TypeKind::kDecimal && from == TypeId::kDecimal128 && array->type->precision != target.precision &&
      array->type->scale == target.scale) {
    auto out = std::make_shared<ArrayData>(*array);
    out->type = std::make_shared<DataType>(DataType::decimal(target.precision, target.scale));
    return out;
  }
  return array;
}

IntegerValues integer_values(const ArrayData& a) {
  IntegerValues out;
  if (a.buffers.size() < 2 || a.buffers[1].data == nullptr) return out;
  int width = 0;
  switch (a.type->id) {
    case TypeId::kInt8:
    case TypeId::kUInt8: width = 1; break;
    case TypeId::kInt16:
    case TypeId::kUInt16: width = 2; break;
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: width = 4; break;
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: width = 8; break;
    default: return out;
  }
  out.type = a.type->id;
  out.data = a.buffers[1].data + a.offset * width;
  out.valid = true;
  return out;
}

void append_key(std::string& key, const ArrayData& a, int64_t row) {
  if (!a.is_valid(row)) {
    key += '\0';
    return;
  }
  key += '\1';
  const int64_t k = a.offset + row;
  auto put = [&](const void* p, size_t n) { key.append(static_cast<const char*>(p), n); };
  switch (a.type->id) {
    case TypeId::kNull: return;
    case TypeId::kBool: {
      const char b = char(bits::get_bit(a.buffers[1].data, k));
      put(&b, 1);
      return;
    }
    case TypeId::kInt8: { const int64_t v = a.buffers[1].as<int8_t>()[k]; put(&v, 8); return; }
    case TypeId::kInt16: { const int64_t v = a.buffers[1].as<int16_t>()[k]; put(&v, 8); return; }
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: { const int64_t v = a.buffers[1].as<int32_t>()[k]; put(&v, 8); return; }
    case TypeId::kUInt8: { const int64_t v = a.buffers[1].as<uint8_t>()[k]; put(&v, 8); return; }
    case TypeId::kUInt16: { const int64_t v = a.buffers[1].as<uint16_t>()[k]; put(&v, 8); return; }
    case TypeId::kUInt32: { const int64_t v = a.buffers[1].as<uint32_t>()[k]; put(&v, 8); return; }
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: put(a.buffers[1].as<int64_t>() + k, 8); return;
    case TypeId::kFloat32: { const double v = a.buffers[1].as<float>()[k]; put(&v, 8); return; }
    case TypeId::kFloat64: put(a.buffers[1].as<double>() + k, 8); return;
    case TypeId::kDecimal128: put(a.buffers[1].data + k * 16, 16); return;
    case TypeId::kDecimal256: put(a.buffers[1].data + k * 32, 32); return;
    case TypeId::kFixedSizeBinary: put(a.buffers[1].data + k * a.type->byte_width, size_t(a.type->byte_width)); return;
    case TypeId::kString:
    case TypeId::kBinary: {
      const int32_t* o = a.buffers[1].as<int32_t>();
      const uint32_t n = uint32_t(o[k + 1] - o[k]);
      put(&n, 4);
      put(a.buffers[2].data + o[k], n);
      return;
    }
    case TypeId::kLargeString:
    case TypeId::kLargeBinary: {
      const int64_t* o = a.buffers[1].as<int64_t>();
      const uint32_t n = uint32_t(o[k + 1] - o[k]);
      put(&n, 4);
      put(a.buffers[2].data + o[k], n);
      return;
    }
    default: throw_unsupported("iceberg: equality deletes on a column of type " + a.type->to_string());
  }
}

}  // namespace parquetry::iceberg
