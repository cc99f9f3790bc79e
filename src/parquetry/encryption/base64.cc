#include "parquetry/encryption/base64.h"

#include <openssl/evp.h>

#include <climits>

namespace parquetry::crypto {

std::string base64_encode(std::string_view bytes) {
  if (bytes.size() > size_t(INT_MAX / 2)) return {};
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                      reinterpret_cast<const unsigned char*>(bytes.data()), int(bytes.size()));
  out.resize(size_t(written));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.empty() || text.size() % 4 != 0 || text.size() > size_t(INT_MAX / 2)) return std::nullopt;
  for (char c : text) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
                    c == '/' || c == '=';
    if (!ok) return std::nullopt;
  }
  size_t padding = 0;
  while (padding < 2 && text[text.size() - 1 - padding] == '=') ++padding;
  if (text.find('=') < text.size() - padding) return std::nullopt;
  std::string out(text.size() / 4 * 3, '\0');
  const int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                      reinterpret_cast<const unsigned char*>(text.data()), int(text.size()));
  if (written < 0 || size_t(written) < padding) return std::nullopt;
  // EVP_DecodeBlock counts the padding as zero bytes.
  out.resize(size_t(written) - padding);
  return out;
}

}  // namespace parquetry::crypto
