// Pages of one column chunk: header parsing, CRC verification,
// decompression and the split of a data page into its level and value
// sections. Everything above this layer sees decompressed sections only.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/limits.h"
#include "parquetry/metadata.h"
#include "parquetry/util/buffer.h"

namespace parquetry {

class Codec;
class FetchedRanges;
class RandomAccessSource;

/// One decoded page. Spans point into the reader's buffers (or the source's
/// mapped bytes) and stay valid until the next call of PageReader::next().
struct Page {
  PageType type = PageType::DATA_PAGE;
  const PageHeader* header = nullptr;
  int64_t ordinal = 0;                  ///< position of the page in its chunk (0-based)
  int64_t file_offset = 0;              ///< where the page header starts
  int64_t num_values = 0;               ///< levels in a data page, entries in a dictionary page
  int64_t num_rows = -1;                ///< data page v2 only
  int64_t num_nulls = -1;               ///< data page v2 only
  Encoding encoding = Encoding::PLAIN;  ///< of the values
  /// v1: the whole decompressed body (levels then values; LevelDecoder::reset_v1 splits it).
  /// v2: the decompressed values section. Dictionary: the dictionary values.
  std::span<const uint8_t> body;
  std::span<const uint8_t> rep_levels;  ///< v2 only: the uncompressed repetition-level section
  std::span<const uint8_t> def_levels;  ///< v2 only: the uncompressed definition-level section
  Encoding v1_rep_encoding = Encoding::RLE;
  Encoding v1_def_encoding = Encoding::RLE;
  /// The buffer `body` lies in when the page was decompressed. A decoder may
  /// keep a reference to it to use the values without copying; the reader
  /// then decompresses the next page into a fresh buffer.
  std::shared_ptr<Buffer> body_owner;
};

class ModuleCrypto;

struct PageReaderOptions {
  Limits limits;
  bool verify_crc = false;  ///< check page CRCs where the writer stored them
  /// The chunk's keys and AADs when it is encrypted (modular encryption):
  /// each page header and page body is then a module decrypted before
  /// anything else looks at it. Must outlive the reader.
  const ModuleCrypto* crypto = nullptr;
  /// Read the chunk a window at a time into `*window` (at least
  /// window_bytes, or one whole page when that is larger) instead of all at
  /// once: memory stays bounded by the largest page however large the chunk,
  /// and the buffer, kept by the caller, is refilled chunk after chunk rather
  /// than faulted in anew. For copying sources of cheap reads (local files);
  /// ignored when the caller passes fetched bytes. An encrypted chunk's
  /// window grows to hold each whole header module and page module.
  Buffer* window = nullptr;
  int64_t window_bytes = 256 << 10;
  /// Counts the windowed reads (calls and bytes), when given.
  int64_t* window_reads = nullptr;
  int64_t* window_read_bytes = nullptr;
};

/// Reads the pages of a column chunk in file order. The chunk's bytes are
/// fetched with one read (zero-copy for memory and mmap sources), unless the
/// caller already fetched them (coalesced with other chunks' bytes).
class PageReader {
 public:
  /// `decompress_slot`, when given, holds the decompression buffer across
  /// readers of the same column so that memory is reused chunk after chunk.
  /// `fetched`, when given, holds the bytes of the pages this reader will
  /// visit (the whole chunk, or with restrict_to_pages the dictionary prefix
  /// and the selected pages); pages are then parsed from views of it and the
  /// source is read only for a page that runs past what was fetched.
  PageReader(RandomAccessSource& source, const ColumnMetaData& column, PageReaderOptions options,
             ErrorLocation where, std::shared_ptr<Buffer>* decompress_slot = nullptr,
             const FetchedRanges* fetched = nullptr);
  ~PageReader();

  /// Moves to the next dictionary or data page (index pages are skipped).
  /// Returns false after the last page. The previous page's body may be
  /// overwritten (its decompression buffer is reused unless something else
  /// holds body_owner).
  bool next(Page& page);
  /// Visits only the data pages starting at these file offsets (sorted, from
  /// the OffsetIndex); a dictionary page at the start of the chunk is still
  /// read unless `visit_start` is false (the OffsetIndex shows the chunk
  /// starts with its first data page). Skipped pages are neither parsed nor
  /// decompressed. `ordinals`, when given, are the pages' positions among the
  /// chunk's data pages (their OffsetIndex entries), which encrypted pages
  /// need for their AADs.
  void restrict_to_pages(std::vector<int64_t> file_offsets, bool visit_start = true,
                         std::vector<int32_t> ordinals = {});

  /// Where errors are reported (file, row group, column; the page is added per page).
  const ErrorLocation& where() const { return where_; }
  /// where() narrowed to `page` (its ordinal and header offset), for errors
  /// found while decoding it.
  ErrorLocation where(const Page& page) const {
    ErrorLocation at = where_;
    at.page = page.ordinal;
    at.offset = page.file_offset;
    return at;
  }

  /// Byte range of the chunk in the file.
  int64_t chunk_offset() const { return chunk_offset_; }
  int64_t chunk_length() const { return nominal_length_; }

 private:
  [[noreturn]] void fail(const std::string& message) const;
  bool is_allowed(int64_t relative_offset) const;
  /// Windowed reads: the bytes from chunk-relative `position` to the end of
  /// the window, which holds at least `min_length` of them (read anew when
  /// the current window does not).
  std::span<const uint8_t> window_from(int64_t position, int64_t min_length);
  /// Windowed reads of an encrypted chunk: `at` (the bytes from `position`)
  /// grown to hold the whole module that starts there.
  std::span<const uint8_t> window_for_module(int64_t position, std::span<const uint8_t> at);

  PageReaderOptions options_;
  ErrorLocation where_;
  CompressionCodec codec_kind_;
  bool compressed_ = false;  // the codec itself is the calling thread's (thread_codec)
  RandomAccessSource* source_ = nullptr;
  int64_t nominal_length_ = 0;  ///< total_compressed_size: pages start before this
  Buffer chunk_storage_;
  std::span<const uint8_t> chunk_;
  bool windowed_ = false;
  std::span<const uint8_t> window_;  // chunk-relative [window_start_, + size) of a windowed read
  int64_t window_start_ = 0;
  int64_t chunk_offset_ = 0;
  int64_t position_ = 0;
  bool restricted_ = false;
  bool visit_start_ = true;
  const FetchedRanges* fetched_ = nullptr;
  std::vector<int64_t> allowed_;           // chunk-relative offsets of the data pages to visit
  std::vector<int32_t> allowed_ordinals_;  // their data-page ordinals (encrypted chunks)
  size_t next_allowed_ = 0;
  int64_t ordinal_ = 0;
  int32_t data_ordinal_ = 0;       // data pages passed so far (the AAD page ordinal)
  bool dictionary_first_ = false;  // the chunk starts with its dictionary page
  Buffer decrypted_header_;        // plaintext of an encrypted page header
  Buffer decrypted_body_;          // plaintext of an encrypted, compressed page body
  PageHeader header_;
  std::shared_ptr<Buffer> own_decompressed_;
  std::shared_ptr<Buffer>* decompressed_ = &own_decompressed_;
};

/// Where a column chunk's pages start: the dictionary page when the offset is
/// plausible (some writers store 0 or a bogus value), else the first data page.
int64_t column_chunk_start(const ColumnMetaData& column);

}  // namespace parquetry
