// Streams one BYTE_ARRAY leaf column chunk page by page, handing every row
// out as a view into the decompressed page (or the chunk's dictionary)
// instead of copying the values into an Arrow binary array.
//
// variant_get's unshredded and residual plans look a few bytes into each
// `value` blob; going through the FileReader cost them a copy of every blob
// into a contiguous buffer, which was most of the read. Only columns without
// repetition qualify (one level per row); PLAIN pages are walked in place,
// dictionary pages are decoded once per chunk and rows point into that
// dictionary, the DELTA encodings are decoded into a scratch buffer.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "parquetry/column/chunk_decoder.h"
#include "parquetry/limits.h"
#include "parquetry/metadata.h"
#include "parquetry/page/page_reader.h"
#include "parquetry/util/buffer.h"

namespace parquetry {

class RandomAccessSource;

namespace variant_parquet {

/// One row of a streamed leaf: its definition level, and the value bytes
/// when the level is the leaf's maximum (`data` is null otherwise).
struct LeafSlot {
  const uint8_t* data;
  uint32_t size;
  int16_t def;
};

class BinaryLeafStream {
 public:
  /// `max_def` is the leaf's maximum definition level; its maximum
  /// repetition level must be 0.
  BinaryLeafStream(RandomAccessSource& source, int16_t max_def, Limits limits);

  /// Starts the leaf's chunk of a row group; the chunk must hold exactly
  /// `rows` levels. `where` names file, column and row group for errors.
  void start_chunk(const ColumnMetaData& chunk, int64_t rows, ErrorLocation where);

  /// The next rows of the chunk, at most `max_rows` (> 0) and never across
  /// a page boundary; an empty span after the last page. Views stay valid
  /// until the next call. Small slices keep each row's bytes in cache from
  /// the length walk to the caller's use of them.
  std::span<const LeafSlot> next(int64_t max_rows);

  /// Throws unless every row of the chunk was handed out.
  void finish_chunk() const;

  const ErrorLocation& where() const { return where_; }

 private:
  // How the current page's values are found.
  enum class Source : uint8_t { kPlain, kDictionary, kDecoded };

  bool load_page();
  void decode_dictionary(const Page& page);
  void decode_page(const Page& page);
  void decode_indices(std::span<const uint8_t> data, int64_t defined);
  void decode_other_values(const Page& page, std::span<const uint8_t> data, int64_t defined);
  void fill_plain(LeafSlot* slots, int64_t begin, int64_t end);
  void fill_indexed(LeafSlot* slots, int64_t begin, int64_t end, const uint32_t* indices,
                    const Buffer& offsets, const Buffer& values);

  RandomAccessSource& source_;
  int16_t max_def_;
  Limits limits_;
  ErrorLocation where_;
  std::optional<PageReader> pages_;
  std::shared_ptr<Buffer> decompressed_;  // reused page after page, chunk after chunk
  int64_t rows_ = 0;                      // levels the chunk must hold
  int64_t rows_seen_ = 0;
  // The current page: its rows, the next one to hand out, where its values are.
  Source source_kind_ = Source::kPlain;
  int64_t page_rows_ = 0;
  int64_t page_next_ = 0;
  int64_t value_next_ = 0;          // defined values handed out so far (indexed sources)
  const uint8_t* plain_ = nullptr;  // PLAIN: the next length prefix
  const uint8_t* plain_end_ = nullptr;
  Buffer levels_;  // int16 per row of the current page
  Buffer slots_;   // LeafSlot per row handed out by next()
  // Dictionary of the current chunk: offsets + bytes (decode_plain's layout).
  bool has_dictionary_ = false;
  int64_t dictionary_size_ = 0;
  Buffer dictionary_values_;
  Buffer dictionary_offsets_;
  Buffer indices_;  // dictionary index per defined value of the current page
  // Values of a page in an encoding that cannot be walked in place.
  Buffer decoded_values_;
  Buffer decoded_offsets_;
  Buffer scratch_;
};

}  // namespace variant_parquet
}  // namespace parquetry
