#include "parquetry/encryption/file_decryptor.h"

#include <openssl/crypto.h>

#include <map>
#include <utility>

#include "parquetry/encryption/aes_cipher.h"
#include "parquetry/error.h"
#include "parquetry/io.h"

namespace parquetry {

struct FileDecryptorBuilder {
  const DecryptionOptions& options;
  FileDecryptor& out;
  std::string footer_key;
  std::map<std::pair<std::string, std::string>, int16_t> resolved;  // (path, key metadata) -> key index

  // The cipher, and the file AAD: the AAD prefix (given or stored) + the file-unique part.
  void set_algorithm(const EncryptionAlgorithm& algorithm) {
    const std::optional<std::string>* stored_prefix = nullptr;
    const std::optional<std::string>* file_unique = nullptr;
    const std::optional<bool>* supply = nullptr;
    if (const auto* gcm = std::get_if<AesGcmV1>(&algorithm.value)) {
      out.cipher_ = EncryptionCipher::kAesGcm;
      stored_prefix = &gcm->aad_prefix;
      file_unique = &gcm->aad_file_unique;
      supply = &gcm->supply_aad_prefix;
    } else {
      const auto& ctr = std::get<AesGcmCtrV1>(algorithm.value);
      out.cipher_ = EncryptionCipher::kAesGcmCtr;
      stored_prefix = &ctr.aad_prefix;
      file_unique = &ctr.aad_file_unique;
      supply = &ctr.supply_aad_prefix;
    }
    std::string prefix;
    if (options.aad_prefix) {
      if (*stored_prefix && **stored_prefix != *options.aad_prefix) {
        throw_invalid("the AAD prefix given differs from the one stored in the file");
      }
      prefix = *options.aad_prefix;
    } else if (*stored_prefix) {
      prefix = **stored_prefix;
    } else if (supply->value_or(false)) {
      throw_invalid(
          "the file was encrypted with an AAD prefix it does not store: give it in DecryptionOptions::aad_prefix");
    }
    out.file_aad_ = prefix + file_unique->value_or("");
  }

  // A key from the options or the retriever; empty when neither has it.
  std::string retrieve(const std::optional<std::string>& key_metadata) const {
    if (!options.key_retriever) return {};
    std::string key = options.key_retriever(key_metadata.value_or(""));
    if (!key.empty()) crypto::check_key_size(key);
    return key;
  }

  void resolve_footer_key(const std::optional<std::string>& key_metadata) {
    footer_key = options.footer_key;
    if (footer_key.empty()) footer_key = retrieve(key_metadata);
    if (!footer_key.empty()) crypto::check_key_size(footer_key);
  }

  int16_t key_index(const std::string& key) {
    for (size_t i = 0; i < out.keys_.size(); ++i) {
      if (out.keys_[i] == key) return int16_t(i);
    }
    if (out.keys_.size() >= size_t(INT16_MAX)) throw_limit("too many distinct column keys");
    out.keys_.push_back(key);
    return int16_t(out.keys_.size() - 1);
  }

  // The key index of a chunk's crypto metadata (kNoKey when unknown).
  int16_t chunk_key(const ColumnCryptoMetaData& crypto, std::string& missing) {
    if (std::holds_alternative<EncryptionWithFooterKey>(crypto.value)) {
      if (footer_key.empty()) {
        missing = "the footer key";
        return FileDecryptor::kNoKey;
      }
      return key_index(footer_key);
    }
    const auto& column = std::get<EncryptionWithColumnKey>(crypto.value);
    std::string path;
    for (const std::string& part : column.path_in_schema) path += (path.empty() ? "" : ".") + part;
    const std::string metadata = column.key_metadata.value_or("");
    auto found = resolved.find({path, metadata});
    if (found != resolved.end()) {
      if (found->second == FileDecryptor::kNoKey) missing = "key metadata \"" + metadata + "\"";
      return found->second;
    }
    std::string key;
    if (auto given = options.column_keys.find(path); given != options.column_keys.end()) {
      key = given->second;
      crypto::check_key_size(key);
    } else {
      key = retrieve(column.key_metadata);
    }
    const int16_t index = key.empty() ? FileDecryptor::kNoKey : key_index(key);
    if (index == FileDecryptor::kNoKey) missing = "key metadata \"" + metadata + "\"";
    resolved.emplace(std::make_pair(path, metadata), index);
    return index;
  }

