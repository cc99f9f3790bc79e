#include "parquetry/remote/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>

#include "parquetry/error.h"

namespace parquetry::remote {

namespace {

using Clock = std::chrono::steady_clock;

// How much of an error body is kept for the message (S3 puts its error code
// in the first few hundred bytes).
constexpr size_t kErrorBodyKept = 4096;

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

/// A multi handle and its easy handles. The multi handle owns the connection
/// cache, so handing the same session to the next batch reuses connections.
struct Session {
  CURLM* multi = nullptr;
  std::vector<CURL*> idle;

  Session() : multi(curl_multi_init()) {
    if (multi == nullptr) throw Error(ErrorCode::kInternal, "curl_multi_init failed");
  }
  ~Session() {
    for (CURL* easy : idle) curl_easy_cleanup(easy);
    curl_multi_cleanup(multi);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  CURL* take_easy() {
    if (!idle.empty()) {
      CURL* easy = idle.back();
      idle.pop_back();
      curl_easy_reset(easy);
      return easy;
    }
    CURL* easy = curl_easy_init();
    if (easy == nullptr) throw Error(ErrorCode::kInternal, "curl_easy_init failed");
    return easy;
  }
};

/// Sessions not in use. Batches on several threads (a read-ahead thread and
/// the caller) each take their own.
class SessionPool {
 public:
  std::unique_ptr<Session> acquire() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        auto session = std::move(free_.back());
        free_.pop_back();
        return session;
      }
    }
    return std::make_unique<Session>();
  }
  void release(std::unique_ptr<Session> session) {
    std::lock_guard<std::mutex> lock(mutex_);
    // A few idle sessions keep their connections; more are closed.
    if (free_.size() < 8) free_.push_back(std::move(session));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<Session>> free_;
};

SessionPool& pool() {
  static SessionPool sessions;
  return sessions;
}

/// One request's progress across its attempts.
struct Transfer {
  HttpRequest* request = nullptr;
  HttpResponse* response = nullptr;
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  bool active = false;
  bool done = false;
  Clock::time_point due;            // when the next attempt may start
  Clock::time_point last_activity;  // start of the attempt or the last byte received
  bool any_byte = false;
  bool too_long = false;
  bool timed_out = false;
  int64_t written = 0;
  std::string last_failure;
  char curl_error[CURL_ERROR_SIZE] = {};
};

bool iequals_prefix(const char* line, size_t size, const char* name, size_t& value_start) {
  const size_t n = std::strlen(name);
  if (size < n + 1 || strncasecmp(line, name, n) != 0 || line[n] != ':') return false;
  value_start = n + 1;
  return true;
}

std::string trimmed(const char* begin, size_t size) {
  size_t a = 0;
  while (a < size && (begin[a] == ' ' || begin[a] == '\t')) ++a;
  size_t b = size;
  while (b > a && (begin[b - 1] == '\r' || begin[b - 1] == '\n' || begin[b - 1] == ' ')) --b;
  return std::string(begin + a, b - a);
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  Transfer& t = *static_cast<Transfer*>(user);
  const size_t n = size * count;
  t.any_byte = true;
  t.last_activity = Clock::now();
  HttpResponse& r = *t.response;
  if (n >= 5 && std::memcmp(data, "HTTP/", 5) == 0) {
    // A new response (after a 100 Continue, say): forget the previous one's headers.
    r.etag.clear();
    r.last_modified.clear();
    r.content_range.clear();
    r.content_length = -1;
    return n;
  }
  size_t value = 0;
  if (iequals_prefix(data, n, "etag", value)) {
    r.etag = trimmed(data + value, n - value);
  } else if (iequals_prefix(data, n, "last-modified", value)) {
    r.last_modified = trimmed(data + value, n - value);
  } else if (iequals_prefix(data, n, "content-range", value)) {
    r.content_range = trimmed(data + value, n - value);
  } else if (iequals_prefix(data, n, "content-length", value)) {
    const std::string text = trimmed(data + value, n - value);
    if (!text.empty() && text.size() <= 18 && text.find_first_not_of("0123456789") == std::string::npos) {
      r.content_length = std::stoll(text);
    }
  }
  return n;
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  Transfer& t = *static_cast<Transfer*>(user);
  const size_t n = size * count;
  t.any_byte = true;
  t.last_activity = Clock::now();
  long status = 0;
  curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
  if (status < 200 || status >= 300) {
    std::string& kept = t.response->error_body;
    if (kept.size() < kErrorBodyKept) kept.append(data, std::min(n, kErrorBodyKept - kept.size()));
    return n;
  }
  const HttpRequest& request = *t.request;
  if (request.body != nullptr) {
    if (int64_t(n) > request.body_capacity - t.written) {
      t.too_long = true;
      return 0;  // aborts the transfer: a body longer than asked is never used
    }
    std::memcpy(request.body + t.written, data, n);
  } else if (request.text != nullptr) {
    if (int64_t(n) > request.text_limit - t.written) {
      t.too_long = true;
      return 0;
    }
    request.text->append(data, n);
  } else if (n > 0) {
    t.too_long = true;
    return 0;
  }
  t.written += int64_t(n);
  return n;
}

bool is_fatal_curl_error(CURLcode code) {
  switch (code) {
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_OUT_OF_MEMORY:
    case CURLE_TOO_MANY_REDIRECTS: return true;
    default: return false;
  }
}

/// S3's error code from an XML error body ("NoSuchKey", "SlowDown").
std::string s3_error_code(const std::string& body) {
  const size_t open = body.find("<Code>");
  if (open == std::string::npos) return {};
  const size_t close = body.find("</Code>", open);
  if (close == std::string::npos || close - open > 80) return {};
  return body.substr(open + 6, close - open - 6);
}

int64_t backoff_ms(const RemoteOptions& options, int tries) {
  thread_local std::mt19937_64 random{std::random_device{}()};
  int64_t cap = std::max<int64_t>(1, options.backoff_cap_ms);
  int64_t ceiling = std::max<int64_t>(1, options.backoff_base_ms);
  for (int i = 1; i < tries && ceiling < cap; ++i) ceiling *= 2;
  ceiling = std::min(ceiling, cap);
  // "Equal jitter": never less than half the step, so clients that failed
  // together spread out without retrying at once.
  std::uniform_int_distribution<int64_t> pick(ceiling / 2, ceiling);
  return pick(random);
}

[[noreturn]] void fail(const Transfer& t, const std::string& reason) {
  const HttpRequest& request = *t.request;
  std::string message = std::string(request.head ? "HEAD " : "GET ") + request.display;
  const std::string range = range_text(request);
  if (!range.empty()) message += " (" + range + ")";
  message += ": " + reason + " [" + std::to_string(t.response->tries) +
             (t.response->tries == 1 ? " try]" : " tries]");
  ErrorLocation where;
  where.file = request.display;
  where.offset = request.offset;
  throw Error(ErrorCode::kIo, message, std::move(where));
}

class Batch {
 public:
  Batch(std::span<HttpRequest> requests, std::vector<HttpResponse>& responses, const RemoteOptions& options,
        HttpCounters& counters, const std::atomic<bool>* cancel)
      : options_(options), counters_(counters), cancel_(cancel), session_(pool().acquire()) {
    responses.assign(requests.size(), HttpResponse{});
    transfers_.resize(requests.size());
    const Clock::time_point now = Clock::now();
    for (size_t i = 0; i < requests.size(); ++i) {
      transfers_[i].request = &requests[i];
      transfers_[i].response = &responses[i];
      transfers_[i].due = now;
    }
  }

