// Internal: AES-GCM and AES-CTR through OpenSSL's EVP interface, for keys of
// 16, 24 or 32 bytes. Each thread keeps a few cipher contexts with their key
// schedules, so a page of a chunk whose key was used last costs its nonce and
// the cipher pass: no allocation, no key schedule, no algorithm lookup.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace parquetry::crypto {

inline constexpr size_t kNonceSize = 12;
inline constexpr size_t kTagSize = 16;

/// Throws kInvalidArgument unless `key` is 16, 24 or 32 bytes.
void check_key_size(std::string_view key);

/// AES-GCM: encrypts `plaintext` into `ciphertext` (same size) and writes the
/// 16-byte tag.
void gcm_encrypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> aad,
                 std::span<const uint8_t> plaintext, uint8_t* ciphertext, uint8_t* tag);

/// AES-GCM: decrypts `ciphertext` into `plaintext` (same size); false when
/// the tag does not authenticate ciphertext + AAD under the key (the output
/// must then be discarded).
bool gcm_decrypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> aad,
                 std::span<const uint8_t> ciphertext, const uint8_t* tag, uint8_t* plaintext);

/// AES-CTR with the 16-byte initial counter block `counter`: encrypts and
/// decrypts alike (`in` and `out` may be the same).
void ctr_crypt(std::string_view key, const uint8_t* counter, std::span<const uint8_t> in, uint8_t* out);

/// Fills `out` with cryptographically random bytes (nonces, file-unique AAD, keys).
void random_bytes(uint8_t* out, size_t size);

}  // namespace parquetry::crypto
