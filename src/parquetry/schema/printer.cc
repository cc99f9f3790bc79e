// The schema's text form, as parquet-java's MessageType.toString() and
// parquet-cli print it, so that output can be compared with those tools.
#include <string>
#include <vector>

#include "parquetry/schema.h"

namespace parquetry {
namespace {

std::string_view repetition_word(FieldRepetitionType repetition) {
  switch (repetition) {
    case FieldRepetitionType::REQUIRED: return "required";
    case FieldRepetitionType::OPTIONAL: return "optional";
    case FieldRepetitionType::REPEATED: return "repeated";
  }
  return "unknown";
}

std::string type_word(const SchemaNode& node) {
  switch (node.physical_type()) {
    case Type::BOOLEAN: return "boolean";
    case Type::INT32: return "int32";
    case Type::INT64: return "int64";
    case Type::INT96: return "int96";
    case Type::FLOAT: return "float";
    case Type::DOUBLE: return "double";
    case Type::BYTE_ARRAY: return "binary";
    case Type::FIXED_LEN_BYTE_ARRAY:
      return "fixed_len_byte_array(" + std::to_string(node.type_length()) + ")";
  }
  return "unknown";
}

// The annotation in parentheses: the LogicalType in effect, else a converted
// type that has no LogicalType (INTERVAL, MAP_KEY_VALUE).
std::string annotation(const SchemaNode& node) {
  if (node.logical_type()) return " (" + logical_type_to_string(*node.logical_type()) + ")";
  if (node.converted_type()) return " (" + std::string(converted_type_name(*node.converted_type())) + ")";
  return {};
}

void indent(std::string& out, int32_t depth) { out.append(static_cast<size_t>(depth) * 2, ' '); }

}  // namespace

std::string Schema::to_string() const {
  std::string out = "message " + root().name() + " {\n";
  // Nodes are in depth-first order: before printing a node, close every
  // group that is not one of its ancestors (those at its depth or deeper).
  std::vector<int32_t> open_depths;
  for (const SchemaNode& node : nodes().subspan(1)) {
    while (!open_depths.empty() && open_depths.back() >= node.depth()) {
      indent(out, open_depths.back());
      out += "}\n";
      open_depths.pop_back();
    }
    indent(out, node.depth());
    out += repetition_word(node.repetition());
    out += ' ';
    out += node.is_leaf() ? type_word(node) : std::string("group");
    out += ' ';
    out += node.name();
    out += annotation(node);
    if (node.field_id()) out += " = " + std::to_string(*node.field_id());
    if (!node.annotation_note().empty()) out += " /* " + node.annotation_note() + " */";
    if (node.is_leaf()) {
      out += ";\n";
    } else {
      out += " {\n";
      open_depths.push_back(node.depth());
    }
  }
  while (!open_depths.empty()) {
    indent(out, open_depths.back());
    out += "}\n";
    open_depths.pop_back();
  }
  out += "}\n";
  return out;
}

}  // namespace parquetry