  ~Batch() {
    for (Transfer& t : transfers_) detach(t);
    for (Transfer& t : transfers_) {
      if (t.easy != nullptr) session_->idle.push_back(t.easy);
    }
    pool().release(std::move(session_));
  }

  void run() {
    size_t remaining = transfers_.size();
    const size_t limit = size_t(std::max(1, options_.max_concurrency));
    size_t active = 0;
    while (remaining > 0) {
      if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) {
        // The destructor detaches what still runs (closing those connections).
        ErrorLocation where;
        where.file = transfers_.front().request->display;
        throw Error(ErrorCode::kIo, "remote read cancelled: the reader was closed", std::move(where));
      }
      Clock::time_point now = Clock::now();
      // Start what is due, in file order, within the concurrency limit, so
      // the parts a decoder needs first arrive first.
      for (size_t i = 0; i < transfers_.size() && active < limit; ++i) {
        Transfer& t = transfers_[i];
        if (t.done || t.active || t.due > now) continue;
        start(t);
        ++active;
      }
      int running = 0;
      curl_multi_perform(session_->multi, &running);
      int queued = 0;
      while (CURLMsg* message = curl_multi_info_read(session_->multi, &queued)) {
        if (message->msg != CURLMSG_DONE) continue;
        void* user = nullptr;
        curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &user);
        Transfer& t = *static_cast<Transfer*>(user);
        const CURLcode result = message->data.result;
        detach(t);
        --active;
        if (finish(t, result)) --remaining;
      }
      // Our own timeouts: no first byte, or no byte for too long.
      now = Clock::now();
      for (Transfer& t : transfers_) {
        if (!t.active) continue;
        const int64_t allowed = t.any_byte ? options_.stall_timeout_ms : options_.first_byte_timeout_ms;
        const auto idle =
            std::chrono::duration_cast<std::chrono::milliseconds>(now - t.last_activity).count();
        if (idle > allowed) {
          detach(t);
          --active;
          t.timed_out = true;
          if (finish(t, CURLE_OPERATION_TIMEDOUT)) --remaining;
        }
      }
      if (remaining == 0) break;
      // A cancellable batch looks at its flag at least every 20 ms.
      int64_t wait_ms = cancel_ != nullptr ? 20 : 50;
      if (active == 0) {
        // Only backoffs pending: sleep until the first is due.
        Clock::time_point first_due = Clock::time_point::max();
        for (const Transfer& t : transfers_) {
          if (!t.done && !t.active) first_due = std::min(first_due, t.due);
        }
        wait_ms = std::max<int64_t>(
            0, std::chrono::duration_cast<std::chrono::milliseconds>(first_due - Clock::now()).count());
        wait_ms = std::min<int64_t>(wait_ms, cancel_ != nullptr ? 20 : 1000);
      }
      curl_multi_poll(session_->multi, nullptr, 0, int(wait_ms), nullptr);
    }
  }

 private:
  void start(Transfer& t) {
    HttpRequest& request = *t.request;
    HttpResponse& response = *t.response;
    if (t.easy == nullptr)
      t.easy = session_->take_easy();
    else
      curl_easy_reset(t.easy);
    ++response.tries;
    ++counters_.requests;
    if (request.head)
      ++counters_.heads;
    else
      ++counters_.gets;
    if (response.tries > 1) ++counters_.retries;
    response.status = 0;
    response.etag.clear();
    response.last_modified.clear();
    response.content_range.clear();
    response.content_length = -1;
    response.body_bytes = 0;
    response.error_body.clear();
    if (request.text != nullptr) request.text->clear();
    t.written = 0;
    t.any_byte = false;
    t.too_long = false;
    t.timed_out = false;
    t.curl_error[0] = 0;
    t.last_activity = Clock::now();

    std::vector<std::string> lines = request.headers;
    const std::string range = range_text(request);
    if (!range.empty()) lines.push_back("Range: " + range);
    if (request.sign) request.sign(request, lines);
    for (const std::string& line : lines) t.headers = curl_slist_append(t.headers, line.c_str());

    CURL* e = t.easy;
    curl_easy_setopt(e, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(e, CURLOPT_PRIVATE, &t);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_1_1));
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, long(std::max<int64_t>(1, options_.connect_timeout_ms)));
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, t.headers);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.curl_error);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
    if (request.head) curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
    if (!options_.ca_file.empty()) curl_easy_setopt(e, CURLOPT_CAINFO, options_.ca_file.c_str());
    if (curl_multi_add_handle(session_->multi, e) != CURLM_OK) {
      throw Error(ErrorCode::kInternal, "curl_multi_add_handle failed");
    }
    t.active = true;
  }

  void detach(Transfer& t) {
    if (t.active) {
      curl_multi_remove_handle(session_->multi, t.easy);
      t.active = false;
    }
    if (t.headers != nullptr) {
      curl_slist_free_all(t.headers);
      t.headers = nullptr;
    }
  }

  /// Judges a finished attempt; true when the transfer is done (success),
  /// false when a retry is scheduled; throws when it failed for good.
  bool finish(Transfer& t, CURLcode result) {
    HttpResponse& response = *t.response;
    const HttpRequest& request = *t.request;
    long status = 0;
    curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
    response.status = status;
    response.body_bytes = t.written;
    Verdict verdict;
    if (t.timed_out) {
      verdict = Verdict::retry(
          t.any_byte ? "stalled: no byte for " + std::to_string(options_.stall_timeout_ms) + " ms"
                     : "no response within " + std::to_string(options_.first_byte_timeout_ms) + " ms");
    } else if (result != CURLE_OK) {
      std::string what = t.too_long ? "body longer than the " +
                                          std::to_string(request.body != nullptr ? request.body_capacity
                                                                                 : request.text_limit) +
                                          " bytes asked"
                                    : std::string(curl_easy_strerror(result));
      if (!t.too_long && t.curl_error[0] != 0) what += " (" + std::string(t.curl_error) + ")";
      verdict = is_fatal_curl_error(result) ? Verdict::fail(what) : Verdict::retry(what);
    } else if (status >= 200 && status < 300) {
      verdict = request.check ? request.check(response) : Verdict::ok();
    } else {
      const std::string code = s3_error_code(response.error_body);
      std::string what = "HTTP " + std::to_string(status) + (code.empty() ? "" : " (" + code + ")");
      if (status == 429 || status == 500 || status == 502 || status == 503 || status == 504 ||
          code == "SlowDown") {
        verdict = Verdict::retry(what);
      } else if (status == 412) {
        verdict = Verdict::fail(what + ": the object changed since it was opened (If-Match failed)");
      } else if (status == 404) {
        verdict = Verdict::fail(what + ": no such object");
      } else if (status == 403) {
        verdict = Verdict::fail(what + ": access denied (check the credentials, region and endpoint)");
      } else if (status == 301 || status == 307 || status == 400) {
        verdict = Verdict::fail(what + " (a wrong region or endpoint for this bucket?)");
      } else {
        verdict = Verdict::fail(what);
      }
    }
    switch (verdict.kind) {
      case Verdict::kOk:
        counters_.bytes += t.written;
        t.done = true;
        return true;
      case Verdict::kFail: fail(t, verdict.reason);
      case Verdict::kRetry: break;
    }
    if (response.tries >= std::max(1, options_.max_tries)) {
      fail(t, "gave up: " + verdict.reason);
    }
    t.last_failure = verdict.reason;
    t.due = Clock::now() + std::chrono::milliseconds(backoff_ms(options_, response.tries));
    return false;
  }

  const RemoteOptions& options_;
  HttpCounters& counters_;
  const std::atomic<bool>* cancel_;  // null: not cancellable
  std::unique_ptr<Session> session_;
  std::vector<Transfer> transfers_;
};

}  // namespace

