// Table metadata JSON (format/spec.md "Table Metadata"), format versions 1-3.
#include <simdjson.h>

#include <charconv>

#include "parquetry/error.h"
#include "parquetry/iceberg_table.h"

namespace parquetry::iceberg {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

struct Json {
  const std::string& what;

  [[noreturn]] void fail(const std::string& message) const { throw_corrupt(what + ": " + message); }

  element required(object o, std::string_view key, std::string_view context) const {
    element e;
    if (o[key].get(e) != simdjson::SUCCESS) fail(std::string(context) + " lacks '" + std::string(key) + "'");
    return e;
  }
  int64_t int64(element e, std::string_view key) const {
    int64_t v;
    if (e.get_int64().get(v) == simdjson::SUCCESS) return v;
    uint64_t u;
    // Some writers put snapshot ids above 2^63 (random 64-bit values); they
    // are the same bits as the signed long the manifests store.
    if (e.get_uint64().get(u) == simdjson::SUCCESS) return int64_t(u);
    fail("'" + std::string(key) + "' is not a 64-bit integer");
  }
  int32_t int32(element e, std::string_view key) const {
    const int64_t v = int64(e, key);
    if (v < INT32_MIN || v > INT32_MAX) fail("'" + std::string(key) + "' is out of the int range");
    return int32_t(v);
  }
  std::string string(element e, std::string_view key) const {
    std::string_view s;
    if (e.get_string().get(s) != simdjson::SUCCESS) fail("'" + std::string(key) + "' is not a string");
    return std::string(s);
  }
  bool boolean(element e, std::string_view key) const {
    bool b;
    if (e.get_bool().get(b) != simdjson::SUCCESS) fail("'" + std::string(key) + "' is not a boolean");
    return b;
  }
  object obj(element e, std::string_view key) const {
    object o;
    if (e.get_object().get(o) != simdjson::SUCCESS) fail("'" + std::string(key) + "' is not an object");
    return o;
  }
  array arr(element e, std::string_view key) const {
    array a;
    if (e.get_array().get(a) != simdjson::SUCCESS) fail("'" + std::string(key) + "' is not an array");
    return a;
  }
  std::optional<element> optional(object o, std::string_view key) const {
    element e;
    if (o[key].get(e) != simdjson::SUCCESS || e.is_null()) return std::nullopt;
    return e;
  }
};

int32_t parse_int_text(std::string_view text, const Json& json, std::string_view what) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  int32_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size()) json.fail("bad number in " + std::string(what));
  return v;
}

IcebergType parse_type(element e, const Json& json, int depth);

SchemaField parse_field(object o, const Json& json, int depth) {
  SchemaField field;
  field.id = json.int32(json.required(o, "id", "a schema field"), "id");
  field.name = json.string(json.required(o, "name", "a schema field"), "name");
  if (auto r = json.optional(o, "required")) field.required = json.boolean(*r, "required");
  field.type = parse_type(json.required(o, "type", "field " + field.name), json, depth + 1);
  if (auto d = json.optional(o, "doc")) field.doc = json.string(*d, "doc");
  if (auto d = json.optional(o, "initial-default")) field.initial_default_json = simdjson::minify(*d);
  if (auto d = json.optional(o, "write-default")) field.write_default_json = simdjson::minify(*d);
  return field;
}

