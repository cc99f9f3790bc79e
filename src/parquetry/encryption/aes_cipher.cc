#include "parquetry/encryption/aes_cipher.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <climits>
#include <string>

#include "parquetry/error.h"

namespace parquetry::crypto {
namespace {

// One context per thread, reset by each Init call.
class Context {
 public:
  Context() : ctx_(EVP_CIPHER_CTX_new()) {
    if (ctx_ == nullptr) throw Error(ErrorCode::kInternal, "OpenSSL: cannot allocate a cipher context");
  }
  ~Context() { EVP_CIPHER_CTX_free(ctx_); }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  EVP_CIPHER_CTX* get() { return ctx_; }

 private:
  EVP_CIPHER_CTX* ctx_;
};

EVP_CIPHER_CTX* thread_context() {
  thread_local Context context;
  return context.get();
}

const EVP_CIPHER* gcm_cipher(std::string_view key) {
  switch (key.size()) {
    case 16: return EVP_aes_128_gcm();
    case 24: return EVP_aes_192_gcm();
    case 32: return EVP_aes_256_gcm();
    default: check_key_size(key); return nullptr;
  }
}

const EVP_CIPHER* ctr_cipher(std::string_view key) {
  switch (key.size()) {
    case 16: return EVP_aes_128_ctr();
    case 24: return EVP_aes_192_ctr();
    case 32: return EVP_aes_256_ctr();
    default: check_key_size(key); return nullptr;
  }
}

const unsigned char* key_bytes(std::string_view key) { return reinterpret_cast<const unsigned char*>(key.data()); }

// EVP takes int lengths; modules are bounded by 4-byte length prefixes but a
// caller's buffer is not, so larger inputs are refused rather than truncated.
int checked_length(size_t size) {
  if (size > size_t(INT_MAX)) throw_limit("encryption module of " + std::to_string(size) + " bytes exceeds 2 GiB");
  return int(size);
}

[[noreturn]] void openssl_failed(const char* what) {
  throw Error(ErrorCode::kInternal, std::string("OpenSSL: ") + what + " failed");
}

}  // namespace

void check_key_size(std::string_view key) {
  if (key.size() != 16 && key.size() != 24 && key.size() != 32) {
    throw_invalid("AES key of " + std::to_string(key.size()) + " bytes (16, 24 or 32 expected)");
  }
}

void gcm_encrypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> aad,
                 std::span<const uint8_t> plaintext, uint8_t* ciphertext, uint8_t* tag) {
  EVP_CIPHER_CTX* ctx = thread_context();
  const int aad_length = checked_length(aad.size());
  const int length = checked_length(plaintext.size());
  int written = 0;
  if (EVP_EncryptInit_ex(ctx, gcm_cipher(key), nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, int(kNonceSize), nullptr) != 1 ||
      EVP_EncryptInit_ex(ctx, nullptr, nullptr, key_bytes(key), nonce) != 1) {
    openssl_failed("AES-GCM setup");
  }
  if (aad_length > 0 && EVP_EncryptUpdate(ctx, nullptr, &written, aad.data(), aad_length) != 1)
    openssl_failed("AES-GCM AAD");
  if (length > 0 && EVP_EncryptUpdate(ctx, ciphertext, &written, plaintext.data(), length) != 1)
    openssl_failed("AES-GCM encryption");
  if (EVP_EncryptFinal_ex(ctx, ciphertext + length, &written) != 1) openssl_failed("AES-GCM final");
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, int(kTagSize), tag) != 1) openssl_failed("AES-GCM tag");
}

bool gcm_decrypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> aad,
                 std::span<const uint8_t> ciphertext, const uint8_t* tag, uint8_t* plaintext) {
  EVP_CIPHER_CTX* ctx = thread_context();
  const int aad_length = checked_length(aad.size());
  const int length = checked_length(ciphertext.size());
  int written = 0;
  if (EVP_DecryptInit_ex(ctx, gcm_cipher(key), nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, int(kNonceSize), nullptr) != 1 ||
      EVP_DecryptInit_ex(ctx, nullptr, nullptr, key_bytes(key), nonce) != 1) {
    openssl_failed("AES-GCM setup");
  }
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
  EVP_CIPHER_CTX* ctx = thread_context();
  const int length = checked_length(in.size());
  int written = 0;
  if (EVP_EncryptInit_ex(ctx, ctr_cipher(key), nullptr, key_bytes(key), counter) != 1)
    openssl_failed("AES-CTR setup");
  if (length > 0 && EVP_EncryptUpdate(ctx, out, &written, in.data(), length) != 1)
    openssl_failed("AES-CTR pass");
  uint8_t unused[16];
  if (EVP_EncryptFinal_ex(ctx, unused, &written) != 1) openssl_failed("AES-CTR final");
}

void random_bytes(uint8_t* out, size_t size) {
  if (RAND_bytes(out, checked_length(size)) != 1) openssl_failed("random number generation");
}

}  // namespace parquetry::crypto
