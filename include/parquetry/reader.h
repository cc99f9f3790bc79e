// Reading Parquet files into Arrow-layout batches.
//
//   auto reader = parquetry::FileReader::open("taxi.parquet", {.columns = {"fare_amount"}});
//   auto batches = reader->batches();
//   parquetry::RecordBatch batch;
//   while (batches->next(batch)) { ... batch.columns[0] ... }
//
// batches() streams: each column chunk is decoded page by page into buffers
// of about `batch_size` rows (columns in parallel when `threads` > 1), so
// memory is bounded by threads x batch x row width plus the fetched
// compressed bytes, whatever the row-group size. The buffers come from a
// pool of the reader and are refilled for a later batch once the consumer
// has dropped every array that shares them; a batch the consumer keeps is
// never overwritten. read_row_group() decodes a whole row group at once.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "parquetry/encryption.h"
#include "parquetry/export.h"
#include "parquetry/limits.h"
#include "parquetry/metadata.h"
#include "parquetry/schema.h"
#include "parquetry/table.h"

namespace parquetry {

class RandomAccessSource;

/// Smallest coalescing gap on a remote source: a request's round trip costs
/// as much as transferring about a megabyte.
inline constexpr int64_t kRemoteCoalesceGap = 1 << 20;

struct ReaderOptions {
  /// Columns to read, by dotted path; a group's path selects every leaf under
  /// it. Empty (and no field_ids) = every column.
  std::vector<std::string> columns;
  /// Columns to read by Parquet field id (a group's id selects its subtree).
  std::vector<int32_t> field_ids;
  /// Row groups to read, in this order; empty = all.
  std::vector<int32_t> row_groups;
  /// Rows per batch handed out by batches() (the last batch of a row group
  /// may be shorter: batches do not span row groups). Also the unit the
  /// batch stream decodes into, so it bounds the stream's memory.
  int64_t batch_size = 64 * 1024;
  /// Threads decoding columns (of a row group, or of a batch of batches())
  /// in parallel (1 = the caller's thread only).
  int threads = 1;
  /// Map the file instead of reading it with pread. Off by default: pread
  /// copies each coalesced range into a buffer that is reused, while a
  /// mapping takes a page fault per 16 pages first touched and a TLB walk per
  /// page, which under virtualisation cost more than the copy (a filtered
  /// scan of the taxi file: 97 ms mapped, 66 ms with pread).
  bool use_mmap = false;
  /// Verify page CRCs where present; a mismatch is a kCorrupt error naming the page.
  bool verify_crc = false;
  /// Unit INT96 timestamps are converted to. Nanoseconds (the default) cover
  /// 1677..2262; Spark files may hold instants outside that range, which
  /// microseconds represent exactly.
  ArrowTimeUnit int96_unit = ArrowTimeUnit::kNano;
  /// Read INT96 columns as their stored 12 bytes instead: fixed_size_binary(12)
  /// with extension name "parquet.int96" (writer.h kInt96Extension), which
  /// FileWriter writes back as INT96 bit for bit. For copying files: no
  /// instant is lost to the range of a unit.
  bool int96_as_binary = false;
  /// Read top-level, non-boolean columns whose every chunk the footer shows
  /// dictionary-encoded as Arrow dictionary arrays (int32 indices + that row
  /// group's dictionary) instead of gathering the values: no per-value copy,
  /// and consumers can work per distinct value. Their fields' type becomes
  /// dictionary<value type>. A chunk that turns out to hold other pages after
  /// all still reads correctly (its values become its own dictionary).
  bool dictionary_arrays = false;
  /// Coalesced reads: the byte ranges one row-group read needs (projected
  /// column chunks, or the pages the page index keeps plus the dictionary
  /// page before them) are merged when the gap between neighbours is at most
  /// this many bytes, and each merged range is fetched with one read; the
  /// gap's bytes are read and dropped (Stats::bytes_unused). 0 = one read per
  /// range. The default suits local files: a read call costs about as much
  /// as copying a few tens of KiB from the page cache, so merging over up to
  /// 64 KiB saves calls for narrow chunks, dictionary pages and short runs
  /// of skipped pages while wasting little; remote sources, where a request
  /// costs milliseconds, want megabytes: on a remote source (s3://,
  /// http(s)://) the gap is at least kRemoteCoalesceGap. docs/limits.md and
  /// docs/remote.md discuss it.
  int64_t coalesce_gap = 64 << 10;
  /// Largest merged read, in bytes (a single range larger than this is still
  /// read whole, alone). Bounds the buffer one read fills.
  int64_t coalesce_max_size = 64LL << 20;
  /// Read-ahead memory budget, in bytes: the bytes fetched but not yet
  /// decoded, across the row groups in flight. With `threads` > 1 and a
  /// source that copies (pread, not mmap or memory), a background thread
  /// fetches the next row groups of a whole-row-group scan (batches(),
  /// read_all(), read_row_group in file order; on a remote source also with
  /// `threads` = 1) while the current one
  /// decodes, up to this budget. A row group needing more than the budget
  /// is fetched in column groups within it, and a single column chunk larger
  /// than the budget is read alone, so a small budget slows a scan down but
  /// never stalls it. 0 turns read-ahead off. Also bounds how many bytes one
  /// row-group read fetches at once without read-ahead.
  int64_t read_ahead_budget = 256LL << 20;
  /// Windowed reads: a streamed scan (batches() and what runs on it) of a
  /// local file (pread, not mmap, memory or remote sources) whose row groups
  /// hold more than `window_above` selected bytes reads each column chunk
  /// `window_bytes` at a time (or a whole page when that is larger) into a
  /// buffer per column reused chunk after chunk, instead of fetching whole
  /// row groups: memory stays bounded by columns x window however large the
  /// row groups. A 1M-row taxi group is ~20 MB; copying it whole put that
  /// much fresh memory (~5,000 page faults) into every cold scan and into a
  /// rewrite's peak RSS. Smaller groups keep the coalesced whole-group fetch
  /// and the read-ahead. Decided once per reader from its largest selected
  /// row group; negative turns windows off.
  int64_t window_above = 8LL << 20;
  int64_t window_bytes = 256LL << 10;
  /// Keys of encrypted files (parquetry/encryption.h). Without keys,
  /// plaintext files and the clear columns of plaintext-footer files read as
  /// usual; asking for an encrypted column without its key is an error.
  DecryptionOptions decryption;
  Limits limits;
};

class FileDecryptor;

class PARQUETRY_API FileReader {
 public:
  /// Opens a file and reads its footer.
  static std::unique_ptr<FileReader> open(const std::string& path, ReaderOptions options = {});
  /// Reads from any source (memory, a custom object-store source...).
  static std::unique_ptr<FileReader> open(std::shared_ptr<RandomAccessSource> source,
                                          ReaderOptions options = {});
  ~FileReader();