IcebergType parse_type(element e, const Json& json, int depth) {
  if (depth > 64) json.fail("types nested too deeply");
  IcebergType type;
  std::string_view text;
  if (e.get_string().get(text) == simdjson::SUCCESS) {
    static constexpr std::pair<std::string_view, TypeKind> kPrimitives[] = {
        {"boolean", TypeKind::kBoolean},
        {"int", TypeKind::kInt},
        {"long", TypeKind::kLong},
        {"float", TypeKind::kFloat},
        {"double", TypeKind::kDouble},
        {"date", TypeKind::kDate},
        {"time", TypeKind::kTime},
        {"timestamp", TypeKind::kTimestamp},
        {"timestamptz", TypeKind::kTimestampTz},
        {"timestamp_ns", TypeKind::kTimestampNs},
        {"timestamptz_ns", TypeKind::kTimestampTzNs},
        {"string", TypeKind::kString},
        {"uuid", TypeKind::kUuid},
        {"binary", TypeKind::kBinary},
        {"variant", TypeKind::kVariant},
        {"unknown", TypeKind::kUnknown},
    };
    for (const auto& [name, kind] : kPrimitives) {
      if (text == name) {
        type.kind = kind;
        return type;
      }
    }
    if (text.starts_with("decimal(") && text.ends_with(")")) {
      const std::string_view inner = text.substr(8, text.size() - 9);
      const size_t comma = inner.find(',');
      if (comma == std::string_view::npos) json.fail("bad decimal type '" + std::string(text) + "'");
      type.kind = TypeKind::kDecimal;
      type.precision = parse_int_text(inner.substr(0, comma), json, text);
      type.scale = parse_int_text(inner.substr(comma + 1), json, text);
      if (type.precision < 1 || type.precision > 38 || type.scale < 0 || type.scale > type.precision)
        json.fail("bad decimal type '" + std::string(text) + "'");
      return type;
    }
    if (text.starts_with("fixed[") && text.ends_with("]")) {
      type.kind = TypeKind::kFixed;
      type.length = parse_int_text(text.substr(6, text.size() - 7), json, text);
      if (type.length < 1) json.fail("bad fixed type '" + std::string(text) + "'");
      return type;
    }
    throw_unsupported(json.what + ": unknown Iceberg type '" + std::string(text) + "'");
  }
  const object o = json.obj(e, "type");
  const std::string kind = json.string(json.required(o, "type", "a nested type"), "type");
  if (kind == "struct") {
    type.kind = TypeKind::kStruct;
    for (element f : json.arr(json.required(o, "fields", "a struct"), "fields"))
      type.children.push_back(parse_field(json.obj(f, "field"), json, depth));
    return type;
  }
  if (kind == "list") {
    type.kind = TypeKind::kList;
    SchemaField element_field;
    element_field.name = "element";
    element_field.id = json.int32(json.required(o, "element-id", "a list"), "element-id");
    if (auto r = json.optional(o, "element-required")) element_field.required = json.boolean(*r, "element-required");
    element_field.type = parse_type(json.required(o, "element", "a list"), json, depth + 1);
    type.children.push_back(std::move(element_field));
    return type;
  }
  if (kind == "map") {
    type.kind = TypeKind::kMap;
    SchemaField key;
    key.name = "key";
    key.required = true;
    key.id = json.int32(json.required(o, "key-id", "a map"), "key-id");
    key.type = parse_type(json.required(o, "key", "a map"), json, depth + 1);
    SchemaField value;
    value.name = "value";
    value.id = json.int32(json.required(o, "value-id", "a map"), "value-id");
    if (auto r = json.optional(o, "value-required")) value.required = json.boolean(*r, "value-required");
    value.type = parse_type(json.required(o, "value", "a map"), json, depth + 1);
    type.children.push_back(std::move(key));
    type.children.push_back(std::move(value));
    return type;
  }
  throw_unsupported(json.what + ": unknown nested type '" + kind + "'");
}

IcebergSchema parse_schema(object o, const Json& json) {
  IcebergSchema schema;
  if (auto id = json.optional(o, "schema-id")) schema.schema_id = json.int32(*id, "schema-id");
  for (element f : json.arr(json.required(o, "fields", "a schema"), "fields"))
    schema.fields.push_back(parse_field(json.obj(f, "field"), json, 0));
  if (auto ids = json.optional(o, "identifier-field-ids")) {
    for (element id : json.arr(*ids, "identifier-field-ids")) schema.identifier_field_ids.push_back(json.int32(id, "identifier-field-ids"));
  }
  return schema;
}

