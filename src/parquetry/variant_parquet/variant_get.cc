// variant_get: reading one path of a VARIANT column with the cheapest column
// projection the file's shredding allows (docs/variant.md, "Parquet").
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/reader.h"
#include "parquetry/schema.h"
#include "parquetry/table/json_values.h"
#include "parquetry/variant.h"
#include "parquetry/variant_parquet.h"
#include "parquetry/variant_parquet/arrow_access.h"
#include "parquetry/variant_parquet/streamed_get.h"
#include "parquetry/remote.h"

namespace parquetry {

using variant_parquet::binary_at;
using variant_parquet::struct_child;

namespace {

// The variant group of row `row` of a batch, following struct parents; null
// when the group or an ancestor is null (SQL NULL). `row` becomes the row
// relative to the returned array.
const ArrayData* locate_group(const RecordBatch& batch, const std::vector<std::string>& parts, int64_t& row) {
  const int index = batch.schema->field_index(parts.at(0));
  if (index < 0) throw_invalid("column " + parts[0] + " is not in the batch");
  const ArrayData* at = batch.columns[size_t(index)].get();
  for (size_t i = 1; i < parts.size(); ++i) {
    if (!at->is_valid(row)) return nullptr;
    const ArrayData* child = struct_child(*at, parts[i]);
    if (child == nullptr) throw_invalid("variant column path " + parts[i] + " is not a struct field");
    row += at->offset;
    at = child;
  }
  return at->is_valid(row) ? at : nullptr;
}

bool provably_all_null(const Schema& schema, const FileMetaData& metadata, const std::string& path) {
  const ColumnDescriptor* column = schema.find_column(path);
  if (column == nullptr) return true;  // no such column: nothing to read
  for (const RowGroup& group : metadata.row_groups) {
    const ColumnChunk& chunk = group.columns.at(size_t(column->index));
    if (!chunk.meta_data || !chunk.meta_data->statistics || !chunk.meta_data->statistics->null_count) {
      return false;
    }
    if (*chunk.meta_data->statistics->null_count != chunk.meta_data->num_values) return false;
  }
  return true;
}

const VariantColumn& find_column(const std::vector<VariantColumn>& columns, const std::string& path) {
  for (const VariantColumn& column : columns) {
    if (column.path == path) return column;
  }
  throw_invalid("no VARIANT column named " + path);
}

}  // namespace

std::vector<VariantColumn> find_variant_columns(const std::string& file) {
  auto reader = FileReader::open(file);
  std::vector<VariantColumn> columns = find_variant_columns(reader->schema());
  for (VariantColumn& column : columns) column.node = nullptr;
  return columns;
}

std::vector<std::optional<OwnedVariant>> read_variant_column(const std::string& file,
                                                             const std::string& column) {
  ReaderOptions options;
  options.columns = {column};
  auto reader = FileReader::open(file, options);
  const std::vector<VariantColumn> columns = find_variant_columns(reader->schema());
  const VariantColumn& variant = find_column(columns, column);
  const std::vector<std::string> parts = split_variant_path(column);
  VariantColumnReader rebuild(variant);
  std::vector<std::optional<OwnedVariant>> out;
  for (const RecordBatch& batch : reader->read_all()) {
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      int64_t at = row;
      const ArrayData* group = locate_group(batch, parts, at);
      OwnedVariant value;
      if (group != nullptr && rebuild.read(*group, at, value)) {
        out.emplace_back(std::move(value));
      } else {
        out.emplace_back(std::nullopt);
      }
    }
  }
  return out;
}

const char* variant_get_plan_name(VariantGetPlan plan) {
  switch (plan) {
    case VariantGetPlan::kUnshredded: return "unshredded";
    case VariantGetPlan::kLean: return "lean";
    case VariantGetPlan::kResidual: return "residual";
    case VariantGetPlan::kFull: return "full";
  }
  return "?";
}

