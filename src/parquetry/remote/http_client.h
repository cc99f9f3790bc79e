// HTTP requests on libcurl's multi interface: a batch of requests runs
// concurrently (at most `max_concurrency` in flight) on connections kept
// alive between batches, each request retried on transient failures with
// capped exponential backoff and jitter, timeouts for connect, first byte
// and stalls enforced here. What counts as a good response is the caller's
// call (`check`), so the retry rules live in one place.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "parquetry/remote.h"

namespace parquetry::remote {

struct HttpResponse {
  long status = 0;
  std::string etag;
  std::string last_modified;
  std::string content_range;
  int64_t content_length = -1;
  int64_t body_bytes = 0;  ///< bytes written to the request's body/text
  std::string error_body;  ///< first bytes of a non-2xx body (S3's XML error)
  int tries = 0;           ///< attempts made
};

/// What the caller thinks of a 2xx response.
struct Verdict {
  enum Kind { kOk, kRetry, kFail } kind = kOk;
  std::string reason;
  static Verdict ok() { return {}; }
  static Verdict retry(std::string why) { return {kRetry, std::move(why)}; }
  static Verdict fail(std::string why) { return {kFail, std::move(why)}; }
};

struct HttpRequest {
  bool head = false;
  std::string url;      ///< what is requested (may hold a presigned query)
  std::string display;  ///< what errors show
  /// Range: offset >= 0 asks bytes [offset, offset + length); suffix > 0
  /// asks the last `suffix` bytes; neither = the whole object.
  int64_t offset = -1;
  int64_t length = 0;
  int64_t suffix = 0;
  std::vector<std::string> headers;  ///< "Name: value" (If-Match...)
  /// Where a 2xx body goes: exactly `body_capacity` bytes at most into
  /// `body` (more is a "long body", the attempt fails), or into `text` up to
  /// `text_limit` bytes.
  uint8_t* body = nullptr;
  int64_t body_capacity = 0;
  std::string* text = nullptr;
  int64_t text_limit = 0;
  /// Adds the signature headers for one attempt (each try is signed anew).
  std::function<void(const HttpRequest&, std::vector<std::string>& headers)> sign;
  /// Judges a 2xx response (size, Content-Range, ETag).
  std::function<Verdict(const HttpResponse&)> check;
};

/// Counters a batch adds to.
struct HttpCounters {
  int64_t requests = 0;
  int64_t gets = 0;
  int64_t heads = 0;
  int64_t retries = 0;
  int64_t bytes = 0;
};

/// Runs `requests` concurrently with the timeouts, retry budget, CA file and
/// concurrency of `options`; fills `responses` (one per request). Throws
/// kIo for the first request that fails for good, naming its URL (display
/// form), range and tries. When `cancel` becomes true the transfers still
/// running are dropped within ~20 ms and kIo is thrown: a reader closed
/// early does not wait for downloads nobody will use.
void perform(std::span<HttpRequest> requests, std::vector<HttpResponse>& responses,
             const RemoteOptions& options, HttpCounters& counters, const std::atomic<bool>* cancel = nullptr);

/// "bytes=a-b" for a request (empty when it asks the whole object).
std::string range_text(const HttpRequest& request);

/// Parses "bytes a-b/total" (total may be "*", given back as -1). False when
/// malformed.
bool parse_content_range(const std::string& text, int64_t& first, int64_t& last, int64_t& total);

}  // namespace parquetry::remote