std::vector<PartitionField> parse_partition_fields(array fields, const Json& json, int32_t& next_field_id) {
  std::vector<PartitionField> out;
  for (element f : fields) {
    const object o = json.obj(f, "partition field");
    PartitionField field;
    field.source_id = json.int32(json.required(o, "source-id", "a partition field"), "source-id");
    // v1 specs may omit field ids: they are assigned from 1000 in order.
    if (auto id = json.optional(o, "field-id")) {
      field.field_id = json.int32(*id, "field-id");
    } else {
      field.field_id = next_field_id;
    }
    next_field_id = field.field_id + 1;
    field.name = json.string(json.required(o, "name", "a partition field"), "name");
    field.transform = Transform::parse(json.string(json.required(o, "transform", "a partition field"), "transform"));
    out.push_back(std::move(field));
  }
  return out;
}

Properties parse_string_map(element e, const Json& json, std::string_view key) {
  Properties out;
  for (auto [k, v] : json.obj(e, key)) {
    std::string_view s;
    if (v.get_string().get(s) == simdjson::SUCCESS) {
      out.emplace_back(std::string(k), std::string(s));
    } else {
      // Some writers put numbers in summaries; keep their JSON text.
      out.emplace_back(std::string(k), simdjson::minify(v));
    }
  }
  return out;
}

}  // namespace