  // Decrypts the column metadata of every chunk whose key is known.
  void decrypt_columns(FileMetaData& metadata, const Limits& limits) {
    out.chunk_keys_.resize(metadata.row_groups.size());
    out.missing_.resize(metadata.row_groups.size());
    Buffer plaintext;
    for (size_t rg = 0; rg < metadata.row_groups.size(); ++rg) {
      ColumnChunkList& chunks = metadata.row_groups[rg].columns;
      out.chunk_keys_[rg].assign(chunks.size(), FileDecryptor::kClear);
      out.missing_[rg].assign(chunks.size(), std::string());
      for (size_t c = 0; c < chunks.size(); ++c) {
        ColumnChunk& chunk = chunks[c];
        if (!chunk.crypto_metadata) continue;
        ErrorLocation where;
        where.row_group = int64_t(rg);
        if (const auto* with_key = std::get_if<EncryptionWithColumnKey>(&chunk.crypto_metadata->value)) {
          std::string path;
          for (const std::string& part : with_key->path_in_schema) path += (path.empty() ? "" : ".") + part;
          where.column = path;
        } else if (chunk.meta_data) {
          std::string path;
          for (std::string_view part : chunk.meta_data->path_in_schema) {
            if (!path.empty()) path += '.';
            path += part;
          }
          where.column = path;
        }
        try {
          const int16_t index = chunk_key(*chunk.crypto_metadata, out.missing_[rg][c]);
          out.chunk_keys_[rg][c] = index;
          if (index < 0 || !chunk.encrypted_column_metadata) continue;
          ModuleCrypto crypto(out.keys_[size_t(index)], out.file_aad_, out.cipher_, int32_t(rg), int32_t(c));
          const std::string& sealed = *chunk.encrypted_column_metadata;
          crypto.decrypt(ModuleType::kColumnMetaData, -1,
                         {reinterpret_cast<const uint8_t*>(sealed.data()), sealed.size()}, plaintext);
          chunk.meta_data = decode_column_metadata(plaintext.span(), limits);
        } catch (const Error& e) {
          throw e.with_location(where);
        }
      }
    }
  }
};

bool FileDecryptor::encrypted(size_t row_group, size_t column) const {
  return row_group < chunk_keys_.size() && column < chunk_keys_[row_group].size() &&
         chunk_keys_[row_group][column] != kClear;
}

bool FileDecryptor::readable(size_t row_group, size_t column) const {
  return !(row_group < chunk_keys_.size() && column < chunk_keys_[row_group].size() &&
           chunk_keys_[row_group][column] == kNoKey);
}

std::optional<ModuleCrypto> FileDecryptor::chunk(size_t row_group, size_t column, const std::string& path) const {
  if (!encrypted(row_group, column)) return std::nullopt;
  const int16_t index = chunk_keys_[row_group][column];
  if (index == kNoKey) {
    throw_invalid("column " + path + " is encrypted and no key was given for it (" + missing_[row_group][column] +
                  ")");
  }
  return ModuleCrypto(keys_[size_t(index)], file_aad_, cipher_, int32_t(row_group), int32_t(column));
}

OpenedFooter open_footer(RandomAccessSource& source, const Limits& limits, const DecryptionOptions& options) {
  FooterBytes bytes = read_footer_bytes(source, limits);
  OpenedFooter opened;
  auto decryptor = std::make_shared<FileDecryptor>();
  FileDecryptorBuilder builder{options, *decryptor, {}, {}};
  ErrorLocation where;
  where.file = source.name();
  try {
    if (bytes.encrypted_footer) {
      size_t consumed = 0;
      FileCryptoMetaData crypto = decode_file_crypto_metadata(bytes.footer, limits, &consumed);
      builder.set_algorithm(crypto.encryption_algorithm);
      builder.resolve_footer_key(crypto.key_metadata);
      if (builder.footer_key.empty()) {
        throw_invalid("the footer is encrypted and no footer key was given (DecryptionOptions::footer_key or a "
                      "key retriever)");
      }
      ModuleCrypto footer(builder.footer_key, decryptor->file_aad_, decryptor->cipher_, -1, -1);
      Buffer plaintext;
      footer.decrypt(ModuleType::kFooter, -1, bytes.footer.subspan(consumed), plaintext);
      opened.metadata = decode_file_metadata(plaintext.span(), limits);
      decryptor->footer_encrypted_ = true;
    } else {
      opened.metadata = decode_file_metadata(bytes.footer, limits);
      if (!opened.metadata.encryption_algorithm) return opened;
      // Plaintext footer: readers without keys see everything but the
      // encrypted columns; with the footer key the signature (nonce + GCM
      // tag after the serialized footer) is checked.
      const bool keys = options.has_keys();
      if (keys) {
        builder.set_algorithm(*opened.metadata.encryption_algorithm);
        builder.resolve_footer_key(opened.metadata.footer_signing_key_metadata);
      } else {
        decryptor->cipher_ = std::holds_alternative<AesGcmCtrV1>(opened.metadata.encryption_algorithm->value)
                                 ? EncryptionCipher::kAesGcmCtr
                                 : EncryptionCipher::kAesGcm;
      }
      constexpr size_t kSignature = crypto::kNonceSize + crypto::kTagSize;
      if (!builder.footer_key.empty() && options.verify_plaintext_footer) {
        if (bytes.footer.size() < kSignature) throw_corrupt("plaintext footer too short for its signature");
        const std::span<const uint8_t> signed_part = bytes.footer.first(bytes.footer.size() - kSignature);
        const uint8_t* nonce = signed_part.data() + signed_part.size();
        uint8_t tag[crypto::kTagSize];
        ModuleCrypto footer(builder.footer_key, decryptor->file_aad_, decryptor->cipher_, -1, -1);
        footer.footer_signature_tag(signed_part, nonce, tag);
        if (CRYPTO_memcmp(tag, nonce + crypto::kNonceSize, crypto::kTagSize) != 0) {
          throw_corrupt("plaintext footer signature mismatch (AES-GCM tag): wrong footer key, wrong AAD prefix or "
                        "an altered footer");
        }
        decryptor->signature_verified_ = true;
      }
    }
    builder.decrypt_columns(opened.metadata, limits);
  } catch (const Error& e) {
    throw e.with_location(where);
  }
  opened.decryptor = std::move(decryptor);
  return opened;
}

}  // namespace parquetry
