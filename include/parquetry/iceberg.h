// Iceberg row-level deletes: position-delete indexes, deletion vectors and
// Puffin files.
//
// A PositionDeleteIndex is the set of deleted row positions of one data file,
// kept as 32-bit roaring bitmaps keyed by the high 32 bits of the position
// (the layout of Iceberg's deletion vectors). It is built from position-delete
// files batch-wise (to_position_indexes), from deletion vectors
// (deserialize_deletion_vector), and consulted by merge-on-read scans through
// PositionCursor and deleted_bitmap().
//
// Formats: apache/iceberg format/spec.md ("Deletion Vectors", "Position Delete
// Files") and format/puffin-spec.md (Puffin, `deletion-vector-v1`).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parquetry/export.h"
#include "parquetry/limits.h"
#include "parquetry/version.h"

// CRoaring's C bitmap type; declared here so that users of this header do not
// need the roaring headers.
struct roaring_bitmap_s;

namespace parquetry::iceberg {

/// Largest row position a deletion vector may hold. The spec requires the most
/// significant bit to be 0; the reference implementation (Java's
/// RoaringPositionBitmap) further caps keys at INT32_MAX - 1 and positions at
/// (INT32_MAX - 1) << 32 | 0x80000000. We enforce the same bound so that every
/// vector we write is readable by it.
inline constexpr int64_t kMaxDeletePosition = 0x7FFFFFFE80000000LL;
/// Largest high-32-bit key accepted in a serialized vector (INT32_MAX - 1).
inline constexpr uint32_t kMaxDeleteKey = 0x7FFFFFFEu;

/// The set of deleted row positions of one data file.
class PARQUETRY_API PositionDeleteIndex {
 public:
  PositionDeleteIndex() = default;
  ~PositionDeleteIndex();
  PositionDeleteIndex(const PositionDeleteIndex& other);
  PositionDeleteIndex& operator=(const PositionDeleteIndex& other);
  PositionDeleteIndex(PositionDeleteIndex&& other) noexcept;
  PositionDeleteIndex& operator=(PositionDeleteIndex&& other) noexcept;

  /// Marks `pos` deleted. Throws kInvalidArgument unless 0 <= pos <= kMaxDeletePosition.
  void add(int64_t pos);
  /// Marks every position in [begin, end) deleted (no-op when begin >= end).
  void add_range(int64_t begin, int64_t end);
  /// Marks a batch of positions deleted, in any order (sorted input is fastest:
  /// runs sharing a high key go to the bitmap in one call, and runs of
  /// consecutive positions become ranges). All positions are validated first,
  /// so on error nothing has been added.
  void add_many(std::span<const int64_t> positions);
  /// Adds every position of `other` (set union).
  void merge(const PositionDeleteIndex& other);

  bool contains(int64_t pos) const;
  /// Number of deleted positions.
  int64_t cardinality() const;
  bool empty() const;
  /// Number of deleted positions in [begin, end).
  int64_t count_range(int64_t begin, int64_t end) const;
  /// Smallest / largest deleted position, or -1 when empty.
  int64_t min() const;
  int64_t max() const;
  /// Converts containers to run-length encoding where smaller (as Iceberg's
  /// writer does before serializing). Returns whether anything changed.
  bool run_optimize();

  /// Sets bit i (LSB-first, Arrow order) of `bits` when row first_row + i is
  /// deleted and clears it otherwise, for i in [0, num_rows). `bits` must hold
  /// (num_rows + 7) / 8 bytes.
  void deleted_bitmap(int64_t first_row, int64_t num_rows, uint8_t* bits) const;

  /// Calls fn(int64_t pos) for every position in ascending order.
  template <typename Fn>
  void for_each(Fn&& fn) const;

  /// Size of the portable 64-bit roaring serialization (RoaringFormatSpec's
  /// 64-bit extension: u64 LE bitmap count, then per key u32 LE key + 32-bit
  /// portable bitmap). Byte-identical to CRoaring's Roaring64Map::write(portable).
  size_t portable_size() const;
  /// Writes exactly portable_size() bytes to `out`; returns that size.
  size_t serialize_portable(uint8_t* out) const;
  std::vector<uint8_t> serialize_portable() const;
  /// Parses a portable 64-bit roaring bitmap that fills `bytes` exactly. Every
  /// count, key, container header and container payload is validated (keys
  /// strictly ascending, <= kMaxDeleteKey, positions <= kMaxDeletePosition,
  /// sorted containers, consistent cardinalities); empty bitmaps, which Java
  /// writes for unused keys, are accepted and dropped. Throws kCorrupt.
  static PositionDeleteIndex deserialize_portable(std::span<const uint8_t> bytes);