TableMetadata parse_table_metadata(std::string_view text, const std::string& what) {
  const Json json{what};
  simdjson::dom::parser parser;
  simdjson::padded_string padded(text);
  element root;
  if (auto error = parser.parse(padded).get(root); error != simdjson::SUCCESS)
    json.fail(std::string("invalid JSON: ") + simdjson::error_message(error));
  const object o = json.obj(root, "table metadata");
  TableMetadata m;
  m.format_version = json.int32(json.required(o, "format-version", "table metadata"), "format-version");
  if (m.format_version < 1 || m.format_version > 3)
    throw_unsupported(what + ": format-version " + std::to_string(m.format_version));
  if (auto e = json.optional(o, "table-uuid")) m.table_uuid = json.string(*e, "table-uuid");
  m.location = json.string(json.required(o, "location", "table metadata"), "location");
  if (auto e = json.optional(o, "last-sequence-number")) m.last_sequence_number = json.int64(*e, "last-sequence-number");
  if (auto e = json.optional(o, "last-updated-ms")) m.last_updated_ms = json.int64(*e, "last-updated-ms");
  if (auto e = json.optional(o, "last-column-id")) m.last_column_id = json.int32(*e, "last-column-id");

  if (auto schemas = json.optional(o, "schemas")) {
    for (element s : json.arr(*schemas, "schemas")) m.schemas.push_back(parse_schema(json.obj(s, "schema"), json));
    m.current_schema_id = json.int32(json.required(o, "current-schema-id", "table metadata"), "current-schema-id");
  } else if (auto schema = json.optional(o, "schema")) {
    m.schemas.push_back(parse_schema(json.obj(*schema, "schema"), json));
    m.current_schema_id = m.schemas.back().schema_id;
  } else {
    json.fail("table metadata lacks 'schemas' and 'schema'");
  }
  if (m.schema(m.current_schema_id) == nullptr) json.fail("current-schema-id " + std::to_string(m.current_schema_id) + " names no schema");

  int32_t next_field_id = 1000;
  if (auto specs = json.optional(o, "partition-specs")) {
    for (element s : json.arr(*specs, "partition-specs")) {
      const object so = json.obj(s, "partition spec");
      PartitionSpec spec;
      spec.spec_id = json.int32(json.required(so, "spec-id", "a partition spec"), "spec-id");
      spec.fields = parse_partition_fields(json.arr(json.required(so, "fields", "a partition spec"), "fields"), json, next_field_id);
      m.specs.push_back(std::move(spec));
    }
    if (auto e = json.optional(o, "default-spec-id")) m.default_spec_id = json.int32(*e, "default-spec-id");
  } else if (auto spec = json.optional(o, "partition-spec")) {
    PartitionSpec s;
    s.fields = parse_partition_fields(json.arr(*spec, "partition-spec"), json, next_field_id);
    m.specs.push_back(std::move(s));
  } else {
    m.specs.emplace_back();
  }
  if (auto orders = json.optional(o, "sort-orders")) {
    for (element s : json.arr(*orders, "sort-orders")) {
      const object so = json.obj(s, "sort order");
      SortOrder order;
      order.order_id = json.int32(json.required(so, "order-id", "a sort order"), "order-id");
      for (element f : json.arr(json.required(so, "fields", "a sort order"), "fields")) {
        const object fo = json.obj(f, "sort field");
        SortField field;
        field.source_id = json.int32(json.required(fo, "source-id", "a sort field"), "source-id");
        field.transform = json.string(json.required(fo, "transform", "a sort field"), "transform");
        field.direction = json.string(json.required(fo, "direction", "a sort field"), "direction");
        field.null_order = json.string(json.required(fo, "null-order", "a sort field"), "null-order");
        order.fields.push_back(std::move(field));
      }
      m.sort_orders.push_back(std::move(order));
    }
    if (auto e = json.optional(o, "default-sort-order-id")) m.default_sort_order_id = json.int32(*e, "default-sort-order-id");
  }
  if (auto e = json.optional(o, "properties")) m.properties = parse_string_map(*e, json, "properties");
  if (auto e = json.optional(o, "current-snapshot-id")) {
    const int64_t id = json.int64(*e, "current-snapshot-id");
    if (id != -1) m.current_snapshot_id = id;
  }
  if (auto snapshots = json.optional(o, "snapshots")) {
    for (element s : json.arr(*snapshots, "snapshots")) {
      const object so = json.obj(s, "snapshot");
      Snapshot snap;
      snap.snapshot_id = json.int64(json.required(so, "snapshot-id", "a snapshot"), "snapshot-id");
      if (auto p = json.optional(so, "parent-snapshot-id")) snap.parent_snapshot_id = json.int64(*p, "parent-snapshot-id");
      if (auto p = json.optional(so, "sequence-number")) snap.sequence_number = json.int64(*p, "sequence-number");
      snap.timestamp_ms = json.int64(json.required(so, "timestamp-ms", "a snapshot"), "timestamp-ms");
      if (auto p = json.optional(so, "manifest-list")) {
        snap.manifest_list = json.string(*p, "manifest-list");
      } else if (auto list = json.optional(so, "manifests")) {
        for (element path : json.arr(*list, "manifests")) snap.manifests.push_back(json.string(path, "manifests"));
      } else {
        json.fail("snapshot " + std::to_string(snap.snapshot_id) + " has neither 'manifest-list' nor 'manifests'");
      }
      if (auto p = json.optional(so, "summary")) snap.summary = parse_string_map(*p, json, "summary");
      if (auto p = json.optional(so, "schema-id")) snap.schema_id = json.int32(*p, "schema-id");
      m.snapshots.push_back(std::move(snap));
    }
  }
  if (auto refs = json.optional(o, "refs")) {
    for (auto [name, value] : json.obj(*refs, "refs")) {
      const object ro = json.obj(value, "ref");
      SnapshotRef ref;
      ref.name = std::string(name);
      ref.snapshot_id = json.int64(json.required(ro, "snapshot-id", "a ref"), "snapshot-id");
      ref.type = json.string(json.required(ro, "type", "a ref"), "type");
      m.refs.push_back(std::move(ref));
    }
  }
  if (m.current_snapshot_id && m.snapshot(*m.current_snapshot_id) == nullptr)
    json.fail("current-snapshot-id " + std::to_string(*m.current_snapshot_id) + " names no snapshot");
  return m;
}

// --- accessors ----------------------------------------------------------------

