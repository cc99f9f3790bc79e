// Internal: the writer's side of modular encryption. The column writers
// produce plaintext pages as always; at the module boundary (a finished
// column chunk, an index, a Bloom filter, the footer) this seals them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "parquetry/encryption.h"
#include "parquetry/encryption/modules.h"
#include "parquetry/metadata.h"

namespace parquetry {

class Sink;

class FileEncryptor {
 public:
  /// `column_paths`: the dotted path of every leaf, in column order.
  FileEncryptor(EncryptionOptions options, const std::vector<std::string>& column_paths);

  bool footer_encrypted() const { return !options_.plaintext_footer; }
  /// The magic at both ends of the file: "PARE" with an encrypted footer, else "PAR1".
  const char* magic() const { return footer_encrypted() ? "PARE" : "PAR1"; }

  /// The module crypto of chunk (row_group, column); nullopt when written in the clear.
  std::optional<ModuleCrypto> chunk(int32_t row_group, int32_t column) const;

  /// Seals the serialized pages of a column chunk (page header + body each,
  /// dictionary page first when there is one): every header and body becomes
  /// an encrypted module, and each header's compressed_page_size the size of
  /// its body's module. `locations` (chunk-relative, from the offset index)
  /// and the chunk-relative offsets and total size in `meta` are moved to
  /// where the pages now lie.
  void encrypt_pages(const ModuleCrypto& crypto, std::span<const uint8_t> pages, ColumnMetaData& meta,
                     std::vector<PageLocation>& locations, Buffer& out) const;
  /// A serialized Bloom filter (header + bitset) as two modules.
  void encrypt_bloom_filter(const ModuleCrypto& crypto, std::span<const uint8_t> filter, Buffer& out) const;

  /// Sets each encrypted chunk's crypto metadata and encrypted column
  /// metadata; with a plaintext footer, chunks keep a copy of their metadata
  /// without statistics for readers without keys, with an encrypted footer
  /// chunks with their own key keep none.
  void seal_column_metadata(FileMetaData& metadata) const;
  /// Writes the footer and the trailer (length + magic): FileCryptoMetaData
  /// and the encrypted FileMetaData, or the FileMetaData with its signature.
  void write_footer(FileMetaData& metadata, Sink& sink) const;

 private:
  struct ColumnKey {
    bool encrypted = false;
    std::string key;  // empty = the footer key
    std::string key_metadata;
  };
  EncryptionOptions options_;
  EncryptionAlgorithm algorithm_;
  std::string file_aad_;
  std::vector<ColumnKey> columns_;
};

}  // namespace parquetry
