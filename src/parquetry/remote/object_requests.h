// How one remote object is requested: the URL for S3 (path-style or
// virtual-hosted) or plain HTTP(S), the SigV4 signature per attempt, and the
// checks a ranged response must pass (status, Content-Range, length, ETag).
// Shared by RemoteSource and the listing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parquetry/remote.h"
#include "parquetry/remote/http_client.h"
#include "parquetry/remote/settings.h"
#include "parquetry/remote/url.h"

namespace parquetry::remote {

/// Where requests for one location go and how they are signed.
struct Target {
  Location location;
  bool s3 = false;
  S3Settings settings;        // s3 only
  std::string url;            // object URL (no query)
  std::string authority;      // Host header value (s3)
  std::string bucket_path;    // canonical path of the bucket ("/bucket" or "/" virtual-hosted)
  std::string canonical_uri;  // canonical path of the object
};

/// Resolves the URL, addressing style and credentials for `url`.
Target make_target(const std::string& url, const RemoteOptions& options);

/// A request for the object (or, with `query`, for its bucket with that
/// canonical query string: a listing), signed per attempt when the target
/// has credentials.
HttpRequest object_request(const Target& target, bool head);
HttpRequest bucket_request(const Target& target, const std::string& canonical_query);

}  // namespace parquetry::remote