  /// Number of 32-bit bitmaps (distinct high keys) the serialization holds.
  size_t bitmap_count() const;

 private:
  friend class PositionCursor;
  struct Entry {
    uint32_t key = 0;
    roaring_bitmap_s* bitmap = nullptr;
  };
  // Up to kSmallCapacity positions are kept inline, sorted, without any
  // bitmap: a delete file that references a million data files with one or
  // two deletes each would otherwise pay several CRoaring allocations per
  // file. The first add beyond that moves them into bitmaps.
  static constexpr uint32_t kSmallCapacity = 3;
  // Bitmap mode: a small vector of (key, bitmap) with one inline slot (nearly
  // every data file has fewer than 2^32 rows, so one key).
  struct Bitmaps {
    Entry inline_entry;
    Entry* heap;  // owned, new[]; nullptr while the inline slot suffices
  };
  union Storage {
    Bitmaps bitmaps;
    int64_t small[kSmallCapacity];
  };

  bool is_small() const { return small_size_ != 0; }
  Entry* entries() { return storage_.bitmaps.heap ? storage_.bitmaps.heap : &storage_.bitmaps.inline_entry; }
  const Entry* entries() const {
    return storage_.bitmaps.heap ? storage_.bitmaps.heap : &storage_.bitmaps.inline_entry;
  }
  const Entry* find(uint32_t key) const;
  roaring_bitmap_s* bitmap_for(uint32_t key);
  bool small_insert(int64_t pos);
  void promote();
  void reset_to_empty();
  void clear();
  PositionDeleteIndex as_bitmaps() const;

  Storage storage_{.bitmaps = {Entry{}, nullptr}};
  uint32_t size_ = 0;        // bitmaps held (bitmap mode)
  uint32_t capacity_ = 1;    // bitmap slots available
  uint32_t small_size_ = 0;  // inline positions held (small mode when > 0)
};

/// Batch iteration over the positions of an index within [begin, end), in
/// ascending order; the index must not change while a cursor is in use.
class PARQUETRY_API PositionCursor {
 public:
  explicit PositionCursor(const PositionDeleteIndex& index, int64_t begin = 0,
                          int64_t end = kMaxDeletePosition + 1);
  ~PositionCursor();
  PositionCursor(const PositionCursor&) = delete;
  PositionCursor& operator=(const PositionCursor&) = delete;

  /// Writes up to out.size() next positions to `out`; returns how many
  /// (0 once the range is exhausted).
  size_t next(std::span<int64_t> out);

 private:
  bool open_entry();

