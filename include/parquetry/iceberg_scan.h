// Iceberg deletes applied through the Parquet reader: reading position-delete
// files into per-data-file indexes, and merge-on-read scans that drop deleted
// rows from a data file's batches.
//
//   auto deletes = parquetry::iceberg::read_position_deletes("deletes.parquet", "s3://.../data.parquet");
//   auto data = parquetry::FileReader::open("data.parquet", {.columns = {"fare_amount"}});
//   parquetry::iceberg::MergeOnReadReader scan(*data, deletes);
//   parquetry::RecordBatch batch;
//   while (scan.next(batch)) { ... only surviving rows ... }
//
// The reader-independent parts (PositionDeleteIndex, deletion vectors,
// Puffin, PositionIndexBuilder) are in parquetry/iceberg.h.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parquetry/export.h"
#include "parquetry/iceberg.h"
#include "parquetry/reader.h"
#include "parquetry/table.h"

namespace parquetry {
class RandomAccessSource;
struct FilterBuffers;
}  // namespace parquetry

namespace parquetry::iceberg {

/// Field ids of a position-delete file's columns (Iceberg format/spec.md).
inline constexpr int32_t kDeleteFilePathFieldId = 2147483546;
inline constexpr int32_t kDeletePosFieldId = 2147483545;
inline constexpr int32_t kDeleteRowFieldId = 2147483544;

/// What reading a delete file touched.
struct DeleteFileStats {
  int64_t row_groups_read = 0;
  /// Row groups whose `file_path` statistics exclude the wanted data file.
  int64_t row_groups_skipped = 0;
  /// Row groups of which only some pages were read (ColumnIndex pruning).
  int64_t row_groups_pruned = 0;
  /// Delete rows decoded (rows of skipped pages are not counted).
  int64_t rows_read = 0;
  /// Data pages decoded and skipped, as the FileReader counts them.
  int64_t pages_read = 0;
  int64_t pages_skipped = 0;
};

/// How a position-delete file is read. `reader` supplies threads, mmap, CRC
/// checks, batch size and limits; its column selection is replaced by the
/// `file_path` and `pos` columns (found by field id, else by name).
struct DeleteFileOptions {
  ReaderOptions reader;
  /// Keep only the deletes of this data file. Row groups whose `file_path`
  /// min/max statistics exclude it are not decoded, and within a row group
  /// pages excluded by the `file_path` ColumnIndex are skipped.
  std::optional<std::string> only_data_file;
};

/// Every delete of a position-delete Parquet file, one index per data file
/// (Iceberg's Deletes.toPositionIndexes). With options.only_data_file the map
/// holds at most that file. Throws kInvalidArgument when the file lacks a
/// `file_path` string column or a `pos` int64 column, kCorrupt on null or
/// out-of-range values.
PARQUETRY_API PositionIndexMap read_position_delete_file(const std::string& path,
                                                         const DeleteFileOptions& options = {},
                                                         DeleteFileStats* stats = nullptr);
PARQUETRY_API PositionIndexMap read_position_delete_file(std::shared_ptr<RandomAccessSource> source,
                                                         const DeleteFileOptions& options = {},
                                                         DeleteFileStats* stats = nullptr);

/// The deletes of one data file only (Iceberg's toPositionIndex with a
/// DataFileFilter), pruning row groups and pages as described above.
PARQUETRY_API PositionDeleteIndex read_position_deletes(const std::string& path, std::string_view data_file,
                                                        ReaderOptions reader = {},
                                                        DeleteFileStats* stats = nullptr);

/// The deletes a delete file holds for `data_file`, whatever its format:
/// - a Puffin file: the `deletion-vector-v1` blob whose referenced-data-file
///   equals `data_file`, or the only deletion vector when there is exactly one;
/// - a position-delete Parquet file: the rows whose file_path equals
///   `data_file`, or, when no row does and the file references exactly one
///   data file, that file's rows.
/// Throws kInvalidArgument when no deletes can be attributed to `data_file`.
PARQUETRY_API PositionDeleteIndex load_deletes_for(const std::string& delete_file, std::string_view data_file,
                                                   const ReaderOptions& reader = {});

struct MergeOnReadOptions {
  /// Row groups to scan, in this order; empty = every row group in file order.
  std::vector<int32_t> row_groups;
  /// Largest batch handed out by next().
  int64_t batch_size = 64 * 1024;
};

/// A BatchReader over the rows of a data file that `deletes` does not
/// delete, with the projection of `reader`. Row positions are file-wide:
/// the position of row r of row group g is (rows of the row groups before g)
/// + r. A row group whose rows are all deleted is not decoded. In one with
/// deletes, long runs of deleted rows (see kSkipRows) are left out of the read
/// (FileReader::read_row_group(g, ranges), so pages inside them are not
/// decoded when the file has an OffsetIndex); the scattered deletes that
/// remain are dropped as batches are handed out, by one keep-bitmap
/// compaction per column of kFilterChunkRows rows at a time, not one copy per
/// surviving range. `reader` and `deletes` must outlive this object.
class PARQUETRY_API MergeOnReadReader final : public BatchReader {
 public:
  MergeOnReadReader(FileReader& reader, const PositionDeleteIndex& deletes, MergeOnReadOptions options = {});
  ~MergeOnReadReader() override;

