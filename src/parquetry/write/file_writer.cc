// FileWriter: batches -> row groups -> file.
//
// Layout of the file written:
//   "PAR1" | row group 0 column chunks | ... | Bloom filters | column indexes |
//   offset indexes | footer | footer length | "PAR1"
// Column chunks are buffered (as compressed pages) until their row group is
// closed, then written in column order; Bloom filters and page indexes, which
// readers only need after the footer, are kept until close().
#include <memory>

#include "parquetry/arrow_export.h"
#include "parquetry/encryption/file_encryptor.h"
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/reader.h"
#include "parquetry/util/parallel.h"
#include "parquetry/version.h"
#include "parquetry/write/write_internal.h"

namespace parquetry {

const char* writer_created_by() { return created_by(); }

using write::ChunkResult;
using write::ColumnChunkWriter;
using write::LeafData;

// Hidden: a nested class takes the visibility of the exported class around it.
struct PARQUETRY_LOCAL FileWriter::Impl {
  std::unique_ptr<Sink> sink;
  std::shared_ptr<const BatchSchema> schema;
  WriterOptions options;
  write::SchemaPlan plan;
  std::vector<std::unique_ptr<ColumnChunkWriter>> columns;
  std::vector<LeafData> leaves;
  // First leaf of each top-level field, plus a final entry = number of leaves.
  std::vector<size_t> field_leaf_start;
  FileMetaData metadata;
  int64_t group_rows = 0;
  int64_t total_rows = 0;
  bool closed = false;
  bool failed = false;
  // Kept until close(): per row group, per column.
  std::vector<std::vector<ChunkResult>> finished;
  std::vector<ChunkResult> scratch_results;
  Buffer chunk_bytes;
  // Modular encryption: seals finished chunks, indexes, filters and the footer.
  std::unique_ptr<FileEncryptor> encryptor;
  Buffer plain_chunk, sealed;

  const char* magic() const { return encryptor ? encryptor->magic() : "PAR1"; }

  void init(const BatchSchema& batch_schema) {
    schema = std::make_shared<BatchSchema>(batch_schema);
    if (options.page_rows <= 0 || options.page_bytes <= 0 || options.row_group_rows <= 0 ||
        options.row_group_bytes <= 0 || options.dictionary_page_bytes <= 0) {
      throw_invalid("writer limits (rows and bytes of pages, row groups, dictionaries) must be positive");
    }
    try {
      plan = options.parquet_schema.empty() ? write::plan_schema(batch_schema)
                                            : write::bind_schema(batch_schema, options.parquet_schema);
    } catch (const Error& e) {
      if (e.code() == ErrorCode::kCorrupt) throw_invalid("schema cannot be written: " + e.message());
      throw;
    }
    // Every per-column option must name a leaf.
    for (const auto& [path, unused] : options.columns) {
      bool found = false;
      for (const auto& leaf : plan.leaves) found = found || leaf.column.path == path;
      if (!found) throw_invalid("writer options name column '" + path + "', which the schema does not have");
    }
    for (const SortingColumn& s : options.sorting_columns) {
      if (s.column_idx < 0 || size_t(s.column_idx) >= plan.leaves.size()) {
        throw_invalid("sorting column " + std::to_string(s.column_idx) + " is not a leaf column index");
      }
    }
    for (const auto& leaf : plan.leaves)
      columns.push_back(std::make_unique<ColumnChunkWriter>(leaf, options));
    leaves.resize(plan.leaves.size());
    // Leaves of each top-level field: count leaf elements under each.
    size_t leaf = 0;
    field_leaf_start.push_back(0);
    size_t element = 1;
    for (size_t f = 0; f < batch_schema.fields.size(); ++f) {
      // Walk the subtree of this field in the flat element list.
      int64_t pending = 1;
      while (pending > 0) {
        const SchemaElement& e = plan.elements.at(element++);
        --pending;
        if (e.num_children) {
          pending += *e.num_children;
        } else {
          ++leaf;
        }
      }
      field_leaf_start.push_back(leaf);
    }
    metadata.version = 2;
    metadata.schema = plan.elements;
    metadata.created_by = writer_created_by();
    if (options.schema_metadata) {
      for (const auto& [key, value] : batch_schema.metadata)
        metadata.key_value_metadata.push_back(KeyValue{key, value});
    }
    for (const KeyValue& kv : options.key_value_metadata) metadata.key_value_metadata.push_back(kv);
    metadata.column_orders.assign(plan.leaves.size(), ColumnOrder::TYPE_ORDER);
    if (options.encryption) {
      std::vector<std::string> paths;
      for (const auto& leaf : plan.leaves) paths.push_back(leaf.column.path);
      encryptor = std::make_unique<FileEncryptor>(*options.encryption, paths);
    }
    sink->write(magic(), 4);
  }