namespace {
const SchemaField* find_in(const std::vector<SchemaField>& fields, int32_t id) {
  for (const SchemaField& f : fields) {
    if (f.id == id) return &f;
    if (const SchemaField* inner = find_in(f.type.children, id)) return inner;
  }
  return nullptr;
}
}  // namespace

const SchemaField* IcebergSchema::find(int32_t id) const { return find_in(fields, id); }

const SchemaField* IcebergSchema::find_top_level(std::string_view name) const {
  for (const SchemaField& f : fields) {
    if (f.name == name) return &f;
  }
  for (const SchemaField& f : fields) {
    if (f.name.size() == name.size() &&
        std::equal(f.name.begin(), f.name.end(), name.begin(), [](char a, char b) { return std::tolower(uint8_t(a)) == std::tolower(uint8_t(b)); }))
      return &f;
  }
  return nullptr;
}

bool PartitionSpec::is_unpartitioned() const {
  for (const PartitionField& f : fields) {
    if (f.transform.kind != Transform::Kind::kVoid) return false;
  }
  return true;
}

const IcebergSchema& TableMetadata::current_schema() const { return *schema(current_schema_id); }

const IcebergSchema* TableMetadata::schema(int32_t id) const {
  for (const IcebergSchema& s : schemas) {
    if (s.schema_id == id) return &s;
  }
  return nullptr;
}

const PartitionSpec* TableMetadata::spec(int32_t id) const {
  for (const PartitionSpec& s : specs) {
    if (s.spec_id == id) return &s;
  }
  return nullptr;
}

const Snapshot* TableMetadata::snapshot(int64_t id) const {
  for (const Snapshot& s : snapshots) {
    if (s.snapshot_id == id) return &s;
  }
  return nullptr;
}

const Snapshot* TableMetadata::current_snapshot() const {
  return current_snapshot_id ? snapshot(*current_snapshot_id) : nullptr;
}

const std::string* TableMetadata::property(std::string_view key) const {
  for (const auto& [k, v] : properties) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string_view type_kind_name(TypeKind kind) {
  switch (kind) {
    case TypeKind::kBoolean: return "boolean";
    case TypeKind::kInt: return "int";
    case TypeKind::kLong: return "long";
    case TypeKind::kFloat: return "float";
    case TypeKind::kDouble: return "double";
    case TypeKind::kDecimal: return "decimal";
    case TypeKind::kDate: return "date";
    case TypeKind::kTime: return "time";
    case TypeKind::kTimestamp: return "timestamp";
    case TypeKind::kTimestampTz: return "timestamptz";
    case TypeKind::kTimestampNs: return "timestamp_ns";
    case TypeKind::kTimestampTzNs: return "timestamptz_ns";
    case TypeKind::kString: return "string";
    case TypeKind::kUuid: return "uuid";
    case TypeKind::kFixed: return "fixed";
    case TypeKind::kBinary: return "binary";
    case TypeKind::kVariant: return "variant";
    case TypeKind::kUnknown: return "unknown";
    case TypeKind::kStruct: return "struct";
    case TypeKind::kList: return "list";
    case TypeKind::kMap: return "map";
  }
  return "?";
}

std::string IcebergType::to_string() const {
  switch (kind) {
    case TypeKind::kDecimal: return "decimal(" + std::to_string(precision) + ", " + std::to_string(scale) + ")";
    case TypeKind::kFixed: return "fixed[" + std::to_string(length) + "]";
    case TypeKind::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < children.size(); ++i) {
        if (i) out += ", ";
        out += children[i].name + ": " + children[i].type.to_string();
      }
      return out + ">";
    }
    case TypeKind::kList: return "list<" + children[0].type.to_string() + ">";
    case TypeKind::kMap: return "map<" + children[0].type.to_string() + ", " + children[1].type.to_string() + ">";
    default: return std::string(type_kind_name(kind));
  }
}

}  // namespace parquetry::iceberg
