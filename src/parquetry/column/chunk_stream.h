// A column chunk decoded a batch of rows at a time.
//
// The batch path must not hold a whole decoded row group: with row groups of
// a million rows that is hundreds of megabytes, faulted in fresh by every
// process that reads the file once. A ChunkStream decodes whole pages (the
// decoders' unit of work) into a batch's buffers until they hold the rows
// the batch asks for, hands those rows out and keeps what the last page
// decoded past them (less than a page) in a small carry of its own, which
// starts the next batch's buffers. Buffers come from a BufferPool and the
// next batch takes them only when it starts, after the consumer dropped the
// previous batch, so batch after batch one set of memory is refilled (taking
// them for the carry at the end of a batch kept two sets alive).
#pragma once

#include <cstdint>
#include <memory>

#include "parquetry/column/buffer_pool.h"
#include "parquetry/column/chunk_decoder.h"
#include "parquetry/page/page_reader.h"

namespace parquetry {

class ChunkStream {
 public:
  /// Buffers slots of this column in `pool` are `slot_base` + 0..4.
  ChunkStream(ChunkDecoder& decoder, const LeafSpec& spec, BufferPool& pool, size_t slot_base)
      : decoder_(&decoder), spec_(spec), pool_(&pool), slot_base_(slot_base) {}

  /// Starts a chunk of `rows` rows (its row group's) and `expected_levels`
  /// level entries (ColumnMetaData.num_values, checked at its end) read from
  /// `pages` (may be null when the chunk declares no values). `batch_rows`
  /// sizes the buffers.
  void start(std::unique_ptr<PageReader> pages, int64_t rows, int64_t expected_levels, int64_t batch_rows);

  /// Decodes the chunk's next `rows` rows into `out` (whatever `out` held is
  /// released first). Levels, values and validity are trimmed to exactly
  /// those rows, ready for convert_leaf_values() and assemble_field().
  void next(int64_t rows, ChunkValues& out);

  /// Data pages decoded so far in this chunk.
  int64_t data_pages() const { return data_pages_; }

 private:
  // Level entries of pending_ that start a row (rep level 0), counted up to scanned_.
  void count_row_starts();
  // The level index where row `row` of pending_ starts (row <= row_starts_).
  int64_t level_of_row(int64_t row) const;
  // Appends the next data page to `into`; marks the chunk exhausted at its
  // end. `held` levels decoded elsewhere (the batch, when `into` is the
  // carry) count against the chunk's declared total.
  void decode_page(ChunkValues& into, int64_t held = 0);

  ChunkDecoder* decoder_;
  LeafSpec spec_;
  BufferPool* pool_;
  size_t slot_base_;
  std::unique_ptr<PageReader> pages_;
  ChunkValues pending_;  // decoded, not yet handed out (no buffers between batches)
  ChunkValues carry_;    // rows the last page decoded past the last batch
  // The carry's own buffers, refilled batch after batch (behind a pointer: a
  // stream is moved into place, a pool is not).
  std::unique_ptr<BufferPool> carry_pool_ = std::make_unique<BufferPool>(1);
  bool exhausted_ = true;
  int64_t rows_left_ = 0;        // rows of the chunk not yet handed out
  int64_t expected_levels_ = 0;  // declared by the chunk
  int64_t levels_out_ = 0;       // level entries handed out so far
  int64_t reserve_levels_ = 0;
  int64_t row_starts_ = 0;  // rows starting in pending_[0, scanned_)
  int64_t scanned_ = 0;
  int64_t data_pages_ = 0;
};

}  // namespace parquetry