  const PositionDeleteIndex* index_;
  int64_t end_;
  uint32_t small_next_ = 0;  // next inline position (small indexes)
  size_t entry_ = 0;
  uint32_t start_low_ = 0;  // first low 32 bits to visit in the first entry
  struct Iter;
  std::unique_ptr<Iter> iter_;
  bool done_ = false;
};

template <typename Fn>
void PositionDeleteIndex::for_each(Fn&& fn) const {
  PositionCursor cursor(*this);
  int64_t chunk[512];
  for (size_t n; (n = cursor.next(chunk)) != 0;) {
    for (size_t i = 0; i < n; ++i) fn(chunk[i]);
  }
}

// ---------------------------------------------------------------------------
// Deletion vectors (`deletion-vector-v1` blobs)

/// Magic bytes that open a deletion vector's bitmap section.
inline constexpr uint8_t kDeletionVectorMagic[4] = {0xD1, 0xD3, 0x39, 0x64};
/// Bytes a deletion vector adds around the portable bitmap: length, magic, CRC.
inline constexpr size_t kDeletionVectorOverhead = 12;

/// Size of the `deletion-vector-v1` blob for `index`.
PARQUETRY_API size_t deletion_vector_size(const PositionDeleteIndex& index);
/// Serializes `index` as a `deletion-vector-v1` blob: u32 BE length of
/// (magic + bitmap), magic D1 D3 39 64, portable 64-bit roaring bitmap, u32 BE
/// CRC-32 of (magic + bitmap). Call run_optimize() first to match Iceberg's
/// writer (smaller output).
PARQUETRY_API std::vector<uint8_t> serialize_deletion_vector(const PositionDeleteIndex& index);
/// Parses a `deletion-vector-v1` blob. Checks the length field against the
/// blob size, the magic, the CRC and (when given) the cardinality recorded in
/// metadata (the manifest's record_count or the blob's `cardinality` property).
/// Throws kCorrupt with a message naming the failed check.
PARQUETRY_API PositionDeleteIndex deserialize_deletion_vector(
    std::span<const uint8_t> blob, std::optional<int64_t> expected_cardinality = std::nullopt);

// ---------------------------------------------------------------------------
// Puffin files

/// Compression of a Puffin blob or footer.
enum class PuffinCodec { kNone, kLz4, kZstd };

/// The JSON name of a codec ("lz4", "zstd"; "" for none).
PARQUETRY_API std::string_view puffin_codec_name(PuffinCodec codec);

inline constexpr std::string_view kDeletionVectorBlobType = "deletion-vector-v1";
inline constexpr std::string_view kReferencedDataFileProperty = "referenced-data-file";
inline constexpr std::string_view kCardinalityProperty = "cardinality";
/// Field id of the `_pos` metadata column, which DV blobs list in `fields`.
inline constexpr int32_t kRowPositionFieldId = 2147483645;

using PuffinProperties = std::vector<std::pair<std::string, std::string>>;

/// One entry of the footer's `blobs` list.
struct PARQUETRY_API PuffinBlobMetadata {
  std::string type;
  std::vector<int32_t> fields;
  int64_t snapshot_id = -1;
  int64_t sequence_number = -1;
  int64_t offset = 0;  ///< where the (possibly compressed) blob starts in the file
  int64_t length = 0;  ///< stored length, after compression
  PuffinCodec codec = PuffinCodec::kNone;
  PuffinProperties properties;

  /// The value of property `key`, or nullptr.
  const std::string* property(std::string_view key) const;
};

/// The footer payload.
struct PARQUETRY_API PuffinFileMetadata {
  std::vector<PuffinBlobMetadata> blobs;
  PuffinProperties properties;

  const std::string* property(std::string_view key) const;
};

struct PuffinWriterOptions {
  /// Compress the footer payload as one LZ4 frame (flag bit 0).
  bool compress_footer = false;
  /// Value of the `created-by` file property (omitted when empty).
  std::string created_by = "parquetry " PARQUETRY_VERSION_STRING;
};

/// Builds a Puffin file in memory: Magic, blobs, footer.
class PARQUETRY_API PuffinWriter {
 public:
  explicit PuffinWriter(PuffinWriterOptions options = {});

  /// Appends a blob, compressing it with `codec`; returns its metadata, whose
  /// offset and length address the stored bytes.
  const PuffinBlobMetadata& add_blob(std::string type, std::vector<int32_t> fields,
                                     std::span<const uint8_t> data, PuffinCodec codec = PuffinCodec::kNone,
                                     PuffinProperties properties = {}, int64_t snapshot_id = -1,
                                     int64_t sequence_number = -1);
  /// Appends a `deletion-vector-v1` blob for `referenced_data_file`, with the
  /// properties, fields and -1 snapshot id / sequence number the spec asks
  /// for. The returned offset and length are the manifest's content_offset
  /// and content_size_in_bytes.
  const PuffinBlobMetadata& add_deletion_vector(std::string_view referenced_data_file,
                                                const PositionDeleteIndex& index);
  /// Sets a file-level property (in addition to created-by).
  void set_property(std::string key, std::string value);

  /// Writes the footer and returns the whole file. The writer is then empty.
  std::vector<uint8_t> finish();

 private:
  PuffinWriterOptions options_;
  std::vector<uint8_t> out_;
  PuffinFileMetadata metadata_;
};

/// Serializes a footer payload to JSON (uncompressed), as written by PuffinWriter.
PARQUETRY_API std::string puffin_footer_json(const PuffinFileMetadata& metadata);

/// Reads a Puffin file held in memory (the bytes must outlive the reader).
class PARQUETRY_API PuffinReader {
 public:
  /// Parses and validates the footer: both magics, payload size, flags,
  /// (decompressed) JSON, and every blob's offset/length within the blob area.
  explicit PuffinReader(std::span<const uint8_t> file, const Limits& limits = {});