  void check_open() const {
    if (closed) throw_invalid("the writer is closed");
    if (failed) throw_invalid("an earlier write failed; the writer accepts nothing more");
  }

  void check_batch(const RecordBatch& batch) const {
    if (batch.columns.size() != schema->fields.size()) {
      throw_invalid("batch has " + std::to_string(batch.columns.size()) + " columns, the schema " +
                    std::to_string(schema->fields.size()));
    }
    for (size_t i = 0; i < batch.columns.size(); ++i) {
      const auto& column = batch.columns[i];
      if (!column || column->length != batch.num_rows) {
        throw_invalid("column " + schema->fields[i].name + " does not have the batch's " +
                      std::to_string(batch.num_rows) + " rows");
      }
      const DataType& expected = schema->fields[i].type;
      const DataType& actual = *column->type;
      if (expected.id != actual.id) {
        throw_invalid("column " + schema->fields[i].name + " is " + actual.to_string() +
                      ", the schema says " + expected.to_string());
      }
    }
  }

  // Shreds and encodes rows [offset, offset + length) of `batch` (within one row group).
  void write_rows(const RecordBatch& batch, int64_t offset, int64_t length) {
    const size_t num_fields = schema->fields.size();
    std::vector<std::shared_ptr<ArrayData>> arrays(num_fields);
    for (size_t f = 0; f < num_fields; ++f) arrays[f] = slice(batch.columns[f], offset, length);
    auto encode_field = [&](int64_t f) {
      const size_t begin = field_leaf_start[size_t(f)];
      const size_t end = field_leaf_start[size_t(f) + 1];
      write::shred_field(plan.shred_fields[size_t(f)], *arrays[size_t(f)],
                         std::span<const write::LeafPlan>(plan.leaves).subspan(begin, end - begin),
                         std::span<LeafData>(leaves).subspan(begin, end - begin));
      for (size_t c = begin; c < end; ++c) {
        try {
          columns[c]->write(leaves[c]);
        } catch (const Error& e) {
          ErrorLocation where;
          where.column = plan.leaves[c].column.path;
          where.row_group = int64_t(finished.size());
          throw e.with_location(where);
        }
      }
    };
    parallel_for(int64_t(num_fields), options.threads, encode_field);
    group_rows += length;
    total_rows += length;
  }

  int64_t buffered() const {
    int64_t total = 0;
    for (const auto& column : columns) total += column->buffered_bytes();
    return total;
  }

  void write_batch(const RecordBatch& batch) {
    check_open();
    check_batch(batch);
    try {
      int64_t offset = 0;
      while (offset < batch.num_rows) {
        // Bound each step so the byte limit is checked every few thousand rows.
        const int64_t room = options.row_group_rows - group_rows;
        const int64_t step = std::min({room, batch.num_rows - offset, int64_t(64 * 1024)});
        write_rows(batch, offset, step);
        offset += step;
        if (group_rows >= options.row_group_rows || buffered() >= options.row_group_bytes) flush();
      }
    } catch (...) {
      failed = true;
      throw;
    }
  }

