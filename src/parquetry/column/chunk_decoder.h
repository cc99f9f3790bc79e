// Decodes one column chunk (all its pages) into levels and values.
//
// Values come out in their physical form, densely (one entry per non-null
// value), in Arrow-compatible buffers: fixed-width values back to back,
// booleans as a bitmap, byte arrays as int32 offsets + data. The flat
// optional column (max_def 1, max_rep 0), the common case, skips levels
// altogether: definition levels go straight into a validity bitmap.
// Turning dense values and levels into the final Arrow arrays is the job of
// the nested/ layer (assemble.h).
#pragma once

#include <cstdint>
#include <memory>

#include "parquetry/column/buffer_pool.h"
#include "parquetry/metadata.h"
#include "parquetry/page/page_reader.h"
#include "parquetry/table.h"
#include "parquetry/util/buffer.h"

namespace parquetry {

/// How a leaf's physical values are stored while decoding.
enum class PhysicalLayout : uint8_t {
  kFixed,   ///< `width` bytes per value (INT32/INT64/INT96/FLOAT/DOUBLE/FLBA)
  kBool,    ///< one bit per value
  kBinary,  ///< int32 offsets + data
};

struct LeafSpec {
  Type physical_type = Type::INT32;
  int32_t type_length = 0;  ///< FIXED_LEN_BYTE_ARRAY width
  int16_t max_def = 0;
  int16_t max_rep = 0;
  /// Decode definition levels straight into a validity bitmap. Only valid for
  /// a top-level optional primitive (max_def 1, max_rep 0), where the bitmap
  /// is exactly the column's Arrow validity.
  bool bitmap_levels = false;
  /// Keep dictionary-encoded values as int32 indices into the chunk's
  /// dictionary (ChunkValues::dictionary_*) instead of gathering them.
  bool dictionary_indices = false;

  PhysicalLayout layout() const;
  int32_t width() const;  ///< bytes per value for kFixed
  bool flat_optional() const { return bitmap_levels && max_rep == 0 && max_def == 1; }
};

/// The decoded content of one column chunk. Buffers are shared_ptr so the
/// assembled Arrow arrays can adopt them without a copy; a decoder reuses a
/// buffer only when no array still holds it.
struct ChunkValues {
  int64_t num_levels = 0;              ///< level entries (== rows when max_rep == 0)
  int64_t num_values = 0;              ///< non-null values decoded
  int64_t null_count = 0;              ///< flat optional only: nulls in `validity`
  int64_t data_pages = 0;              ///< data pages decoded
  std::shared_ptr<Buffer> def_levels;  ///< int16 x num_levels; unset when max_def == 0 or flat optional
  std::shared_ptr<Buffer> rep_levels;  ///< int16 x num_levels; unset when max_rep == 0
  std::shared_ptr<Buffer> validity;    ///< flat optional: bitmap of num_levels bits
  std::shared_ptr<Buffer> values;      ///< fixed: width x num_values; bool: bitmap; binary: data bytes
  std::shared_ptr<Buffer> offsets;     ///< binary: int32 x (num_values + 1)
  /// Set instead of `values` when the values of a chunk's only data page were
  /// PLAIN fixed-width: they stay in the decompressed page, uncopied.
  BufferRef values_view;
  /// LeafSpec::dictionary_indices: `values` holds int32 indices into these
  /// `dictionary_size` dense values (with offsets for byte arrays). A chunk
  /// with non-dictionary pages after all gets its dense values as the
  /// dictionary and indices 0..n-1.
  std::shared_ptr<Buffer> dictionary_values;
  std::shared_ptr<Buffer> dictionary_offsets;
  int64_t dictionary_size = 0;

  /// Moves a `values_view` into `values` (a copy), for code that must write to the values.
  void materialize();
  /// Zeroes the counts and drops the views and the dictionary, keeping the
  /// level and value buffers for reuse; each decode or batch starts here.
  void clear_counts();
  /// The values as a shareable buffer (the view when there is one).
  BufferRef values_ref() const;
};

/// Decodes the pages of a chunk. One decoder can be reused for many chunks
/// of the same column (dictionary and scratch buffers are kept).
class ChunkDecoder {
 public:
  explicit ChunkDecoder(LeafSpec spec) : spec_(spec) {}

  /// Reads every page from `pages` into `out` (whose buffers are reused when
  /// unshared). `expected_levels` is ColumnMetaData.num_values: it sizes the
  /// buffers up front and is checked against what the pages hold. A chunk
  /// declaring no values is not read at all (`pages` may then be null).
  /// -1 means unknown (only some pages are read) and skips the check.
  void decode(PageReader* pages, int64_t expected_levels, ChunkValues& out);

