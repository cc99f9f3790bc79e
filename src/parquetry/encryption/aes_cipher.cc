#include "parquetry/encryption/aes_cipher.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <climits>
#include <cstring>
#include <string>

#include "parquetry/error.h"

namespace parquetry::crypto {
namespace {

[[noreturn]] void openssl_failed(const char* what) {
  throw Error(ErrorCode::kInternal, std::string("OpenSSL: ") + what + " failed");
}

// EVP takes int lengths; modules are bounded by 4-byte length prefixes but a
// caller's buffer is not, so larger inputs are refused rather than truncated.
int checked_length(size_t size) {
  if (size > size_t(INT_MAX))
    throw_limit("encryption module of " + std::to_string(size) + " bytes exceeds 2 GiB");
  return int(size);
}

enum class Use { kGcmEncrypt, kGcmDecrypt, kCtr };

// The cipher of a use and key size, fetched from the default provider once:
// passing EVP_aes_*() to every init makes OpenSSL 3 look the algorithm up
// again (a locked method-store search) for every page.
const EVP_CIPHER* cipher_for(Use use, size_t key_size) {
  struct Fetched {
    std::array<EVP_CIPHER*, 6> ciphers{};
    Fetched() {
      const char* names[6] = {"AES-128-GCM", "AES-192-GCM", "AES-256-GCM",
                              "AES-128-CTR", "AES-192-CTR", "AES-256-CTR"};
      for (size_t i = 0; i < ciphers.size(); ++i) ciphers[i] = EVP_CIPHER_fetch(nullptr, names[i], nullptr);
    }
    ~Fetched() {
      for (EVP_CIPHER* cipher : ciphers) EVP_CIPHER_free(cipher);
    }
  };
  static const Fetched fetched;
  const size_t size_index = key_size == 16 ? 0 : key_size == 24 ? 1 : 2;
  const EVP_CIPHER* cipher = fetched.ciphers[(use == Use::kCtr ? 3 : 0) + size_index];
  if (cipher == nullptr) openssl_failed("fetching the AES cipher");
  return cipher;
}

// A thread's cipher contexts, each keeping the key schedule (and for GCM the
// hash key) of the last key it was set up with. Modules of one chunk share a
// key, so a page usually only sets its nonce; a few slots cover columns with
// keys of their own decoded side by side and GCM headers between CTR pages.
class ContextCache {
 public:
  ContextCache() = default;
  ContextCache(const ContextCache&) = delete;
  ContextCache& operator=(const ContextCache&) = delete;
  ~ContextCache() {
    for (Slot& slot : slots_) {
      OPENSSL_cleanse(slot.key.data(), slot.key.size());
      EVP_CIPHER_CTX_free(slot.ctx);
    }
  }

  // A context set up for `use` with `key`; only the nonce is left to set.
  EVP_CIPHER_CTX* get(Use use, std::string_view key) {
    ++clock_;
    Slot* victim = &slots_[0];
    for (Slot& slot : slots_) {
      if (slot.ctx != nullptr && slot.use == use && slot.key_size == key.size() &&
          CRYPTO_memcmp(slot.key.data(), key.data(), key.size()) == 0) {
        slot.last_use = clock_;
        return slot.ctx;
      }
      if (slot.last_use < victim->last_use) victim = &slot;
    }
    return set_up(*victim, use, key);
  }

 private:
  struct Slot {
    EVP_CIPHER_CTX* ctx = nullptr;
    std::array<uint8_t, 32> key{};
    size_t key_size = 0;
    Use use = Use::kCtr;
    uint64_t last_use = 0;
  };

  EVP_CIPHER_CTX* set_up(Slot& slot, Use use, std::string_view key) {
    if (slot.ctx == nullptr) {
      slot.ctx = EVP_CIPHER_CTX_new();
      if (slot.ctx == nullptr) throw Error(ErrorCode::kInternal, "OpenSSL: cannot allocate a cipher context");
    }
    // Forget the old key first: a failed set-up must never leave a slot
    // that matches a key it does not hold.
    OPENSSL_cleanse(slot.key.data(), slot.key.size());
    slot.key_size = 0;
    slot.last_use = 0;
    const EVP_CIPHER* cipher = cipher_for(use, key.size());
    const int encrypt = use == Use::kGcmDecrypt ? 0 : 1;
    const auto* key_bytes = reinterpret_cast<const unsigned char*>(key.data());
    if (use == Use::kCtr) {
      if (EVP_CipherInit_ex(slot.ctx, cipher, nullptr, key_bytes, nullptr, encrypt) != 1)
        openssl_failed("AES-CTR setup");
    } else if (EVP_CipherInit_ex(slot.ctx, cipher, nullptr, nullptr, nullptr, encrypt) != 1 ||
               EVP_CIPHER_CTX_ctrl(slot.ctx, EVP_CTRL_GCM_SET_IVLEN, int(kNonceSize), nullptr) != 1 ||
               EVP_CipherInit_ex(slot.ctx, nullptr, nullptr, key_bytes, nullptr, encrypt) != 1) {
      openssl_failed("AES-GCM setup");
    }
    std::memcpy(slot.key.data(), key.data(), key.size());
    slot.key_size = key.size();
    slot.use = use;
    slot.last_use = clock_;
    return slot.ctx;
  }

