#include "parquetry/variant_parquet/streamed_get.h"

#include <algorithm>

#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/schema.h"
#include "parquetry/variant.h"
#include "parquetry/variant_parquet/binary_leaf_stream.h"
#include "parquetry/variant_parquet/path_finder.h"

namespace parquetry::variant_parquet {

namespace {

// Rows taken from each leaf at a time: a few hundred ~200-byte values stay
// in L1/L2 from the page walk to the path lookup.
constexpr int64_t kSliceRows = 256;

}  // namespace

bool stream_variant_get(RandomAccessSource& source, const FileMetaData& metadata, const Schema& schema,
                        const VariantColumn& column, const VariantGetPlanInfo& plan,
                        const std::vector<std::string>& keys, std::string_view type,
                        const VariantGetVisitor& visit) {
  if (plan.plan != VariantGetPlan::kUnshredded && plan.plan != VariantGetPlan::kResidual) return false;
  if (column.node == nullptr) return false;
  // The level whose `value` holds the rest of the path.
  const VariantShredNode* level = &column.root;
  for (size_t i = 0; i < plan.shredded_steps; ++i) {
    level = level->field(keys[i]);
    if (level == nullptr) return false;
  }
  if (!level->has_value) return false;
  const ColumnDescriptor* metadata_leaf = schema.find_column(column.path + ".metadata");
  const ColumnDescriptor* value_leaf = schema.find_column(level->path + ".value");
  if (metadata_leaf == nullptr || value_leaf == nullptr) return false;
  if (metadata_leaf->max_repetition_level != 0 || value_leaf->max_repetition_level != 0) return false;
  // Rows whose definition level stops above the group are SQL NULL (the
  // group or an ancestor is null); below the value leaf's maximum, the path
  // is missing (value null, or a typed_value on the way says "not an object").
  const int16_t group_def = column.node->max_definition_level();
  const int16_t value_def = value_leaf->max_definition_level;
  if (metadata_leaf->max_definition_level != group_def || value_def < group_def) {
    throw_corrupt("variant column " + column.path + " has an optional metadata or a value above its group");
  }

  const Limits limits;
  BinaryLeafStream metadata_stream(source, metadata_leaf->max_definition_level, limits);
  BinaryLeafStream value_stream(source, value_def, limits);
  VariantPathFinder finder(keys, plan.shredded_steps);
  int64_t base = 0;
  for (size_t g = 0; g < metadata.row_groups.size(); ++g) {
    const RowGroup& group = metadata.row_groups[g];
    const int64_t rows = group.num_rows;
    const ErrorLocation group_where{source.name(), column.path, int64_t(g), -1, -1};
    if (rows < 0) throw Error(ErrorCode::kCorrupt, "negative row count", group_where);
    auto chunk_of = [&](const ColumnDescriptor& leaf) -> const ColumnMetaData& {
      if (size_t(leaf.index) >= group.columns.size() || !group.columns[size_t(leaf.index)].meta_data) {
        throw Error(ErrorCode::kUnsupported, "column chunk without metadata (encrypted?)",
                    ErrorLocation{source.name(), leaf.path, int64_t(g), -1, -1});
      }
      return *group.columns[size_t(leaf.index)].meta_data;
    };
    metadata_stream.start_chunk(chunk_of(*metadata_leaf), rows,
                                ErrorLocation{source.name(), metadata_leaf->path, int64_t(g), -1, -1});
    value_stream.start_chunk(chunk_of(*value_leaf), rows,
                             ErrorLocation{source.name(), value_leaf->path, int64_t(g), -1, -1});
    std::span<const LeafSlot> metadata_rows, value_rows;
    size_t m = 0, v = 0;
    int64_t done = 0;
    while (done < rows) {
      // The two leaves page independently: refill whichever ran out.
      if (m == metadata_rows.size()) {
        metadata_rows = metadata_stream.next(kSliceRows);
        m = 0;
        if (metadata_rows.empty()) break;
      }
      if (v == value_rows.size()) {
        value_rows = value_stream.next(kSliceRows);
        v = 0;
        if (value_rows.empty()) break;
      }
      const size_t n = std::min(metadata_rows.size() - m, value_rows.size() - v);
      try {
        for (size_t i = 0; i < n; ++i) {
          const LeafSlot& md = metadata_rows[m + i];
          const LeafSlot& value = value_rows[v + i];
          const int64_t row = base + done + int64_t(i);
          const bool present = md.def >= group_def;
          if (present != (value.def >= group_def)) {
            throw_corrupt("metadata and value disagree on whether row " + std::to_string(done + int64_t(i)) +
                          " of the variant is null");
          }
          if (!present || value.def != value_def) {
            visit(row, nullptr);
            continue;
          }
          const Variant* found = finder.find({md.data, md.size}, {value.data, value.size});
          if (found != nullptr && (type.empty() || variant_type_name(found->type()) == type)) {
            visit(row, found);
          } else {
            visit(row, nullptr);
          }
        }
      } catch (const Error& e) {
        throw e.with_location(group_where);
      }
      m += n;
      v += n;
      done += int64_t(n);
    }
    // Both leaves must hold exactly the row group's rows, no page left over.
    if (done < rows || m != metadata_rows.size() || v != value_rows.size() ||
        !metadata_stream.next(1).empty() || !value_stream.next(1).empty()) {
      throw Error(
          ErrorCode::kCorrupt,
          "variant column pages hold a different number of rows than the row group's " + std::to_string(rows),
          group_where);
    }
    metadata_stream.finish_chunk();
    value_stream.finish_chunk();
    base += rows;
  }
  return true;
}

}  // namespace parquetry::variant_parquet
