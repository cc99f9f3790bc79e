#include "parquetry/remote/url.h"

#include "parquetry/error.h"

namespace parquetry::remote {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

[[noreturn]] void bad_url(const std::string& what, const std::string& url) {
  // The message shows the display form only: a malformed presigned URL must
  // not leak its signature either.
  throw_invalid(what + ": " + display_url(url));
}

}  // namespace

std::string display_url(const std::string& url) {
  std::string out = url;
  const size_t cut = out.find_first_of("?#");
  if (cut != std::string::npos) out.resize(cut);
  const size_t scheme_end = out.find("://");
  if (scheme_end != std::string::npos) {
    const size_t authority = scheme_end + 3;
    const size_t path = out.find('/', authority);
    const size_t at = out.rfind('@', path == std::string::npos ? out.size() : path);
    if (at != std::string::npos && at >= authority) out.erase(authority, at + 1 - authority);
  }
  return out;
}

Origin parse_origin(const std::string& endpoint) {
  Origin origin;
  std::string_view rest = endpoint;
  if (starts_with(rest, "http://")) {
    origin.scheme = "http";
    rest.remove_prefix(7);
  } else if (starts_with(rest, "https://")) {
    origin.scheme = "https";
    rest.remove_prefix(8);
  } else {
    bad_url("endpoint must start with http:// or https://", endpoint);
  }
  while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.find_first_of("/?#@") != std::string_view::npos) {
    bad_url("endpoint must be scheme://host[:port] without path, query or user info", endpoint);
  }
  if (rest.empty()) bad_url("endpoint has no host", endpoint);
  size_t colon = std::string_view::npos;
  if (rest.front() == '[') {
    const size_t close = rest.find(']');
    if (close == std::string_view::npos) bad_url("unterminated IPv6 address in endpoint", endpoint);
    if (close + 1 < rest.size()) {
      if (rest[close + 1] != ':') bad_url("malformed endpoint", endpoint);
      colon = close + 1;
    }
  } else {
    colon = rest.rfind(':');
  }
  origin.host = std::string(rest.substr(0, colon));
  if (colon != std::string_view::npos) {
    origin.port = std::string(rest.substr(colon + 1));
    if (origin.port.empty() || origin.port.size() > 5 ||
        origin.port.find_first_not_of("0123456789") != std::string::npos) {
      bad_url("endpoint port is not a number", endpoint);
    }
  }
  if (origin.host.empty()) bad_url("endpoint has no host", endpoint);
  return origin;
}

Location parse_location(const std::string& url) {
  Location location;
  if (starts_with(url, "s3://")) {
    location.s3 = true;
    std::string_view rest = std::string_view(url).substr(5);
    const size_t slash = rest.find('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 >= rest.size()) {
      bad_url("expected s3://bucket/key", url);
    }
    location.bucket = std::string(rest.substr(0, slash));
    location.key = std::string(rest.substr(slash + 1));
    if (location.bucket.find_first_of("?#@:") != std::string::npos) bad_url("malformed bucket name", url);
    location.display = url;
    return location;
  }
  if (starts_with(url, "http://") || starts_with(url, "https://")) {
    const size_t authority = url.find("://") + 3;
    const size_t end = url.find_first_of("/?#", authority);
    if (end == authority || authority >= url.size()) bad_url("URL has no host", url);
    if (url.find_first_of(" \r\n\t") != std::string::npos) bad_url("URL contains white space", url);
    location.url = url;
    location.display = display_url(url);
    return location;
  }
  bad_url("not a remote URL (s3://, http:// or https:// expected)", url);
}

std::string uri_encode(std::string_view text, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    const bool unreserved = (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') ||
                            u == '-' || u == '_' || u == '.' || u == '~';
    if (unreserved || (keep_slash && u == '/')) {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

}  // namespace parquetry::remote
