// The crypto layer: OpenSSL AES against published vectors, module AADs and
// serialization, key text.
#include <gtest/gtest.h>

#include <string>

#include "parquetry/encryption.h"
#include "parquetry/encryption/aes_cipher.h"
#include "parquetry/encryption/base64.h"
#include "parquetry/encryption/modules.h"
#include "parquetry/error.h"

namespace parquetry {
namespace {

std::string from_hex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(char(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

std::string to_hex(const uint8_t* bytes, size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < size; ++i) {
    out.push_back(kDigits[bytes[i] >> 4]);
    out.push_back(kDigits[bytes[i] & 15]);
  }
  return out;
}

std::span<const uint8_t> span_of(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

TEST(AesCipher, GcmMatchesPublishedVectors) {
  // The GCM specification's test cases 1 and 2 (AES-128, zero key and IV).
  const std::string key(16, '\0');
  const uint8_t nonce[12] = {};
  uint8_t tag[16];
  crypto::gcm_encrypt(key, nonce, {}, {}, nullptr, tag);
  EXPECT_EQ(to_hex(tag, 16), "58e2fccefa7e3061367f1d57a4e7455a");
  const std::string zeros(16, '\0');
  uint8_t ciphertext[16];
  crypto::gcm_encrypt(key, nonce, {}, span_of(zeros), ciphertext, tag);
  EXPECT_EQ(to_hex(ciphertext, 16), "0388dace60b6a392f328c2b971b2fe78");
  EXPECT_EQ(to_hex(tag, 16), "ab6e47d42cec13bdf53a67b21257bddf");
  uint8_t plaintext[16];
  ASSERT_TRUE(crypto::gcm_decrypt(key, nonce, {}, {ciphertext, 16}, tag, plaintext));
  EXPECT_EQ(std::string(reinterpret_cast<char*>(plaintext), 16), zeros);
  ciphertext[3] ^= 1;
  EXPECT_FALSE(crypto::gcm_decrypt(key, nonce, {}, {ciphertext, 16}, tag, plaintext));
}

TEST(AesCipher, CtrMatchesPublishedVector) {
  // NIST SP 800-38A, F.5.1 (CTR-AES128.Encrypt), first block.
  const std::string key = from_hex("2b7e151628aed2a6abf7158809cf4f3c");
  const std::string counter = from_hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
  const std::string plaintext = from_hex("6bc1bee22e409f96e93d7e117393172a");
  uint8_t out[16];
  crypto::ctr_crypt(key, reinterpret_cast<const uint8_t*>(counter.data()), span_of(plaintext), out);
  EXPECT_EQ(to_hex(out, 16), "874d6191b620e3261bef6864990db6ce");
}

TEST(AesCipher, CachedContextsGiveTheVectorsWhateverCameBefore) {
  // Each thread keeps eight contexts keyed by key and use; cycling through
  // more keys than that, both GCM directions, CTR, a failed tag and a key
  // that shares its first 16 bytes with another must never leave state that
  // changes a later result. GCM test cases 3 and 4 (AES-128) and SP 800-38A.
  const std::string gcm_key = from_hex("feffe9928665731c6d6a8f9467308308");
  const std::string nonce = from_hex("cafebabefacedbaddecaf888");
  const std::string plaintext = from_hex(
      "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
      "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255");
  const std::string ciphertext =
      "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
      "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985";
  const std::string aad = from_hex("feedfacedeadbeeffeedfacedeadbeefabaddad2");
  const std::string ctr_key = from_hex("2b7e151628aed2a6abf7158809cf4f3c");
  const std::string counter = from_hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
  const auto* nonce_bytes = reinterpret_cast<const uint8_t*>(nonce.data());
  auto check_vectors = [&](int round) {
    uint8_t out[64];
    uint8_t tag[16];
    crypto::gcm_encrypt(gcm_key, nonce_bytes, {}, span_of(plaintext), out, tag);
    EXPECT_EQ(to_hex(out, 64), ciphertext) << round;
    EXPECT_EQ(to_hex(tag, 16), "4d5c2af327cd64a62cf35abd2ba6fab4") << round;
    crypto::gcm_encrypt(gcm_key, nonce_bytes, span_of(aad), span_of(plaintext).first(60), out, tag);
    EXPECT_EQ(to_hex(out, 60), ciphertext.substr(0, 120)) << round;
    EXPECT_EQ(to_hex(tag, 16), "5bc94fbc3221a5db94fae95ae7121a47") << round;
    uint8_t decrypted[60];
    ASSERT_TRUE(crypto::gcm_decrypt(gcm_key, nonce_bytes, span_of(aad), {out, 60}, tag, decrypted)) << round;
    EXPECT_EQ(std::string(reinterpret_cast<char*>(decrypted), 60), plaintext.substr(0, 60)) << round;
    tag[0] ^= 1;
    EXPECT_FALSE(crypto::gcm_decrypt(gcm_key, nonce_bytes, span_of(aad), {out, 60}, tag, decrypted)) << round;
    tag[0] ^= 1;
    EXPECT_TRUE(crypto::gcm_decrypt(gcm_key, nonce_bytes, span_of(aad), {out, 60}, tag, decrypted)) << round;
    crypto::ctr_crypt(ctr_key, reinterpret_cast<const uint8_t*>(counter.data()),
                      span_of(from_hex("6bc1bee22e409f96e93d7e117393172a")), out);
    EXPECT_EQ(to_hex(out, 16), "874d6191b620e3261bef6864990db6ce") << round;
  };
  check_vectors(0);
  for (int round = 1; round <= 3; ++round) {
    // gcm_key itself, gcm_key and eight zero bytes (a 24-byte key), and ten
    // other keys of every size.
    for (int i = 0; i < 12; ++i) {
      std::string key = gcm_key + std::string(size_t(i % 3) * 8, char(i - 1));
      if (i > 1) key[0] = char(i + round);
      uint8_t out[64];
      uint8_t tag[16];
      crypto::gcm_encrypt(key, nonce_bytes, span_of(aad), span_of(plaintext), out, tag);
      EXPECT_FALSE(i > 0 && to_hex(out, 64) == ciphertext);
      crypto::ctr_crypt(key, reinterpret_cast<const uint8_t*>(counter.data()), span_of(plaintext).first(16), out);
      EXPECT_FALSE(crypto::gcm_decrypt(key, nonce_bytes, {}, span_of(plaintext), tag, out));
    }
    check_vectors(round);
  }
}

TEST(AesCipher, RejectsKeysOfOtherSizes) {
  const uint8_t nonce[12] = {};
  uint8_t tag[16];
  for (size_t size : {0, 8, 15, 17, 31, 33, 64}) {
    const std::string key(size, 'k');
    EXPECT_THROW(crypto::gcm_encrypt(key, nonce, {}, {}, nullptr, tag), Error) << size;
  }
}

TEST(Modules, AadCarriesTypeAndOrdinals) {
  std::string aad;
  module_aad("pre|uniq", ModuleType::kFooter, 5, 6, 7, aad);
  EXPECT_EQ(aad, std::string("pre|uniq") + '\0');
  module_aad("F", ModuleType::kDataPageHeader, 0x0102, 3, 0x0405, aad);
  EXPECT_EQ(aad, std::string("F\x04\x02\x01\x03\x00\x05\x04", 8));
  module_aad("F", ModuleType::kDictionaryPage, 1, 2, 99, aad);  // no page ordinal
  EXPECT_EQ(aad, std::string("F\x03\x01\x00\x02\x00", 6));
  module_aad("F", ModuleType::kBloomFilterBitset, 1, 2, -1, aad);
  EXPECT_EQ(aad, std::string("F\x09\x01\x00\x02\x00", 6));
  EXPECT_THROW(module_aad("F", ModuleType::kDataPage, 32768, 0, 0, aad), Error);
  EXPECT_THROW(module_aad("F", ModuleType::kDataPage, 0, 0, -1, aad), Error);
}

class ModuleRoundTrip : public ::testing::TestWithParam<std::tuple<size_t, EncryptionCipher>> {};

TEST_P(ModuleRoundTrip, EveryModuleTypeDecryptsOnlyUnderItsOwnAad) {
  const auto [key_size, cipher] = GetParam();
  std::string key(key_size, '\0');
  for (size_t i = 0; i < key_size; ++i) key[i] = char(i * 7 + 1);
  ModuleCrypto crypto(key, "prefix-unique", cipher, 3, 4);
  const std::string plaintext = "the values of a page, or a header";
  for (int t = 0; t <= 9; ++t) {
    const ModuleType type = ModuleType(t);
    SCOPED_TRACE(module_name(type));
    Buffer sealed;
    crypto.encrypt(type, 2, span_of(plaintext), sealed);
    EXPECT_EQ(sealed.size(), crypto.module_size(type, plaintext.size()));
    Buffer out;
    size_t consumed = 0;
    std::span<const uint8_t> opened = crypto.decrypt(type, 2, sealed.span(), out, &consumed);
    EXPECT_EQ(consumed, sealed.size());
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(opened.data()), opened.size()), plaintext);
    if (crypto.uses_ctr(type)) continue;  // CTR bodies carry no tag: nothing to authenticate
    // Another row group, column, page ordinal (data pages) or key fails the tag.
    ModuleCrypto other_group(key, "prefix-unique", cipher, 2, 4);
    if (type != ModuleType::kFooter) {
      EXPECT_THROW(other_group.decrypt(type, 2, sealed.span(), out), Error);
    }
    ModuleCrypto other_aad(key, "prefix-uniquX", cipher, 3, 4);
    EXPECT_THROW(other_aad.decrypt(type, 2, sealed.span(), out), Error);
    if (type == ModuleType::kDataPage || type == ModuleType::kDataPageHeader) {
      EXPECT_THROW(crypto.decrypt(type, 3, sealed.span(), out), Error);
    }
    // Any flipped bit, and any truncation, is an error that names the module.
    for (size_t at : {size_t(5), size_t(20), sealed.size() - 1}) {
      Buffer tampered;
      tampered.append(sealed.data(), sealed.size());
      tampered.data()[at] ^= 0x40;
      try {
        crypto.decrypt(type, 2, tampered.span(), out);
        ADD_FAILURE() << "tampered byte " << at << " was accepted";
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
        EXPECT_NE(e.message().find("AES-GCM tag mismatch in " + std::string(module_name(type))), std::string::npos)
            << e.message();
      }
    }
    EXPECT_THROW(crypto.decrypt(type, 2, sealed.span().first(sealed.size() - 1), out), Error);
    EXPECT_THROW(crypto.decrypt(type, 2, sealed.span().first(3), out), Error);
  }
}

INSTANTIATE_TEST_SUITE_P(KeysAndCiphers, ModuleRoundTrip,
                         ::testing::Combine(::testing::Values(16, 24, 32),
                                            ::testing::Values(EncryptionCipher::kAesGcm, EncryptionCipher::kAesGcmCtr)));

TEST(Modules, CtrPagesUseTheNonceAndACounterFromOne) {
  const std::string key = from_hex("000102030405060708090a0b0c0d0e0f");
  ModuleCrypto crypto(key, "aad", EncryptionCipher::kAesGcmCtr, 0, 0);
  const std::string plaintext(40, 'x');
  Buffer sealed;
  crypto.encrypt(ModuleType::kDataPage, 0, span_of(plaintext), sealed);
  ASSERT_EQ(sealed.size(), 4 + 12 + 40u);
  // Decrypt by hand: counter block = nonce || 00 00 00 01.
  std::string counter(reinterpret_cast<const char*>(sealed.data() + 4), 12);
  counter += std::string("\0\0\0\1", 4);
  uint8_t out[40];
  crypto::ctr_crypt(key, reinterpret_cast<const uint8_t*>(counter.data()), {sealed.data() + 16, 40}, out);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(out), 40), plaintext);
}

TEST(KeyText, HexAndBase64) {
  EXPECT_EQ(parse_key("000102030405060708090a0b0c0d0e0f"), from_hex("000102030405060708090a0b0c0d0e0f"));
  EXPECT_EQ(parse_key("AAECAwQFBgcICQoLDA0ODw=="), from_hex("000102030405060708090a0b0c0d0e0f"));
  EXPECT_EQ(parse_key(std::string(64, 'A')).size(), 32u);  // 64 hex digits win over base64
  EXPECT_EQ(crypto::base64_encode(from_hex("000102")), "AAEC");
  EXPECT_EQ(crypto::base64_decode("AAEC"), from_hex("000102"));
  EXPECT_FALSE(crypto::base64_decode("AA=C").has_value());
  try {
    parse_key("secret-but-wrong");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(std::string(e.what()).find("secret"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace parquetry
