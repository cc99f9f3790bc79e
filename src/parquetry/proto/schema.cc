// Descriptor -> plan of columns + Arrow schema, following parquet-java's
// ProtoSchemaConverter (docs/proto.md has the table).
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

#include <algorithm>
#include <set>

#include "parquetry/error.h"
#include "parquetry/proto.h"
#include "parquetry/proto/proto_internal.h"

namespace parquetry::proto {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumDescriptor;
using google::protobuf::FieldDescriptor;

class Planner {
 public:
  explicit Planner(const ProtoOptions& options) : options_(options) {}

  /// The fields of `descriptor` as columns (into `column.children`) and Arrow fields.
  std::vector<Field> message_fields(const Descriptor* descriptor, Column& column) {
    std::vector<Field> fields;
    path_.push_back(descriptor);
    for (int i = 0; i < descriptor->field_count(); ++i) {
      const FieldDescriptor* fd = descriptor->field(i);
      column.children.emplace_back();
      fields.push_back(field(fd, column.children.back()));
    }
    path_.pop_back();
    return fields;
  }

  std::set<const EnumDescriptor*, std::less<>> enums;

 private:
  Field field(const FieldDescriptor* fd, Column& column) {
    column.field = fd;
    Field out;
    out.name = fd->name();
    out.field_id = fd->number();
    if (fd->is_map()) {
      column.shape = Shape::kMap;
      column.empty_is_null = options_.specs_compliant;
      const Descriptor* entry = fd->message_type();
      column.children.resize(2);
      Field key = value_field(entry->map_key(), column.children[0]);
      Field value = value_field(entry->map_value(), column.children[1]);
      if (options_.specs_compliant) {
        key.nullable = false;
        value.nullable = true;
        out.type = DataType::map(std::move(key), std::move(value));
        out.nullable = true;
      } else {
        key.nullable = true;
        value.nullable = true;
        Field entries{fd->name(), DataType::struct_({std::move(key), std::move(value)}), false, -1, {}};
        out.type = DataType::list(std::move(entries));
        out.nullable = false;
        out.metadata.emplace_back(kRepeatedLayoutKey, kRepeatedLayoutBare);
      }
      return out;
    }
    if (fd->is_repeated()) {
      column.shape = Shape::kList;
      column.empty_is_null = options_.specs_compliant;
      column.children.resize(1);
      Field element = value_field(fd, column.children[0]);
      if (options_.specs_compliant) {
        element.name = "element";
        // parquet-java: required primitives, optional group for a message element.
        element.nullable = column.children[0].kind == ValueKind::kMessage;
        out.type = DataType::list(std::move(element));
        out.nullable = true;
      } else {
        element.nullable = false;
        out.type = DataType::list(std::move(element));
        out.nullable = false;
        out.metadata.emplace_back(kRepeatedLayoutKey, kRepeatedLayoutBare);
      }
      return out;
    }
    Field value = value_field(fd, column);
    value.field_id = fd->number();
    column.presence = fd->has_presence();
    value.nullable = !fd->is_required();
    return value;
  }

  // The type of one value of `fd` (the element of a repeated field).
  Field value_field(const FieldDescriptor* fd, Column& column) {
    column.field = fd;
    Field out;
    out.name = fd->name();
    out.field_id = fd->number();
    out.nullable = true;
    const bool unsigned_ok = options_.unsigned_annotations;
    switch (fd->cpp_type()) {
      case FieldDescriptor::CPPTYPE_BOOL: set(column, out, ValueKind::kBool, TypeId::kBool); break;
      case FieldDescriptor::CPPTYPE_INT32: set(column, out, ValueKind::kInt32, TypeId::kInt32); break;
      case FieldDescriptor::CPPTYPE_INT64: set(column, out, ValueKind::kInt64, TypeId::kInt64); break;
      case FieldDescriptor::CPPTYPE_UINT32:
        set(column, out, ValueKind::kUInt32, unsigned_ok ? TypeId::kUInt32 : TypeId::kInt32);
        break;
      case FieldDescriptor::CPPTYPE_UINT64:
        set(column, out, ValueKind::kUInt64, unsigned_ok ? TypeId::kUInt64 : TypeId::kInt64);
        break;
      case FieldDescriptor::CPPTYPE_FLOAT: set(column, out, ValueKind::kFloat, TypeId::kFloat32); break;
      case FieldDescriptor::CPPTYPE_DOUBLE: set(column, out, ValueKind::kDouble, TypeId::kFloat64); break;
      case FieldDescriptor::CPPTYPE_STRING:
        if (fd->type() == FieldDescriptor::TYPE_STRING) {
          set(column, out, ValueKind::kString, TypeId::kString);
        } else {
          set(column, out, ValueKind::kBytes, TypeId::kBinary);
        }
        break;
      case FieldDescriptor::CPPTYPE_ENUM:
        if (options_.enums_as_strings) {
          set(column, out, ValueKind::kEnumName, TypeId::kString);
          out.type.extension_name = kEnumExtension;
          enums.insert(fd->enum_type());
        } else {
          set(column, out, ValueKind::kEnumNumber, TypeId::kInt32);
        }
        break;
      case FieldDescriptor::CPPTYPE_MESSAGE: message_value(fd->message_type(), column, out); break;
    }
    return out;
  }

