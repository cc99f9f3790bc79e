// FileReader's implementation (include/parquetry/reader.h): footer,
// projection, decoders, fetch planning, read-ahead and whole-row-group reads.
// Shared by file_reader.cc (the public methods) and batch_stream.cc (the
// batch stream of batches()).
#pragma once

#include <algorithm>
#include <bit>
#include <deque>
#include <set>
#include <string>

#include "parquetry/column/buffer_pool.h"
#include "parquetry/column/chunk_decoder.h"
#include "parquetry/column/chunk_stream.h"
#include "parquetry/encryption/file_decryptor.h"
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/io/range_reads.h"
#include "parquetry/io/read_ahead.h"
#include "parquetry/nested/arrow_mapping.h"
#include "parquetry/nested/assemble.h"
#include "parquetry/page/page_reader.h"
#include "parquetry/read/dictionary_pages.h"
#include "parquetry/reader.h"
#include "parquetry/remote.h"
#include "parquetry/table/select.h"
#include "parquetry/util/bit_util.h"
#include "parquetry/util/parallel.h"

namespace parquetry {

// The Arrow field of `node` restricted to the selected leaves; struct
// children without a selected leaf are dropped. Lists and maps are kept
// whole once any leaf under them is selected.
inline std::optional<Field> projected_field(const SchemaNode& node, const std::vector<bool>& selected,
                                            const ArrowMappingOptions& mapping) {
  bool any = false;
  for (int32_t c = node.first_column(); c < node.first_column() + node.num_columns(); ++c)
    any |= selected[size_t(c)];
  if (!any) return std::nullopt;
  Field field = arrow_field_for(node, mapping);
  if (node.kind() == NodeKind::kStruct && !node.is_bare_repeated()) {
    std::vector<Field> children;
    for (const SchemaNode* child : node.children()) {
      if (auto projected = projected_field(*child, selected, mapping))
        children.push_back(std::move(*projected));
    }
    field.type.children = std::move(children);
  }
  return field;
}

// Marks every leaf under a kept list/map as selected (they are read whole).
inline void widen_selection(const SchemaNode& node, std::vector<bool>& selected) {
  bool any = false;
  for (int32_t c = node.first_column(); c < node.first_column() + node.num_columns(); ++c)
    any |= selected[size_t(c)];
  if (!any) return;
  if (node.kind() == NodeKind::kList || node.kind() == NodeKind::kMap || node.is_bare_repeated()) {
    for (int32_t c = node.first_column(); c < node.first_column() + node.num_columns(); ++c)
      selected[size_t(c)] = true;
    return;
  }
  for (const SchemaNode* child : node.children()) widen_selection(*child, selected);
}

// The metadata of a column chunk about to be decoded, checked against the
// schema's column: encrypted chunks carry none, and a physical type other
// than the schema's would decode garbage.
inline const ColumnMetaData& chunk_meta_for(const ColumnChunk& chunk, const ColumnDescriptor& descriptor,
                                            const ErrorLocation& where) {
  if (!chunk.meta_data) {
    throw Error(ErrorCode::kCorrupt, "column chunk without metadata", where);
  }
  if (chunk.meta_data->type != descriptor.physical_type) {
    throw Error(ErrorCode::kCorrupt, "column chunk type differs from the schema", where);
  }
  return *chunk.meta_data;
}

// Read steps (row groups, or column groups of one) a local file's read-ahead
// holds at once. One: the next step is fetched once the last came back, into
// its buffers. Reading a local file is a copy from the page cache; fetching
// further ahead hid little of it and faulted in fresh memory for every step
// held, which cost more (taxi at 2 threads, cold and warm: docs/limits.md).
inline constexpr size_t kLocalReadAheadSteps = 1;

// Hidden: a nested class takes the visibility of the exported class around it.
struct PARQUETRY_LOCAL FileReader::Impl {
  std::shared_ptr<RandomAccessSource> source;
  ReaderOptions options;
  FileMetaData metadata;
  std::shared_ptr<const FileDecryptor> decryptor;  // null for plaintext files
  std::optional<Schema> schema;
  std::vector<int32_t> selected_columns;
  std::vector<const SchemaNode*> top_nodes;  // projected top-level fields
  std::shared_ptr<const BatchSchema> batch_schema;
  std::vector<std::unique_ptr<ChunkDecoder>> decoders;  // per leaf column
  std::vector<LeafSpec> leaf_specs;                     // per leaf column (selected ones set)
  // Buffers of streamed batches (batches()), reused once the consumer drops a batch.
  BufferPool batch_pool{8};
  std::vector<ChunkValues> chunk_values;  // per leaf column, reused
  // Reading one single-leaf field at a time (read_field), every column
  // decodes into these instead: one column's worth of memory stays warm in
  // cache and is touched once, not once per column.
  ChunkValues field_values;
  std::shared_ptr<Buffer> field_decompress_slot;
  std::vector<DataType> leaf_types;                       // Arrow type of each leaf's values
  std::vector<std::shared_ptr<Buffer>> decompress_slots;  // per leaf column, reused
  std::vector<bool> single_leaf_top;                      // per leaf: its top-level field has only this leaf
  std::vector<bool> dictionary_output;                    // per leaf: read as a dictionary array
  FileReader::Stats stats;
  Buffer index_scratch;   // offset index bytes of the chunk being planned
  FetchedRanges fetched;  // the bytes of the row-group read in progress, reused
  // Read-ahead of a whole-row-group scan in row_group_order(): started by the
  // first read of its first row group, dropped by any read out of that order.
  std::unique_ptr<ReadAhead> read_ahead;
  struct AheadStep {
    int32_t row_group = 0;
    std::vector<size_t> columns;  // indexes into selected_columns
    bool last = false;            // the row group's last step
  };
  std::deque<AheadStep> ahead_steps;  // steps not yet taken, in order
  bool read_ahead_tried = false;
  // Consumers reading a row group field by field (read_field) would cost a
  // read per field; for a source that copies, the first field read of a row
  // group fetches every projected chunk of it in coalesced reads instead,
  // kept here for the other fields (when they fit in read_ahead_budget).
  FetchedRanges field_group_bytes;
  int field_group = -1;           // the row group last decided on, -1 = none
  bool field_group_held = false;  // whether field_group_bytes holds it (false: over budget)

