#include "parquetry/remote/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <ctime>

#include "parquetry/error.h"

namespace parquetry::remote {

namespace {

std::string to_hex(const unsigned char* bytes, size_t size) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(size * 2, '0');
  for (size_t i = 0; i < size; ++i) {
    out[2 * i] = kHex[bytes[i] >> 4];
    out[2 * i + 1] = kHex[bytes[i] & 15];
  }
  return out;
}

std::string hmac(const std::string& key, const std::string& data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &size) == nullptr) {
    throw Error(ErrorCode::kInternal, "HMAC-SHA256 failed");
  }
  return std::string(reinterpret_cast<const char*>(out), size);
}

}  // namespace

std::string sha256_hex(const std::string& data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return to_hex(digest, sizeof(digest));
}

std::string amz_date_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

std::string sigv4_authorization(const SigV4Request& request) {
  if (request.amz_date.size() != 16) throw_invalid("SigV4: x-amz-date must be YYYYMMDDTHHMMSSZ");
  auto headers = request.headers;
  std::sort(headers.begin(), headers.end());
  std::string canonical_headers;
  std::string signed_headers;
  for (const auto& [name, value] : headers) {
    canonical_headers += name + ":" + value + "\n";
    if (!signed_headers.empty()) signed_headers += ';';
    signed_headers += name;
  }
  const std::string canonical_request = request.method + "\n" + request.canonical_uri + "\n" +
                                        request.canonical_query + "\n" + canonical_headers + "\n" +
                                        signed_headers + "\n" + request.payload_hash;
  const std::string day = request.amz_date.substr(0, 8);
  const std::string scope = day + "/" + request.region + "/" + request.service + "/aws4_request";
  const std::string string_to_sign =
      "AWS4-HMAC-SHA256\n" + request.amz_date + "\n" + scope + "\n" + sha256_hex(canonical_request);
  // The signing key is derived from the secret through date, region and
  // service, so a leaked key is good for one day, region and service only.
  const std::string key = hmac(
      hmac(hmac(hmac("AWS4" + request.secret_key, day), request.region), request.service), "aws4_request");
  const std::string signature = hmac(key, string_to_sign);
  return "AWS4-HMAC-SHA256 Credential=" + request.access_key + "/" + scope +
         ", SignedHeaders=" + signed_headers +
         ", Signature=" + to_hex(reinterpret_cast<const unsigned char*>(signature.data()), signature.size());
}

}  // namespace parquetry::remote
