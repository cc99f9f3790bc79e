// `parquetry schema FILE [--json]`: the schema tree of a file, as text in the
// parquet-java form or as JSON (tree plus the flat list of leaf columns).
#include <cstdio>
#include <memory>
#include <string>

#include "command.h"
#include "key_options.h"
#include "parquetry/encryption/file_decryptor.h"
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "parquetry/remote.h"
#include "parquetry/schema.h"
#include "parquetry/util/json_writer.h"

namespace parquetry::cli {
namespace {

struct SchemaOptions {
  std::string path;
  bool json = false;
  KeyOptions keys;
};

// Reads the footer: a plaintext footer needs no key, an encrypted one the
// footer key. The path may be local or remote (open_source).
FileMetaData read_footer(const std::string& path, const KeyOptions& keys) {
  std::shared_ptr<RandomAccessSource> source = open_source(path);
  return open_footer(*source, Limits{}, keys.decryption()).metadata;
}

void write_annotations(JsonWriter& json, const SchemaNode& node) {
  if (node.is_leaf()) {
    json.field("physical_type", type_name(node.physical_type()));
    if (node.physical_type() == Type::FIXED_LEN_BYTE_ARRAY) json.field("type_length", node.type_length());
  }
  if (node.logical_type()) json.field("logical_type", logical_type_to_string(*node.logical_type()));
  if (node.converted_type()) json.field("converted_type", converted_type_name(*node.converted_type()));
  if (node.logical_type() && node.logical_type()->is<DecimalType>()) {
    json.field("precision", node.precision()).field("scale", node.scale());
  }
  if (node.field_id()) json.field("field_id", *node.field_id());
  if (!node.annotation_note().empty()) json.field("note", node.annotation_note());
}

// Depth is bounded by Limits::max_nesting_depth, checked when the schema was built.
void write_node(JsonWriter& json, const SchemaNode& node) {
  json.begin_object();
  json.field("name", node.name());
  json.field("repetition", repetition_name(node.repetition()));
  json.field("kind", node_kind_name(node.kind()));
  if (node.is_bare_repeated()) json.field("bare_repeated", true);
  write_annotations(json, node);
  json.field("max_definition_level", int32_t{node.max_definition_level()});
  json.field("max_repetition_level", int32_t{node.max_repetition_level()});
  if (node.kind() == NodeKind::kList) {
    json.field("list_element", node.list_element()->dotted_path());
    json.field("list_element_nullable", node.list_element_nullable());
  } else if (node.kind() == NodeKind::kMap) {
    json.field("map_key", node.map_key()->dotted_path());
    if (node.map_value() != nullptr) json.field("map_value", node.map_value()->dotted_path());
  }
  if (node.is_group()) {
    json.key("children").begin_array();
    for (const SchemaNode* child : node.children()) write_node(json, *child);
    json.end_array();
  }
  json.end_object();
}

std::string schema_json(const std::string& path, const FileMetaData& metadata, const Schema& schema) {
  JsonWriter json;
  json.begin_object();
  json.field("file", path);
  json.field("name", schema.root().name());
  json.field("num_rows", metadata.num_rows);
  json.field("num_columns", static_cast<int64_t>(schema.num_columns()));
  json.key("fields").begin_array();
  for (const SchemaNode* child : schema.root().children()) write_node(json, *child);
  json.end_array();
  json.key("columns").begin_array();
  for (const ColumnDescriptor& column : schema.columns()) {
    json.begin_object();
    json.field("index", column.index);
    json.field("path", column.path);
    json.key("path_parts").begin_array();
    for (const std::string& part : column.path_parts) json.string(part);
    json.end_array();
    write_annotations(json, *column.node);
    json.field("max_definition_level", int32_t{column.max_definition_level});
    json.field("max_repetition_level", int32_t{column.max_repetition_level});
    json.end_object();
  }
  json.end_array();
  json.end_object();
  return json.take();
}

void run_schema(const SchemaOptions& options) {
  FileMetaData metadata = read_footer(options.path, options.keys);
  Schema schema = [&] {
    try {
      return Schema::from_metadata(metadata);
    } catch (const Error& e) {
      ErrorLocation where;
      where.file = options.path;
      throw e.with_location(where);
    }
  }();
  std::string out = options.json ? schema_json(options.path, metadata, schema) + "\n" : schema.to_string();
  std::fwrite(out.data(), 1, out.size(), stdout);
}

const CommandRegistration kSchemaCommand(10, [](CLI::App& app) {
  auto options = std::make_shared<SchemaOptions>();
  CLI::App* command = app.add_subcommand("schema", "Print the schema of a Parquet file");
  command->add_option("file", options->path, "Parquet file")->required();
  command->add_flag("--json", options->json, "Print the schema tree and its leaf columns as JSON");
  add_key_options(command, options->keys);
  command->callback([options] { run_schema(*options); });
});

}  // namespace
}  // namespace parquetry::cli
