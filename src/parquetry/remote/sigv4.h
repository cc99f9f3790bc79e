// AWS Signature Version 4 for S3 requests without a body, on OpenSSL's
// SHA-256 and HMAC. The signature covers the method, the canonical path and
// query, and the headers given (host and every x-amz-* header at least).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace parquetry::remote {

struct SigV4Request {
  std::string method;           ///< "GET", "HEAD"
  std::string canonical_uri;    ///< path, already percent-encoded ("/bucket/key")
  std::string canonical_query;  ///< "a=1&b=2", names and values encoded, sorted
  /// Headers to sign, names lowercase, values trimmed; "host" must be one.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string payload_hash;  ///< hex SHA-256 of the body (of "" for GET/HEAD)
  std::string amz_date;      ///< "YYYYMMDDTHHMMSSZ", UTC
  std::string region;
  std::string service = "s3";
  std::string access_key;
  std::string secret_key;
};

/// The Authorization header's value ("AWS4-HMAC-SHA256 Credential=...").
std::string sigv4_authorization(const SigV4Request& request);

/// Hex SHA-256 of `data`.
std::string sha256_hex(const std::string& data);

/// Current UTC time as "YYYYMMDDTHHMMSSZ".
std::string amz_date_now();

}  // namespace parquetry::remote