  /// Whether decode_selected() can take this leaf: a flat column (no
  /// repetition, at most one definition level read as a bitmap) of
  /// fixed-width values, or of byte arrays read as dictionary indices.
  bool can_decode_selected() const;

  /// Decodes only the rows whose bit is set in `selection` (bit i = row i of
  /// the chunk, `expected_levels` rows, which must be the chunk's declared
  /// value count): `out` then holds those rows alone, in order, as decode()
  /// would have laid them out. Levels are decoded whole (they are needed to
  /// find each row's value), values only at the selected rows: PLAIN values
  /// are picked from the page, dictionary indices read where they lie in
  /// their run. Returns false, with `out` unspecified, when a page uses an
  /// encoding this path does not cover; decode the chunk with decode() then.
  bool decode_selected(PageReader& pages, int64_t expected_levels, const uint8_t* selection,
                       ChunkValues& out);

  // ---- Streaming: a chunk decoded a page at a time into batch-sized outputs
  // (column/chunk_stream.h drives these). Values are always copied out of the
  // decompressed page, so the page buffer is reused page after page.

  /// Starts a new chunk: forgets the previous chunk's dictionary.
  void begin_chunk();
  /// Empties `out` for a batch, its buffers taken from `pool` (slots
  /// `slot_base` + 0..4), each reserved for about `reserve_levels` entries.
  void begin_batch(ChunkValues& out, BufferPool& pool, size_t slot_base, int64_t reserve_levels);
  /// Appends the next page of `pages` to `out` (a dictionary page is kept
  /// for the pages after it). False after the chunk's last page.
  bool decode_next_page(PageReader& pages, ChunkValues& out);
  /// Moves level entries [level, from.num_levels) and their values to the
  /// start of `to` (fresh from begin_batch) and trims `from` to the entries
  /// before `level`.
  void split_off(ChunkValues& from, int64_t level, ChunkValues& to);
  /// Appends every level entry of `from` and its values to `to` (the inverse
  /// of split_off), leaving `from` empty; byte arrays past the reach of
  /// 32-bit offsets fail. Not for dictionary indices.
  void append(ChunkValues& from, ChunkValues& to);
  /// Completes a batch's output: with dictionary_indices, shares the chunk's
  /// dictionary (or, after a non-dictionary page, makes the batch's dense
  /// values its own dictionary).
  void finish_batch(ChunkValues& out);

 private:
  // One data page of decode_selected(); false: not covered.
  bool decode_selected_page(const Page& page, int64_t first_row, const uint8_t* selection, ChunkValues& out);
  void reset_output(int64_t reserve_levels, ChunkValues& out);
  void decode_dictionary(const Page& page);
  void decode_data_page(const Page& page, ChunkValues& out);
  void decode_values(const Page& page, std::span<const uint8_t> data, int64_t count, ChunkValues& out);
  void gather_dictionary(std::span<const uint8_t> data, int64_t count, ChunkValues& out);
  void gather_kept_indices(ChunkValues& out);
  void finish_dictionary_output(ChunkValues& out);

  LeafSpec spec_;
  // Dictionary of the current chunk, in the dense layout of values.
  bool has_dictionary_ = false;
  int64_t dictionary_size_ = 0;
  Buffer dictionary_values_;
  Buffer dictionary_offsets_;
  Buffer indices_;
  Buffer scratch_;
  bool gathered_fallback_ = false;  // dictionary_indices chunk met a non-dictionary page
  // Whether a page of the chunk held levels: only its first level must start a
  // row (a stream may decode a later page into an empty batch or carry).
  bool chunk_has_levels_ = false;
  bool keep_page_views_ = true;  // false while streaming: values never stay in the page
  // Streaming with dictionary_indices: the chunk's dictionary as the batches share it.
  std::shared_ptr<Buffer> shared_dictionary_values_;
  std::shared_ptr<Buffer> shared_dictionary_offsets_;
  void make_values_own_dictionary(ChunkValues& out);
  // decode_selected(): a page's validity, and the value ordinals of its selected rows.
  Buffer page_validity_;
  Buffer ordinals_;
};

/// Returns a buffer that is safe to overwrite: `slot` itself when nobody
/// else holds it, otherwise a fresh one.
Buffer& writable(std::shared_ptr<Buffer>& slot);

}  // namespace parquetry