  const PuffinFileMetadata& metadata() const { return metadata_; }
  /// Total footer size (Magic + payload + size + flags + Magic).
  int64_t footer_size() const { return footer_size_; }
  /// Whether the footer payload is an LZ4 frame (flag bit 0).
  bool footer_compressed() const { return footer_compressed_; }

  /// The stored bytes of a blob (still compressed, if it is).
  std::span<const uint8_t> stored_blob(const PuffinBlobMetadata& blob) const;
  /// The blob's bytes, decompressed when it has a codec.
  std::vector<uint8_t> read_blob(const PuffinBlobMetadata& blob) const;
  /// Reads a `deletion-vector-v1` blob, checking it against its `cardinality`
  /// property; blobs lacking `cardinality` or `referenced-data-file` (both
  /// required by the spec) are corrupt.
  PositionDeleteIndex read_deletion_vector(const PuffinBlobMetadata& blob) const;

 private:
  std::span<const uint8_t> file_;
  Limits limits_;
  PuffinFileMetadata metadata_;
  int64_t footer_size_ = 0;
  bool footer_compressed_ = false;
};

/// Reads the deletion vector a manifest entry addresses: `content_size` bytes
/// at `content_offset` of the Puffin file, checked against `record_count`.
PARQUETRY_API PositionDeleteIndex read_deletion_vector(std::span<const uint8_t> puffin_file,
                                                       int64_t content_offset, int64_t content_size,
                                                       std::optional<int64_t> record_count);

// ---------------------------------------------------------------------------
// Position-delete files -> per-data-file indexes

/// An Arrow-layout string column (utf8): `length` values, value i being
/// data[offsets[i], offsets[i + 1]). `offsets` holds length + 1 entries; the
/// caller's data buffer holds `data_size` bytes. `validity` is an optional
/// LSB-first bitmap (1 = valid).
struct StringColumn {
  const int32_t* offsets = nullptr;
  const uint8_t* data = nullptr;
  int64_t data_size = 0;
  const uint8_t* validity = nullptr;
  int64_t length = 0;
};

/// A dictionary-encoded string column: value i is dictionary[indices[i]].
struct DictionaryStringColumn {
  const int32_t* indices = nullptr;
  const uint8_t* validity = nullptr;
  int64_t length = 0;
  StringColumn dictionary;
};

/// One decoded batch of a position-delete file: `file_path` either plain or
/// dictionary-encoded (set exactly one), and `pos`. A Parquet delete-file
/// reader feeds one of these per decoded batch.
struct PositionDeleteBatch {
  const StringColumn* file_path = nullptr;
  const DictionaryStringColumn* file_path_dictionary = nullptr;
  const int64_t* pos = nullptr;
  const uint8_t* pos_validity = nullptr;
  int64_t length = 0;
  /// Set when the dictionary holds the same strings as the previous batch's
  /// (a Parquet reader knows: same column chunk). The builder then reuses its
  /// dictionary-index -> data-file lookups instead of hashing paths again.
  bool same_dictionary_as_previous = false;
};

/// Data-file path -> its PositionDeleteIndex. Paths live in an arena owned by
/// the map; iteration is in first-seen order.
class PARQUETRY_API PositionIndexMap {
 public:
  PositionIndexMap();
  ~PositionIndexMap();
  PositionIndexMap(PositionIndexMap&&) noexcept;
  PositionIndexMap& operator=(PositionIndexMap&&) noexcept;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  /// The index for `path`, or nullptr.
  const PositionDeleteIndex* find(std::string_view path) const;
  /// The index for `path`, created empty when missing. The reference stays
  /// valid until the next get_or_add.
  PositionDeleteIndex& get_or_add(std::string_view path);

  std::string_view path(size_t i) const { return entry(i).path; }
  const PositionDeleteIndex& index(size_t i) const { return entry(i).index; }
  PositionDeleteIndex& index(size_t i) { return entry(i).index; }
  /// Total deleted positions over all files.
  int64_t total_cardinality() const;

  /// Slot of `path` (created when missing); internal to the builder.
  uint32_t slot(std::string_view path);
  /// Expects about `files` data files (a hint; bounded by the caller's input).
  void reserve(size_t files);

 private:
  struct Entry {
    std::string_view path;
    uint64_t hash;
    PositionDeleteIndex index;
  };
  std::string_view store(std::string_view path);
  void rehash(size_t new_capacity);
  uint32_t probe(std::string_view path, uint64_t hash) const;
  void start_hashing();