  // The bytes one column needs for a row-group read.
  struct ColumnPlan {
    bool restricted = false;  // only the pages below (page index)
    bool visit_start = true;  // the restricted chunk begins with a dictionary page to read
    std::vector<int64_t> page_offsets;
    std::vector<int32_t> page_ordinals;  // of page_offsets among the chunk's data pages
    std::vector<ByteRange> ranges;
    int64_t bytes() const {
      int64_t total = 0;
      for (const ByteRange& range : ranges) total += range.length;
      return total;
    }
  };

  // The keys of an encrypted chunk (nullopt in the clear); a chunk whose key
  // the reader lacks is an error naming the column.
  std::optional<ModuleCrypto> chunk_crypto(int row_group, int32_t c) const {
    if (!decryptor) return std::nullopt;
    return decryptor->chunk(size_t(row_group), size_t(c), schema->column(size_t(c)).path);
  }

  void init() {
    OpenedFooter opened = open_footer(*source, options.limits, options.decryption);
    metadata = std::move(opened.metadata);
    decryptor = std::move(opened.decryptor);
    schema.emplace(Schema::from_metadata(metadata, options.limits));
    const size_t num_columns = schema->num_columns();
    std::vector<bool> selected(num_columns, options.columns.empty() && options.field_ids.empty());
    for (const std::string& path : options.columns) {
      std::vector<int32_t> under = schema->columns_under(path);
      if (under.empty()) throw_invalid("no column named '" + path + "' in " + source->name());
      for (int32_t c : under) selected[size_t(c)] = true;
    }
    for (int32_t id : options.field_ids) {
      const SchemaNode* node = schema->find_node_by_field_id(id);
      if (node == nullptr) throw_invalid("no field with id " + std::to_string(id) + " in " + source->name());
      for (int32_t c = node->first_column(); c < node->first_column() + node->num_columns(); ++c)
        selected[size_t(c)] = true;
    }
    widen_selection(schema->root(), selected);
    ArrowMappingOptions mapping;
    mapping.int96_unit = options.int96_unit;
    mapping.int96_as_binary = options.int96_as_binary;
    auto fields = std::make_shared<BatchSchema>();
    dictionary_output.assign(num_columns, false);
    for (const SchemaNode* child : schema->root().children()) {
      if (auto field = projected_field(*child, selected, mapping)) {
        if (options.dictionary_arrays && child->kind() == NodeKind::kLeaf && read_as_dictionary(*child)) {
          dictionary_output[size_t(child->first_column())] = true;
          field->type = DataType::dictionary(std::move(field->type));
        }
        fields->fields.push_back(std::move(*field));
        top_nodes.push_back(child);
      }
    }
    for (const KeyValue& kv : metadata.key_value_metadata)
      fields->metadata.emplace_back(kv.key, kv.value.value_or(""));
    batch_schema = fields;
    for (size_t c = 0; c < num_columns; ++c) {
      if (selected[c]) selected_columns.push_back(int32_t(c));
    }
    decoders.resize(num_columns);
    leaf_specs.resize(num_columns);
    chunk_values.resize(num_columns);
    leaf_types.resize(num_columns);
    decompress_slots.resize(num_columns);
    single_leaf_top.assign(num_columns, false);
    for (const SchemaNode* top : top_nodes) {
      if (top->num_columns() == 1) single_leaf_top[size_t(top->first_column())] = true;
    }
    for (int32_t c : selected_columns) {
      const ColumnDescriptor& column = schema->column(size_t(c));
      LeafSpec spec;
      spec.physical_type = column.physical_type;
      spec.type_length = column.type_length;
      spec.max_def = column.max_definition_level;
      spec.max_rep = column.max_repetition_level;
      spec.bitmap_levels = column.path_parts.size() == 1 && column.max_definition_level == 1 &&
                           column.max_repetition_level == 0;
      spec.dictionary_indices = dictionary_output[size_t(c)];
      decoders[size_t(c)] = std::make_unique<ChunkDecoder>(spec);
      leaf_specs[size_t(c)] = spec;
      leaf_types[size_t(c)] = arrow_element_type_for(*column.node, mapping);
    }
  }

