// Position-delete Parquet files -> PositionIndexMap, through FileReader.
//
// Only the `file_path` and `pos` columns are decoded (the optional `row`
// struct never is). Each decoded row group goes to PositionIndexBuilder as
// one batch of Arrow strings, where runs of equal paths cost one lookup and
// one bulk add. When the caller wants one data file only, the `file_path`
// statistics decide which row groups can hold it and the ColumnIndex which
// pages; the rest is never decompressed.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/iceberg_scan.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "parquetry/schema.h"
#include "parquetry/remote.h"
#include "parquetry/writer_quirks.h"

namespace parquetry::iceberg {
namespace {

struct DeleteColumns {
  const ColumnDescriptor* path = nullptr;
  const ColumnDescriptor* pos = nullptr;
};

// The leaf with `field_id`, else the top-level leaf called `name`.
const ColumnDescriptor* find_leaf(const Schema& schema, int32_t field_id, const char* name) {
  if (const ColumnDescriptor* column = schema.find_column_by_field_id(field_id)) return column;
  return schema.find_column(std::string_view(name));
}

DeleteColumns find_delete_columns(const Schema& schema, const std::string& file) {
  DeleteColumns columns;
  columns.path = find_leaf(schema, kDeleteFilePathFieldId, "file_path");
  columns.pos = find_leaf(schema, kDeletePosFieldId, "pos");
  if (columns.path == nullptr || columns.pos == nullptr) {
    throw_invalid(file + " is not a position-delete file: it lacks a " +
                  (columns.path == nullptr ? "file_path" : "pos") + " column (field id " +
                  std::to_string(columns.path == nullptr ? kDeleteFilePathFieldId : kDeletePosFieldId) + ")");
  }
  for (const ColumnDescriptor* column : {columns.path, columns.pos}) {
    if (column->path_parts.size() != 1 || column->max_repetition_level != 0) {
      throw_invalid(file + ": delete column " + column->path + " must be a top-level scalar");
    }
  }
  if (columns.path->physical_type != Type::BYTE_ARRAY) {
    throw_invalid(file + ": file_path column " + columns.path->path + " is not a string");
  }
  if (columns.pos->physical_type != Type::INT64) {
    throw_invalid(file + ": pos column " + columns.pos->path + " is not an int64");
  }
  return columns;
}

// Validity of `array` as a bitmap starting at row 0, or nullptr when every
// row is valid. Copies bits only for arrays sliced at a non-byte offset.
const uint8_t* validity_of(const ArrayData& array, std::vector<uint8_t>& scratch) {
  if (array.null_count == 0 || array.buffers.empty() || !array.buffers[0]) return nullptr;
  const uint8_t* bits = array.buffers[0].data;
  if (array.offset % 8 == 0) return bits + array.offset / 8;
  scratch.assign(size_t((array.length + 7) / 8), 0);
  for (int64_t i = 0; i < array.length; ++i) {
    const int64_t k = array.offset + i;
    if ((bits[k >> 3] >> (k & 7)) & 1) scratch[size_t(i >> 3)] |= uint8_t(1u << (i & 7));
  }
  return scratch.data();
}

StringColumn string_column(const ArrayData& array, std::vector<uint8_t>& validity_scratch) {
  const TypeId id = array.type->id;
  if (id != TypeId::kString && id != TypeId::kBinary) {
    throw_unsupported("iceberg: file_path arrays of type " + array.type->to_string() + " are not supported");
  }
  if (array.buffers.size() < 3) throw_invalid("iceberg: file_path array lacks its buffers");
  StringColumn column;
  column.offsets = array.buffers[1].as<int32_t>() + array.offset;
  column.data = array.buffers[2].data;
  column.data_size = array.buffers[2].size;
  column.validity = validity_of(array, validity_scratch);
  column.length = array.length;
  return column;
}

// Keeps the builder's inputs alive while it reads them.
struct BatchView {
  StringColumn plain;
  DictionaryStringColumn dictionary;
  std::vector<uint8_t> path_validity, pos_validity, dictionary_validity;
  std::vector<int64_t> gathered_positions;
  PositionDeleteBatch batch;
};

void describe_batch(const ArrayData& paths, const ArrayData& positions_in, BatchView& view) {
  // Positions arrive as a dictionary array when their chunk was
  // dictionary-encoded (small files): gather them, the index wants values.
  std::shared_ptr<ArrayData> gathered;
  const ArrayData* pos_array = &positions_in;
  if (positions_in.type->id == TypeId::kDictionary) {
    const ArrayData& dictionary = *positions_in.dictionary;
    if (dictionary.type->id != TypeId::kInt64 || dictionary.buffers.size() < 2) {
      throw_invalid("iceberg: pos array is not int64");
    }
    // Same offset as the input, so its validity bitmap applies unchanged.
    const int64_t offset = positions_in.offset;
    view.gathered_positions.assign(size_t(offset + positions_in.length), 0);
    const int32_t* indices = positions_in.buffers[1].as<int32_t>() + offset;
    const int64_t* values = dictionary.buffers[1].as<int64_t>() + dictionary.offset;
    for (int64_t i = 0; i < positions_in.length; ++i) {
      if (!positions_in.is_valid(i)) continue;
      const int32_t index = indices[i];
      if (index < 0 || index >= dictionary.length)
        throw_corrupt("iceberg: pos dictionary index out of range");
      view.gathered_positions[size_t(offset + i)] = values[index];
    }
    gathered = std::make_shared<ArrayData>();
    gathered->type = dictionary.type;
    gathered->length = positions_in.length;
    gathered->null_count = positions_in.null_count;
    gathered->offset = offset;
    gathered->buffers = {positions_in.buffers[0],
                         BufferRef{reinterpret_cast<const uint8_t*>(view.gathered_positions.data()),
                                   int64_t(view.gathered_positions.size()) * 8, nullptr}};
    pos_array = gathered.get();
  }
  const ArrayData& positions = *pos_array;
  if (positions.type->id != TypeId::kInt64 || positions.buffers.size() < 2) {
    throw_invalid("iceberg: pos array is not int64");
  }
  if (paths.length != positions.length) throw_corrupt("iceberg: file_path and pos differ in length");
  view.batch = PositionDeleteBatch{};
  if (paths.type->id == TypeId::kDictionary) {
    if (!paths.dictionary || paths.buffers.size() < 2)
      throw_invalid("iceberg: dictionary array lacks buffers");
    view.dictionary.indices = paths.buffers[1].as<int32_t>() + paths.offset;
    view.dictionary.validity = validity_of(paths, view.path_validity);
    view.dictionary.length = paths.length;
    view.dictionary.dictionary = string_column(*paths.dictionary, view.dictionary_validity);
    view.batch.file_path_dictionary = &view.dictionary;
  } else {
    view.plain = string_column(paths, view.path_validity);
    view.batch.file_path = &view.plain;
  }
  view.batch.pos = positions.buffers[1].as<int64_t>() + positions.offset;
  view.batch.pos_validity = validity_of(positions, view.pos_validity);
  view.batch.length = positions.length;
}

// Whether the chunk's min/max statistics prove `file` absent. Truncated
// statistics stay usable: a truncated min is <= the true min and a
// truncated max is >= the true max.
// The writer catalogue decides first whether the file's writer got them right.
bool statistics_exclude(const ColumnChunk& chunk, const ColumnDescriptor& column, std::string_view file,
                        const StatisticsCatalogue& catalogue) {
  if (column.sort_order != SortOrder::kUnsigned) return false;
  if (!chunk.meta_data || !chunk.meta_data->statistics) return false;
  if (!catalogue.chunk_trust(column, *chunk.meta_data).min_max_usable()) return false;
  const Statistics& stats = *chunk.meta_data->statistics;
  if (stats.min_value && file < std::string_view(*stats.min_value)) return true;
  if (stats.max_value && file > std::string_view(*stats.max_value)) return true;
  return false;
}

std::span<const uint8_t> read_index_bytes(RandomAccessSource& source, std::optional<int64_t> offset,
                                          std::optional<int32_t> length, Buffer& scratch, const char* what) {
  if (!offset || !length) return {};
  if (*offset < 0 || *length <= 0 || *offset > source.size() || *length > source.size() - *offset) {
    throw_corrupt(std::string(what) + " lies outside the file");
  }
  return source.read(*offset, *length, scratch);
}

// Rows of the row group on pages whose ColumnIndex min/max may hold `file`,
// or nullopt when the chunk has no usable page index (read everything).
std::optional<std::vector<RowRange>> pages_that_may_hold(RandomAccessSource& source, const ColumnChunk& chunk,
                                                         const ColumnDescriptor& column, int64_t num_rows,
                                                         std::string_view file, const Limits& limits,
                                                         const StatisticsCatalogue& catalogue) {
  if (column.sort_order != SortOrder::kUnsigned || !chunk.meta_data) return std::nullopt;
  const StatisticsTrust trust = catalogue.column_index_trust(column, *chunk.meta_data);
  if (!trust.min_max_usable()) return std::nullopt;
  Buffer column_scratch, offset_scratch;
  auto column_bytes = read_index_bytes(source, chunk.column_index_offset, chunk.column_index_length,
                                       column_scratch, "column index");
  auto offset_bytes = read_index_bytes(source, chunk.offset_index_offset, chunk.offset_index_length,
                                       offset_scratch, "offset index");
  if (column_bytes.empty() || offset_bytes.empty()) return std::nullopt;
  const ColumnIndex column_index = decode_column_index(column_bytes, limits);
  const OffsetIndex offset_index = decode_offset_index(offset_bytes, limits);
  const auto& pages = offset_index.page_locations;
  const size_t n = pages.size();
  if (n == 0 || column_index.null_pages.size() != n || column_index.min_values.size() != n ||
      column_index.max_values.size() != n) {
    return std::nullopt;
  }
  std::vector<RowRange> ranges;
  for (size_t p = 0; p < n; ++p) {
    const int64_t first = pages[p].first_row_index;
    const int64_t last = p + 1 < n ? pages[p + 1].first_row_index : num_rows;
    if (first < 0 || last < first || last > num_rows) {
      throw_corrupt("offset index has inconsistent first_row_index values");
    }
    if (first == last) continue;
    // A null page's bounds are empty; whether it is null at all is a null
    // count, which some writers got wrong (then the page may hold anything).
    const bool may_hold = column_index.null_pages[p]
                              ? !trust.null_count_usable()
                              : file >= std::string_view(column_index.min_values[p]) &&
                                    file <= std::string_view(column_index.max_values[p]);
    if (!may_hold) continue;
    if (!ranges.empty() && ranges.back().end == first) {
      ranges.back().end = last;
    } else {
      ranges.push_back({first, last});
    }
  }
  return ranges;
}

}  // namespace

PositionIndexMap read_position_delete_file(std::shared_ptr<RandomAccessSource> source,
                                           const DeleteFileOptions& options, DeleteFileStats* stats) {
  DeleteFileStats local_stats;
  DeleteFileStats& counts = stats != nullptr ? *stats : local_stats;
  const std::string file = source->name();
  const FileMetaData metadata = read_file_metadata(*source, options.reader.limits);
  const Schema schema = Schema::from_metadata(metadata, options.reader.limits);
  const DeleteColumns columns = find_delete_columns(schema, file);

  ReaderOptions reader_options = options.reader;
  reader_options.columns = {columns.path->path, columns.pos->path};
  reader_options.field_ids.clear();
  reader_options.row_groups.clear();
  // A dictionary-encoded file_path column stays indices + dictionary: the
  // index builder resolves each distinct path once instead of per row.
  reader_options.dictionary_arrays = true;
  auto reader = FileReader::open(source, std::move(reader_options));
  const auto& fields = reader->batch_schema()->fields;
  const int path_field = reader->batch_schema()->field_index(columns.path->path_parts[0]);
  const int pos_field = reader->batch_schema()->field_index(columns.pos->path_parts[0]);
  if (path_field < 0 || pos_field < 0 || fields.size() != 2) {
    throw Error(ErrorCode::kInternal, "iceberg: projected delete columns not found in the batch schema");
  }

  PositionIndexBuilder builder(options.only_data_file);
  BatchView view;
  const auto& row_groups = reader->metadata().row_groups;
  const StatisticsCatalogue catalogue(reader->metadata());
  for (int g = 0; g < int(row_groups.size()); ++g) {
    const RowGroup& row_group = row_groups[size_t(g)];
    if (row_group.num_rows == 0) continue;
    if (size_t(columns.path->index) >= row_group.columns.size()) {
      throw_corrupt("row group " + std::to_string(g) + " lacks the file_path column chunk");
    }
    RecordBatch batch;
    if (options.only_data_file) {
      const ColumnChunk& chunk = row_group.columns[size_t(columns.path->index)];
      if (statistics_exclude(chunk, *columns.path, *options.only_data_file, catalogue)) {
        ++counts.row_groups_skipped;
        continue;
      }
      auto ranges = pages_that_may_hold(*source, chunk, *columns.path, row_group.num_rows,
                                        *options.only_data_file, options.reader.limits, catalogue);
      if (ranges && ranges->empty()) {
        ++counts.row_groups_skipped;
        continue;
      }
      if (ranges && !(ranges->size() == 1 && ranges->front() == RowRange{0, row_group.num_rows})) {
        ++counts.row_groups_pruned;
        batch = reader->read_row_group(g, *ranges);
      } else {
        batch = reader->read_row_group(g);
      }
    } else {
      batch = reader->read_row_group(g);
    }
    ++counts.row_groups_read;
    counts.rows_read += batch.num_rows;
    describe_batch(*batch.columns[size_t(path_field)], *batch.columns[size_t(pos_field)], view);
    builder.add(view.batch);
  }
  counts.pages_read = reader->stats().pages_read;
  counts.pages_skipped = reader->stats().pages_skipped;
  return builder.finish();
}

PositionIndexMap read_position_delete_file(const std::string& path, const DeleteFileOptions& options,
                                           DeleteFileStats* stats) {
  return read_position_delete_file(open_source(path, options.reader.use_mmap), options, stats);
}

PositionDeleteIndex read_position_deletes(const std::string& path, std::string_view data_file,
                                          ReaderOptions reader, DeleteFileStats* stats) {
  DeleteFileOptions options;
  options.reader = std::move(reader);
  options.only_data_file = std::string(data_file);
  PositionIndexMap map = read_position_delete_file(path, options, stats);
  if (const PositionDeleteIndex* index = map.find(data_file)) return *index;
  return PositionDeleteIndex();
}

PositionDeleteIndex load_deletes_for(const std::string& delete_file, std::string_view data_file,
                                     const ReaderOptions& reader) {
  auto source = std::make_shared<MmapSource>(delete_file);
  const std::span<const uint8_t> bytes = source->bytes();
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "PFA1", 4) == 0) {
    PuffinReader puffin(bytes, reader.limits);
    const PuffinBlobMetadata* only = nullptr;
    size_t vectors = 0;
    for (const PuffinBlobMetadata& blob : puffin.metadata().blobs) {
      if (blob.type != kDeletionVectorBlobType) continue;
      ++vectors;
      only = &blob;
      const std::string* referenced = blob.property(kReferencedDataFileProperty);
      if (referenced != nullptr && *referenced == data_file) return puffin.read_deletion_vector(blob);
    }
    if (vectors == 1) return puffin.read_deletion_vector(*only);
    throw_invalid(delete_file + " holds " + std::to_string(vectors) + " deletion vectors, none for " +
                  std::string(data_file));
  }
  DeleteFileOptions options;
  options.reader = reader;
  options.only_data_file = std::string(data_file);
  PositionIndexMap matching = read_position_delete_file(source, options);
  if (const PositionDeleteIndex* index = matching.find(data_file)) return *index;
  options.only_data_file.reset();
  PositionIndexMap all = read_position_delete_file(source, options);
  if (all.empty()) return PositionDeleteIndex();
  if (all.size() == 1) return all.index(0);
  throw_invalid(delete_file + " references " + std::to_string(all.size()) + " data files, none of them " +
                std::string(data_file));
}

}  // namespace parquetry::iceberg