  void message_value(const Descriptor* type, Column& column, Field& out) {
    if (options_.unwrap_well_known_types) {
      if (type->full_name() == "google.protobuf.Timestamp") {
        column.kind = ValueKind::kTimestamp;
        out.type = DataType::timestamp(ArrowTimeUnit::kNano, "UTC");
        return;
      }
      if (type->full_name() == "google.type.Date") {
        column.kind = ValueKind::kDate;
        out.type = DataType::make(TypeId::kDate32);
        return;
      }
      if (type->full_name() == "google.type.TimeOfDay") {
        column.kind = ValueKind::kTimeOfDay;
        out.type = DataType::time(ArrowTimeUnit::kNano);
        return;
      }
      if (is_wrapper(type)) {
        column.wrapped = type->field(0);
        Column scratch;
        Field inner = value_field(type->field(0), scratch);
        column.kind = scratch.kind;
        out.type = inner.type;
        return;
      }
    }
    const int64_t seen = std::count(path_.begin(), path_.end(), type);
    if (seen > options_.max_recursion || type->field_count() == 0) {
      // Past the recursion limit (and for field-less messages, which have no
      // Parquet group form) the message is kept as its wire bytes.
      set(column, out, ValueKind::kSerialized, TypeId::kBinary);
      return;
    }
    column.kind = ValueKind::kMessage;
    out.type = DataType::struct_(message_fields(type, column));
  }

  static bool is_wrapper(const Descriptor* type) {
    static const std::set<std::string, std::less<>> kWrappers = {
        "google.protobuf.DoubleValue", "google.protobuf.FloatValue",  "google.protobuf.Int64Value",
        "google.protobuf.UInt64Value", "google.protobuf.Int32Value",  "google.protobuf.UInt32Value",
        "google.protobuf.BoolValue",   "google.protobuf.StringValue", "google.protobuf.BytesValue"};
    return kWrappers.contains(type->full_name());
  }

  static void set(Column& column, Field& out, ValueKind kind, TypeId id) {
    column.kind = kind;
    out.type = DataType::make(id);
  }

  const ProtoOptions& options_;
  std::vector<const Descriptor*> path_;
};

std::string bool_text(bool value) { return value ? "true" : "false"; }

}  // namespace

std::unique_ptr<ProtoPlan> plan_for(const Descriptor* descriptor, const ProtoOptions& options) {
  if (descriptor == nullptr) throw_invalid("proto::plan_for needs a descriptor");
  if (options.batch_rows <= 0) throw_invalid("ProtoOptions::batch_rows must be positive");
  auto plan = std::make_unique<ProtoPlan>();
  plan->descriptor = descriptor;
  plan->options = options;
  plan->root.kind = ValueKind::kMessage;
  Planner planner(options);
  plan->schema.fields = planner.message_fields(descriptor, plan->root);
  if (plan->schema.fields.empty()) throw_invalid("message " + descriptor->full_name() + " has no fields");

  // parquet-java's key-value metadata: the message class, its descriptor as
  // text, the flags that shaped the schema and every enum's name -> number map.
  auto& metadata = plan->schema.metadata;
  metadata.emplace_back("parquet.proto.class", descriptor->full_name());
  google::protobuf::DescriptorProto proto;
  descriptor->CopyTo(&proto);
  metadata.emplace_back("parquet.proto.descriptor", proto.DebugString());
  metadata.emplace_back("parquet.proto.writeSpecsCompliant", bool_text(options.specs_compliant));
  metadata.emplace_back("parquet.proto.unwrapProtoWrappers", bool_text(options.unwrap_well_known_types));
  metadata.emplace_back("parquet.proto.maxRecursion", std::to_string(options.max_recursion));
  std::vector<const EnumDescriptor*> enums(planner.enums.begin(), planner.enums.end());
  std::sort(enums.begin(), enums.end(),
            [](const EnumDescriptor* a, const EnumDescriptor* b) { return a->full_name() < b->full_name(); });
  for (const EnumDescriptor* e : enums) {
    std::string map;
    for (int i = 0; i < e->value_count(); ++i) {
      if (i != 0) map += ',';
      map += e->value(i)->name() + ":" + std::to_string(e->value(i)->number());
    }
    metadata.emplace_back("parquet.proto.enum." + e->full_name(), std::move(map));
  }
  return plan;
}

BatchSchema schema_for(const Descriptor* descriptor, const ProtoOptions& options) {
  return plan_for(descriptor, options)->schema;
}

}  // namespace parquetry::proto
