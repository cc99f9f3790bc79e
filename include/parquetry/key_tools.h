// Envelope encryption as the key tools of parquet-java and Arrow C++ do it:
// each file gets fresh random data keys (DEKs); a DEK is wrapped by a master
// key held in a key management service (KMS), directly or through a key
// encryption key (KEK, "double wrapping"), and the wrapped key travels as
// "key material" JSON, either inside the file's key metadata or in a file
// beside it ("_KEY_MATERIAL_FOR_<file>.json").
//
//   auto kms = std::make_shared<parquetry::InMemoryKms>(master_keys);  // id -> key bytes
//   parquetry::ReaderOptions options;
//   options.decryption.key_retriever = parquetry::key_tools_retriever(kms, "data.parquet.encrypted");
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "parquetry/encryption.h"

namespace parquetry {

/// A key management service: wraps and unwraps keys with the master key it
/// holds under an id. Implementations talk to a real KMS.
class KmsClient {
 public:
  virtual ~KmsClient() = default;
  /// Returns the wrapped form of `key` (text, stored in key material).
  virtual std::string wrap_key(const std::string& key, const std::string& master_key_id) = 0;
  /// Inverts wrap_key; throws when the master key is unknown or the wrapped key does not authenticate.
  virtual std::string unwrap_key(const std::string& wrapped_key, const std::string& master_key_id) = 0;
};

/// The test KMS of parquet-java (InMemoryKMS) and Arrow C++
/// (TestOnlyInServerWrapKms): master keys held in memory; a key is wrapped
/// with AES-GCM under the master key with the master key id as AAD, and
/// stored as base64 of nonce | ciphertext | tag. For tests and examples only.
class InMemoryKms final : public KmsClient {
 public:
  /// Master key id -> raw key bytes (16, 24 or 32).
  explicit InMemoryKms(std::map<std::string, std::string> master_keys);
  std::string wrap_key(const std::string& key, const std::string& master_key_id) override;
  std::string unwrap_key(const std::string& wrapped_key, const std::string& master_key_id) override;

 private:
  const std::string& master_key(const std::string& id) const;
  std::map<std::string, std::string> master_keys_;
};

/// A key retriever for files written with the key tools: reads the key
/// material from the key metadata (or, for external key material, from the
/// file `external_key_material` names; default: the one beside
/// `parquet_path`) and unwraps the data key through `kms`.
KeyRetriever key_tools_retriever(std::shared_ptr<KmsClient> kms, const std::string& parquet_path = "");

/// "<dir>/_KEY_MATERIAL_FOR_<name>.json" for "<dir>/<name>".
std::string external_key_material_path(const std::string& parquet_path);

/// How key_tools_encryption() wraps the keys.
struct KeyToolsWriteOptions {
  std::string footer_master_key_id;
  /// Master key id -> the columns (dotted paths) whose data keys it wraps.
  /// Empty: every column is encrypted with the footer key.
  std::map<std::string, std::vector<std::string>> column_master_key_ids;
  /// Wrap data keys with a fresh KEK that the KMS wraps (one KMS call per
  /// master key instead of per data key), as parquet-java does by default.
  bool double_wrapping = true;
  bool plaintext_footer = false;
  EncryptionCipher cipher = EncryptionCipher::kAesGcm;
  int data_key_bits = 128;
};

/// EncryptionOptions with fresh random data keys wrapped through `kms`; the
/// key material is stored in the key metadata (internal storage).
EncryptionOptions key_tools_encryption(KmsClient& kms, const KeyToolsWriteOptions& options);

}  // namespace parquetry