  // A top-level leaf whose every chunk holds only dictionary-encoded data
  // pages, going by the page encoding stats or else the chunk's encodings.
  bool read_as_dictionary(const SchemaNode& leaf) const {
    const ColumnDescriptor& column = schema->column(size_t(leaf.first_column()));
    if (column.physical_type == Type::BOOLEAN || column.max_repetition_level > 0) return false;
    for (const RowGroup& group : metadata.row_groups) {
      if (size_t(leaf.first_column()) >= group.columns.size()) return false;
      const auto& meta = group.columns[size_t(leaf.first_column())].meta_data;
      if (!meta || !meta->dictionary_page_offset) return false;
      if (!meta->encoding_stats.empty()) {
        if (!data_pages_dictionary_encoded(meta->encoding_stats)) return false;
        continue;
      }
      for (Encoding encoding : meta->encodings) {
        // Levels are RLE / BIT_PACKED; PLAIN may be a dictionary page or a fallback: not provable.
        if (encoding != Encoding::PLAIN_DICTIONARY && encoding != Encoding::RLE_DICTIONARY &&
            encoding != Encoding::RLE && encoding != Encoding::BIT_PACKED) {
          return false;
        }
      }
    }
    return true;
  }

  // The dictionary a dictionary-output leaf decoded, converted to its Arrow value type.
  std::shared_ptr<ArrayData> dictionary_array(const ColumnDescriptor& descriptor, int32_t c,
                                              ChunkValues& values) {
    ChunkValues entries;
    entries.values = values.dictionary_values;
    entries.offsets = values.dictionary_offsets;
    entries.num_values = entries.num_levels = values.dictionary_size;
    convert_leaf_values(descriptor, leaf_types[size_t(c)], entries);
    auto array = std::make_shared<ArrayData>();
    array->type = std::make_shared<const DataType>(leaf_types[size_t(c)]);
    array->length = values.dictionary_size;
    array->buffers.push_back(BufferRef{});
    if (array->type->is_binary_like()) array->buffers.push_back(BufferRef::share(entries.offsets));
    array->buffers.push_back(entries.values_ref());
    return array;
  }

  // Pages of `chunk` overlapping `ranges`, from its OffsetIndex. Returns
  // false when the chunk has no usable index (then every page is read).
  bool select_pages(int row_group, int32_t c, const ColumnChunk& chunk, int64_t num_rows,
                    std::span<const RowRange> ranges, ColumnPlan& plan, std::vector<RowRange>& covered,
                    int64_t& skipped_pages, int64_t& skipped_bytes) {
    if (!chunk.offset_index_offset || !chunk.offset_index_length) return false;
    const int64_t offset = *chunk.offset_index_offset;
    const int64_t length = *chunk.offset_index_length;
    if (offset < 0 || length <= 0 || offset > source->size() || length > source->size() - offset) {
      throw_corrupt("offset index lies outside the file");
    }
    std::span<const uint8_t> index_bytes = source->read(offset, length, index_scratch);
    Buffer plaintext;
    if (std::optional<ModuleCrypto> crypto = chunk_crypto(row_group, c)) {
      index_bytes = crypto->decrypt(ModuleType::kOffsetIndex, -1, index_bytes, plaintext);
    }
    OffsetIndex index = decode_offset_index(index_bytes, options.limits);
    stats.read_calls += 1;
    stats.bytes_read += length;
    const auto& pages = index.page_locations;
    if (pages.empty()) return false;
    // The bytes to fetch: whatever precedes the first data page (the
    // dictionary page), then each selected page, header included.
    const ColumnMetaData& meta = *chunk.meta_data;
    const int64_t chunk_start = column_chunk_start(meta);
    const int64_t chunk_end = chunk_start + meta.total_compressed_size;
    for (const PageLocation& page : pages) {
      if (page.offset < chunk_start || page.offset >= chunk_end || page.compressed_page_size <= 0) {
        throw_corrupt("offset index locates a page at [" + std::to_string(page.offset) + ", +" +
                      std::to_string(page.compressed_page_size) + "), outside its column chunk");
      }
    }
    plan.visit_start = pages[0].offset > chunk_start;
    if (plan.visit_start) plan.ranges.push_back({chunk_start, pages[0].offset - chunk_start});
    std::vector<int64_t>& page_offsets = plan.page_offsets;
    size_t r = 0;
    for (size_t p = 0; p < pages.size(); ++p) {
      const int64_t first = pages[p].first_row_index;
      const int64_t last = p + 1 < pages.size() ? pages[p + 1].first_row_index : num_rows;
      if (first < 0 || last < first || last > num_rows || (p == 0 && first != 0)) {
        throw_corrupt("offset index has inconsistent first_row_index values");
      }
      while (r < ranges.size() && ranges[r].end <= first) ++r;
      const bool needed = r < ranges.size() && ranges[r].begin < last;
      if (!needed) {
        ++skipped_pages;
        skipped_bytes += pages[p].compressed_page_size;
        continue;
      }
      page_offsets.push_back(pages[p].offset);
      plan.page_ordinals.push_back(int32_t(std::min<size_t>(p, INT32_MAX)));
      plan.ranges.push_back({pages[p].offset, pages[p].compressed_page_size});
      if (!covered.empty() && covered.back().end == first) {
        covered.back().end = last;
      } else {
        covered.push_back({first, last});
      }
    }
    return true;
  }