  const FileMetaData& metadata() const;
  /// The file's Parquet schema.
  const Schema& schema() const;
  /// The Arrow schema of the batches (the projected top-level fields).
  std::shared_ptr<const BatchSchema> batch_schema() const;
  /// Leaf column indexes the projection reads.
  const std::vector<int32_t>& selected_columns() const;
  int num_row_groups() const;

  /// Decodes one whole row group (projected) into a batch.
  RecordBatch read_row_group(int index);
  /// Decodes only rows `ranges` (sorted, disjoint, inside the row group) of a
  /// row group. A column whose chunk has an OffsetIndex reads and decompresses
  /// only the pages overlapping the ranges (for top-level fields with one
  /// leaf; wider nested fields are decoded whole); the batch holds exactly the
  /// requested rows.
  RecordBatch read_row_group(int index, std::span<const RowRange> ranges);
  /// Decodes one projected top-level field (an index into batch_schema()
  /// fields) of a row group, whole or only rows `ranges` as above: for
  /// consumers that finish with a column while its values are still in
  /// cache before decoding the next.
  std::shared_ptr<ArrayData> read_field(int row_group, int field);
  std::shared_ptr<ArrayData> read_field(int row_group, int field, std::span<const RowRange> ranges);
  /// Decodes only the rows of a row group whose bit is set in `selection`
  /// (bit i = row i; the bitmap covers all the row group's rows) of one
  /// projected top-level field; the array holds just those rows, in order.
  /// A flat leaf of fixed-width values (or dictionary indices) decodes its
  /// levels whole but its values only at the selected rows, which is what a
  /// sparse filter wants; other fields are decoded whole and the rows picked
  /// afterwards. Pages are still read and decompressed whole.
  std::shared_ptr<ArrayData> read_field_selected(int row_group, int field, const uint8_t* selection);

  /// What the reader has touched so far.
  struct Stats {
    int64_t pages_read = 0;     ///< data pages decoded
    int64_t pages_skipped = 0;  ///< data pages the page index let the reader skip
    int64_t bytes_skipped = 0;  ///< compressed bytes of skipped pages (headers included)
    int64_t read_calls = 0;     ///< reads issued to the source (coalesced ranges, offset indexes)
    int64_t bytes_read = 0;     ///< bytes those reads returned (views for mmap and memory sources)
    int64_t bytes_unused = 0;   ///< of those, bytes read only because they lay in a coalesced gap
    /// Most bytes held at once fetched but not yet decoded (0 for mmap and
    /// memory sources, which copy nothing); at most max(read_ahead_budget,
    /// the largest single column chunk read).
    int64_t peak_fetched_bytes = 0;
    /// Buffers the batch stream (batches()) allocated for decoded levels and
    /// values, and the times it refilled one a consumer had released instead:
    /// a streaming scan allocates a few per column, not per batch.
    int64_t batch_buffer_allocations = 0;
    int64_t batch_buffer_reuses = 0;
  };
  Stats stats() const;
  /// Streams batches over the selected row groups, in file order. The stream
  /// shares the reader's state, so it stays valid after the FileReader is
  /// destroyed (`FileReader::open(path)->batches()` is a whole stream, which
  /// export_stream() can hand to a consumer that outlives the caller's scope).
  /// A stream and its reader (or two streams of one reader) are not to be
  /// used from two threads at once.
  std::unique_ptr<BatchReader> batches();
  /// Every selected row as one list of batches (one per row group).
  std::vector<RecordBatch> read_all();

  /// Opaque implementation (declared here so the batch streams can share it).
  struct Impl;

 private:
  friend const FileDecryptor* file_decryptor_of(const FileReader& reader);
  explicit FileReader(std::shared_ptr<Impl> impl);
  // Shared with the batch streams of batches(), which may outlive the reader.
  std::shared_ptr<Impl> impl_;
};

/// A zero-copy slice [offset, offset + length) of an array.
PARQUETRY_API std::shared_ptr<ArrayData> slice(const std::shared_ptr<ArrayData>& array, int64_t offset,
                                               int64_t length);

}  // namespace parquetry
