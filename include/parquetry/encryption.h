// Parquet modular encryption (parquet-format Encryption.md): keys and
// options for reading and writing encrypted files.
//
//   parquetry::ReaderOptions options;
//   options.decryption.footer_key = parquetry::parse_key("000102030405060708090a0b0c0d0e0f");
//   options.decryption.column_keys["double_field"] = parquetry::parse_key(column_key_hex);
//   auto reader = parquetry::FileReader::open("data.parquet.encrypted", options);
//
// Keys are raw AES keys of 16, 24 or 32 bytes (AES-128/192/256). A file
// either encrypts its footer (tail magic "PARE") or keeps it in the clear and
// signs it (AES-GCM tag over the footer, checked when the footer key is
// known). Each column is in the clear, encrypted with the footer key, or
// encrypted with its own key; a reader without a column's key still sees the
// schema and the footer, and gets an error only when it asks for the values.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parquetry {

/// Resolves a key from the key metadata the writer stored beside the footer
/// or a column (often a key id such as "kf", or key-tools JSON). Returns the
/// raw key bytes, or an empty string when it has no key for that metadata
/// (the column then stays unreadable; for the footer that is an error).
using KeyRetriever = std::function<std::string(const std::string& key_metadata)>;

/// How to decrypt an encrypted file. An empty DecryptionOptions (no keys, no
/// retriever) still reads plaintext files and the clear columns of
/// plaintext-footer files.
struct DecryptionOptions {
  /// The footer key (raw bytes). Empty: asked from key_retriever.
  std::string footer_key;
  /// Column keys by dotted column path (raw bytes); these win over the retriever.
  std::map<std::string, std::string> column_keys;
  /// Asked for every key not given above, with the key metadata stored in the file.
  KeyRetriever key_retriever;
  /// The AAD prefix, for files written with one that was not stored in the
  /// file (required then); when the file stores one as well they must match.
  std::optional<std::string> aad_prefix;
  /// Check the signature of a plaintext footer when the footer key is known
  /// (a mismatch is an error). Without the footer key nothing can be checked.
  bool verify_plaintext_footer = true;

  /// Whether any key or retriever is configured.
  bool has_keys() const { return !footer_key.empty() || !column_keys.empty() || bool(key_retriever); }
};

/// The cipher of an encrypted file.
enum class EncryptionCipher {
  kAesGcm,     ///< AES_GCM_V1: every module AES-GCM (authenticated)
  kAesGcmCtr,  ///< AES_GCM_CTR_V1: page bodies AES-CTR (not authenticated), the rest AES-GCM
};

/// One column's encryption when writing.
struct ColumnEncryption {
  /// Raw key bytes; empty = encrypted with the footer key.
  std::string key;
  /// Stored in the column's crypto metadata for key retrievers (e.g. a key id).
  std::string key_metadata;
};

/// How to encrypt a file when writing (WriterOptions::encryption).
struct EncryptionOptions {
  /// The footer key (raw bytes, 16/24/32). Required: it encrypts or signs the footer.
  std::string footer_key;
  /// Stored with the footer for key retrievers.
  std::string footer_key_metadata;
  EncryptionCipher cipher = EncryptionCipher::kAesGcm;
  /// Keep the footer in the clear (readable by readers without keys) and
  /// sign it with the footer key.
  bool plaintext_footer = false;
  /// Columns to encrypt, by dotted path. Empty = every column with the footer key.
  /// When not empty, columns not listed are written in the clear.
  std::map<std::string, ColumnEncryption> columns;
  /// AAD prefix bound into every module (e.g. the file's intended name), so a
  /// file renamed or swapped with another fails to decrypt.
  std::optional<std::string> aad_prefix;
  /// Store the AAD prefix in the file (false: readers must supply it).
  bool store_aad_prefix = true;
};

/// Decodes a key given as text: hex (32, 48 or 64 hex digits) or base64 of
/// 16, 24 or 32 bytes. Throws kInvalidArgument otherwise, without echoing the text.
std::string parse_key(std::string_view text);

/// Reads a key file: a JSON object
///   {"footer_key": "<hex|base64>", "column_keys": {"a.b": "<hex|base64>", ...},
///    "aad_prefix": "<text>"}
/// (every member optional) into `options`. Errors never echo key text.
void load_key_file(const std::string& path, DecryptionOptions& options);

}  // namespace parquetry