  // Decodes a row group's projected fields, or only field `only_field` (>= 0).
  RecordBatch read_row_group(int index, const std::vector<RowRange>* ranges, int only_field = -1) {
    if (only_field >= int(top_nodes.size())) {
      throw_invalid("field " + std::to_string(only_field) + " is not in the projection");
    }
    if (index < 0 || index >= int(metadata.row_groups.size())) {
      throw_invalid("row group " + std::to_string(index) + " does not exist");
    }
    const RowGroup& row_group = metadata.row_groups[size_t(index)];
    if (row_group.columns.size() != schema->num_columns()) {
      throw Error(ErrorCode::kCorrupt,
                  "row group has " + std::to_string(row_group.columns.size()) + " column chunks, schema " +
                      std::to_string(schema->num_columns()) + " leaves",
                  ErrorLocation{source->name(), "", index, -1, -1});
    }
    if (row_group.num_rows < 0) {
      throw Error(ErrorCode::kCorrupt, "negative row count",
                  ErrorLocation{source->name(), "", index, -1, -1});
    }
    if (ranges != nullptr) {
      int64_t previous = 0;
      for (const RowRange& range : *ranges) {
        if (range.begin < previous || range.end < range.begin || range.end > row_group.num_rows) {
          throw_invalid("row ranges must be sorted, disjoint and inside row group " + std::to_string(index));
        }
        previous = range.end;
      }
    }
    const std::vector<RowRange> all_rows = {{0, row_group.num_rows}};
    std::vector<std::vector<RowRange>> covered(schema->num_columns());
    std::vector<int64_t> skipped_pages(schema->num_columns(), 0), skipped_bytes(schema->num_columns(), 0);
    std::vector<int32_t> field_columns;
    if (only_field >= 0) {
      const SchemaNode& top = *top_nodes[size_t(only_field)];
      for (int32_t c : selected_columns) {
        if (c >= top.first_column() && c < top.first_column() + top.num_columns()) field_columns.push_back(c);
      }
    }
    const std::vector<int32_t>& columns = only_field >= 0 ? field_columns : selected_columns;
    const bool shared_buffers = only_field >= 0 && columns.size() == 1;
    auto values_of = [&](int32_t c) -> ChunkValues& {
      return shared_buffers ? field_values : chunk_values[size_t(c)];
    };
    std::vector<ColumnPlan> plans(columns.size());
    const bool whole = ranges == nullptr && only_field < 0;
    if (whole && use_read_ahead(index)) {
      // The bytes were (or are being) fetched by the read-ahead thread.
      for (bool last = false; !last;) {
        std::vector<size_t> step = std::move(ahead_steps.front().columns);
        last = ahead_steps.front().last;
        ahead_steps.pop_front();
        std::unique_ptr<FetchedRanges> bytes;
        try {
          bytes = read_ahead->take();
        } catch (...) {
          read_ahead.reset();
          throw;
        }
        count_fetch(bytes->stats());
        try {
          decode_columns(index, row_group, columns, step, plans, *bytes, shared_buffers, values_of);
        } catch (...) {
          read_ahead.reset();
          throw;
        }
        read_ahead->give_back(std::move(bytes));
        stats.peak_fetched_bytes = std::max(stats.peak_fetched_bytes, read_ahead->peak_bytes());
      }
      for (int32_t c : columns) covered[size_t(c)] = all_rows;
    } else if (only_field >= 0 && ranges == nullptr && fetch_whole_group(index, row_group)) {
      // read_field of a whole field: its chunks are in the row group's bytes
      // fetched by the first field read of this row group.
      std::vector<size_t> all(columns.size());
      for (size_t i = 0; i < columns.size(); ++i) all[i] = i;
      decode_columns(index, row_group, columns, all, plans, field_group_bytes, shared_buffers, values_of);
      for (int32_t c : columns) covered[size_t(c)] = all_rows;
    } else {
      for (size_t i = 0; i < columns.size(); ++i) {
        const int32_t c = columns[i];
        ErrorLocation where{source->name(), schema->column(size_t(c)).path, index, -1, -1};
        try {
          plan_column(index, row_group, c, ranges, plans[i], covered[size_t(c)], skipped_pages[size_t(c)],
                      skipped_bytes[size_t(c)]);
        } catch (const Error& e) {
          throw e.with_location(where);
        }
      }
      for (const std::vector<size_t>& step : split_by_budget(plans)) {
        std::vector<ByteRange> wanted;
        int64_t needed = 0;
        for (size_t i : step) {
          wanted.insert(wanted.end(), plans[i].ranges.begin(), plans[i].ranges.end());
          needed += plans[i].bytes();
        }
        try {
          std::vector<ByteRange> merged = coalesce(std::move(wanted));
          fetched.fetch(*source, merged, needed);
        } catch (const Error& e) {
          throw e.with_location(ErrorLocation{source->name(), "", index, -1, -1});
        }
        count_fetch(fetched.stats());
        stats.peak_fetched_bytes = std::max(stats.peak_fetched_bytes, fetched.held_bytes());
        decode_columns(index, row_group, columns, step, plans, fetched, shared_buffers, values_of);
      }
      fetched.clear();
    }
    for (int32_t c : columns) {
      stats.pages_read += values_of(c).data_pages;
      stats.pages_skipped += skipped_pages[size_t(c)];
      stats.bytes_skipped += skipped_bytes[size_t(c)];
    }
    std::vector<ChunkValues*> leaves(schema->num_columns(), nullptr);
    for (int32_t c : columns) leaves[size_t(c)] = &values_of(c);
    RecordBatch batch;
    batch.schema = batch_schema;
    batch.num_rows = row_group.num_rows;
    if (ranges != nullptr) {
      batch.num_rows = 0;
      for (const RowRange& range : *ranges) batch.num_rows += range.length();
    }
    for (size_t f = 0; f < top_nodes.size(); ++f) {
      if (only_field >= 0 && f != size_t(only_field)) continue;
      auto type = std::make_shared<const DataType>(batch_schema->fields[f].type);
      ErrorLocation where{source->name(), top_nodes[f]->dotted_path(), index, -1, -1};
      try {
        auto array = assemble_field(*top_nodes[f], type, *schema, leaves);
        const int32_t first = top_nodes[f]->first_column();
        if (dictionary_output[size_t(first)])
          array->dictionary = dictionary_array(schema->column(size_t(first)), first, values_of(first));
        // The rows this field's decoded pages cover (every leaf of a wide field covers all rows).
        const std::vector<RowRange>& have = covered[size_t(first_selected_leaf(*top_nodes[f]))];
        int64_t have_rows = 0;
        for (const RowRange& range : have) have_rows += range.length();
        if (array->length != have_rows) {
          throw_corrupt("column holds " + std::to_string(array->length) + " rows, its pages declare " +
                        std::to_string(have_rows));
        }
        if (ranges != nullptr) {
          const std::vector<RowRange> local = to_local_ranges(*ranges, have);
          // Pages that hold exactly the wanted rows need no copy.
          if (!(local.size() == 1 && local[0].begin == 0 && local[0].end == array->length))
            array = select_ranges(*array, local);
        }
        batch.columns.push_back(std::move(array));
      } catch (const Error& e) {
        throw e.with_location(where);
      }
    }
    return batch;
  }

