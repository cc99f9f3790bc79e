// Columns -> messages through google::protobuf::Reflection: the inverse of
// reflect_write.cc, one row at a time from the arrays bound to the plan.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <charconv>
#include <string>
#include <string_view>

#include "parquetry/error.h"
#include "parquetry/proto.h"
#include "parquetry/proto/proto_internal.h"

namespace parquetry::proto {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

template <typename T>
T fixed_at(const ArrayData& array, int64_t row) {
  T value;
  std::memcpy(&value, array.buffers[1].data + (array.offset + row) * int64_t(sizeof(T)), sizeof(T));
  return value;
}

bool bool_at(const ArrayData& array, int64_t row) {
  const int64_t bit = array.offset + row;
  return (array.buffers[1].data[bit >> 3] >> (bit & 7)) & 1;
}

std::string_view bytes_at(const ArrayData& array, int64_t row) {
  const int32_t* offsets = array.buffers[1].as<int32_t>();
  const int32_t begin = offsets[array.offset + row];
  const int32_t end = offsets[array.offset + row + 1];
  return {reinterpret_cast<const char*>(array.buffers[2].data) + begin, size_t(end - begin)};
}

int enum_number(const google::protobuf::EnumDescriptor* type, std::string_view name) {
  const auto* value = type->FindValueByName(std::string(name));
  if (value != nullptr) return value->number();
  int number = 0;
  auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), number);
  if (error != std::errc() || end != name.data() + name.size()) {
    throw Error(ErrorCode::kInvalidArgument,
                "enum " + type->full_name() + " has no value " + std::string(name));
  }
  return number;
}

void read_message(const Column& column, int64_t row, Message* sub) {
  const ArrayData& array = *column.array;
  switch (column.kind) {
    case ValueKind::kMessage:
      for (const Column& child : column.children) read_field(child, array.offset + row, sub);
      return;
    case ValueKind::kSerialized: {
      const std::string_view bytes = bytes_at(array, row);
      if (!sub->ParseFromArray(bytes.data(), int(bytes.size()))) {
        throw Error(ErrorCode::kCorrupt, "column " + column.field->name() + " holds an unparsable message");
      }
      return;
    }
    case ValueKind::kTimestamp: set_timestamp(fixed_at<int64_t>(array, row), sub); return;
    case ValueKind::kDate: set_date(fixed_at<int32_t>(array, row), sub); return;
    case ValueKind::kTimeOfDay: set_time_of_day(fixed_at<int64_t>(array, row), sub); return;
    default: break;
  }
  throw Error(ErrorCode::kInternal, "message value in a column of a scalar kind");
}

// Sets the singular `fd` of `m` from row `row` of `column.array`.
void set_single(const Column& column, int64_t row, Message* m, const Reflection* r,
                const FieldDescriptor* fd) {
  const ArrayData& a = *column.array;
  switch (column.kind) {
    case ValueKind::kBool: r->SetBool(m, fd, bool_at(a, row)); return;
    case ValueKind::kInt32: r->SetInt32(m, fd, fixed_at<int32_t>(a, row)); return;
    case ValueKind::kInt64: r->SetInt64(m, fd, fixed_at<int64_t>(a, row)); return;
    case ValueKind::kUInt32: r->SetUInt32(m, fd, fixed_at<uint32_t>(a, row)); return;
    case ValueKind::kUInt64: r->SetUInt64(m, fd, fixed_at<uint64_t>(a, row)); return;
    case ValueKind::kFloat: r->SetFloat(m, fd, fixed_at<float>(a, row)); return;
    case ValueKind::kDouble: r->SetDouble(m, fd, fixed_at<double>(a, row)); return;
    case ValueKind::kString:
    case ValueKind::kBytes: r->SetString(m, fd, std::string(bytes_at(a, row))); return;
    case ValueKind::kEnumName: r->SetEnumValue(m, fd, enum_number(fd->enum_type(), bytes_at(a, row))); return;
    case ValueKind::kEnumNumber: r->SetEnumValue(m, fd, fixed_at<int32_t>(a, row)); return;
    case ValueKind::kMessage:
    case ValueKind::kSerialized:
    case ValueKind::kTimestamp:
    case ValueKind::kDate:
    case ValueKind::kTimeOfDay: read_message(column, row, r->MutableMessage(m, fd)); return;
  }
}