  void flush(bool even_if_empty = false) {
    if (group_rows == 0 && !even_if_empty) return;
    const size_t n = columns.size();
    std::vector<ChunkResult> results(n);
    RowGroup group;
    group.num_rows = group_rows;
    group.ordinal = int16_t(metadata.row_groups.size());
    group.sorting_columns = options.sorting_columns;
    const int64_t group_start = sink->position();
    group.file_offset = group_start;
    int64_t total_uncompressed = 0;
    for (size_t c = 0; c < n; ++c) {
      columns[c]->finish(results[c], chunk_bytes);
      const int64_t start = sink->position();
      ColumnMetaData& meta = results[c].meta;
      std::optional<ModuleCrypto> crypto;
      if (encryptor) crypto = encryptor->chunk(int32_t(metadata.row_groups.size()), int32_t(c));
      if (crypto) {
        // Encryption seals each page on its own, from one contiguous copy of the chunk.
        plain_chunk.clear();
        plain_chunk.append(chunk_bytes.data(), chunk_bytes.size());
        columns[c]->append_pages_to(plain_chunk);
        encryptor->encrypt_pages(*crypto, plain_chunk.span(), meta, results[c].offset_index.page_locations,
                                 sealed);
        sink->write(sealed.data(), sealed.size());
      } else {
        sink->write(chunk_bytes.data(), chunk_bytes.size());
        columns[c]->write_pages(*sink);
      }
      columns[c]->release_pages();
      ColumnChunk chunk;
      meta.data_page_offset += start;
      if (meta.dictionary_page_offset) *meta.dictionary_page_offset += start;
      for (PageLocation& location : results[c].offset_index.page_locations) location.offset += start;
      chunk.file_offset = start;
      total_uncompressed += meta.total_uncompressed_size;
      chunk.meta_data = meta;
      group.columns.push_back(std::move(chunk));
    }
    group.total_byte_size = total_uncompressed;
    group.total_compressed_size = sink->position() - group_start;
    metadata.row_groups.push_back(std::move(group));
    metadata.num_rows += group_rows;
    // Keep only what close() still needs (indexes and filters), not the metadata copy.
    for (ChunkResult& r : results) r.meta = ColumnMetaData{};
    finished.push_back(std::move(results));
    group_rows = 0;
  }

  // An index module of an encrypted chunk, encrypted in place.
  void seal(ModuleType type, size_t g, size_t c, Buffer& encoded) {
    if (!encryptor) return;
    std::optional<ModuleCrypto> crypto = encryptor->chunk(int32_t(g), int32_t(c));
    if (!crypto) return;
    sealed.clear();
    crypto->encrypt(type, -1, encoded.span(), sealed);
    encoded.clear();
    encoded.append(sealed.data(), sealed.size());
  }