std::vector<std::string> split_variant_path(std::string_view path) {
  std::vector<std::string> keys;
  if (path.empty()) return keys;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    keys.emplace_back(
        path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (keys.back().empty()) throw_invalid("empty key in variant path \"" + std::string(path) + "\"");
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return keys;
}

VariantGetPlanInfo plan_variant_get(const VariantColumn& column, const FileMetaData& metadata,
                                    const std::vector<std::string>& path) {
  VariantGetPlanInfo info;
  const std::string metadata_column = column.path + ".metadata";
  if (!column.shredded()) {
    info.plan = VariantGetPlan::kUnshredded;
    // The group holds just metadata and value: asking for the group itself
    // reads the same two leaves and lets the reader hand the struct out as
    // decoded, where a leaf-by-leaf projection rebuilds it.
    info.columns = {column.path};
    return info;
  }
  if (path.empty()) {
    info.plan = VariantGetPlan::kFull;
    info.columns = {column.path};
    return info;
  }
  const VariantShredNode* level = &column.root;
  size_t steps = 0;
  while (steps < path.size() && level->kind == VariantShredKind::kObject) {
    const VariantShredNode* next = level->field(path[steps]);
    if (next == nullptr) break;
    level = next;
    ++steps;
  }
  info.shredded_steps = steps;
  if (steps < path.size()) {
    // The rest of the path can only live in this level's residual value.
    info.plan = VariantGetPlan::kResidual;
    info.columns = {metadata_column};
    if (level->has_value) info.columns.push_back(level->path + ".value");
    if (level->kind != VariantShredKind::kNone) {
      // typed_value's validity is what tells "not an object here"; reading
      // it keeps the row structure even when `value` is absent.
      if (!level->has_value) info.columns.push_back(level->path + ".typed_value");
    }
    return info;
  }
  info.plan = VariantGetPlan::kLean;
  const Schema schema = Schema::from_metadata(metadata);
  info.reads_value = level->has_value && (level->kind == VariantShredKind::kNone ||
                                          !provably_all_null(schema, metadata, level->path + ".value"));
  if (level->kind != VariantShredKind::kNone) info.columns.push_back(level->path + ".typed_value");
  if (info.reads_value) info.columns.push_back(level->path + ".value");
  if (info.reads_value || level->kind == VariantShredKind::kObject ||
      level->kind == VariantShredKind::kArray) {
    info.columns.push_back(metadata_column);
  }
  return info;
}

namespace {

// The arrays a shredded path walks through, resolved once per batch for a
// top-level column (names are looked up per batch, not per row).
struct PathArrays {
  std::vector<const ArrayData*> typed;    // typed_value of each level walked
  std::vector<const ArrayData*> fields;   // the field group below it
  const ArrayData* leaf_typed = nullptr;  // lean primitive: the field group's typed_value
  const ArrayData* leaf_value = nullptr;  // and its value (when read)

  void resolve(const ArrayData& group, const std::vector<std::string>& keys, size_t steps) {
    typed.clear();
    fields.clear();
    const ArrayData* at = &group;
    for (size_t i = 0; i < steps; ++i) {
      const ArrayData* t = struct_child(*at, "typed_value");
      if (t == nullptr) throw_invalid("variant projection lacks typed_value under the path");
      const ArrayData* f = struct_child(*t, keys[i]);
      if (f == nullptr) throw_invalid("variant projection lacks the shredded field " + keys[i]);
      typed.push_back(t);
      fields.push_back(f);
      at = f;
    }
    leaf_typed = struct_child(*at, "typed_value");
    leaf_value = struct_child(*at, "value");
  }

  // descend() over the resolved arrays.
  const ArrayData* walk(const ArrayData* group, int64_t& row) const {
    for (size_t i = 0; i < typed.size(); ++i) {
      row += group->offset;
      if (!typed[i]->is_valid(row)) return nullptr;
      row += typed[i]->offset;
      if (!fields[i]->is_valid(row)) return nullptr;
      group = fields[i];
    }
    return group;
  }
};

}  // namespace

VariantGetPlanInfo variant_get_each(const std::string& file, const std::string& column, std::string_view path,
                                    std::string_view type, const VariantGetVisitor& visit) {
  const std::vector<std::string> keys = split_variant_path(path);
  ReaderOptions options;
  std::shared_ptr<RandomAccessSource> source = open_source(file, options.use_mmap);
  auto probe = FileReader::open(source);
  const std::vector<VariantColumn> columns = find_variant_columns(probe->schema());
  const VariantColumn& variant = find_column(columns, column);
  const VariantGetPlanInfo plan = plan_variant_get(variant, probe->metadata(), keys);
  // Plans that extract from `value` bytes stream the two leaves and look
  // into the pages directly (no blob copied into batches).
  if (variant_parquet::stream_variant_get(*source, probe->metadata(), probe->schema(), variant, plan, keys,
                                          type, visit)) {
    return plan;
  }
  options.columns = plan.columns;
  auto reader = FileReader::open(source, options);
  const std::vector<std::string> parts = split_variant_path(column);
  // The shredding node the lean plan lands on.
  const VariantShredNode* level = &variant.root;
  for (size_t i = 0; i < plan.shredded_steps; ++i) level = level->field(keys[i]);
  const size_t steps = plan.plan == VariantGetPlan::kLean ? keys.size() : plan.shredded_steps;
  // A lean path ending on a primitive is answered from its typed column
  // without a builder: the value bytes are encoded directly.
  const bool lean_primitive =
      plan.plan == VariantGetPlan::kLean && level->kind == VariantShredKind::kPrimitive;
  VariantColumnReader rebuild(variant);
  const std::span<const uint8_t> no_metadata;
  const VariantMetadata empty_metadata;
  // Rebuilt values go through scratch buffers that keep their capacity.
  OwnedVariant scratch;
  std::vector<uint8_t> primitive;
  PathArrays arrays;
  const bool top_level = parts.size() == 1;
  int64_t base = 0;
  auto batches = reader->batches();
  RecordBatch batch;
  while (batches->next(batch)) {
    const ArrayData* top = nullptr;
    const ArrayData* top_metadata = nullptr;
    if (top_level) {
      const int index = batch.schema->field_index(parts[0]);
      if (index < 0) throw_invalid("column " + parts[0] + " is not in the batch");
      top = batch.columns[size_t(index)].get();
      top_metadata = struct_child(*top, "metadata");
      if (plan.plan != VariantGetPlan::kFull) arrays.resolve(*top, keys, steps);
    }
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      const int64_t file_row = base + row;
      int64_t at = row;
      const ArrayData* group =
          top_level ? (top->is_valid(row) ? top : nullptr) : locate_group(batch, parts, at);
      if (group == nullptr) {
        visit(file_row, nullptr);
        continue;
      }
      if (!top_level && plan.plan != VariantGetPlan::kFull) arrays.resolve(*group, keys, steps);
      const int64_t group_row = at + group->offset;
      const ArrayData* metadata_array = top_level ? top_metadata : struct_child(*group, "metadata");
      std::span<const uint8_t> metadata = no_metadata;
      if (metadata_array != nullptr) {
        if (!metadata_array->is_valid(group_row))
          throw_corrupt("variant column " + column + " has a null metadata");
        metadata = binary_at(*metadata_array, group_row);
      }
      bool found = false;
      switch (plan.plan) {
        case VariantGetPlan::kFull:
          found = rebuild.read(*group, at, scratch) && variant_parquet::has_type(scratch, type);
          break;
        case VariantGetPlan::kLean: {
          const ArrayData* field = arrays.walk(group, at);
          if (field == nullptr) break;
          if (lean_primitive) {
            const int64_t child_row = field->offset + at;
            const bool value_set = arrays.leaf_value != nullptr && arrays.leaf_value->is_valid(child_row);
            const bool typed_set = arrays.leaf_typed != nullptr && arrays.leaf_typed->is_valid(child_row);
            if (value_set && typed_set) {
              throw_corrupt("Invalid variant, conflicting value and typed_value at " + level->path);
            }
            std::optional<Variant> value;
            if (value_set) {
              value.emplace(VariantMetadata(metadata), binary_at(*arrays.leaf_value, child_row));
            } else if (typed_set) {
              variant_parquet::encode_shredded_primitive(*level, *arrays.leaf_typed, child_row, primitive);
              value.emplace(metadata.empty() ? empty_metadata : VariantMetadata(metadata), primitive);
            }
            if (value && (type.empty() || variant_type_name(value->type()) == type)) {
              visit(file_row, &*value);
              continue;
            }
            break;
          }
          found = rebuild.read_level(*level, *field, at, metadata, scratch) &&
                  variant_parquet::has_type(scratch, type);
          break;
        }
        case VariantGetPlan::kUnshredded:
        case VariantGetPlan::kResidual: {
          // Zero-copy: the path is looked up in the column's own bytes.
          const ArrayData* field = arrays.walk(group, at);
          if (field == nullptr) break;
          const ArrayData* residual = arrays.leaf_value;
          const int64_t residual_row = at + field->offset;
          if (residual == nullptr || !residual->is_valid(residual_row)) break;
          const std::span<const uint8_t> bytes = binary_at(*residual, residual_row);
          if (bytes.empty()) throw_corrupt("empty variant value");
          const std::optional<Variant> value =
              variant_find_path(Variant(VariantMetadata(metadata), bytes), keys, plan.shredded_steps);
          if (value && (type.empty() || variant_type_name(value->type()) == type)) {
            visit(file_row, &*value);
            continue;
          }
          break;
        }
      }
      if (found) {
        const Variant view = scratch.view();
        visit(file_row, &view);
      } else {
        visit(file_row, nullptr);
      }
    }
    base += batch.num_rows;
  }
  return plan;
}

