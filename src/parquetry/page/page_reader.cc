#include "parquetry/page/page_reader.h"

#include <libdeflate.h>

#include <algorithm>
#include <string>

#include "parquetry/compression/codec.h"
#include "parquetry/encryption/aes_cipher.h"
#include "parquetry/encryption/modules.h"
#include "parquetry/io.h"
#include "parquetry/io/range_reads.h"
#include "parquetry/util/bit_util.h"

namespace parquetry {

int64_t column_chunk_start(const ColumnMetaData& column) {
  if (column.dictionary_page_offset && *column.dictionary_page_offset > 0 &&
      *column.dictionary_page_offset < column.data_page_offset) {
    return *column.dictionary_page_offset;
  }
  return column.data_page_offset;
}

PageReader::PageReader(RandomAccessSource& source, const ColumnMetaData& column, PageReaderOptions options,
                       ErrorLocation where, std::shared_ptr<Buffer>* decompress_slot,
                       const FetchedRanges* fetched)
    : options_(options), where_(std::move(where)), codec_kind_(column.codec), fetched_(fetched) {
  if (decompress_slot != nullptr) decompressed_ = decompress_slot;
  if (where_.file.empty()) where_.file = source.name();
  int64_t start = column_chunk_start(column);
  int64_t length = column.total_compressed_size;
  if (start < 0 || length < 0 || start > source.size() || length > source.size() - start) {
    fail("column chunk [" + std::to_string(start) + ", +" + std::to_string(length) +
         ") lies outside the file of " + std::to_string(source.size()) + " bytes");
  }
  if (length > options_.limits.reader_memory_budget) {
    throw Error(ErrorCode::kLimitExceeded,
                "column chunk of " + std::to_string(length) + " bytes exceeds the reader memory budget",
                where_);
  }
  chunk_offset_ = start;
  nominal_length_ = length;
  dictionary_first_ = column.dictionary_page_offset && *column.dictionary_page_offset == start;
  source_ = &source;
  windowed_ = fetched_ == nullptr && options_.window != nullptr;
  try {
    if (fetched_ == nullptr && !windowed_) chunk_ = source.read(start, length, chunk_storage_);
    compressed_ = codec_kind_ != CompressionCodec::UNCOMPRESSED;
  } catch (const Error& e) {
    throw e.with_location(where_);
  }
}

PageReader::~PageReader() = default;

std::span<const uint8_t> PageReader::window_from(int64_t position, int64_t min_length) {
  const int64_t window_end = window_start_ + int64_t(window_.size());
  if (!window_.empty() && position >= window_start_ && position + min_length <= window_end) {
    return window_.subspan(size_t(position - window_start_));
  }
  // Callers check that min_length bytes exist in the file; a window reaches
  // at most to the chunk's end unless a page needs more (under-reported
  // chunk sizes).
  const int64_t to_chunk_end = nominal_length_ - position;
  const int64_t length = std::max(min_length, std::min(options_.window_bytes, to_chunk_end));
  window_start_ = position;
  window_ = source_->read(chunk_offset_ + position, length, *options_.window);
  if (options_.window_reads != nullptr) ++*options_.window_reads;
  if (options_.window_read_bytes != nullptr) *options_.window_read_bytes += length;
  return window_;
}

// An encrypted header is a module of its own: a 4-byte little-endian length,
// then that many bytes. The window must hold all of it before decrypting
// (the module checks the length again against what it is given).
std::span<const uint8_t> PageReader::window_for_module(int64_t position, std::span<const uint8_t> at) {
  const int64_t in_file = source_->size() - chunk_offset_ - position;
  if (at.size() < 4) {
    if (in_file < 4) return at;  // decrypt names the truncated module
    at = window_from(position, 4);
  }
  const int64_t module = 4 + int64_t(bits::load<uint32_t>(at.data()));
  if (module <= int64_t(at.size())) return at;
  // A header module larger than any header may be (plus nonce and tag), or
  // past the file's end, is left for decrypt to reject as truncated.
  constexpr int64_t kModuleOverhead = int64_t(crypto::kNonceSize + crypto::kTagSize);
  if (module > options_.limits.max_page_header_size + kModuleOverhead + 4 || module > in_file) return at;
  return window_from(position, module);
}

bool PageReader::is_allowed(int64_t relative_offset) const {
  return std::binary_search(allowed_.begin(), allowed_.end(), relative_offset);
}

void PageReader::fail(const std::string& message) const {
  ErrorLocation where = where_;
  throw Error(ErrorCode::kCorrupt, message, where);
}

void PageReader::restrict_to_pages(std::vector<int64_t> file_offsets, bool visit_start,
                                   std::vector<int32_t> ordinals) {
  restricted_ = true;
  visit_start_ = visit_start;
  allowed_.clear();
  allowed_ordinals_.clear();
  if (!ordinals.empty() && ordinals.size() != file_offsets.size())
    fail("page ordinals do not match the pages");
  std::vector<std::pair<int64_t, int32_t>> pages;
  for (size_t i = 0; i < file_offsets.size(); ++i) {
    const int64_t relative = file_offsets[i] - chunk_offset_;
    if (relative < 0 || relative >= nominal_length_) fail("page index points outside the column chunk");
    pages.emplace_back(relative, ordinals.empty() ? -1 : ordinals[i]);
  }
  std::sort(pages.begin(), pages.end());
  for (const auto& [relative, ordinal] : pages) {
    allowed_.push_back(relative);
    if (!ordinals.empty()) allowed_ordinals_.push_back(ordinal);
  }
  next_allowed_ = 0;
}

bool PageReader::next(Page& page) {
  // The caller is done with the previous page: drop its hold on the
  // decompression buffer so this page can reuse it (a decoder that keeps
  // values in it holds its own reference, and then a fresh buffer is taken).
  page.body_owner.reset();
  while (position_ < nominal_length_) {
    if (restricted_ && (position_ > 0 || !visit_start_)) {
      // Jump over pages the selection does not need.
      while (next_allowed_ < allowed_.size() && allowed_[next_allowed_] < position_) ++next_allowed_;
      if (next_allowed_ == allowed_.size()) return false;
      position_ = allowed_[next_allowed_];
    }
    ErrorLocation where = where_;
    where.page = ordinal_;
    where.offset = chunk_offset_ + position_;
    try {
      size_t header_size = 0;
      // The bytes from this page's start to the end of what was fetched.
      std::span<const uint8_t> at;
      // Enough bytes for any usual page header (a larger one is read again
      // below); a window holding them is reused.
      constexpr int64_t kHeaderProbe = 64 << 10;
      if (windowed_) {
        at = window_from(position_,
                         std::min({kHeaderProbe, options_.window_bytes, nominal_length_ - position_}));
      } else if (fetched_ == nullptr) {
        at = chunk_.subspan(size_t(position_));
      } else {
        at = fetched_->tail(chunk_offset_ + position_);
        if (at.empty()) throw_corrupt("page lies outside the byte ranges fetched for the chunk");
      }
      std::span<const uint8_t> rest = at;
      if (int64_t(rest.size()) > options_.limits.max_page_header_size) {
        rest = rest.first(size_t(options_.limits.max_page_header_size));
      }
      // Encrypted chunks: the header is a module of its own; the chunk's
      // first page is its dictionary when the metadata says so.
      const ModuleCrypto* crypto = options_.crypto;
      const bool dictionary_module = dictionary_first_ && position_ == 0;
      int32_t page_ordinal = data_ordinal_;
      if (crypto != nullptr) {
        if (!allowed_ordinals_.empty()) {
          auto found = std::lower_bound(allowed_.begin(), allowed_.end(), position_);
          if (found != allowed_.end() && *found == position_)
            page_ordinal = allowed_ordinals_[size_t(found - allowed_.begin())];
        }
        if (windowed_) at = window_for_module(position_, at);
        std::span<const uint8_t> plain_header = crypto->decrypt(
            dictionary_module ? ModuleType::kDictionaryPageHeader : ModuleType::kDataPageHeader, page_ordinal,
            at, decrypted_header_, &header_size);
        header_ = decode_page_header(plain_header, options_.limits);
      } else {
        for (;;) {
          try {
            header_ = decode_page_header(rest, options_.limits, &header_size);
            break;
          } catch (const Error&) {
            // A windowed read may have cut a large header (long statistics):
            // parse it again from four times the bytes, up to as many as a
            // header may have.
            const int64_t most =
                std::min(options_.limits.max_page_header_size, source_->size() - chunk_offset_ - position_);
            if (!windowed_ || int64_t(rest.size()) >= most) throw;
            at = window_from(position_, std::min(most, std::max<int64_t>(int64_t(rest.size()) * 4, 256)));
            rest = at.first(std::min(at.size(), size_t(most)));
          }
        }
      }
      const int64_t body_start = position_ + int64_t(header_size);
      const int64_t compressed = header_.compressed_page_size;
      const int64_t uncompressed = header_.uncompressed_page_size;
      if (compressed < 0 || uncompressed < 0) throw_corrupt("negative page size in page header");
      if (compressed > int64_t(at.size()) - int64_t(header_size)) {
        // Some old writers under-report total_compressed_size; accept a page
        // that ends inside the file, as other readers do.
        const int64_t needed = body_start + compressed;
        if (compressed > source_->size() - chunk_offset_ - body_start) {
          throw_corrupt("page body of " + std::to_string(compressed) +
                        " bytes runs past the end of the file");
        }
        if (windowed_) {
          at = window_from(position_, needed - position_);
        } else if (fetched_ == nullptr) {
          chunk_ = source_->read(chunk_offset_, needed, chunk_storage_);
          at = chunk_.subspan(size_t(position_));
        } else {
          at = source_->read(chunk_offset_ + position_, needed - position_, chunk_storage_);
        }
      }
      if (uncompressed > options_.limits.max_page_size) {
        throw_limit("page declares " + std::to_string(uncompressed) +
                    " uncompressed bytes, above the limit of " +
                    std::to_string(options_.limits.max_page_size));
      }
      std::span<const uint8_t> body = at.subspan(header_size, size_t(compressed));
      if (header_.type != PageType::DICTIONARY_PAGE) ++data_ordinal_;
      page = Page{};
      page.type = header_.type;
      page.header = &header_;
      page.ordinal = ordinal_;
      page.file_offset = chunk_offset_ + position_;
      position_ = body_start + compressed;
      // Encrypted bodies are decrypted before anything else; an uncompressed
      // one straight into the buffer the values are decoded from (kept by a
      // zero-copy decoder through body_owner like a decompressed page).
      if (crypto != nullptr && header_.type != PageType::INDEX_PAGE) {
        if (restricted_ && header_.type != PageType::DICTIONARY_PAGE &&
            !is_allowed(page.file_offset - chunk_offset_)) {
          ++ordinal_;
          continue;
        }
        const ModuleType type = dictionary_module ? ModuleType::kDictionaryPage : ModuleType::kDataPage;
        Buffer* plain = &decrypted_body_;
        if (!compressed_) {
          std::shared_ptr<Buffer>& target = *decompressed_;
          if (!target || target.use_count() > 1) target = std::make_shared<Buffer>();
          page.body_owner = target;
          plain = target.get();
        }
        size_t module_size = 0;
        body = crypto->decrypt(type, page_ordinal, body, *plain, &module_size);
        if (int64_t(module_size) != compressed) {
          throw_corrupt("page size " + std::to_string(compressed) + " differs from its encrypted module's " +
                        std::to_string(module_size));
        }
      }
      // The GCM tag already authenticates an encrypted page; its CRC is not checked.
      if (crypto == nullptr && options_.verify_crc && header_.crc) {
        uint32_t actual = uint32_t(libdeflate_crc32(0, body.data(), body.size()));
        if (actual != uint32_t(*header_.crc)) {
          throw_corrupt("page CRC mismatch (stored " + std::to_string(uint32_t(*header_.crc)) +
                        ", computed " + std::to_string(actual) + ")");
        }
      }
      auto decompress = [&](std::span<const uint8_t> input, int64_t size) -> std::span<const uint8_t> {
        if (!compressed_) {
          if (int64_t(input.size()) != size) {
            throw_corrupt("uncompressed page holds " + std::to_string(input.size()) + " bytes, header says " +
                          std::to_string(size));
          }
          return input;
        }
        // Never overwrite a buffer a decoder still holds (zero-copy values).
        std::shared_ptr<Buffer>& target = *decompressed_;
        if (!target || target.use_count() > 1) target = std::make_shared<Buffer>();
        page.body_owner = target;
        // The codec of the thread decompressing now: a streamed chunk's pages
        // are read by whichever worker decodes the next batch, and a codec's
        // library contexts must never be shared by two threads.
        return decompress_page(thread_codec(codec_kind_), input, size, *target, options_.limits);
      };
      switch (header_.type) {
        case PageType::DICTIONARY_PAGE: {
          if (!header_.dictionary_page_header) throw_corrupt("dictionary page without its header");
          const DictionaryPageHeader& dict = *header_.dictionary_page_header;
          if (dict.num_values < 0) throw_corrupt("negative dictionary size");
          if (uncompressed > options_.limits.max_dictionary_size) {
            throw_limit("dictionary page of " + std::to_string(uncompressed) + " bytes exceeds the limit");
          }
          page.num_values = dict.num_values;
          page.encoding = dict.encoding;
          page.body = decompress(body, uncompressed);
          break;
        }
        case PageType::DATA_PAGE: {
          if (restricted_ && !is_allowed(page.file_offset - chunk_offset_)) {
            ++ordinal_;
            continue;
          }
          if (!header_.data_page_header) throw_corrupt("data page without its header");
          const DataPageHeader& data = *header_.data_page_header;
          if (data.num_values < 0) throw_corrupt("negative value count in data page");
          page.num_values = data.num_values;
          page.encoding = data.encoding;
          page.v1_def_encoding = data.definition_level_encoding;
          page.v1_rep_encoding = data.repetition_level_encoding;
          page.body = decompress(body, uncompressed);
          break;
        }
        case PageType::DATA_PAGE_V2: {
          if (restricted_ && !is_allowed(page.file_offset - chunk_offset_)) {
            ++ordinal_;
            continue;
          }
          if (!header_.data_page_header_v2) throw_corrupt("data page v2 without its header");
          const DataPageHeaderV2& data = *header_.data_page_header_v2;
          if (data.num_values < 0 || data.num_rows < 0 || data.num_nulls < 0 ||
              data.num_nulls > data.num_values) {
            throw_corrupt("negative or inconsistent counts in data page v2");
          }
          int64_t rep_length = data.repetition_levels_byte_length;
          int64_t def_length = data.definition_levels_byte_length;
          if (rep_length < 0 || def_length < 0 || rep_length + def_length > int64_t(body.size()) ||
              rep_length + def_length > uncompressed) {
            throw_corrupt("level sections of data page v2 exceed the page");
          }
          page.num_values = data.num_values;
          page.num_rows = data.num_rows;
          page.num_nulls = data.num_nulls;
          page.encoding = data.encoding;
          page.rep_levels = body.first(size_t(rep_length));
          page.def_levels = body.subspan(size_t(rep_length), size_t(def_length));
          std::span<const uint8_t> values = body.subspan(size_t(rep_length + def_length));
          int64_t values_size = uncompressed - rep_length - def_length;
          if (data.compressed() && compressed_) {
            page.body = decompress(values, values_size);
          } else {
            if (int64_t(values.size()) != values_size)
              throw_corrupt("uncompressed v2 values section size mismatch");
            page.body = values;
          }
          break;
        }
        case PageType::INDEX_PAGE:
        default: ++ordinal_; continue;  // carries nothing a reader needs
      }
      if (page.num_values > options_.limits.max_values_per_page) {
        throw_limit("page declares " + std::to_string(page.num_values) + " values, above the limit");
      }
      ++ordinal_;
      return true;
    } catch (const Error& e) {
      throw e.with_location(where);
    }
  }
  return false;
}

}  // namespace parquetry