  void close() {
    check_open();
    try {
      flush();
      // Bloom filters.
      for (size_t g = 0; g < finished.size(); ++g) {
        for (size_t c = 0; c < finished[g].size(); ++c) {
          ChunkResult& r = finished[g][c];
          if (r.bloom.empty()) continue;
          ColumnMetaData& meta = *metadata.row_groups[g].columns[c].meta_data;
          meta.bloom_filter_offset = sink->position();
          if (std::optional<ModuleCrypto> crypto =
                  encryptor ? encryptor->chunk(int32_t(g), int32_t(c)) : std::nullopt) {
            encryptor->encrypt_bloom_filter(*crypto, r.bloom.span(), sealed);
            r.bloom.clear();
            r.bloom.append(sealed.data(), sealed.size());
          }
          meta.bloom_filter_length = int32_t(r.bloom.size());
          sink->write(r.bloom.data(), r.bloom.size());
          r.bloom.release();
        }
      }
      if (options.page_index) {
        Buffer encoded;
        for (size_t g = 0; g < finished.size(); ++g) {
          for (size_t c = 0; c < finished[g].size(); ++c) {
            ChunkResult& r = finished[g][c];
            if (!r.has_column_index) continue;
            encoded.clear();
            encode_column_index(r.column_index, encoded);
            seal(ModuleType::kColumnIndex, g, c, encoded);
            ColumnChunk& chunk = metadata.row_groups[g].columns[c];
            chunk.column_index_offset = sink->position();
            chunk.column_index_length = int32_t(encoded.size());
            sink->write(encoded.data(), encoded.size());
          }
        }
        for (size_t g = 0; g < finished.size(); ++g) {
          for (size_t c = 0; c < finished[g].size(); ++c) {
            ChunkResult& r = finished[g][c];
            if (r.offset_index.page_locations.empty()) continue;
            encoded.clear();
            encode_offset_index(r.offset_index, encoded);
            seal(ModuleType::kOffsetIndex, g, c, encoded);
            ColumnChunk& chunk = metadata.row_groups[g].columns[c];
            chunk.offset_index_offset = sink->position();
            chunk.offset_index_length = int32_t(encoded.size());
            sink->write(encoded.data(), encoded.size());
          }
        }
      }
      finished.clear();
      if (encryptor) {
        encryptor->write_footer(metadata, *sink);
      } else {
        write_file_metadata(metadata, *sink);
      }
      sink->commit();
      closed = true;
    } catch (...) {
      failed = true;
      throw;
    }
  }
};

FileWriter::FileWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileWriter::~FileWriter() = default;

std::unique_ptr<FileWriter> FileWriter::open(const std::string& path, const BatchSchema& schema,
                                             WriterOptions options) {
  // Validate the schema and options before creating any file.
  auto impl = std::make_unique<Impl>();
  impl->options = std::move(options);
  auto memory = std::make_unique<MemorySink>();
  impl->sink = std::move(memory);
  impl->init(schema);
  impl->sink = std::make_unique<AtomicFileSink>(path);
  impl->sink->write(impl->magic(), 4);
  return std::unique_ptr<FileWriter>(new FileWriter(std::move(impl)));
}

std::unique_ptr<FileWriter> FileWriter::open(std::unique_ptr<Sink> sink, const BatchSchema& schema,
                                             WriterOptions options) {
  if (!sink) throw_invalid("FileWriter::open needs a sink");
  auto impl = std::make_unique<Impl>();
  impl->options = std::move(options);
  impl->sink = std::move(sink);
  impl->init(schema);
  return std::unique_ptr<FileWriter>(new FileWriter(std::move(impl)));
}

void FileWriter::write(const RecordBatch& batch) { impl_->write_batch(batch); }

void FileWriter::write(BatchReader& reader) {
  RecordBatch batch;
  while (reader.next(batch)) impl_->write_batch(batch);
}

void FileWriter::write(ArrowArrayStream* stream) {
  std::unique_ptr<BatchReader> reader = import_stream(stream);
  write(*reader);
}

void FileWriter::flush_row_group() {
  impl_->check_open();
  try {
    impl_->flush();
  } catch (...) {
    impl_->failed = true;
    throw;
  }
}

void FileWriter::write_empty_row_group() {
  impl_->check_open();
  try {
    impl_->flush();
    impl_->flush(/*even_if_empty=*/true);
  } catch (...) {
    impl_->failed = true;
    throw;
  }
}

void FileWriter::close() { impl_->close(); }

int64_t FileWriter::num_rows() const { return impl_->total_rows; }
int FileWriter::num_row_groups() const { return int(impl_->metadata.row_groups.size()); }
int64_t FileWriter::buffered_bytes() const { return impl_->buffered(); }
const FileMetaData& FileWriter::metadata() const { return impl_->metadata; }
const std::vector<SchemaElement>& FileWriter::schema_elements() const { return impl_->plan.elements; }

}  // namespace parquetry
