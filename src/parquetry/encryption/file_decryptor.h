// Internal: opening an encrypted file's footer and handing out the keys of
// its column chunks.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parquetry/encryption.h"
#include "parquetry/encryption/modules.h"
#include "parquetry/limits.h"
#include "parquetry/metadata.h"

namespace parquetry {

class RandomAccessSource;
struct OpenedFooter;
class FileDecryptor;
OpenedFooter open_footer(RandomAccessSource& source, const Limits& limits, const DecryptionOptions& options);

/// The decryption state of one file: its cipher and file AAD, and for each
/// column chunk whether it is in the clear, encrypted with a key the reader
/// has, or encrypted with a key it lacks.
class FileDecryptor {
 public:
  EncryptionCipher cipher() const { return cipher_; }
  bool footer_encrypted() const { return footer_encrypted_; }
  /// Whether the plaintext footer's signature was checked (false: no footer key).
  bool footer_signature_verified() const { return signature_verified_; }

  /// Whether chunk (row_group, column) is encrypted.
  bool encrypted(size_t row_group, size_t column) const;
  /// Whether its key is known (true for chunks in the clear).
  bool readable(size_t row_group, size_t column) const;
  /// The module crypto of an encrypted chunk whose key is known; nullopt for
  /// a chunk in the clear. A chunk encrypted with a key the reader lacks is
  /// a kInvalidArgument error naming the column and its key metadata.
  std::optional<ModuleCrypto> chunk(size_t row_group, size_t column, const std::string& path) const;

 private:
  friend struct FileDecryptorBuilder;
  friend OpenedFooter open_footer(RandomAccessSource&, const Limits&, const DecryptionOptions&);
  static constexpr int16_t kClear = -1;
  static constexpr int16_t kNoKey = -2;
  EncryptionCipher cipher_ = EncryptionCipher::kAesGcm;
  bool footer_encrypted_ = false;
  bool signature_verified_ = false;
  std::string file_aad_;
  std::vector<std::string> keys_;  // distinct keys in use
  std::vector<std::vector<int16_t>> chunk_keys_;  // per row group, per column: index into keys_, or kClear / kNoKey
  std::vector<std::vector<std::string>> missing_;  // per row group, per column: key metadata of kNoKey chunks
};

/// A decoded footer and, for encrypted files, its decryptor (null otherwise).
struct OpenedFooter {
  FileMetaData metadata;
  std::shared_ptr<const FileDecryptor> decryptor;
};

/// Reads the footer of any Parquet file. A plaintext file needs no keys. An
/// encrypted footer ("PARE") is decrypted with the footer key; a plaintext
/// footer of an encrypted file has its signature checked when the footer key
/// is known. The metadata of every encrypted column chunk whose key is known
/// is decrypted into ColumnChunk::meta_data; chunks without their key keep
/// what the footer shows (nothing, or the redacted copy of a plaintext footer).
OpenedFooter open_footer(RandomAccessSource& source, const Limits& limits, const DecryptionOptions& options);

}  // namespace parquetry