// Appends row `row` of `column.array` to the repeated `fd` of `m`.
void add_element(const Column& column, int64_t row, Message* m, const Reflection* r,
                 const FieldDescriptor* fd) {
  const ArrayData& a = *column.array;
  if (column.wrapped != nullptr) {
    Message* wrapper = r->AddMessage(m, fd);
    set_single(column, row, wrapper, wrapper->GetReflection(), column.wrapped);
    return;
  }
  switch (column.kind) {
    case ValueKind::kBool: r->AddBool(m, fd, bool_at(a, row)); return;
    case ValueKind::kInt32: r->AddInt32(m, fd, fixed_at<int32_t>(a, row)); return;
    case ValueKind::kInt64: r->AddInt64(m, fd, fixed_at<int64_t>(a, row)); return;
    case ValueKind::kUInt32: r->AddUInt32(m, fd, fixed_at<uint32_t>(a, row)); return;
    case ValueKind::kUInt64: r->AddUInt64(m, fd, fixed_at<uint64_t>(a, row)); return;
    case ValueKind::kFloat: r->AddFloat(m, fd, fixed_at<float>(a, row)); return;
    case ValueKind::kDouble: r->AddDouble(m, fd, fixed_at<double>(a, row)); return;
    case ValueKind::kString:
    case ValueKind::kBytes: r->AddString(m, fd, std::string(bytes_at(a, row))); return;
    case ValueKind::kEnumName: r->AddEnumValue(m, fd, enum_number(fd->enum_type(), bytes_at(a, row))); return;
    case ValueKind::kEnumNumber: r->AddEnumValue(m, fd, fixed_at<int32_t>(a, row)); return;
    case ValueKind::kMessage:
    case ValueKind::kSerialized:
    case ValueKind::kTimestamp:
    case ValueKind::kDate:
    case ValueKind::kTimeOfDay: read_message(column, row, r->AddMessage(m, fd)); return;
  }
}

}  // namespace

void read_field(const Column& column, int64_t row, Message* m) {
  if (column.array == nullptr || !column.array->is_valid(row)) return;
  const Reflection* r = m->GetReflection();
  const FieldDescriptor* fd = column.field;
  const ArrayData& array = *column.array;
  switch (column.shape) {
    case Shape::kList: {
      const int32_t* offsets = array.buffers[1].as<int32_t>();
      const Column& element = column.children[0];
      for (int64_t k = offsets[array.offset + row]; k < offsets[array.offset + row + 1]; ++k) {
        if (element.array->is_valid(k)) add_element(element, k, m, r, fd);
      }
      return;
    }
    case Shape::kMap: {
      const int32_t* offsets = array.buffers[1].as<int32_t>();
      const ArrayData& entries = *array.children[0];
      for (int64_t k = offsets[array.offset + row]; k < offsets[array.offset + row + 1]; ++k) {
        Message* entry = r->AddMessage(m, fd);
        read_field(column.children[0], entries.offset + k, entry);
        read_field(column.children[1], entries.offset + k, entry);
      }
      return;
    }
    case Shape::kSingle: break;
  }
  if (column.wrapped != nullptr) {
    Message* wrapper = r->MutableMessage(m, fd);
    set_single(column, row, wrapper, wrapper->GetReflection(), column.wrapped);
    return;
  }
  set_single(column, row, m, r, fd);
}

namespace {

// The Arrow storage a column of `kind` reads: fixed width, bool, binary or nested.
void check_storage(const Column& column, const ArrayData& array) {
  const DataType& type = *array.type;
  const auto fail = [&] {
    throw Error(ErrorCode::kInvalidArgument,
                "column " + (column.field ? column.field->name() : std::string("?")) + " has type " +
                    type.to_string() + ", which does not hold its protobuf field");
  };
  if (column.shape != Shape::kSingle) {
    if (type.id != TypeId::kList && type.id != TypeId::kMap) fail();
    if (column.shape == Shape::kMap && array.children[0]->children.size() != 2) fail();
    return;
  }
  switch (column.kind) {
    case ValueKind::kBool:
      if (type.id != TypeId::kBool) fail();
      return;
    case ValueKind::kInt32:
    case ValueKind::kUInt32:
    case ValueKind::kFloat:
    case ValueKind::kEnumNumber:
    case ValueKind::kDate:
      if (type.fixed_width() != 4 || type.id == TypeId::kDictionary) fail();
      return;
    case ValueKind::kInt64:
    case ValueKind::kUInt64:
    case ValueKind::kDouble:
    case ValueKind::kTimestamp:
    case ValueKind::kTimeOfDay:
      if (type.fixed_width() != 8) fail();
      return;
    case ValueKind::kString:
    case ValueKind::kBytes:
    case ValueKind::kEnumName:
    case ValueKind::kSerialized:
      if (type.id != TypeId::kString && type.id != TypeId::kBinary) fail();
      return;
    case ValueKind::kMessage:
      if (type.id != TypeId::kStruct) fail();
      return;
  }
}

}  // namespace

void bind_column(Column& column, const ArrayData* array) {
  column.array = array;
  if (array == nullptr) {
    for (Column& child : column.children) bind_column(child, nullptr);
    return;
  }
  check_storage(column, *array);
  if (column.shape == Shape::kList) {
    bind_column(column.children[0], array->children[0].get());
  } else if (column.shape == Shape::kMap) {
    const ArrayData& entries = *array->children[0];
    bind_column(column.children[0], entries.children[0].get());
    bind_column(column.children[1], entries.children[1].get());
  } else if (column.kind == ValueKind::kMessage) {
    const DataType& type = *array->type;
    for (Column& child : column.children) {
      const ArrayData* found = nullptr;
      for (size_t i = 0; i < type.children.size(); ++i) {
        if (type.children[i].name == child.field->name()) found = array->children[i].get();
      }
      bind_column(child, found);
    }
  }
}

}  // namespace parquetry::proto