VariantGetResult variant_get(const std::string& file, const std::string& column, std::string_view path,
                             std::string_view type) {
  VariantGetResult result;
  result.plan = variant_get_each(file, column, path, type, [&](int64_t, const Variant* value) {
    std::optional<OwnedVariant>& out = result.values.emplace_back();
    if (value == nullptr) return;
    out.emplace();
    const auto metadata = value->metadata().bytes();
    out->metadata.assign(metadata.begin(), metadata.end());
    const auto bytes = value->encoded_bytes();
    out->value.assign(bytes.begin(), bytes.end());
  });
  return result;
}

}  // namespace parquetry

namespace parquetry {

VariantJsonColumns::VariantJsonColumns(const Schema& schema) {
  for (VariantColumn& column : find_variant_columns(schema)) {
    if (column.path.find('.') != std::string::npos) continue;  // top-level columns only
    columns_.push_back(std::move(column));
  }
  // Readers point at columns_, so create them once it stops growing.
  for (const VariantColumn& column : columns_)
    readers_.push_back(std::make_unique<VariantColumnReader>(column));
}

VariantJsonColumns::~VariantJsonColumns() = default;

std::string VariantJsonColumns::row_json(const RecordBatch& batch, int64_t row) {
  JsonWriter out;
  out.begin_object();
  OwnedVariant value;
  for (size_t c = 0; c < batch.columns.size(); ++c) {
    const std::string& name = batch.schema->fields[c].name;
    out.key(name);
    size_t v = 0;
    while (v < columns_.size() && columns_[v].path != name) ++v;
    if (v == columns_.size()) {
      write_json_value(out, *batch.columns[c], row);
    } else if (readers_[v]->read(*batch.columns[c], row, value)) {
      out.raw(value.to_json());
    } else {
      out.null();
    }
  }
  out.end_object();
  return out.take();
}

}  // namespace parquetry