  std::array<Slot, 8> slots_;
  uint64_t clock_ = 0;
};

EVP_CIPHER_CTX* context_for(Use use, std::string_view key) {
  check_key_size(key);
  thread_local ContextCache cache;
  return cache.get(use, key);
}

}  // namespace

void check_key_size(std::string_view key) {
  if (key.size() != 16 && key.size() != 24 && key.size() != 32) {
    throw_invalid("AES key of " + std::to_string(key.size()) + " bytes (16, 24 or 32 expected)");
  }
}

void gcm_encrypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> aad,
                 std::span<const uint8_t> plaintext, uint8_t* ciphertext, uint8_t* tag) {
  const int aad_length = checked_length(aad.size());
  const int length = checked_length(plaintext.size());
  EVP_CIPHER_CTX* ctx = context_for(Use::kGcmEncrypt, key);
  int written = 0;
  if (EVP_EncryptInit_ex(ctx, nullptr, nullptr, nullptr, nonce) != 1) openssl_failed("AES-GCM nonce");
  if (aad_length > 0 && EVP_EncryptUpdate(ctx, nullptr, &written, aad.data(), aad_length) != 1)
    openssl_failed("AES-GCM AAD");
  if (length > 0 && EVP_EncryptUpdate(ctx, ciphertext, &written, plaintext.data(), length) != 1)
    openssl_failed("AES-GCM encryption");
  if (EVP_EncryptFinal_ex(ctx, ciphertext + length, &written) != 1) openssl_failed("AES-GCM final");
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, int(kTagSize), tag) != 1) openssl_failed("AES-GCM tag");
}

bool gcm_decrypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> aad,
                 std::span<const uint8_t> ciphertext, const uint8_t* tag, uint8_t* plaintext) {
  const int aad_length = checked_length(aad.size());
  const int length = checked_length(ciphertext.size());
  EVP_CIPHER_CTX* ctx = context_for(Use::kGcmDecrypt, key);
  int written = 0;
  if (EVP_DecryptInit_ex(ctx, nullptr, nullptr, nullptr, nonce) != 1) openssl_failed("AES-GCM nonce");
  if (aad_length > 0 && EVP_DecryptUpdate(ctx, nullptr, &written, aad.data(), aad_length) != 1)
    openssl_failed("AES-GCM AAD");
  if (length > 0 && EVP_DecryptUpdate(ctx, plaintext, &written, ciphertext.data(), length) != 1)
    openssl_failed("AES-GCM decryption");
  // The tag is only read by OpenSSL; the API takes a non-const pointer.
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, int(kTagSize), const_cast<uint8_t*>(tag)) != 1)
    openssl_failed("AES-GCM tag");
  uint8_t unused[16];
  return EVP_DecryptFinal_ex(ctx, unused, &written) == 1;
}

void ctr_crypt(std::string_view key, const uint8_t* counter, std::span<const uint8_t> in, uint8_t* out) {
  const int length = checked_length(in.size());
  EVP_CIPHER_CTX* ctx = context_for(Use::kCtr, key);
  int written = 0;
  if (EVP_EncryptInit_ex(ctx, nullptr, nullptr, nullptr, counter) != 1) openssl_failed("AES-CTR counter");
  if (length > 0 && EVP_EncryptUpdate(ctx, out, &written, in.data(), length) != 1)
    openssl_failed("AES-CTR pass");
  uint8_t unused[16];
  if (EVP_EncryptFinal_ex(ctx, unused, &written) != 1) openssl_failed("AES-CTR final");
}

void random_bytes(uint8_t* out, size_t size) {
  if (RAND_bytes(out, checked_length(size)) != 1) openssl_failed("random number generation");
}

}  // namespace parquetry::crypto
