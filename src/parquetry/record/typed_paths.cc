// Dotted column paths for the typed reader and writer.
#include <string>

#include "parquetry/error.h"
#include "parquetry/typed_record.h"

namespace parquetry::typed_detail {
namespace {

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

int find_field(const std::vector<Field>& fields, const std::string& name) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == name) return int(i);
  }
  return -1;
}

}  // namespace

// A top-level name equal to the whole path wins (columns may contain dots),
// else the parts are struct fields.
std::vector<int> locate_path(const std::vector<Field>& fields, const std::string& path) {
  const int whole = find_field(fields, path);
  if (whole >= 0) return {whole};
  std::vector<int> at;
  const std::vector<Field>* level = &fields;
  for (const std::string& part : split_path(path)) {
    if (level == nullptr) return {};
    const int i = find_field(*level, part);
    if (i < 0) return {};
    at.push_back(i);
    const DataType& type = (*level)[size_t(i)].type;
    level = type.id == TypeId::kStruct ? &type.children : nullptr;
  }
  return at;
}

const DataType* find_path_type(const std::vector<Field>& fields, const std::string& path) {
  const std::vector<int> at = locate_path(fields, path);
  if (at.empty()) return nullptr;
  const Field* field = &fields[size_t(at[0])];
  for (size_t d = 1; d < at.size(); ++d) field = &field->type.children[size_t(at[d])];
  return &field->type;
}

ResolvedColumn resolve_path(const RecordBatch& batch, const std::string& path) {
  const std::vector<int> at = locate_path(batch.schema->fields, path);
  if (at.empty()) throw_invalid("batch has no column '" + path + "'");
  ResolvedColumn resolved;
  const ArrayData* array = batch.columns[size_t(at[0])].get();
  int64_t shift = 0;
  for (size_t d = 1; d < at.size(); ++d) {
    if (array->null_count > 0) resolved.ancestors.emplace_back(array, shift);
    // Row p of a struct is row p + offset of each of its children.
    shift += array->offset;
    array = array->children[size_t(at[d])].get();
  }
  resolved.leaf = array;
  resolved.shift = shift;
  return resolved;
}

std::vector<int> add_path(std::vector<Field>& fields, const std::string& path, DataType type, bool nullable) {
  const std::vector<std::string> parts = split_path(path);
  std::vector<int> at;
  std::vector<Field>* level = &fields;
  for (size_t d = 0; d < parts.size(); ++d) {
    const bool leaf = d + 1 == parts.size();
    int i = find_field(*level, parts[d]);
    if (i >= 0 && (leaf || (*level)[size_t(i)].type.id != TypeId::kStruct)) {
      throw_invalid("record layout: path '" + path + "' collides with another field");
    }
    if (i < 0) {
      Field field;
      field.name = parts[d];
      if (leaf) {
        field.type = std::move(type);
        field.nullable = nullable;
      } else {
        field.type = DataType::struct_({});
        field.nullable = false;
      }
      level->push_back(std::move(field));
      i = int(level->size()) - 1;
    }
    at.push_back(i);
    if (!leaf) level = &(*level)[size_t(i)].type.children;
  }
  return at;
}

}  // namespace parquetry::typed_detail
