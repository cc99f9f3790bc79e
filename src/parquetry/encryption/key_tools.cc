// Key material (parquet-java's "PKMT1" JSON) and key wrapping for the key tools.
#include "parquetry/key_tools.h"

#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "parquetry/encryption/aes_cipher.h"
#include "parquetry/encryption/base64.h"
#include "parquetry/error.h"
#include "parquetry/util/json_writer.h"

namespace parquetry {
namespace {

std::span<const uint8_t> bytes_of(std::string_view text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

// Local wrapping: base64(nonce | AES-GCM ciphertext | tag), the AAD binding
// the wrapped key to its wrapping key's id.
std::string wrap_locally(const std::string& key, const std::string& wrapping_key, std::string_view aad) {
  std::string out(crypto::kNonceSize + key.size() + crypto::kTagSize, '\0');
  uint8_t* at = reinterpret_cast<uint8_t*>(out.data());
  crypto::random_bytes(at, crypto::kNonceSize);
  crypto::gcm_encrypt(wrapping_key, at, bytes_of(aad), bytes_of(key), at + crypto::kNonceSize,
                      at + crypto::kNonceSize + key.size());
  return crypto::base64_encode(out);
}

std::string unwrap_locally(const std::string& wrapped, const std::string& wrapping_key, std::string_view aad) {
  std::optional<std::string> raw = crypto::base64_decode(wrapped);
  if (!raw || raw->size() < crypto::kNonceSize + crypto::kTagSize) throw_corrupt("wrapped key is not valid base64 of a wrapped key");
  const size_t size = raw->size() - crypto::kNonceSize - crypto::kTagSize;
  const uint8_t* nonce = reinterpret_cast<const uint8_t*>(raw->data());
  std::string key(size, '\0');
  if (!crypto::gcm_decrypt(wrapping_key, nonce, bytes_of(aad), {nonce + crypto::kNonceSize, size},
                           nonce + crypto::kNonceSize + size, reinterpret_cast<uint8_t*>(key.data()))) {
    throw_invalid("wrapped key does not authenticate (AES-GCM tag mismatch): wrong master key");
  }
  return key;
}

std::string string_member(simdjson::dom::object& object, std::string_view name, const char* what) {
  std::string_view value;
  if (object[name].get(value) != simdjson::SUCCESS) {
    throw_invalid(std::string(what) + ": member \"" + std::string(name) + "\" missing or not a string");
  }
  return std::string(value);
}

// Unwraps the data key a key material JSON object describes.
std::string unwrap_material(simdjson::dom::object material, KmsClient& kms) {
  const char* what = "key material";
  if (string_member(material, "keyMaterialType", what) != "PKMT1") throw_unsupported("key material type other than PKMT1");
  const std::string master_key_id = string_member(material, "masterKeyID", what);
  const std::string wrapped_dek = string_member(material, "wrappedDEK", what);
  bool double_wrapping = false;
  if (material["doubleWrapping"].get(double_wrapping) != simdjson::SUCCESS) {
    throw_invalid("key material: member \"doubleWrapping\" missing or not a boolean");
  }
  if (!double_wrapping) return kms.unwrap_key(wrapped_dek, master_key_id);
  const std::string kek_id = string_member(material, "keyEncryptionKeyID", what);
  const std::string kek = kms.unwrap_key(string_member(material, "wrappedKEK", what), master_key_id);
  std::optional<std::string> kek_id_bytes = crypto::base64_decode(kek_id);
  if (!kek_id_bytes) throw_invalid("key material: keyEncryptionKeyID is not base64");
  return unwrap_locally(wrapped_dek, kek, *kek_id_bytes);
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_invalid("cannot open key material file " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class KeyToolsRetriever {
 public:
  KeyToolsRetriever(std::shared_ptr<KmsClient> kms, std::string parquet_path)
      : kms_(std::move(kms)), parquet_path_(std::move(parquet_path)) {}

  std::string operator()(const std::string& key_metadata) {
    simdjson::dom::parser parser;
    simdjson::dom::object metadata;
    if (parser.parse(key_metadata).get(metadata) != simdjson::SUCCESS) {
      throw_invalid("key metadata is not key-tools JSON");
    }
    bool internal = true;
    if (metadata["internalStorage"].get(internal) != simdjson::SUCCESS) {
      throw_invalid("key metadata: member \"internalStorage\" missing or not a boolean");
    }
    if (internal) return unwrap_material(metadata, *kms_);
    const std::string reference = string_member(metadata, "keyReference", "key metadata");
    std::lock_guard<std::mutex> lock(mutex_);
    if (external_.empty()) {
      if (parquet_path_.empty()) throw_invalid("external key material needs the Parquet file's path");
      external_ = read_text_file(external_key_material_path(parquet_path_));
    }
    simdjson::dom::parser file_parser;
    simdjson::dom::object materials;
    if (file_parser.parse(external_).get(materials) != simdjson::SUCCESS) {
      throw_invalid("external key material file is not a JSON object");
    }
    // Each entry is key material JSON kept as a string.
    const std::string material_text = string_member(materials, reference, "external key material");
    simdjson::dom::parser material_parser;
    simdjson::dom::object material;
    if (material_parser.parse(material_text).get(material) != simdjson::SUCCESS) {
      throw_invalid("external key material \"" + reference + "\" is not JSON");
    }
    return unwrap_material(material, *kms_);
  }

 private:
  std::shared_ptr<KmsClient> kms_;
  std::string parquet_path_;
  std::mutex mutex_;
  std::string external_;
};

std::string random_key(int bits) {
  if (bits != 128 && bits != 192 && bits != 256) throw_invalid("data keys are 128, 192 or 256 bits");
  std::string key(size_t(bits / 8), '\0');
  crypto::random_bytes(reinterpret_cast<uint8_t*>(key.data()), key.size());
  return key;
}

}  // namespace

InMemoryKms::InMemoryKms(std::map<std::string, std::string> master_keys) : master_keys_(std::move(master_keys)) {
  for (const auto& [id, key] : master_keys_) crypto::check_key_size(key);
}

const std::string& InMemoryKms::master_key(const std::string& id) const {
  auto found = master_keys_.find(id);
  if (found == master_keys_.end()) throw_invalid("KMS: no master key with id \"" + id + "\"");
  return found->second;
}

std::string InMemoryKms::wrap_key(const std::string& key, const std::string& master_key_id) {
  return wrap_locally(key, master_key(master_key_id), master_key_id);
}

std::string InMemoryKms::unwrap_key(const std::string& wrapped_key, const std::string& master_key_id) {
  return unwrap_locally(wrapped_key, master_key(master_key_id), master_key_id);
}

std::string external_key_material_path(const std::string& parquet_path) {
  const std::filesystem::path path(parquet_path);
  return (path.parent_path() / ("_KEY_MATERIAL_FOR_" + path.filename().string() + ".json")).string();
}

KeyRetriever key_tools_retriever(std::shared_ptr<KmsClient> kms, const std::string& parquet_path) {
  if (!kms) throw_invalid("key_tools_retriever needs a KMS client");
  auto retriever = std::make_shared<KeyToolsRetriever>(std::move(kms), parquet_path);
  return [retriever](const std::string& key_metadata) { return (*retriever)(key_metadata); };
}

EncryptionOptions key_tools_encryption(KmsClient& kms, const KeyToolsWriteOptions& options) {
  if (options.footer_master_key_id.empty()) throw_invalid("key tools need a footer master key id");
  // One KEK per master key, as the key tools cache them per file.
  std::map<std::string, std::pair<std::string, std::string>> keks;  // master id -> (KEK, KEK id)
  auto material = [&](const std::string& data_key, const std::string& master_key_id, bool footer) {
    JsonWriter json;
    json.begin_object();
    json.field("keyMaterialType", "PKMT1");
    json.field("internalStorage", true);
    json.field("isFooterKey", footer);
    if (footer) {
      json.field("kmsInstanceID", "DEFAULT");
      json.field("kmsInstanceURL", "DEFAULT");
    }
    json.field("masterKeyID", master_key_id);
    json.field("doubleWrapping", options.double_wrapping);
    if (options.double_wrapping) {
      auto found = keks.find(master_key_id);
      if (found == keks.end()) {
        std::string kek = random_key(128);
        std::string kek_id = random_key(128);
        found = keks.emplace(master_key_id, std::make_pair(kek, kek_id)).first;
      }
      const auto& [kek, kek_id] = found->second;
      json.field("keyEncryptionKeyID", crypto::base64_encode(kek_id));
      json.field("wrappedKEK", kms.wrap_key(kek, master_key_id));
      json.field("wrappedDEK", wrap_locally(data_key, kek, kek_id));
    } else {
      json.field("wrappedDEK", kms.wrap_key(data_key, master_key_id));
    }
    json.end_object();
    return json.take();
  };
  EncryptionOptions out;
  out.cipher = options.cipher;
  out.plaintext_footer = options.plaintext_footer;
  out.footer_key = random_key(options.data_key_bits);
  out.footer_key_metadata = material(out.footer_key, options.footer_master_key_id, true);
  for (const auto& [master_key_id, columns] : options.column_master_key_ids) {
    for (const std::string& column : columns) {
      ColumnEncryption encryption;
      encryption.key = random_key(options.data_key_bits);
      encryption.key_metadata = material(encryption.key, master_key_id, false);
      out.columns[column] = std::move(encryption);
    }
  }
  return out;
}

}  // namespace parquetry
