#include "parquetry/encryption/modules.h"

#include <cstring>

#include "parquetry/encryption/aes_cipher.h"
#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry {
namespace {

void append_ordinal(std::string& out, int32_t ordinal, const char* what) {
  if (ordinal < 0 || ordinal > kMaxModuleOrdinal) {
    throw_unsupported(std::string(what) + " ordinal " + std::to_string(ordinal) +
                      " does not fit the 16 bits of an encryption AAD");
  }
  out.push_back(char(ordinal & 0xff));
  out.push_back(char((ordinal >> 8) & 0xff));
}

std::span<const uint8_t> bytes_of(std::string_view text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

}  // namespace

const char* module_name(ModuleType type) {
  switch (type) {
    case ModuleType::kFooter: return "footer";
    case ModuleType::kColumnMetaData: return "column metadata";
    case ModuleType::kDataPage: return "data page";
    case ModuleType::kDictionaryPage: return "dictionary page";
    case ModuleType::kDataPageHeader: return "data page header";
    case ModuleType::kDictionaryPageHeader: return "dictionary page header";
    case ModuleType::kColumnIndex: return "column index";
    case ModuleType::kOffsetIndex: return "offset index";
    case ModuleType::kBloomFilterHeader: return "Bloom filter header";
    case ModuleType::kBloomFilterBitset: return "Bloom filter bitset";
  }
  return "module";
}

void module_aad(std::string_view file_aad, ModuleType type, int32_t row_group, int32_t column,
                int32_t page, std::string& out) {
  out.assign(file_aad);
  out.push_back(char(type));
  if (type == ModuleType::kFooter) return;
  append_ordinal(out, row_group, "row group");
  append_ordinal(out, column, "column");
  if (type == ModuleType::kDataPage || type == ModuleType::kDataPageHeader) append_ordinal(out, page, "page");
}

ModuleCrypto::ModuleCrypto(std::string key, std::string file_aad, EncryptionCipher cipher, int32_t row_group,
                           int32_t column)
    : key_(std::move(key)), file_aad_(std::move(file_aad)), cipher_(cipher), row_group_(row_group),
      column_(column) {
  crypto::check_key_size(key_);
}

std::span<const uint8_t> ModuleCrypto::decrypt(ModuleType type, int32_t page, std::span<const uint8_t> bytes,
                                               Buffer& out, size_t* consumed) const {
  const bool ctr = uses_ctr(type);
  const size_t overhead = ctr ? kCtrModuleOverhead : kGcmModuleOverhead;
  if (bytes.size() < 4) {
    throw_corrupt(std::string("encrypted ") + module_name(type) + ": " + std::to_string(bytes.size()) +
                  " bytes, too short for a length prefix");
  }
  const uint64_t length = bits::load<uint32_t>(bytes.data());
  if (length + 4 > bytes.size()) {
    throw_corrupt(std::string("encrypted ") + module_name(type) + " declares " + std::to_string(length) +
                  " bytes, only " + std::to_string(bytes.size() - 4) + " available");
  }
  if (length + 4 < overhead) {
    throw_corrupt(std::string("encrypted ") + module_name(type) + " of " + std::to_string(length) +
                  " bytes is shorter than its nonce" + (ctr ? "" : " and tag"));
  }
  const size_t plaintext_size = size_t(length) + 4 - overhead;
  const uint8_t* nonce = bytes.data() + 4;
  const uint8_t* ciphertext = nonce + crypto::kNonceSize;
  out.resize(plaintext_size);
  if (ctr) {
    // The initial counter block: the nonce, then a 32-bit big-endian 1.
    uint8_t counter[16] = {};
    std::memcpy(counter, nonce, crypto::kNonceSize);
    counter[15] = 1;
    crypto::ctr_crypt(key_, counter, {ciphertext, plaintext_size}, out.data());
  } else {
    thread_local std::string aad;
    module_aad(file_aad_, type, row_group_, column_, page, aad);
    if (!crypto::gcm_decrypt(key_, nonce, bytes_of(aad), {ciphertext, plaintext_size},
                             ciphertext + plaintext_size, out.data())) {
      throw_corrupt(std::string("AES-GCM tag mismatch in ") + module_name(type) +
                    ": wrong key, wrong or missing AAD prefix, or the bytes were altered or moved");
    }
  }
  if (consumed != nullptr) *consumed = size_t(length) + 4;
  return out.span();
}

void ModuleCrypto::encrypt(ModuleType type, int32_t page, std::span<const uint8_t> plaintext, Buffer& out) const {
  const bool ctr = uses_ctr(type);
  const size_t total = module_size(type, plaintext.size());
  if (total - 4 > UINT32_MAX) throw_limit(std::string(module_name(type)) + " too large to encrypt");
  const size_t start = out.size();
  out.resize(start + total);
  uint8_t* at = out.data() + start;
  bits::store<uint32_t>(at, uint32_t(total - 4));
  uint8_t* nonce = at + 4;
  crypto::random_bytes(nonce, crypto::kNonceSize);
  uint8_t* ciphertext = nonce + crypto::kNonceSize;
  if (ctr) {
    uint8_t counter[16] = {};
    std::memcpy(counter, nonce, crypto::kNonceSize);
    counter[15] = 1;
    crypto::ctr_crypt(key_, counter, plaintext, ciphertext);
  } else {
    thread_local std::string aad;
    module_aad(file_aad_, type, row_group_, column_, page, aad);
    crypto::gcm_encrypt(key_, nonce, bytes_of(aad), plaintext, ciphertext, ciphertext + plaintext.size());
  }
}

void ModuleCrypto::footer_signature_tag(std::span<const uint8_t> footer, const uint8_t* nonce, uint8_t* tag) const {
  std::string aad;
  module_aad(file_aad_, ModuleType::kFooter, -1, -1, -1, aad);
  Buffer ciphertext(footer.size());
  crypto::gcm_encrypt(key_, nonce, bytes_of(aad), footer, ciphertext.data(), tag);
}

}  // namespace parquetry
