// Remote URLs: parsing s3:// and http(s):// locations, the S3 addressing
// styles, percent-encoding, and the form of a URL that is safe to print.
#pragma once

#include <string>
#include <string_view>

namespace parquetry::remote {

/// scheme://host[:port] split out of an endpoint or URL.
struct Origin {
  std::string scheme;  ///< "http" or "https"
  std::string host;    ///< host name or address (IPv6 in brackets), no port
  std::string port;    ///< empty when the URL has none
  /// host[:port], as the Host header and the signature want it.
  std::string authority() const { return port.empty() ? host : host + ":" + port; }
};

/// A parsed remote location.
struct Location {
  bool s3 = false;
  std::string bucket;  ///< s3 only
  std::string key;     ///< s3 only, without the leading '/'
  std::string url;     ///< http(s) only: the URL to request, as given
  /// What errors and name() show: no user info, no query string (a presigned
  /// URL's query is a credential).
  std::string display;
};

/// Parses s3://bucket/key or http(s)://host[:port]/path. Throws
/// kInvalidArgument for anything else or a URL without bucket/key/host.
Location parse_location(const std::string& url);

/// Parses an endpoint ("http://127.0.0.1:9000", "https://host"); a path
/// after the authority is refused.
Origin parse_origin(const std::string& endpoint);

/// Percent-encodes per SigV4's rules: unreserved characters (A-Z a-z 0-9
/// - _ . ~) stay, everything else becomes %XY; '/' stays when `keep_slash`.
std::string uri_encode(std::string_view text, bool keep_slash);

/// `url` without user info and query string.
std::string display_url(const std::string& url);

}  // namespace parquetry::remote
