#include "parquetry/remote/object_requests.h"

#include "parquetry/error.h"
#include "parquetry/remote/sigv4.h"

namespace parquetry::remote {

namespace {

// SHA-256 of an empty body: GET and HEAD carry none.
const char kEmptyPayloadHash[] = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// Adds x-amz-date, x-amz-content-sha256, the session token and the
/// Authorization header for one attempt. The Range header is signed too when
/// present, so a replayed signature cannot be used for other bytes.
void sign(const Target& target, const std::string& method, const std::string& canonical_uri,
          const std::string& canonical_query, std::vector<std::string>& lines) {
  const S3Settings& s = target.settings;
  SigV4Request request;
  request.method = method;
  request.canonical_uri = canonical_uri;
  request.canonical_query = canonical_query;
  request.payload_hash = kEmptyPayloadHash;
  request.amz_date = amz_date_now();
  request.region = s.region;
  request.access_key = s.access_key;
  request.secret_key = s.secret_key;
  request.headers.emplace_back("host", target.authority);
  request.headers.emplace_back("x-amz-content-sha256", request.payload_hash);
  request.headers.emplace_back("x-amz-date", request.amz_date);
  if (!s.session_token.empty()) request.headers.emplace_back("x-amz-security-token", s.session_token);
  for (const std::string& line : lines) {
    if (line.rfind("Range: ", 0) == 0) request.headers.emplace_back("range", line.substr(7));
  }
  lines.push_back("x-amz-content-sha256: " + request.payload_hash);
  lines.push_back("x-amz-date: " + request.amz_date);
  if (!s.session_token.empty()) lines.push_back("x-amz-security-token: " + s.session_token);
  lines.push_back("Authorization: " + sigv4_authorization(request));
}

}  // namespace

Target make_target(const std::string& url, const RemoteOptions& options) {
  Target target;
  target.location = parse_location(url);
  target.s3 = target.location.s3;
  if (!target.s3) {
    target.url = target.location.url;
    return target;
  }
  target.settings = resolve_s3_settings(options);
  const Origin& endpoint = target.settings.endpoint;
  const std::string encoded_key = uri_encode(target.location.key, true);
  if (target.settings.path_style) {
    target.authority = endpoint.authority();
    target.bucket_path = "/" + uri_encode(target.location.bucket, false);
    target.canonical_uri = target.bucket_path + "/" + encoded_key;
  } else {
    // Virtual-hosted: the bucket is a DNS label, so it must be one.
    if (target.location.bucket.find('.') != std::string::npos) {
      throw_invalid("bucket " + target.location.bucket +
                    " has a dot: use path-style addressing for it (a dotted name breaks TLS "
                    "name checks of virtual-hosted addressing)");
    }
    Origin host = endpoint;
    host.host = target.location.bucket + "." + endpoint.host;
    target.authority = host.authority();
    target.bucket_path = "/";
    target.canonical_uri = "/" + encoded_key;
  }
  target.url = endpoint.scheme + "://" + target.authority + target.canonical_uri;
  return target;
}

HttpRequest object_request(const Target& target, bool head) {
  HttpRequest request;
  request.head = head;
  request.url = target.url;
  request.display = target.location.display;
  if (target.s3 && !target.settings.anonymous) {
    const Target* t = &target;
    request.sign = [t](const HttpRequest& r, std::vector<std::string>& lines) {
      sign(*t, r.head ? "HEAD" : "GET", t->canonical_uri, "", lines);
    };
  }
  return request;
}

HttpRequest bucket_request(const Target& target, const std::string& canonical_query) {
  HttpRequest request;
  const std::string path = target.bucket_path;
  request.url = target.settings.endpoint.scheme + "://" + target.authority + path + "?" + canonical_query;
  request.display = "s3://" + target.location.bucket + "/";
  if (!target.settings.anonymous) {
    const Target* t = &target;
    request.sign = [t, path, canonical_query](const HttpRequest&, std::vector<std::string>& lines) {
      sign(*t, "GET", path, canonical_query, lines);
    };
  }
  return request;
}

}  // namespace parquetry::remote
