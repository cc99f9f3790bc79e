// Helpers of the hardening tests: reading a file image from memory the way a
// user would, and editing file images (splicing page bytes while keeping the
// footer's offsets consistent).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "parquetry/page/page_reader.h"
#include "parquetry/reader.h"

namespace parquetry::hardening {

using Bytes = std::vector<uint8_t>;

/// What one whole-file read of an image ended in.
struct ReadOutcome {
  std::optional<Error> error;  ///< set when the read threw a parquetry::Error
  int64_t rows = 0;            ///< rows read when it succeeded
};

/// Every projected field of every row group through read_field_selected
/// (the sparse filtered-scan path: values decoded only at selected rows),
/// every fifth row selected; dictionary arrays when `dictionary_arrays`, so
/// both the index and the gathered-value paths meet the damage. A
/// parquetry::Error ends it quietly; anything else propagates.
inline void read_image_selected(const Bytes& image, const std::string& name, bool verify_crc,
                                bool dictionary_arrays, const Limits& limits = {}) {
  try {
    ReaderOptions options;
    options.verify_crc = verify_crc;
    options.limits = limits;
    options.dictionary_arrays = dictionary_arrays;
    auto source = std::make_shared<MemorySource>(std::span<const uint8_t>(image.data(), image.size()), name);
    auto reader = FileReader::open(source, options);
    for (int rg = 0; rg < reader->num_row_groups(); ++rg) {
      const int64_t rows = reader->metadata().row_groups[size_t(rg)].num_rows;
      if (rows < 0 || rows > (int64_t(1) << 24)) continue;  // a lying row count: not worth a bitmap
      std::vector<uint8_t> selection(size_t((rows + 7) / 8), 0);
      for (int64_t i = 0; i < rows; i += 5) selection[size_t(i >> 3)] |= uint8_t(1u << (i & 7));
      for (int f = 0; f < int(reader->batch_schema()->fields.size()); ++f) {
        try {
          reader->read_field_selected(rg, f, selection.data());
        } catch (const Error&) {
        }
      }
    }
  } catch (const Error&) {
  }
}

/// FileReader::open on a MemorySource named `name` and read_all(). Any
/// exception other than parquetry::Error propagates (and fails the test).
/// The same image is also read through read_image_selected first.
inline ReadOutcome read_image(const Bytes& image, const std::string& name, bool verify_crc,
                              const Limits& limits = {}) {
  read_image_selected(image, name, verify_crc, /*dictionary_arrays=*/verify_crc, limits);
  ReadOutcome outcome;
  try {
    ReaderOptions options;
    options.verify_crc = verify_crc;
    options.limits = limits;
    auto source = std::make_shared<MemorySource>(std::span<const uint8_t>(image.data(), image.size()), name);
    auto reader = FileReader::open(source, options);
    for (const RecordBatch& batch : reader->read_all()) outcome.rows += batch.num_rows;
  } catch (const Error& e) {
    outcome.error = e;
  }
  return outcome;
}

/// One page of a column chunk, as PageHeaderWalker finds it.
struct PageInfo {
  int row_group = 0;
  int column = 0;  ///< leaf index
  int64_t ordinal = 0;
  int64_t offset = 0;       ///< of the header
  int64_t header_size = 0;  ///< encoded header bytes
  int64_t body_size = 0;    ///< compressed_page_size
  PageHeader header;
  int64_t end() const { return offset + header_size + body_size; }
};

/// A parsed file image: data bytes (everything before the footer), the
/// decoded footer and the pages of every chunk.
struct FileImage {
  Bytes data;  ///< [0, footer start)
  FileMetaData metadata;
  std::vector<PageInfo> pages;

  /// Parses `bytes`; nullopt when the file itself is not readable that far.
  static std::optional<FileImage> parse(const Bytes& bytes) {
    try {
      FileImage image;
      MemorySource source(std::span<const uint8_t>(bytes.data(), bytes.size()), "image");
      image.metadata = read_file_metadata(source);
      const uint32_t footer_length =
          uint32_t(bytes[bytes.size() - 8]) | uint32_t(bytes[bytes.size() - 7]) << 8 |
          uint32_t(bytes[bytes.size() - 6]) << 16 | uint32_t(bytes[bytes.size() - 5]) << 24;
      image.data.assign(bytes.begin(), bytes.end() - 8 - int64_t(footer_length));
      for (size_t g = 0; g < image.metadata.row_groups.size(); ++g) {
        const RowGroup& group = image.metadata.row_groups[g];
        for (size_t c = 0; c < group.columns.size(); ++c) {
          if (!group.columns[c].meta_data) continue;
          PageHeaderWalker walker(source, *group.columns[c].meta_data);
          PageHeaderAt at;
          for (int64_t ordinal = 0; walker.next(at); ++ordinal) {
            image.pages.push_back(PageInfo{int(g), int(c), ordinal, at.offset, at.header_size,
                                           at.header.compressed_page_size, at.header});
          }
        }
      }
      return image;
    } catch (const Error&) {
      return std::nullopt;
    }
  }

  /// The complete file: data, encoded footer, its length and the magic.
  Bytes assemble() const { return assemble(data, metadata); }
  static Bytes assemble(const Bytes& data, const FileMetaData& metadata) {
    Bytes out = data;
    Buffer footer;
    encode_file_metadata(metadata, footer);
    out.insert(out.end(), footer.data(), footer.data() + footer.size());
    const uint32_t length = uint32_t(footer.size());
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(length >> (8 * i)));
    for (char c : {'P', 'A', 'R', '1'}) out.push_back(uint8_t(c));
    return out;
  }

  /// Replaces data[position, position + old_size) with `replacement` and
  /// moves every footer offset behind it (and the length of the chunk that
  /// holds it), so that only the replaced bytes differ for a reader.
  Bytes splice(int64_t position, int64_t old_size, const Bytes& replacement) const {
    Bytes out(data.begin(), data.begin() + position);
    out.insert(out.end(), replacement.begin(), replacement.end());
    out.insert(out.end(), data.begin() + position + old_size, data.end());
    const int64_t delta = int64_t(replacement.size()) - old_size;
    FileMetaData moved = metadata;
    auto shift = [&](auto& offset) {
      if (offset > position) offset += delta;
    };
    auto shift_optional = [&](auto& offset) {
      if (offset && *offset > position) *offset += delta;
    };
    for (RowGroup& group : moved.row_groups) {
      shift_optional(group.file_offset);
      for (ColumnChunk& chunk : group.columns) {
        shift(chunk.file_offset);
        shift_optional(chunk.offset_index_offset);
        shift_optional(chunk.column_index_offset);
        if (!chunk.meta_data) continue;
        ColumnMetaData& meta = *chunk.meta_data;
        const int64_t start = column_chunk_start(meta);
        if (position >= start && position < start + meta.total_compressed_size)
          meta.total_compressed_size += delta;
        shift(meta.data_page_offset);
        shift_optional(meta.dictionary_page_offset);
        shift_optional(meta.index_page_offset);
        shift_optional(meta.bloom_filter_offset);
      }
    }
    return assemble(out, moved);
  }

  /// The image with page `page`'s header replaced by `header` (re-encoded).
  Bytes with_header(const PageInfo& page, const PageHeader& header) const {
    Buffer encoded;
    encode_page_header(header, encoded);
    return splice(page.offset, page.header_size, Bytes(encoded.data(), encoded.data() + encoded.size()));
  }
};

}  // namespace parquetry::hardening
