// The default name mapping and literal typing (see name_mapping.h).
#include "parquetry/iceberg_table/name_mapping.h"

#include <simdjson.h>

#include "parquetry/error.h"
#include "parquetry/iceberg_table/values.h"

namespace parquetry::iceberg {

namespace {
constexpr std::string_view kNameMappingProperty = "schema.name-mapping.default";

}  // namespace

// Field id -> names of the top-level name mapping (format/spec.md "Column
// Projection": files written without field ids).
std::optional<std::unordered_map<int32_t, std::vector<std::string>>> parse_name_mapping(
    const TableMetadata& m, const std::string& what) {
  std::unordered_map<int32_t, std::vector<std::string>> out;
  const std::string* text = m.property(kNameMappingProperty);
  if (text == nullptr) return std::nullopt;
  simdjson::dom::parser parser;
  simdjson::padded_string padded(*text);
  simdjson::dom::element root;
  simdjson::dom::array entries;
  if (parser.parse(padded).get(root) != simdjson::SUCCESS ||
      root.get_array().get(entries) != simdjson::SUCCESS)
    throw_corrupt(what + ": " + std::string(kNameMappingProperty) + " is not a JSON array");
  for (simdjson::dom::element e : entries) {
    int64_t id;
    simdjson::dom::array names;
    if (e["field-id"].get_int64().get(id) != simdjson::SUCCESS) continue;  // entries without ids map nothing
    if (e["names"].get_array().get(names) != simdjson::SUCCESS)
      throw_corrupt(what + ": name mapping entry without 'names'");
    for (simdjson::dom::element n : names) {
      std::string_view s;
      if (n.get_string().get(s) != simdjson::SUCCESS)
        throw_corrupt(what + ": name mapping name is not a string");
      out[int32_t(id)].emplace_back(s);
    }
  }
  return out;
}

Predicate type_literals(const Predicate& predicate, const IcebergSchema& schema) {
  Predicate out = predicate;
  for (Predicate& child : out.children) child = type_literals(child, schema);
  if (out.kind != Predicate::Kind::kCompare && out.kind != Predicate::Kind::kIn) return out;
  const SchemaField* field = schema.find_top_level(out.column);
  if (field == nullptr) return out;
  for (Literal& lit : out.values) {
    if (field->type.kind == TypeKind::kFloat &&
        (lit.kind == Literal::Kind::kDouble || lit.kind == Literal::Kind::kInt)) {
      const double v = lit.kind == Literal::Kind::kDouble ? lit.double_value : double(lit.int_value);
      lit = Literal(double(float(v)));
    } else if (field->type.kind == TypeKind::kUuid && lit.kind == Literal::Kind::kString) {
      if (auto v = from_literal(field->type, lit)) lit = Literal(v->bytes);
    }
  }
  return out;
}

}  // namespace parquetry::iceberg
