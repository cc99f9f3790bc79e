// batches(): row groups streamed a batch at a time (docs/architecture.md,
// "How a read flows"). Each selected column has a ChunkStream that decodes
// whole pages into buffers from the reader's pool until they hold the
// batch's rows; the columns of a batch decode in parallel.
#include <algorithm>
#include <string>

#include "parquetry/read/file_reader_impl.h"
#include "parquetry/util/parallel.h"

namespace parquetry {
namespace {

// Byte-array data one batch's column may hold: half the 2 GiB reach of its
// 32-bit offsets, as the estimate below is an average per row and pages
// that gather from a dictionary can run past it.
constexpr int64_t kBatchByteArrayTarget = int64_t(1) << 30;

// Rows per batch in a row group: batch_size, or fewer when a selected
// BYTE_ARRAY chunk holds so many bytes per row that batch_size rows would
// pass the reach of 32-bit offsets (strings of hundreds of MiB, such as
// parquet-testing's two 1 GiB map keys, which Arrow hands out in chunks).
// The chunk's unencoded byte-array size is exact when the writer gave it;
// otherwise its uncompressed size stands in (a dictionary counted once).
int64_t batch_rows_for(const RowGroup& row_group, const Schema& schema,
                       const std::vector<int32_t>& selected_columns, int64_t batch_size) {
  int64_t rows = std::max<int64_t>(batch_size, 1);
  for (const int32_t c : selected_columns) {
    if (schema.column(size_t(c)).physical_type != Type::BYTE_ARRAY) continue;
    const ColumnChunk& chunk = row_group.columns[size_t(c)];
    if (!chunk.meta_data) continue;
    int64_t bytes = chunk.meta_data->total_uncompressed_size;
    if (chunk.meta_data->size_statistics && chunk.meta_data->size_statistics->unencoded_byte_array_data_bytes)
      bytes = *chunk.meta_data->size_statistics->unencoded_byte_array_data_bytes;
    if (bytes <= kBatchByteArrayTarget) continue;
    // In doubles: rows * 2^30 overflows int64 from 2^33 rows (a footer may say anything).
    const double fit = double(row_group.num_rows) * double(kBatchByteArrayTarget) / double(bytes);
    rows = std::min(rows, std::max<int64_t>(1, int64_t(fit)));
  }
  return rows;
}

}  // namespace

void FileReader::Impl::init_stream(GroupStream& stream) {
  stream.decoders.clear();
  stream.columns.clear();
  for (size_t i = 0; i < selected_columns.size(); ++i) {
    const LeafSpec& spec = leaf_specs[size_t(selected_columns[i])];
    stream.decoders.push_back(std::make_unique<ChunkDecoder>(spec));
    stream.columns.emplace_back(*stream.decoders.back(), spec, batch_pool, i * 5);
  }
  stream.values.resize(selected_columns.size());
  stream.windows = std::vector<Buffer>(selected_columns.size());
  stream.window_reads.assign(selected_columns.size(), 0);
  stream.window_bytes.assign(selected_columns.size(), 0);
  stream.dictionaries.resize(top_nodes.size());
  for (size_t f = 0; f < top_nodes.size(); ++f)
    stream.field_types.push_back(std::make_shared<const DataType>(batch_schema->fields[f].type));
}

// Lets go of a row group's bytes (handing read-ahead buffers back for reuse).
void FileReader::Impl::end_stream(GroupStream& stream) {
  if (stream.ahead_bytes) {
    if (read_ahead && read_ahead.get() == stream.ahead_source) {
      read_ahead->give_back(std::move(stream.ahead_bytes));
    }
    stream.ahead_bytes.reset();
  }
  stream.ahead_source = nullptr;
  stream.own_bytes.clear();
  stream.rows_left = 0;
  stream.row_group = -1;
}

// Starts streaming row group `index`. False when it is better read whole
// (no rows, or a row group whose bytes exceed the read-ahead budget, which
// the whole-row-group path fetches column group by column group).
bool FileReader::Impl::open_stream(GroupStream& stream, int index) {
  end_stream(stream);
  if (index < 0 || index >= int(metadata.row_groups.size())) {
    throw_invalid("row group " + std::to_string(index) + " does not exist");
  }
  const RowGroup& row_group = metadata.row_groups[size_t(index)];
  if (row_group.columns.size() != schema->num_columns() || row_group.num_rows <= 0) return false;
  const int64_t batch_rows = batch_rows_for(row_group, *schema, selected_columns, options.batch_size);
  // A row group of at most two batches is decoded whole and handed out as
  // zero-copy slices: streaming holds a batch plus the page that ends it, and
  // writers that put a whole chunk in one page (DuckDB: 122,880 rows) made
  // that a row group and a half, with every row copied once more. Not when
  // its strings need smaller batches: decoded whole they would not fit.
  if (batch_rows == options.batch_size && row_group.num_rows <= 2 * batch_rows) return false;
  const FetchedRanges* bytes = nullptr;
  const bool windowed = windowed_streams();
  if (windowed) {
    // Each column reads its own windows while it decodes (PageReader).
  } else if (use_read_ahead(index)) {
    if (!ahead_steps.front().last) return false;
    ahead_steps.pop_front();
    try {
      stream.ahead_bytes = read_ahead->take();
    } catch (...) {
      read_ahead.reset();
      throw;
    }
    stream.ahead_source = read_ahead.get();
    count_fetch(stream.ahead_bytes->stats());
    stats.peak_fetched_bytes = std::max(stats.peak_fetched_bytes, read_ahead->peak_bytes());
    bytes = stream.ahead_bytes.get();
  } else {
    std::vector<ColumnPlan> plans = plan_selected_columns(index, row_group);
    if (split_by_budget(plans).size() > 1) return false;
    std::vector<ByteRange> wanted;
    int64_t needed = 0;
    for (const ColumnPlan& plan : plans) {
      wanted.insert(wanted.end(), plan.ranges.begin(), plan.ranges.end());
      needed += plan.bytes();
    }
    try {
      stream.own_bytes.fetch(*source, coalesce(std::move(wanted)), needed);
    } catch (const Error& e) {
      throw e.with_location(ErrorLocation{source->name(), "", index, -1, -1});
    }
    count_fetch(stream.own_bytes.stats());
    stats.peak_fetched_bytes = std::max(stats.peak_fetched_bytes, stream.own_bytes.held_bytes());
    bytes = &stream.own_bytes;
  }
  stream.crypto.resize(selected_columns.size());
  for (size_t i = 0; i < selected_columns.size(); ++i) {
    const int32_t c = selected_columns[i];
    const ColumnDescriptor& descriptor = schema->column(size_t(c));
    ErrorLocation where{source->name(), descriptor.path, index, -1, -1};
    try {
      stream.crypto[i] = chunk_crypto(index, c);
      const ColumnMetaData& meta = chunk_meta_for(row_group.columns[size_t(c)], descriptor, where);
      PageReaderOptions page_options{options.limits, options.verify_crc};
      if (stream.crypto[i]) page_options.crypto = &*stream.crypto[i];
      if (windowed) {
        page_options.window = &stream.windows[i];
        page_options.window_bytes = std::max<int64_t>(options.window_bytes, 1);
        page_options.window_reads = &stream.window_reads[i];
        page_options.window_read_bytes = &stream.window_bytes[i];
      }
      std::unique_ptr<PageReader> pages;
      if (meta.num_values != 0) {
        pages = std::make_unique<PageReader>(*source, meta, page_options, where, &decompress_slots[size_t(c)],
                                             bytes);
      }
      stream.columns[i].start(std::move(pages), row_group.num_rows, meta.num_values, batch_rows);
    } catch (const Error& e) {
      throw e.with_location(where);
    }
  }
  std::fill(stream.dictionaries.begin(), stream.dictionaries.end(), nullptr);
  stream.row_group = index;
  stream.rows_left = row_group.num_rows;
  stream.batch_rows = batch_rows;
  return true;
}

// The next `rows` rows of the streamed row group: each column decodes its
// share of pages (columns spread over the threads), then the fields are
// assembled from the batch-sized buffers.
RecordBatch FileReader::Impl::next_stream_batch(GroupStream& stream, int64_t rows) {
  const int index = stream.row_group;
  parallel_for(int64_t(selected_columns.size()), options.threads, [&](int64_t task) {
    const size_t i = size_t(task);
    const int32_t c = selected_columns[i];
    const ColumnDescriptor& descriptor = schema->column(size_t(c));
    try {
      stream.columns[i].next(rows, stream.values[i]);
      if (!dictionary_output[size_t(c)])
        convert_leaf_values(descriptor, leaf_types[size_t(c)], stream.values[i]);
    } catch (const Error& e) {
      throw e.with_location(ErrorLocation{source->name(), descriptor.path, index, -1, -1});
    }
  });
  std::vector<ChunkValues*> leaves(schema->num_columns(), nullptr);
  for (size_t i = 0; i < selected_columns.size(); ++i)
    leaves[size_t(selected_columns[i])] = &stream.values[i];
  RecordBatch batch;
  batch.schema = batch_schema;
  batch.num_rows = rows;
  for (size_t f = 0; f < top_nodes.size(); ++f) {
    ErrorLocation where{source->name(), top_nodes[f]->dotted_path(), index, -1, -1};
    try {
      auto array = assemble_field(*top_nodes[f], stream.field_types[f], *schema, leaves);
      const int32_t first = top_nodes[f]->first_column();
      if (dictionary_output[size_t(first)]) {
        // One converted dictionary per chunk, shared by all its batches.
        if (!stream.dictionaries[f])
          stream.dictionaries[f] =
              dictionary_array(schema->column(size_t(first)), first, *leaves[size_t(first)]);
        array->dictionary = stream.dictionaries[f];
      }
      if (array->length != rows) {
        throw_corrupt("column holds " + std::to_string(array->length) + " rows of a batch of " +
                      std::to_string(rows));
      }
      batch.columns.push_back(std::move(array));
    } catch (const Error& e) {
      throw e.with_location(where);
    }
  }
  // Only the batch holds the buffers now: once the consumer drops it the pool has them back.
  for (ChunkValues& values : stream.values) values = ChunkValues{};
  stream.rows_left -= rows;
  if (stream.rows_left == 0) {
    for (const ChunkStream& column : stream.columns) stats.pages_read += column.data_pages();
    // Windowed reads: every column's window is held at once.
    int64_t windows_held = 0;
    for (size_t i = 0; i < stream.window_reads.size(); ++i) {
      stats.read_calls += stream.window_reads[i];
      stats.bytes_read += stream.window_bytes[i];
      windows_held += int64_t(stream.windows[i].capacity());
      stream.window_reads[i] = stream.window_bytes[i] = 0;
    }
    stats.peak_fetched_bytes = std::max(stats.peak_fetched_bytes, windows_held);
    end_stream(stream);
  }
  return batch;
}

namespace {

// batches(): row groups streamed a batch at a time (Impl::open_stream), or
// read whole and handed out as zero-copy slices when streaming declines.
class RowGroupBatches final : public BatchReader {
 public:
  RowGroupBatches(std::shared_ptr<FileReader::Impl> impl, std::vector<int32_t> order)
      : impl_(std::move(impl)), order_(std::move(order)) {
    impl_->init_stream(stream_);
  }
  ~RowGroupBatches() override { impl_->end_stream(stream_); }
  std::shared_ptr<const BatchSchema> schema() const override { return impl_->batch_schema; }
  bool next(RecordBatch& out) override {
    for (;;) {
      if (stream_.rows_left > 0) {
        // Let go of the caller's previous batch first, so its buffers go back
        // to the pool and are refilled instead of fresh memory.
        out.columns.clear();
        const int64_t rows = std::min(stream_.batch_rows, stream_.rows_left);
        try {
          out = impl_->next_stream_batch(stream_, rows);
        } catch (...) {
          impl_->end_stream(stream_);
          impl_->read_ahead.reset();
          throw;
        }
        return true;
      }
      if (position_ < current_.num_rows) {
        const int64_t length = std::min(impl_->options.batch_size, current_.num_rows - position_);
        out.schema = current_.schema;
        out.num_rows = length;
        out.columns.clear();
        for (const auto& column : current_.columns) out.columns.push_back(slice(column, position_, length));
        position_ += length;
        return true;
      }
      current_ = RecordBatch{};
      // At the end of the stream `out` keeps the last batch.
      if (next_group_ >= order_.size()) return false;
      // Release the caller's last batch of the previous row group too (it is
      // about to be overwritten), so its buffers are unshared and get refilled.
      out.columns.clear();
      const int32_t index = order_[next_group_++];
      if (!impl_->open_stream(stream_, index)) {
        current_ = impl_->read_row_group(index, nullptr);
        position_ = 0;
      }
    }
  }

 private:
  // A share of the reader's state: the stream stays valid when the caller
  // drops the FileReader first (FileReader::open(path)->batches()).
  std::shared_ptr<FileReader::Impl> impl_;
  std::vector<int32_t> order_;
  size_t next_group_ = 0;
  FileReader::Impl::GroupStream stream_;
  RecordBatch current_;  // a row group read whole, handed out in slices
  int64_t position_ = 0;
};

}  // namespace

std::unique_ptr<BatchReader> stream_batches(std::shared_ptr<FileReader::Impl> impl,
                                            std::vector<int32_t> order) {
  return std::make_unique<RowGroupBatches>(std::move(impl), std::move(order));
}

}  // namespace parquetry