  // Raw memory of the entry segments and the path arena (large_block.cc):
  // big blocks are mapped for transparent huge pages, small ones come from
  // the heap. mapped_length 0 = heap (delete[]).
  struct BlockFree {
    size_t mapped_length = 0;
    void operator()(char* block) const noexcept;
  };
  using Block = std::unique_ptr<char[], BlockFree>;
  static Block allocate_block(size_t bytes);

  // Entries live in segments that never move (growing a flat vector of a
  // million entries would copy them): segment s holds kFirstSegment << s
  // entries, so a map of n files has about log2(n / kFirstSegment) segments
  // and no more than twice the memory it uses. Entries are constructed only
  // when appended, so memory is touched as the map grows.
  static constexpr size_t kFirstSegment = 1024;
  static size_t segment_of(size_t i) { return size_t(std::bit_width(i / kFirstSegment + 1)) - 1; }
  static size_t segment_start(size_t s) { return kFirstSegment * ((size_t(1) << s) - 1); }
  Entry& entry(size_t i) {
    const size_t s = segment_of(i);
    return reinterpret_cast<Entry*>(segments_[s].get())[i - segment_start(s)];
  }
  const Entry& entry(size_t i) const {
    const size_t s = segment_of(i);
    return reinterpret_cast<const Entry*>(segments_[s].get())[i - segment_start(s)];
  }
  Entry& append(std::string_view path, uint64_t hash);
  void destroy();

  std::vector<Block> segments_;
  size_t size_ = 0;
  // Delete files are sorted by path, so while every new path sorts after the
  // previous one the entries are kept in order with no hashing at all (lookups
  // binary-search). The first out-of-order path switches to a hash table:
  // open addressing, linear probing, (high 32 hash bits << 32) | (entry + 1),
  // 0 = empty; the tag avoids touching entries on mismatches.
  bool sorted_ = true;
  std::vector<uint64_t> table_;
  // Path bytes, in blocks that double from 64 KiB up to 32 MiB.
  std::vector<Block> arena_blocks_;
  char* arena_next_ = nullptr;
  size_t arena_left_ = 0;
};

/// Accumulates position-delete batches into per-data-file indexes
/// (Iceberg's Deletes.toPositionIndexes). Runs of equal paths are found per
/// batch (by index for dictionary input, by length + bytes against the run's
/// first path otherwise), each run costs one map lookup and one add_many.
/// Rows need not be sorted (unsorted input is still indexed correctly, just
/// with more lookups).
class PARQUETRY_API PositionIndexBuilder {
 public:
  /// When `only_data_file` is set, rows for other data files are skipped
  /// (Iceberg's toPositionIndex with a DataFileFilter).
  explicit PositionIndexBuilder(std::optional<std::string> only_data_file = std::nullopt);

  /// Adds a batch. Throws kCorrupt on null paths or positions, bad offsets or
  /// dictionary indices and positions outside [0, kMaxDeletePosition], and
  /// kInvalidArgument on malformed batches (missing columns, length mismatch).
  void add(const PositionDeleteBatch& batch);
  /// Returns the indexes; the builder is then empty.
  PositionIndexMap finish();

 private:
  void add_checked(const PositionDeleteBatch& batch);
  void add_plain(const StringColumn& paths, const int64_t* pos, int64_t length);
  void add_dictionary(const DictionaryStringColumn& paths, const int64_t* pos, int64_t length,
                      bool same_dictionary);
  void add_run(std::string_view path, const int64_t* pos, int64_t count);
  void add_run_to_slot(uint32_t slot, const int64_t* pos, int64_t count);

  std::optional<std::string> only_data_file_;
  PositionIndexMap map_;
  // Dictionary index -> map slot + 1 (0 = not looked up yet, kSkipSlot =
  // filtered out) for the current dictionary, so that repeated indices never
  // hash the path again.
  std::vector<uint32_t> dictionary_slots_;
};

/// Convenience: indexes every row of the given batches.
PARQUETRY_API PositionIndexMap to_position_indexes(std::span<const PositionDeleteBatch> batches);
/// The deletes of one data file only, from the given batches.
PARQUETRY_API PositionDeleteIndex to_position_index(std::span<const PositionDeleteBatch> batches,
                                                    std::string_view data_file_path);

}  // namespace parquetry::iceberg