std::string range_text(const HttpRequest& request) {
  if (request.offset >= 0) {
    return "bytes=" + std::to_string(request.offset) + "-" +
           std::to_string(request.offset + request.length - 1);
  }
  if (request.suffix > 0) return "bytes=-" + std::to_string(request.suffix);
  return {};
}

bool parse_content_range(const std::string& text, int64_t& first, int64_t& last, int64_t& total) {
  // bytes <first>-<last>/<total or *>
  if (text.rfind("bytes ", 0) != 0) return false;
  const size_t dash = text.find('-', 6);
  const size_t slash = text.find('/', 6);
  if (dash == std::string::npos || slash == std::string::npos || dash > slash) return false;
  auto number = [](const std::string& digits, int64_t& out) {
    if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos) {
      return false;
    }
    out = std::stoll(digits);
    return true;
  };
  if (!number(text.substr(6, dash - 6), first) || !number(text.substr(dash + 1, slash - dash - 1), last)) {
    return false;
  }
  const std::string total_text = text.substr(slash + 1);
  if (total_text == "*") {
    total = -1;
  } else if (!number(total_text, total)) {
    return false;
  }
  return first <= last && (total < 0 || last < total);
}

void perform(std::span<HttpRequest> requests, std::vector<HttpResponse>& responses,
             const RemoteOptions& options, HttpCounters& counters, const std::atomic<bool>* cancel) {
  global_init();
  if (requests.empty()) {
    responses.clear();
    return;
  }
  Batch batch(requests, responses, options, counters, cancel);
  batch.run();
}

}  // namespace parquetry::remote
