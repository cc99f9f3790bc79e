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

  /// The rows of the next data page (at least one), or an empty span after
  /// the chunk's last page. Views stay valid until the next call.
  std::span<const LeafSlot> next_page();

  /// Throws unless every row of the chunk was handed out.
  void finish_chunk() const;

  const ErrorLocation& where() const { return where_; }

 private:
  void decode_dictionary(const Page& page);
  void decode_page(const Page& page);
  void fill_values(const Page& page, std::span<const uint8_t> data, int64_t defined);
  void fill_plain(std::span<const uint8_t> data, int64_t defined);
  void fill_dictionary(std::span<const uint8_t> data, int64_t defined);
  void fill_decoded(const Page& page, std::span<const uint8_t> data, int64_t defined);

  RandomAccessSource& source_;
  int16_t max_def_;
  Limits limits_;
  ErrorLocation where_;
  std::optional<PageReader> pages_;
  std::shared_ptr<Buffer> decompressed_;  // reused page after page, chunk after chunk
  int64_t rows_ = 0;                      // levels the chunk must hold
  int64_t rows_seen_ = 0;
  Buffer levels_;  // int16 per row of the current page
  Buffer slots_;   // LeafSlot per row of the current page
  // Dictionary of the current chunk: offsets + bytes (decode_plain's layout).
  bool has_dictionary_ = false;
  int64_t dictionary_size_ = 0;
  Buffer dictionary_values_;
  Buffer dictionary_offsets_;
  Buffer indices_;
  // Values of a page in an encoding that cannot be walked in place.
  Buffer decoded_values_;
  Buffer decoded_offsets_;
  Buffer scratch_;
};

}  // namespace variant_parquet
}  // namespace parquetry
