#include "parquetry/encryption/file_encryptor.h"

#include <cstring>

#include "parquetry/encryption/aes_cipher.h"
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/util/bit_util.h"

namespace parquetry {
namespace {

// The writer's AAD file-unique part: random, so modules of two files never
// authenticate in each other.
constexpr size_t kFileUniqueSize = 8;

}  // namespace

FileEncryptor::FileEncryptor(EncryptionOptions options, const std::vector<std::string>& column_paths)
    : options_(std::move(options)) {
  if (options_.footer_key.empty()) throw_invalid("encryption needs a footer key");
  crypto::check_key_size(options_.footer_key);
  if (!options_.store_aad_prefix && !options_.aad_prefix) {
    throw_invalid("store_aad_prefix = false needs an AAD prefix");
  }
  std::string unique(kFileUniqueSize, '\0');
  crypto::random_bytes(reinterpret_cast<uint8_t*>(unique.data()), unique.size());
  std::optional<std::string> stored_prefix;
  std::optional<bool> supply;
  if (options_.aad_prefix) {
    if (options_.store_aad_prefix) {
      stored_prefix = options_.aad_prefix;
    } else {
      supply = true;
    }
  }
  if (options_.cipher == EncryptionCipher::kAesGcm) {
    algorithm_.value = AesGcmV1{stored_prefix, unique, supply};
  } else {
    algorithm_.value = AesGcmCtrV1{stored_prefix, unique, supply};
  }
  file_aad_ = options_.aad_prefix.value_or("") + unique;
  columns_.resize(column_paths.size());
  for (const auto& [path, column] : options_.columns) {
    bool found = false;
    for (size_t c = 0; c < column_paths.size(); ++c) {
      if (column_paths[c] != path) continue;
      found = true;
      columns_[c] = ColumnKey{true, column.key, column.key_metadata};
      if (!column.key.empty()) crypto::check_key_size(column.key);
    }
    if (!found) throw_invalid("encryption options name column '" + path + "', which the schema does not have");
  }
  if (options_.columns.empty()) {
    for (ColumnKey& column : columns_) column.encrypted = true;
  }
}

std::optional<ModuleCrypto> FileEncryptor::chunk(int32_t row_group, int32_t column) const {
  const ColumnKey& key = columns_.at(size_t(column));
  if (!key.encrypted) return std::nullopt;
  return ModuleCrypto(key.key.empty() ? options_.footer_key : key.key, file_aad_, options_.cipher, row_group, column);
}

void FileEncryptor::encrypt_pages(const ModuleCrypto& crypto, std::span<const uint8_t> pages, ColumnMetaData& meta,
                                  std::vector<PageLocation>& locations, Buffer& out) const {
  out.clear();
  out.reserve(pages.size() + pages.size() / 64 + 1024);
  size_t at = 0;
  int32_t data_ordinal = 0;
  size_t next_location = 0;
  Buffer header_bytes;
  while (at < pages.size()) {
    size_t header_size = 0;
    PageHeader header = decode_page_header(pages.subspan(at), {}, &header_size);
    const size_t body_size = size_t(header.compressed_page_size);
    if (body_size > pages.size() - at - header_size) throw Error(ErrorCode::kInternal, "page runs past its chunk");
    const std::span<const uint8_t> body = pages.subspan(at + header_size, body_size);
    const bool dictionary = header.type == PageType::DICTIONARY_PAGE;
    const ModuleType header_type = dictionary ? ModuleType::kDictionaryPageHeader : ModuleType::kDataPageHeader;
    const ModuleType body_type = dictionary ? ModuleType::kDictionaryPage : ModuleType::kDataPage;
    const int64_t new_offset = int64_t(out.size());
    if (dictionary) {
      meta.dictionary_page_offset = new_offset;
    } else if (data_ordinal == 0) {
      meta.data_page_offset = new_offset;
    }
    header.compressed_page_size = int32_t(crypto.module_size(body_type, body.size()));
    header_bytes.clear();
    encode_page_header(header, header_bytes);
    crypto.encrypt(header_type, data_ordinal, header_bytes.span(), out);
    crypto.encrypt(body_type, data_ordinal, body, out);
    if (!dictionary) {
      // The offset index lists the data pages in order.
      if (next_location < locations.size()) {
        locations[next_location].offset = new_offset;
        locations[next_location].compressed_page_size = int32_t(int64_t(out.size()) - new_offset);
        ++next_location;
      }
      ++data_ordinal;
    }
    at += header_size + body_size;
  }
  meta.total_compressed_size = int64_t(out.size());
}

void FileEncryptor::encrypt_bloom_filter(const ModuleCrypto& crypto, std::span<const uint8_t> filter,
                                         Buffer& out) const {
  size_t header_size = 0;
  (void)decode_bloom_filter_header(filter, {}, &header_size);
  out.clear();
  crypto.encrypt(ModuleType::kBloomFilterHeader, -1, filter.first(header_size), out);
  crypto.encrypt(ModuleType::kBloomFilterBitset, -1, filter.subspan(header_size), out);
}

void FileEncryptor::seal_column_metadata(FileMetaData& metadata) const {
  Buffer plain, sealed;
  for (size_t rg = 0; rg < metadata.row_groups.size(); ++rg) {
    ColumnChunkList& chunks = metadata.row_groups[rg].columns;
    for (size_t c = 0; c < chunks.size(); ++c) {
      const ColumnKey& key = columns_.at(c);
      if (!key.encrypted) continue;
      ColumnChunk& chunk = chunks[c];
      if (key.key.empty()) {
        chunk.crypto_metadata = ColumnCryptoMetaData{EncryptionWithFooterKey{}};
      } else {
        EncryptionWithColumnKey with_key;
        for (std::string_view part : chunk.meta_data->path_in_schema) with_key.path_in_schema.emplace_back(part);
        if (!key.key_metadata.empty()) with_key.key_metadata = key.key_metadata;
        chunk.crypto_metadata = ColumnCryptoMetaData{std::move(with_key)};
      }
      // An encrypted footer already hides the metadata of footer-key columns.
      if (footer_encrypted() && key.key.empty()) continue;
      plain.clear();
      encode_column_metadata(*chunk.meta_data, plain);
      sealed.clear();
      ModuleCrypto crypto = *this->chunk(int32_t(rg), int32_t(c));
      crypto.encrypt(ModuleType::kColumnMetaData, -1, plain.span(), sealed);
      chunk.encrypted_column_metadata = std::string(reinterpret_cast<const char*>(sealed.data()), sealed.size());
      if (footer_encrypted()) {
        chunk.meta_data.reset();
      } else {
        // Readers without the key still learn the layout, but no values.
        ColumnMetaData& redacted = *chunk.meta_data;
        redacted.statistics.reset();
        redacted.encoding_stats.clear();
        redacted.size_statistics = std::nullopt;
        redacted.bloom_filter_offset.reset();
        redacted.bloom_filter_length.reset();
      }
    }
  }
}

void FileEncryptor::write_footer(FileMetaData& metadata, Sink& sink) const {
  seal_column_metadata(metadata);
  Buffer footer;
  ModuleCrypto footer_crypto(options_.footer_key, file_aad_, options_.cipher, -1, -1);
  if (footer_encrypted()) {
    FileCryptoMetaData crypto;
    crypto.encryption_algorithm = algorithm_;
    if (!options_.footer_key_metadata.empty()) crypto.key_metadata = options_.footer_key_metadata;
    encode_file_crypto_metadata(crypto, footer);
    Buffer plain;
    encode_file_metadata(metadata, plain);
    footer_crypto.encrypt(ModuleType::kFooter, -1, plain.span(), footer);
  } else {
    metadata.encryption_algorithm = algorithm_;
    if (!options_.footer_key_metadata.empty()) metadata.footer_signing_key_metadata = options_.footer_key_metadata;
    encode_file_metadata(metadata, footer);
    // Signature: a fresh nonce and the GCM tag of the footer under the footer key.
    const size_t signed_size = footer.size();
    footer.resize(signed_size + crypto::kNonceSize + crypto::kTagSize);
    uint8_t* nonce = footer.data() + signed_size;
    crypto::random_bytes(nonce, crypto::kNonceSize);
    footer_crypto.footer_signature_tag({footer.data(), signed_size}, nonce, nonce + crypto::kNonceSize);
  }
  if (footer.size() > UINT32_MAX) throw_invalid("footer exceeds 4 GiB");
  uint8_t trailer[8];
  bits::store<uint32_t>(trailer, uint32_t(footer.size()));
  std::memcpy(trailer + 4, magic(), 4);
  sink.write(footer.span());
  sink.write(trailer, sizeof trailer);
}

}  // namespace parquetry