  // read_field_selected(): the selected rows of field `field` of row group `index`.
  std::shared_ptr<ArrayData> read_selected_field(int index, int field, const uint8_t* selection) {
    if (field < 0 || field >= int(top_nodes.size())) {
      throw_invalid("field " + std::to_string(field) + " is not in the projection");
    }
    if (index < 0 || index >= int(metadata.row_groups.size())) {
      throw_invalid("row group " + std::to_string(index) + " does not exist");
    }
    const RowGroup& row_group = metadata.row_groups[size_t(index)];
    if (selection == nullptr && row_group.num_rows > 0)
      throw_invalid("read_field_selected needs a selection bitmap");
    const SchemaNode& top = *top_nodes[size_t(field)];
    const int32_t c = top.first_column();
    const bool selective = top.num_columns() == 1 && row_group.columns.size() == schema->num_columns() &&
                           row_group.num_rows >= 0 && decoders[size_t(c)] &&
                           decoders[size_t(c)]->can_decode_selected();
    auto whole_then_pick = [&]() {
      std::shared_ptr<ArrayData> array = read_row_group(index, nullptr, field).columns.at(0);
      return select_ranges(*array, ranges_from_bitmap(selection, array->length));
    };
    if (!selective) return whole_then_pick();
    const ColumnDescriptor& descriptor = schema->column(size_t(c));
    ErrorLocation where{source->name(), descriptor.path, index, -1, -1};
    std::optional<ModuleCrypto> crypto;
    try {
      crypto = chunk_crypto(index, c);
    } catch (const Error& e) {
      throw e.with_location(where);
    }
    const ColumnMetaData& meta = chunk_meta_for(row_group.columns[size_t(c)], descriptor, where);
    // A flat leaf holds one level per row: the chunk's value count is the row count.
    if (meta.num_values != row_group.num_rows) {
      throw Error(ErrorCode::kCorrupt,
                  "column chunk holds " + std::to_string(meta.num_values) + " values for " +
                      std::to_string(row_group.num_rows) + " rows",
                  where);
    }
    int64_t wanted = 0;
    for (int64_t block = 0; block < row_group.num_rows; block += 64)
      wanted +=
          std::popcount(bits::word_at(selection, block, std::min<int64_t>(64, row_group.num_rows - block)));
    ChunkValues& values = field_values;
    try {
      if (meta.num_values == 0) {
        decoders[size_t(c)]->decode(nullptr, 0, values);
      } else {
        PageReaderOptions page_options{options.limits, options.verify_crc};
        if (crypto) page_options.crypto = &*crypto;
        PageReader pages(*source, meta, page_options, where, &field_decompress_slot);
        if (!decoders[size_t(c)]->decode_selected(pages, meta.num_values, selection, values)) {
          return whole_then_pick();  // a page this path does not cover
        }
      }
      if (!dictionary_output[size_t(c)]) convert_leaf_values(descriptor, leaf_types[size_t(c)], values);
    } catch (const Error& e) {
      throw e.with_location(where);
    }
    stats.pages_read += values.data_pages;
    std::vector<ChunkValues*> leaves(schema->num_columns(), nullptr);
    leaves[size_t(c)] = &values;
    ErrorLocation field_where{source->name(), top.dotted_path(), index, -1, -1};
    try {
      auto type = std::make_shared<const DataType>(batch_schema->fields[size_t(field)].type);
      auto array = assemble_field(top, type, *schema, leaves);
      if (dictionary_output[size_t(c)]) array->dictionary = dictionary_array(descriptor, c, values);
      if (array->length != wanted) {
        throw_corrupt("column holds " + std::to_string(array->length) + " selected rows, " +
                      std::to_string(wanted) + " were selected");
      }
      return array;
    } catch (const Error& e) {
      throw e.with_location(field_where);
    }
  }

