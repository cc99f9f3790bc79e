// Footer I/O (magic, length, FileMetaData) and the page-header walker.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "parquetry/util/bit_util.h"

namespace parquetry {

namespace {

constexpr char kMagic[] = "PAR1";
constexpr char kEncryptedMagic[] = "PARE";
constexpr int64_t kMagicSize = 4;
// Leading magic + footer length + trailing magic.
constexpr int64_t kMinFileSize = 2 * kMagicSize + 4;

std::string printable(std::span<const uint8_t> bytes) {
  std::string out;
  for (uint8_t b : bytes) {
    if (b >= 0x20 && b < 0x7f) {
      out += static_cast<char>(b);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
  }
  return out;
}

/// Rethrows a decoding error with the file name and, for byte offsets within
/// the decoded buffer, the corresponding file offset.
[[noreturn]] void rethrow_in_file(const Error& e, const std::string& file, int64_t buffer_start) {
  ErrorLocation where = e.where();
  if (where.file.empty()) where.file = file;
  if (where.offset >= 0) where.offset += buffer_start;
  throw Error(e.code(), e.message(), std::move(where));
}

}  // namespace

FooterBytes read_footer_bytes(RandomAccessSource& source, const Limits& limits) {
  const int64_t size = source.size();
  auto corrupt = [&](const std::string& message, int64_t offset) {
    ErrorLocation where;
    where.file = source.name();
    where.offset = offset;
    throw Error(ErrorCode::kCorrupt, message, std::move(where));
  };
  if (size < kMinFileSize) {
    corrupt("file of " + std::to_string(size) + " bytes is too small to be Parquet (at least 12 needed)", 0);
  }
  FooterBytes out;
  const int64_t hint = source.footer_read_hint() > 0 ? source.footer_read_hint() : kFooterSpeculativeRead;
  const int64_t tail_size = std::min(size, std::max<int64_t>(hint, kMinFileSize));
  const int64_t tail_start = size - tail_size;
  std::span<const uint8_t> tail = source.read(tail_start, tail_size, out.storage);

  std::span<const uint8_t> magic = tail.last(kMagicSize);
  out.encrypted_footer = std::memcmp(magic.data(), kEncryptedMagic, kMagicSize) == 0;
  const char* expected = out.encrypted_footer ? kEncryptedMagic : kMagic;
  if (!out.encrypted_footer && std::memcmp(magic.data(), kMagic, kMagicSize) != 0) {
    corrupt("not a Parquet file: trailing magic is \"" + printable(magic) + "\", expected \"PAR1\"",
            size - 4);
  }
  const int64_t footer_size = bits::load<uint32_t>(tail.data() + tail.size() - 8);
  if (footer_size > size - kMinFileSize) {
    corrupt("footer length " + std::to_string(footer_size) + " does not fit in a file of " +
                std::to_string(size) + " bytes",
            size - 8);
  }
  if (footer_size > limits.max_footer_size) {
    ErrorLocation where;
    where.file = source.name();
    where.offset = size - 8;
    throw Error(ErrorCode::kLimitExceeded,
                "footer of " + std::to_string(footer_size) + " bytes exceeds the limit of " +
                    std::to_string(limits.max_footer_size),
                std::move(where));
  }
  const int64_t footer_start = size - 8 - footer_size;

  // Leading magic: inside the tail read for small files, one small read
  // otherwise, except on a remote source, where that read would be a second
  // round trip for four bytes (see RandomAccessSource::remote()).
  if (tail_start == 0 || !source.remote()) {
    Buffer head_buffer;
    std::span<const uint8_t> head =
        tail_start == 0 ? tail.first(kMagicSize) : source.read(0, kMagicSize, head_buffer);
    if (std::memcmp(head.data(), expected, kMagicSize) != 0) {
      corrupt(
          "not a Parquet file: leading magic is \"" + printable(head) + "\", expected \"" + expected + "\"",
          0);
    }
  }

  if (footer_start >= tail_start) {
    out.footer =
        tail.subspan(static_cast<size_t>(footer_start - tail_start), static_cast<size_t>(footer_size));
  } else {
    out.footer = source.read(footer_start, footer_size, out.storage);
  }
  out.footer_start = footer_start;
  return out;
}

FileMetaData read_file_metadata(RandomAccessSource& source, const Limits& limits,
                                const MetadataOptions& options) {
  FooterBytes bytes = read_footer_bytes(source, limits);
  if (bytes.encrypted_footer) {
    ErrorLocation where;
    where.file = source.name();
    throw Error(ErrorCode::kUnsupported,
                "encrypted footer: read it with the footer key (ReaderOptions::decryption)",
                std::move(where));
  }
  try {
    return decode_file_metadata(bytes.footer, limits, options);
  } catch (const Error& e) {
    rethrow_in_file(e, source.name(), bytes.footer_start);
  }
}

void write_file_metadata(const FileMetaData& metadata, Sink& sink) {
  Buffer encoded;
  encode_file_metadata(metadata, encoded);
  if (encoded.size() > UINT32_MAX)
    throw_invalid("footer of " + std::to_string(encoded.size()) + " bytes exceeds 4 GiB");
  uint8_t trailer[8];
  bits::store<uint32_t>(trailer, static_cast<uint32_t>(encoded.size()));
  std::memcpy(trailer + 4, kMagic, kMagicSize);
  sink.write(encoded.span());
  sink.write(trailer, sizeof trailer);
}

// ---------------------------------------------------------------------------

PageHeaderWalker::PageHeaderWalker(RandomAccessSource& source, const ColumnMetaData& column,
                                   const Limits& limits)
    : source_(&source), limits_(limits) {
  int64_t start = column.data_page_offset;
  // Some writers store a bogus dictionary_page_offset (0, or one past the
  // data pages); only a value inside the file body before the first data
  // page can be the dictionary. Chunks without data pages may instead carry a
  // bogus data_page_offset of 0 beside a real dictionary page.
  if (column.dictionary_page_offset && *column.dictionary_page_offset >= kMagicSize &&
      (*column.dictionary_page_offset < column.data_page_offset || column.data_page_offset < kMagicSize)) {
    start = *column.dictionary_page_offset;
  }
  if (column.total_compressed_size == 0) return;  // an empty chunk has no pages to walk
  const int64_t size = source.size();
  if (start < kMagicSize || start >= size || column.total_compressed_size < 0 ||
      column.total_compressed_size > size - start) {
    ErrorLocation where;
    where.file = source.name();
    where.offset = start;
    throw Error(ErrorCode::kCorrupt,
                "column chunk at offset " + std::to_string(start) + " of " +
                    std::to_string(column.total_compressed_size) + " bytes lies outside the file of " +
                    std::to_string(size) + " bytes",
                std::move(where));
  }
  position_ = start;
  end_ = start + column.total_compressed_size;
}

bool PageHeaderWalker::next(PageHeaderAt& page) {
  if (position_ >= end_) return false;
  const int64_t remaining = end_ - position_;
  const int64_t cap = std::min(remaining, limits_.max_page_header_size);
  // Most headers are tens of bytes; start with a small read and widen it
  // only when the header does not decode within the window.
  int64_t window = std::min<int64_t>(cap, 4096);
  for (;;) {
    std::span<const uint8_t> bytes = source_->read(position_, window, scratch_);
    size_t consumed = 0;
    try {
      page.header = decode_page_header(bytes, limits_, &consumed);
    } catch (const Error& e) {
      if (e.code() == ErrorCode::kCorrupt && window < cap) {
        window = std::min(cap, window * 16);
        continue;
      }
      ErrorLocation where = e.where();
      where.file = source_->name();
      where.offset = position_ + std::max<int64_t>(where.offset, 0);
      throw Error(e.code(), "page header: " + e.message(), std::move(where));
    }
    const int64_t body = page.header.compressed_page_size;
    const int64_t header_size = static_cast<int64_t>(consumed);
    if (body < 0 || body > remaining - header_size) {
      ErrorLocation where;
      where.file = source_->name();
      where.offset = position_;
      throw Error(ErrorCode::kCorrupt,
                  "page at offset " + std::to_string(position_) + " (header " + std::to_string(header_size) +
                      " bytes, body " + std::to_string(body) + " bytes) runs past the column chunk end at " +
                      std::to_string(end_),
                  std::move(where));
    }
    page.offset = position_;
    page.header_size = header_size;
    position_ += header_size + body;
    return true;
  }
}

}  // namespace parquetry
