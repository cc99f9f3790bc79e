// Merge-on-read: a data file's batches without the rows a PositionDeleteIndex
// deletes. Work is decided per row group from the index alone: a row group
// with every row deleted is never decoded, one without deletes is read whole,
// and one with some deletes is read through its surviving row ranges, so the
// FileReader skips pages (via the OffsetIndex) whose rows are all deleted and
// compacts the rest.
#include <algorithm>
#include <string>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/iceberg_scan.h"

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
    if (deleted == 0) {
      current_ = reader_->read_row_group(g);
    } else {
      ranges_ = surviving_ranges(*deletes_, first, rows);
      current_ = reader_->read_row_group(g, ranges_);
    }
    position_ = 0;
    if (current_.num_rows != rows - deleted) {
      throw Error(ErrorCode::kInternal, "merge-on-read: row group " + std::to_string(g) + " returned " +
                                            std::to_string(current_.num_rows) + " rows, expected " +
                                            std::to_string(rows - deleted));
    }
    return true;
  }
  return false;
}

bool MergeOnReadReader::next(RecordBatch& out) {
  while (position_ >= current_.num_rows) {
    current_ = RecordBatch{};  // let the reader reuse the previous row group's buffers
    if (!load_next_row_group()) return false;
  }
  const int64_t length = std::min(options_.batch_size, current_.num_rows - position_);
  out.schema = current_.schema;
  out.num_rows = length;
  out.columns.clear();
  for (const auto& column : current_.columns) out.columns.push_back(slice(column, position_, length));
  position_ += length;
  stats_.rows_returned += length;
  return true;
}

}  // namespace parquetry::iceberg