  std::vector<ByteRange> coalesce(std::vector<ByteRange> ranges) const {
    // A request to a remote source costs a round trip: reading up to 1 MiB
    // of gap is cheaper than a second request (docs/remote.md).
    const int64_t gap =
        source->remote() ? std::max<int64_t>(options.coalesce_gap, kRemoteCoalesceGap) : options.coalesce_gap;
    CoalesceOptions coalescing{std::max<int64_t>(0, gap), options.coalesce_max_size};
    return coalesce_ranges(std::move(ranges), source->size(), coalescing, source->name());
  }

  void count_fetch(const FetchStats& fetch) {
    stats.read_calls += fetch.reads;
    stats.bytes_read += fetch.bytes_read;
    stats.bytes_unused += fetch.bytes_unused;
  }

  // Which bytes column `c` needs to read row group `row_group` (only the
  // pages overlapping `ranges` when its page index allows).
  void plan_column(int index, const RowGroup& row_group, int32_t c, const std::vector<RowRange>* ranges,
                   ColumnPlan& plan, std::vector<RowRange>& covered, int64_t& skipped_pages,
                   int64_t& skipped_bytes) {
    const ColumnChunk& chunk = row_group.columns[size_t(c)];
    covered = {{0, row_group.num_rows}};
    if (!chunk.meta_data) return;  // decode_columns reports it
    const ColumnMetaData& meta = *chunk.meta_data;
    if (ranges != nullptr && single_leaf_top[size_t(c)]) {
      covered.clear();
      plan.restricted = select_pages(index, c, chunk, row_group.num_rows, *ranges, plan, covered,
                                     skipped_pages, skipped_bytes);
      if (!plan.restricted) {
        covered = {{0, row_group.num_rows}};
        plan.ranges.clear();
        plan.page_offsets.clear();
        plan.page_ordinals.clear();
      }
    }
    if (meta.num_values == 0 || (plan.restricted && plan.page_offsets.empty())) {
      plan.ranges.clear();
      return;
    }
    if (plan.restricted) return;
    const int64_t start = column_chunk_start(meta);
    const int64_t length = meta.total_compressed_size;
    if (start < 0 || length < 0 || start > source->size() || length > source->size() - start) {
      throw_corrupt("column chunk [" + std::to_string(start) + ", +" + std::to_string(length) +
                    ") lies outside the file of " + std::to_string(source->size()) + " bytes");
    }
    if (length > options.limits.reader_memory_budget) {
      throw_limit("column chunk of " + std::to_string(length) + " bytes exceeds the reader memory budget");
    }
    plan.ranges.push_back({start, length});
  }

  // Whole-chunk plans of every selected column of row group `index` (in
  // selected_columns order), errors located at the failing column.
  std::vector<ColumnPlan> plan_selected_columns(int index, const RowGroup& row_group) {
    std::vector<ColumnPlan> plans(selected_columns.size());
    std::vector<RowRange> covered;
    int64_t unused_pages = 0, unused_bytes = 0;
    for (size_t i = 0; i < selected_columns.size(); ++i) {
      const int32_t c = selected_columns[i];
      try {
        plan_column(index, row_group, c, nullptr, plans[i], covered, unused_pages, unused_bytes);
      } catch (const Error& e) {
        throw e.with_location(ErrorLocation{source->name(), schema->column(size_t(c)).path, index, -1, -1});
      }
    }
    return plans;
  }

  // Groups the columns (indexes into `plans`, in order) into fetch steps of
  // at most read_ahead_budget merged bytes each; a column alone above the
  // budget is a step of its own. Sources that copy nothing need one step.
  std::vector<std::vector<size_t>> split_by_budget(const std::vector<ColumnPlan>& plans) const {
    std::vector<std::vector<size_t>> steps(1);
    const int64_t budget = options.read_ahead_budget;
    int64_t step_bytes = 0;  // needed bytes of the current step
    std::vector<ByteRange> step_ranges;
    for (size_t i = 0; i < plans.size(); ++i) {
      const int64_t bytes = plans[i].bytes();
      if (budget > 0 && !source->zero_copy() && !steps.back().empty()) {
        bool fits = step_bytes + bytes <= budget;
        if (fits) {
          // Gaps merged between the ranges count too.
          std::vector<ByteRange> candidate = step_ranges;
          candidate.insert(candidate.end(), plans[i].ranges.begin(), plans[i].ranges.end());
          int64_t merged = 0;
          for (const ByteRange& range : coalesce(std::move(candidate))) merged += range.length;
          fits = merged <= budget;
        }
        if (!fits) {
          steps.emplace_back();
          step_bytes = 0;
          step_ranges.clear();
        }
      }
      steps.back().push_back(i);
      step_bytes += bytes;
      step_ranges.insert(step_ranges.end(), plans[i].ranges.begin(), plans[i].ranges.end());
    }
    return steps;
  }

