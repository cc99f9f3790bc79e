// A scan that reads only what a predicate can select.
//
//   FilteredScanOptions options;
//   options.filter = col("PULocationID") == 132;
//   options.columns = {"fare_amount", "_row_number"};
//   auto scan = FilteredScan::open("taxi.parquet", options);
//   RecordBatch batch;
//   while (scan->next(batch)) { ... }   // only rows where PULocationID = 132
//
// Per row group, cheapest proof first: chunk statistics, dictionary pages
// (every dictionary-encoded value absent), Bloom filters (one 32-byte block
// per literal), then the column index, which narrows the row group to the
// row ranges of pages that may match. The predicate columns are read for
// those ranges and evaluated; the other projected columns are then read only
// for the surviving rows (late materialization), or whole when the filter
// keeps most rows. Each level's effect is counted in stats(). Statistics
// (chunk and column index) are used only as far as the writer catalogue
// (writer_quirks.h) trusts the file's writer with them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "parquetry/predicate.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"

namespace parquetry {

/// Virtual columns a FilteredScan can project beside file columns.
inline constexpr const char* kRowNumberColumn = "_row_number";  ///< int64 row index within the file
inline constexpr const char* kRowGroupColumn = "_row_group";    ///< int32 row-group index

struct FilteredScanOptions {
  /// Columns to output (dotted paths, groups select their leaves, plus the
  /// virtual columns above); empty = every file column.
  std::vector<std::string> columns;
  Predicate filter;  ///< default: TRUE (every row)
  int threads = 1;
  bool use_statistics = true;
  bool use_dictionary = true;
  bool use_bloom_filter = true;
  bool use_page_index = true;
  /// Read the other columns only for surviving rows; when false (or when the
  /// filter keeps more than `dense_fraction` of a row group's rows) they are
  /// decoded whole and the surviving rows copied out.
  bool late_materialization = true;
  double dense_fraction = 0.5;
  /// Map the file instead of reading it with pread (see ReaderOptions::use_mmap).
  bool use_mmap = false;
  /// Coalesced reads of every reader the scan opens (ReaderOptions::coalesce_gap
  /// and coalesce_max_size): pages the page index keeps are merged into one
  /// read when the skipped bytes between them are at most the gap.
  int64_t coalesce_gap = ReaderOptions{}.coalesce_gap;
  int64_t coalesce_max_size = ReaderOptions{}.coalesce_max_size;
  /// Output dictionary-encoded columns as dictionary arrays (see
  /// ReaderOptions::dictionary_arrays); predicates use them internally always.
  bool dictionary_arrays = false;
  /// For a filter that is an AND at the top: evaluate one conjunct at a
  /// time, each on the rows the previous ones kept (its columns read only for
  /// them, skipping pages through the page index), ordered by the pass rate
  /// measured on the row groups so far, lowest first.
  bool adaptive_order = true;
  /// Keys of an encrypted file (ReaderOptions::decryption); the page index,
  /// Bloom filters and dictionaries of encrypted columns are decrypted for
  /// pruning with the same keys.
  DecryptionOptions decryption;
};

/// What each pruning level removed (cumulative over the scan).
struct FilterStats {
  int64_t row_groups = 0;  ///< row groups considered
  int64_t row_groups_pruned_statistics = 0;
  int64_t row_groups_pruned_dictionary = 0;
  int64_t row_groups_pruned_bloom = 0;
  int64_t row_groups_pruned_page_index = 0;  ///< every page excluded
  int64_t rows_total = 0;                    ///< rows of the considered row groups
  int64_t rows_after_page_index = 0;         ///< rows of pages read for the predicate
  int64_t rows_selected = 0;
  int64_t pages_read = 0;
  int64_t pages_skipped = 0;
  int64_t bytes_skipped = 0;            ///< compressed page bytes skipped through the page index
  int64_t bytes_pruned_row_groups = 0;  ///< compressed bytes of projected chunks in pruned row groups
  int64_t bloom_bytes_read = 0;
  int64_t dictionary_bytes_read = 0;
  int64_t dense_row_groups = 0;  ///< row groups whose other columns were decoded whole
};

class FilteredScan {
 public:
  static std::unique_ptr<FilteredScan> open(const std::string& path, FilteredScanOptions options);
  ~FilteredScan();

  /// Output columns: the projected file columns in file order, then the
  /// virtual columns in the order requested.
  std::shared_ptr<const BatchSchema> schema() const;
  /// The next non-empty batch (the surviving rows of one row group); false at the end.
  bool next(RecordBatch& out);
  /// The next row group with surviving rows, left in place instead of copied
  /// out: `out` holds every row the scan decoded for it (the whole row group,
  /// or the rows of the pages the page index kept for the predicate) and
  /// `selection` a bitmap over out.num_rows rows, bit set for each surviving
  /// row. Returns the number of surviving rows; 0 at the end. Predicate
  /// columns in the projection are not decoded a second time. For consumers
  /// that visit only the selected rows anyway (ScanAccumulator::add with a
  /// selection): the other columns are decoded for all of `out`'s rows, never
  /// gathered into a compact copy. Do not mix with next() on one scan.
  int64_t next_selection(RecordBatch& out, std::vector<uint8_t>& selection);
  /// The full-scan fold (scan.h) of the rows `options.filter` keeps: equal
  /// to folding the batches of next(), but folded through next_selection's
  /// bitmaps. With threads > 1 and several row groups, that many scans split
  /// the row groups (each row group decoded and folded on one thread) and
  /// their folds are merged.
  static ScanSummary fold(const std::string& path, const FilteredScanOptions& options);
  const FilterStats& stats() const;
  /// Multi-line description of what was pruned so far (for --explain).
  std::string explain() const;

  struct Impl;

 private:
  explicit FilteredScan(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace parquetry
