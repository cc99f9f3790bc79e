// Messages -> columns through google::protobuf::Reflection. The plan already
// holds every FieldDescriptor, so a row costs one accessor call per field and
// no ListFields (which allocates and sorts) — the reflection fallback of
// generated writers uses the same functions.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <string>

#include "parquetry/error.h"
#include "parquetry/proto.h"
#include "parquetry/proto/proto_internal.h"

namespace parquetry::proto {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

void append_enum_name(Column& column, const google::protobuf::EnumDescriptor* type, int number) {
  const auto* value = type->FindValueByNumber(number);
  if (value != nullptr) {
    column.append_bytes(value->name());
  } else {
    // An open enum may hold a number without a name: keep the number.
    column.append_bytes(std::to_string(number));
  }
}

void append_message(Column& column, const Message& sub) {
  switch (column.kind) {
    case ValueKind::kMessage:
      column.append_struct();
      append_fields(column, sub);
      return;
    case ValueKind::kSerialized: {
      static thread_local std::string scratch;
      scratch.clear();
      sub.SerializeToString(&scratch);
      column.append_bytes(scratch);
      return;
    }
    case ValueKind::kTimestamp: column.append_int64(timestamp_nanos(sub)); return;
    case ValueKind::kDate: column.append_int32(date_days(sub)); return;
    case ValueKind::kTimeOfDay: column.append_int64(time_of_day_nanos(sub)); return;
    default: break;
  }
  throw Error(ErrorCode::kInternal, "message value in a column of a scalar kind");
}

// One singular value of `fd` in `m` (known to be present, or defaulted).
void append_single(Column& column, const Message& m, const Reflection* r, const FieldDescriptor* fd) {
  switch (column.kind) {
    case ValueKind::kBool: column.append_bool(r->GetBool(m, fd)); return;
    case ValueKind::kInt32: column.append_int32(r->GetInt32(m, fd)); return;
    case ValueKind::kInt64: column.append_int64(r->GetInt64(m, fd)); return;
    case ValueKind::kUInt32: column.append_uint32(r->GetUInt32(m, fd)); return;
    case ValueKind::kUInt64: column.append_uint64(r->GetUInt64(m, fd)); return;
    case ValueKind::kFloat: column.append_float(r->GetFloat(m, fd)); return;
    case ValueKind::kDouble: column.append_double(r->GetDouble(m, fd)); return;
    case ValueKind::kString:
    case ValueKind::kBytes: {
      std::string scratch;
      column.append_bytes(r->GetStringReference(m, fd, &scratch));
      return;
    }
    case ValueKind::kEnumName: append_enum_name(column, fd->enum_type(), r->GetEnumValue(m, fd)); return;
    case ValueKind::kEnumNumber: column.append_int32(r->GetEnumValue(m, fd)); return;
    case ValueKind::kMessage:
    case ValueKind::kSerialized:
    case ValueKind::kTimestamp:
    case ValueKind::kDate:
    case ValueKind::kTimeOfDay: append_message(column, r->GetMessage(m, fd)); return;
  }
}

// Element `i` of the repeated field `fd` in `m`.
void append_element(Column& column, const Message& m, const Reflection* r, const FieldDescriptor* fd, int i) {
  if (column.wrapped != nullptr) {
    const Message& wrapper = r->GetRepeatedMessage(m, fd, i);
    append_single(column, wrapper, wrapper.GetReflection(), column.wrapped);
    return;
  }
  switch (column.kind) {
    case ValueKind::kBool: column.append_bool(r->GetRepeatedBool(m, fd, i)); return;
    case ValueKind::kInt32: column.append_int32(r->GetRepeatedInt32(m, fd, i)); return;
    case ValueKind::kInt64: column.append_int64(r->GetRepeatedInt64(m, fd, i)); return;
    case ValueKind::kUInt32: column.append_uint32(r->GetRepeatedUInt32(m, fd, i)); return;
    case ValueKind::kUInt64: column.append_uint64(r->GetRepeatedUInt64(m, fd, i)); return;
    case ValueKind::kFloat: column.append_float(r->GetRepeatedFloat(m, fd, i)); return;
    case ValueKind::kDouble: column.append_double(r->GetRepeatedDouble(m, fd, i)); return;
    case ValueKind::kString:
    case ValueKind::kBytes: {
      std::string scratch;
      column.append_bytes(r->GetRepeatedStringReference(m, fd, i, &scratch));
      return;
    }
    case ValueKind::kEnumName:
      append_enum_name(column, fd->enum_type(), r->GetRepeatedEnumValue(m, fd, i));
      return;
    case ValueKind::kEnumNumber: column.append_int32(r->GetRepeatedEnumValue(m, fd, i)); return;
    case ValueKind::kMessage:
    case ValueKind::kSerialized:
    case ValueKind::kTimestamp:
    case ValueKind::kDate:
    case ValueKind::kTimeOfDay: append_message(column, r->GetRepeatedMessage(m, fd, i)); return;
  }
}

}  // namespace

void append_field(Column& column, const Message& m) {
  const Reflection* r = m.GetReflection();
  const FieldDescriptor* fd = column.field;
  switch (column.shape) {
    case Shape::kList: {
      const int n = r->FieldSize(m, fd);
      Column& element = column.children[0];
      for (int i = 0; i < n; ++i) append_element(element, m, r, fd, i);
      column.end_list();
      return;
    }
    case Shape::kMap: {
      // The map's repeated view: entries in the order reflection keeps them.
      const int n = r->FieldSize(m, fd);
      for (int i = 0; i < n; ++i) {
        const Message& entry = r->GetRepeatedMessage(m, fd, i);
        append_field(column.children[0], entry);
        append_field(column.children[1], entry);
      }
      column.end_list();
      return;
    }
    case Shape::kSingle: break;
  }
  if (column.presence && !r->HasField(m, fd)) {
    column.append_null();
    return;
  }
  if (column.wrapped != nullptr) {
    const Message& wrapper = r->GetMessage(m, fd);
    append_single(column, wrapper, wrapper.GetReflection(), column.wrapped);
    return;
  }
  append_single(column, m, r, fd);
}

void append_fields(Column& message_column, const Message& m) {
  for (Column& child : message_column.children) append_field(child, m);
}

}  // namespace parquetry::proto