  // Decodes columns[i] for i in `step` from the fetched bytes, in parallel.
  template <typename ValuesOf>
  void decode_columns(int index, const RowGroup& row_group, const std::vector<int32_t>& columns,
                      const std::vector<size_t>& step, std::vector<ColumnPlan>& plans,
                      const FetchedRanges& bytes, bool shared_buffers, ValuesOf& values_of) {
    parallel_for(int64_t(step.size()), options.threads, [&](int64_t task) {
      const size_t i = step[size_t(task)];
      const int32_t c = columns[i];
      const ColumnDescriptor& descriptor = schema->column(size_t(c));
      ErrorLocation where{source->name(), descriptor.path, index, -1, -1};
      const ColumnChunk& chunk = row_group.columns[size_t(c)];
      std::optional<ModuleCrypto> crypto;
      try {
        crypto = chunk_crypto(index, c);
      } catch (const Error& e) {
        throw e.with_location(where);
      }
      const ColumnMetaData& meta = chunk_meta_for(chunk, descriptor, where);
      PageReaderOptions page_options{options.limits, options.verify_crc};
      if (crypto) page_options.crypto = &*crypto;
      ChunkValues& values = values_of(c);
      ColumnPlan& plan = plans[i];
      try {
        if (meta.num_values == 0 || (plan.restricted && plan.page_offsets.empty())) {
          decoders[size_t(c)]->decode(nullptr, 0, values);
        } else {
          PageReader pages(*source, meta, page_options, where,
                           shared_buffers ? &field_decompress_slot : &decompress_slots[size_t(c)], &bytes);
          if (plan.restricted)
            pages.restrict_to_pages(std::move(plan.page_offsets), plan.visit_start,
                                    std::move(plan.page_ordinals));
          decoders[size_t(c)]->decode(&pages, plan.restricted ? -1 : meta.num_values, values);
        }
        if (!dictionary_output[size_t(c)]) convert_leaf_values(descriptor, leaf_types[size_t(c)], values);
      } catch (const Error& e) {
        throw e.with_location(where);
      }
    });
  }

  // Makes field_group_bytes hold every projected chunk of row group `index`;
  // false when not worth it (nothing is copied) or over the budget.
  bool fetch_whole_group(int index, const RowGroup& row_group) {
    if (source->zero_copy() || options.read_ahead_budget <= 0) return false;
    // Decided once per row group: a group over the budget is not planned
    // again for each of its fields.
    if (field_group == index) return field_group_held;
    field_group = -1;
    field_group_held = false;
    field_group_bytes.clear();
    std::vector<ByteRange> wanted;
    int64_t needed = 0;
    for (int32_t c : selected_columns) {
      ColumnPlan plan;
      std::vector<RowRange> covered;
      int64_t unused_pages = 0, unused_bytes = 0;
      try {
        plan_column(index, row_group, c, nullptr, plan, covered, unused_pages, unused_bytes);
      } catch (const Error& e) {
        throw e.with_location(ErrorLocation{source->name(), schema->column(size_t(c)).path, index, -1, -1});
      }
      wanted.insert(wanted.end(), plan.ranges.begin(), plan.ranges.end());
      needed += plan.bytes();
    }
    std::vector<ByteRange> merged;
    try {
      merged = coalesce(std::move(wanted));
    } catch (const Error& e) {
      throw e.with_location(ErrorLocation{source->name(), "", index, -1, -1});
    }
    int64_t total = 0;
    for (const ByteRange& range : merged) total += range.length;
    field_group = index;
    if (total > options.read_ahead_budget) return false;
    field_group_bytes.fetch(*source, merged, needed);
    count_fetch(field_group_bytes.stats());
    stats.peak_fetched_bytes = std::max(stats.peak_fetched_bytes, field_group_bytes.held_bytes());
    field_group_held = true;
    return true;
  }

  // Whether streams read column chunks in windows (ReaderOptions::window_above):
  // decided once per reader, for every row group alike, so that the
  // read-ahead of a scan in order is either used throughout or not at all.
  bool windowed_streams() {
    if (windowed_streams_decided) return windowed_streams_value;
    windowed_streams_decided = true;
    windowed_streams_value = false;
    if (source->zero_copy() || source->remote() || options.window_above < 0) return false;
    for (int32_t group : row_group_order()) {
      if (group < 0 || group >= int32_t(metadata.row_groups.size())) continue;
      const RowGroup& row_group = metadata.row_groups[size_t(group)];
      if (row_group.columns.size() != schema->num_columns()) continue;
      int64_t bytes = 0;
      for (int32_t c : selected_columns) {
        const std::optional<ColumnMetaData>& meta = row_group.columns[size_t(c)].meta_data;
        if (meta && meta->total_compressed_size > 0) bytes += meta->total_compressed_size;
      }
      if (bytes > options.window_above) {
        windowed_streams_value = true;
        break;
      }
    }
    return windowed_streams_value;
  }
  bool windowed_streams_decided = false;
  bool windowed_streams_value = false;

