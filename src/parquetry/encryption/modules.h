// Internal: the encrypted modules of a Parquet file (Encryption.md): their
// AADs and their serialization,
//   length (4 bytes LE, of what follows) | nonce (12) | ciphertext | tag (16, GCM only).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "parquetry/encryption.h"
#include "parquetry/util/buffer.h"

namespace parquetry {

/// Module types, as stored in the AAD suffix.
enum class ModuleType : uint8_t {
  kFooter = 0,
  kColumnMetaData = 1,
  kDataPage = 2,
  kDictionaryPage = 3,
  kDataPageHeader = 4,
  kDictionaryPageHeader = 5,
  kColumnIndex = 6,
  kOffsetIndex = 7,
  kBloomFilterHeader = 8,
  kBloomFilterBitset = 9,
};

/// Readable module name for errors ("data page header", ...).
const char* module_name(ModuleType type);

/// Ordinals are 16-bit in the AAD: files with more row groups, columns or
/// pages per chunk cannot be encrypted.
inline constexpr int32_t kMaxModuleOrdinal = 32767;

/// Bytes the serialization adds to a plaintext: length + nonce (+ tag for GCM).
inline constexpr size_t kGcmModuleOverhead = 4 + 12 + 16;
inline constexpr size_t kCtrModuleOverhead = 4 + 12;

/// Writes the AAD of a module into `out`: file AAD (prefix + file unique),
/// the type byte, then the row group, column and (data pages and their
/// headers only) page ordinals as 2-byte little-endian integers. The footer
/// has no ordinals.
void module_aad(std::string_view file_aad, ModuleType type, int32_t row_group, int32_t column,
                int32_t page, std::string& out);

/// Encrypts and decrypts the modules of one column chunk (or, with
/// row_group = column = -1, the footer): the key, the file AAD and the
/// ordinals bound into each module's AAD.
class ModuleCrypto {
 public:
  ModuleCrypto(std::string key, std::string file_aad, EncryptionCipher cipher, int32_t row_group,
               int32_t column);

  /// Whether pages of `type` use AES-CTR (page bodies of AES_GCM_CTR_V1).
  bool uses_ctr(ModuleType type) const {
    return cipher_ == EncryptionCipher::kAesGcmCtr &&
           (type == ModuleType::kDataPage || type == ModuleType::kDictionaryPage);
  }
  /// Serialized size of a module holding `plaintext_size` bytes.
  size_t module_size(ModuleType type, size_t plaintext_size) const {
    return plaintext_size + (uses_ctr(type) ? kCtrModuleOverhead : kGcmModuleOverhead);
  }

  /// Decrypts the module that starts `bytes` (which may extend past it) into
  /// `out` (resized to the plaintext) and returns the plaintext. Sets
  /// *consumed to the module's serialized size. A length that runs past
  /// `bytes` or a tag that does not authenticate is a kCorrupt error naming
  /// the module ("AES-GCM tag mismatch in data page header ...").
  std::span<const uint8_t> decrypt(ModuleType type, int32_t page, std::span<const uint8_t> bytes,
                                   Buffer& out, size_t* consumed = nullptr) const;
  /// Appends the serialized module of `plaintext` to `out`.
  void encrypt(ModuleType type, int32_t page, std::span<const uint8_t> plaintext, Buffer& out) const;

  /// The AES-GCM tag the footer's plaintext signature must carry for
  /// `nonce` (plaintext footer mode).
  void footer_signature_tag(std::span<const uint8_t> footer, const uint8_t* nonce, uint8_t* tag) const;

  const std::string& key() const { return key_; }
  int32_t row_group() const { return row_group_; }
  int32_t column() const { return column_; }

 private:
  std::string key_;
  std::string file_aad_;
  EncryptionCipher cipher_;
  int32_t row_group_;
  int32_t column_;
};

}  // namespace parquetry
