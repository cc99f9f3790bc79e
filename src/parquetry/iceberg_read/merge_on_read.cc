// Merge-on-read: a data file's batches without the rows a PositionDeleteIndex
// deletes. Work is decided per row group from the index alone: a row group
// with every row deleted is never decoded, one without deletes is read whole.
// In one with deletes, long deleted runs are left out of the read (the
// FileReader then skips their pages via the OffsetIndex), and the scattered
// deletes that remain are dropped in one pass per column over a keep bitmap:
// at 10% random deletes a row group has a surviving range every ten rows, and
// copying range by range cost more than decoding.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/iceberg_scan.h"
#include "parquetry/table/filter_rows.h"

namespace parquetry::iceberg {

std::vector<RowRange> surviving_ranges(const PositionDeleteIndex& deletes, int64_t first_row,
                                       int64_t num_rows) {
  std::vector<RowRange> out;
  if (num_rows <= 0) return out;
  PositionCursor cursor(deletes, first_row, first_row + num_rows);
  int64_t chunk[1024];
  int64_t next_alive = 0;  // first row (relative) not yet known to be deleted
  for (size_t n; (n = cursor.next(chunk)) != 0;) {
    for (size_t i = 0; i < n; ++i) {
      const int64_t row = chunk[i] - first_row;
      if (row > next_alive) out.push_back({next_alive, row});
      next_alive = row + 1;
    }
  }
  if (next_alive < num_rows) out.push_back({next_alive, num_rows});
  return out;
}

MergeOnReadReader::MergeOnReadReader(FileReader& reader, const PositionDeleteIndex& deletes,
                                     MergeOnReadOptions options)
    : reader_(&reader), deletes_(&deletes), options_(std::move(options)) {
  if (options_.batch_size <= 0) throw_invalid("merge-on-read: batch_size must be positive");
  const auto& row_groups = reader.metadata().row_groups;
  starts_.reserve(row_groups.size() + 1);
  int64_t rows = 0;
  for (const RowGroup& row_group : row_groups) {
    if (row_group.num_rows < 0 || row_group.num_rows > kMaxDeletePosition - rows) {
      throw_corrupt("merge-on-read: row group row counts are negative or overflow");
    }
    starts_.push_back(rows);
    rows += row_group.num_rows;
  }
  starts_.push_back(rows);
  order_ = options_.row_groups;
  if (order_.empty()) {
    for (size_t g = 0; g < row_groups.size(); ++g) order_.push_back(int32_t(g));
  }
  for (int32_t g : order_) {
    if (g < 0 || size_t(g) >= row_groups.size()) {
      throw_invalid("merge-on-read: row group " + std::to_string(g) + " does not exist");
    }
  }
}

MergeOnReadReader::~MergeOnReadReader() = default;

std::shared_ptr<const BatchSchema> MergeOnReadReader::schema() const { return reader_->batch_schema(); }

bool MergeOnReadReader::load_next_row_group() {
  while (next_group_ < order_.size()) {
    const int32_t g = order_[next_group_++];
    const int64_t first = starts_[size_t(g)];
    const int64_t rows = starts_[size_t(g) + 1] - first;
    if (rows == 0) continue;
    const int64_t deleted = deletes_->count_range(first, first + rows);
    stats_.rows_deleted += deleted;
    if (deleted == rows) {
      ++stats_.row_groups_skipped;
      continue;
    }
    ++stats_.row_groups_read;
    dropped_ = 0;
    if (deleted == 0) {
      current_ = reader_->read_row_group(g);
    } else {
      current_ = read_with_deletes(g, first, rows, deleted);
    }
    position_ = 0;
    if (current_.num_rows - dropped_ != rows - deleted) {
      throw Error(ErrorCode::kInternal, "merge-on-read: row group " + std::to_string(g) + " returned " +
                                            std::to_string(current_.num_rows) + " rows, expected " +
                                            std::to_string(rows - deleted));
    }
    return true;
  }
  return false;
}

namespace {

// Whether `keep` (bit set: row kept; rows past the end set) has a run of at
// least `length` >= 64 cleared bits. A run that long crosses or fills whole
// words, so only the zeros at each word's two ends can join into it.
bool has_deleted_run(const std::vector<uint64_t>& keep, int64_t length) {
  int64_t run = 0;
  for (const uint64_t word : keep) {
    if (word == 0) {
      run += 64;
    } else {
      run += std::countr_zero(word);
      if (run >= length) return true;
      run = std::countl_zero(word);
    }
    if (run >= length) return true;
  }
  return false;
}

}  // namespace

RecordBatch MergeOnReadReader::read_with_deletes(int32_t g, int64_t first, int64_t rows, int64_t deleted) {
  if (rows > int64_t(UINT32_MAX)) {
    // Relative rows below are 32-bit; a row group this large (never written
    // in practice) takes the range-by-range path.
    ranges_ = surviving_ranges(*deletes_, first, rows);
    return reader_->read_row_group(g, ranges_);
  }
  // Deletes scattered over the row group (the usual deletion vector) read it
  // whole: the keep bitmap is cleared straight from the index, and only when
  // it holds a deleted run long enough to leave out of the read are the
  // deleted rows listed and the read split into ranges below.
  const int64_t skip_rows = std::clamp<int64_t>(rows / 16, 64, kSkipRows);
  {
    // The deleted rows' bits straight from the index's containers, then
    // inverted (bits past the last row come out set, as kept).
    keep_.assign(size_t((rows + 63) / 64), 0);
    deletes_->deleted_bitmap(first, rows, reinterpret_cast<uint8_t*>(keep_.data()));
    int64_t seen = 0;
    for (uint64_t& word : keep_) {
      seen += std::popcount(word);
      word = ~word;
    }
    if (seen != deleted) throw Error(ErrorCode::kInternal, "merge-on-read: delete count changed");
    if (!has_deleted_run(keep_, skip_rows)) {
      dropped_ = deleted;
      return reader_->read_row_group(g);
    }
  }
  // The row group's deleted rows, relative to its first row.
  deleted_rows_.resize(size_t(deleted));
  {
    PositionCursor cursor(*deletes_, first, first + rows);
    int64_t chunk[1024];
    size_t at = 0;
    for (size_t n; (n = cursor.next(chunk)) != 0;) {
      if (at + n > deleted_rows_.size())
        throw Error(ErrorCode::kInternal, "merge-on-read: delete count changed");
      for (size_t i = 0; i < n; ++i) deleted_rows_[at + i] = uint32_t(chunk[i] - first);
      at += n;
    }
    if (at != deleted_rows_.size()) throw Error(ErrorCode::kInternal, "merge-on-read: delete count changed");
  }
  // Rows to read: all but the long deleted runs. A run shorter than a page
  // skips nothing, so "long" scales with the row group (small row groups
  // have small pages), up to kSkipRows; holes are then few enough for the
  // range-by-range selection of the read to stay cheap.
  ranges_.clear();
  int64_t next_read = 0;  // first row not yet assigned to a range or a hole
  for (size_t i = 0; i < deleted_rows_.size();) {
    size_t j = i + 1;
    while (j < deleted_rows_.size() && deleted_rows_[j] == deleted_rows_[j - 1] + 1) ++j;
    const int64_t run_begin = deleted_rows_[i];
    const int64_t run_end = int64_t(deleted_rows_[j - 1]) + 1;
    if (run_end - run_begin >= skip_rows) {
      if (run_begin > next_read) ranges_.push_back({next_read, run_begin});
      next_read = run_end;
    }
    i = j;
  }
  if (next_read < rows) ranges_.push_back({next_read, rows});
  const bool whole = ranges_.size() == 1 && ranges_.front() == RowRange{0, rows};
  RecordBatch batch = whole ? reader_->read_row_group(g) : reader_->read_row_group(g, ranges_);

  // Keep bitmap over the rows read: ones, minus the deletes that fall inside
  // a read range (mapped to the batch's row numbers).
  const int64_t read_rows = batch.num_rows;
  keep_.assign(size_t((read_rows + 63) / 64), ~uint64_t(0));
  int64_t dropped = 0;
  int64_t base = 0;  // batch row of the current range's first row
  size_t d = 0;
  for (const RowRange& range : ranges_) {
    while (d < deleted_rows_.size() && deleted_rows_[d] < range.begin) ++d;
    for (; d < deleted_rows_.size() && deleted_rows_[d] < range.end; ++d) {
      const int64_t row = base + deleted_rows_[d] - range.begin;
      keep_[size_t(row >> 6)] &= ~(uint64_t(1) << (row & 63));
      ++dropped;
    }
    base += range.length();
  }
  // The rows still to drop are dropped chunk by chunk as next() hands them out.
  dropped_ = dropped;
  return batch;
}

bool MergeOnReadReader::next(RecordBatch& out) {
  for (;;) {
    while (position_ >= current_.num_rows) {
      // Let the reader reuse the previous row group's buffers: drop ours and
      // the caller's last slices of them (at the end `out` keeps its batch).
      current_ = RecordBatch{};
      if (next_group_ < order_.size()) out.columns.clear();
      if (!load_next_row_group()) return false;
    }
    if (dropped_ == 0) {
      const int64_t length = std::min(options_.batch_size, current_.num_rows - position_);
      out.schema = current_.schema;
      out.num_rows = length;
      out.columns.clear();
      for (const auto& column : current_.columns) out.columns.push_back(slice(column, position_, length));
      position_ += length;
      stats_.rows_returned += length;
      return true;
    }
    // Compact a cache-sized chunk of rows at a time: the consumer then reads
    // the compacted values while they are still in cache, so dropping the
    // deleted rows costs little more than writing the survivors once.
    const int64_t length = std::min({kFilterChunkRows, options_.batch_size, current_.num_rows - position_});
    const size_t words = size_t((length + 63) / 64);
    const size_t first_word = size_t(position_ >> 6);
    const int shift = int(position_ & 63);
    const uint64_t* keep = keep_.data() + first_word;
    if (shift != 0) {  // a batch_size that is not a multiple of 64: realign the bits
      chunk_keep_.resize(words);
      for (size_t w = 0; w < words; ++w) {
        const uint64_t high =
            first_word + w + 1 < keep_.size() ? keep_[first_word + w + 1] << (64 - shift) : 0;
        chunk_keep_[w] = (keep_[first_word + w] >> shift) | high;
      }
      keep = chunk_keep_.data();
    }
    int64_t kept = 0;
    for (size_t w = 0; w < words; ++w) {
      const int64_t rest = length - int64_t(w) * 64;
      const uint64_t mask = rest >= 64 ? ~uint64_t(0) : (uint64_t(1) << rest) - 1;
      kept += std::popcount(keep[w] & mask);
    }
    const int64_t start = position_;
    position_ += length;
    if (kept == 0) continue;
    if (!filter_buffers_) filter_buffers_ = std::make_unique<std::vector<FilterBuffers>>();
    filter_buffers_->resize(current_.columns.size());
    out.schema = current_.schema;
    out.num_rows = kept;
    out.columns.clear();
    const auto* keep_bytes = reinterpret_cast<const uint8_t*>(keep);
    for (size_t c = 0; c < current_.columns.size(); ++c) {
      const auto chunk = slice(current_.columns[c], start, length);
      out.columns.push_back(filter_rows(*chunk, keep_bytes, kept, &(*filter_buffers_)[c]));
    }
    stats_.rows_returned += kept;
    return true;
  }
}

int64_t MergeOnReadReader::next_selection(RecordBatch& out, std::vector<uint8_t>& selection) {
  // The caller's batch is the previous row group: release it first so the
  // reader refills those buffers instead of faulting in new ones.
  out.columns.clear();
  current_ = RecordBatch{};
  if (!load_next_row_group()) {
    out = RecordBatch{};
    selection.clear();
    return 0;
  }
  out = std::move(current_);
  current_ = RecordBatch{};
  position_ = 0;
  const int64_t kept = out.num_rows - dropped_;
  if (dropped_ == 0) {
    selection.clear();
  } else {
    // keep_ holds the bits little-endian word by word: byte k is rows 8k..8k+7.
    selection.resize(size_t((out.num_rows + 7) / 8));
    std::memcpy(selection.data(), keep_.data(), selection.size());
    if (out.num_rows % 8 != 0) selection.back() &= uint8_t((1u << (out.num_rows % 8)) - 1);
  }
  dropped_ = 0;
  stats_.rows_returned += kept;
  return kept;
}

}  // namespace parquetry::iceberg