  // Whether whole row group `index` is read through the read-ahead thread,
  // starting it on the first read of a scan in row_group_order(). Only for
  // parallel scans (or any scan of a remote source) of sources that copy (for mmap there is nothing to fetch
  // ahead), and only while the reads follow that order.
  bool use_read_ahead(int index) {
    if (read_ahead) {
      if (!ahead_steps.empty() && ahead_steps.front().row_group == index) return true;
      read_ahead.reset();  // out of order: fetch directly from now on
      ahead_steps.clear();
      return false;
    }
    // A remote source fetches ahead even for a single-threaded scan: the
    // background thread mostly waits on the network, not on a core.
    if (read_ahead_tried || (options.threads <= 1 && !source->remote()) || options.read_ahead_budget <= 0 ||
        source->zero_copy())
      return false;
    const std::vector<int32_t> order = row_group_order();
    if (order.empty() || order.front() != index) return false;
    read_ahead_tried = true;
    std::vector<ReadStep> steps;
    for (int32_t group : order) {
      ReadStep failed;
      try {
        if (group < 0 || group >= int32_t(metadata.row_groups.size())) {
          throw_invalid("row group " + std::to_string(group) + " does not exist");
        }
        const RowGroup& row_group = metadata.row_groups[size_t(group)];
        if (row_group.columns.size() != schema->num_columns())
          throw_corrupt("row group has too few column chunks");
        std::vector<ColumnPlan> plans = plan_selected_columns(group, row_group);
        std::vector<std::vector<size_t>> split = split_by_budget(plans);
        for (size_t k = 0; k < split.size(); ++k) {
          std::vector<size_t>& columns = split[k];
          ReadStep step;
          std::vector<ByteRange> wanted;
          for (size_t i : columns) {
            wanted.insert(wanted.end(), plans[i].ranges.begin(), plans[i].ranges.end());
            step.needed += plans[i].bytes();
          }
          try {
            step.merged = coalesce(std::move(wanted));
          } catch (const Error& e) {
            throw e.with_location(ErrorLocation{source->name(), "", group, -1, -1});
          }
          for (const ByteRange& range : step.merged) step.bytes += range.length;
          steps.push_back(std::move(step));
          ahead_steps.push_back(AheadStep{group, std::move(columns), k + 1 == split.size()});
        }
      } catch (...) {
        // Reported when the scan reaches this row group; nothing after it is fetched.
        failed.error = std::current_exception();
        steps.push_back(std::move(failed));
        ahead_steps.push_back(AheadStep{group, {}, true});
        break;
      }
    }
    // A remote read waits a round trip per request, so it fetches as far
    // ahead as the budget allows, several steps at once so that their round
    // trips overlap; a local one holds kLocalReadAheadSteps.
    const size_t steps_held = source->remote() ? SIZE_MAX : kLocalReadAheadSteps;
    const size_t fetchers = size_t(std::max(1, source->concurrent_reads()));
    read_ahead = std::make_unique<ReadAhead>(source, std::move(steps), options.read_ahead_budget, steps_held,
                                             fetchers);
    return !ahead_steps.empty() && ahead_steps.front().row_group == index;
  }

  // ---- Streaming (batches()): a row group decoded a batch at a time.

  // One batch reader's position inside a row group. Each batch reader has
  // its own (decoders included), so two streams of one reader do not clash.
  struct GroupStream {
    int32_t row_group = -1;
    int64_t rows_left = 0;
    int64_t batch_rows = 0;  // rows per batch: batch_size, fewer for very long strings
    std::vector<std::unique_ptr<ChunkDecoder>> decoders;  // per selected column
    std::vector<ChunkStream> columns;                     // per selected column
    // Per selected column: the keys its PageReader points at, so they live as
    // long as the chunk is streamed (nullopt in the clear).
    std::vector<std::optional<ModuleCrypto>> crypto;
    std::vector<ChunkValues> values;                       // per selected column: the batch in the making
    std::vector<std::shared_ptr<ArrayData>> dictionaries;  // per top field: the chunk's converted dictionary
    std::vector<std::shared_ptr<const DataType>> field_types;  // per top field
    std::vector<Buffer> windows;                      // per selected column: its window, for windowed streams
    std::vector<int64_t> window_reads, window_bytes;  // per selected column, this row group
    FetchedRanges own_bytes;                          // the row group's bytes, fetched here...
    std::unique_ptr<FetchedRanges> ahead_bytes;       // ...or by the read-ahead thread
    ReadAhead* ahead_source = nullptr;                // the read-ahead ahead_bytes came from
  };

  // The batch stream's steps (batch_stream.cc).
  void init_stream(GroupStream& stream);
  // Lets go of a row group's bytes (handing read-ahead buffers back for reuse).
  void end_stream(GroupStream& stream);
  // Starts streaming row group `index`. False when it is better read whole
  // (no rows, or a row group whose bytes exceed the read-ahead budget, which
  // the whole-row-group path fetches column group by column group).
  bool open_stream(GroupStream& stream, int index);
  // The next `rows` rows of the streamed row group: each column decodes its
  // share of pages (columns spread over the threads), then the fields are
  // assembled from the batch-sized buffers.
  RecordBatch next_stream_batch(GroupStream& stream, int64_t rows);

  int32_t first_selected_leaf(const SchemaNode& node) const {
    for (int32_t c = node.first_column(); c < node.first_column() + node.num_columns(); ++c) {
      if (decoders[size_t(c)]) return c;
    }
    return node.first_column();
  }

  std::vector<int32_t> row_group_order() const {
    std::vector<int32_t> order = options.row_groups;
    if (order.empty()) {
      for (size_t i = 0; i < metadata.row_groups.size(); ++i) order.push_back(int32_t(i));
    }
    return order;
  }
};

/// batches(): the row groups of `order` streamed a batch at a time. The
/// stream owns a share of `impl`, so it outlives the FileReader if need be.
std::unique_ptr<BatchReader> stream_batches(std::shared_ptr<FileReader::Impl> impl,
                                            std::vector<int32_t> order);

}  // namespace parquetry