  std::shared_ptr<const BatchSchema> schema() const override;
  bool next(RecordBatch& out) override;
  /// The next row group with surviving rows, left in place instead of
  /// compacted: `out` holds every row read for it (the whole row group, or
  /// all but its long deleted runs) and `selection` marks the survivors
  /// (bit i = row i of `out`, (out.num_rows + 7) / 8 bytes), or is empty when
  /// every row of `out` survives. Returns the number of surviving rows; 0 at
  /// the end. For consumers that visit only the selected rows anyway
  /// (ScanAccumulator::add with a selection): nothing is copied. Do not mix
  /// with next() on one reader.
  int64_t next_selection(RecordBatch& out, std::vector<uint8_t>& selection);

  /// Deleted runs of at least min(kSkipRows, max(64, row group rows / 16))
  /// rows are not read (their pages can be skipped); shorter ones are read
  /// and compacted away.
  static constexpr int64_t kSkipRows = 1024;
  /// Rows compacted per batch when a row group has scattered deletes (a
  /// batch then holds at most min(batch_size, kFilterChunkRows) rows), so
  /// that the consumer reads the compacted values while they are in cache.
  static constexpr int64_t kFilterChunkRows = 8192;

  struct Stats {
    int64_t row_groups_read = 0;
    int64_t row_groups_skipped = 0;  ///< every row deleted: not decoded
    int64_t rows_deleted = 0;        ///< rows dropped so far
    int64_t rows_returned = 0;
  };
  const Stats& stats() const { return stats_; }

  /// The file-wide position of the first row of each row group (size:
  /// row groups + 1, the last entry being the file's row count).
  const std::vector<int64_t>& row_group_starts() const { return starts_; }

 private:
  bool load_next_row_group();
  RecordBatch read_with_deletes(int32_t g, int64_t first, int64_t rows, int64_t deleted);

  FileReader* reader_;
  const PositionDeleteIndex* deletes_;
  MergeOnReadOptions options_;
  std::vector<int64_t> starts_;
  std::vector<int32_t> order_;
  size_t next_group_ = 0;
  RecordBatch current_;
  int64_t position_ = 0;
  std::vector<RowRange> ranges_;
  std::vector<uint32_t> deleted_rows_;  // deletes of the current row group, relative rows
  std::vector<uint64_t> keep_;          // keep bitmap of the rows read
  std::vector<uint64_t> chunk_keep_;    // keep bits of one chunk, realigned
  int64_t dropped_ = 0;                 // rows of current_ still to drop (0: none)
  // Output memory of the compaction, per column, reused row group after row group.
  std::unique_ptr<std::vector<FilterBuffers>> filter_buffers_;
  Stats stats_;
};

/// Surviving rows of [first_row, first_row + num_rows) as ranges relative to
/// first_row (sorted, disjoint, non-empty; one range when nothing is deleted).
PARQUETRY_API std::vector<RowRange> surviving_ranges(const PositionDeleteIndex& deletes, int64_t first_row,
                                                     int64_t num_rows);

}  // namespace parquetry::iceberg
