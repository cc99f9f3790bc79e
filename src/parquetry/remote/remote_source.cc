// RemoteSource: a remote object read with ranged GETs (include/parquetry/remote.h).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>

#include "parquetry/error.h"
#include "parquetry/remote.h"
#include "parquetry/remote/http_client.h"
#include "parquetry/remote/object_requests.h"

namespace parquetry {

using remote::HttpCounters;
using remote::HttpRequest;
using remote::HttpResponse;
using remote::Verdict;

// Hidden: a nested class takes the visibility of the exported class around it.
struct PARQUETRY_LOCAL RemoteSource::Impl {
  RemoteOptions options;
  remote::Target target;
  int64_t size = 0;
  std::string version;  // pinned ETag, or Last-Modified
  bool version_is_etag = true;
  // The end of the object read when opening it (holds the footer, and often
  // the page indexes): reads inside it cost no request.
  std::vector<uint8_t> tail;
  int64_t tail_offset = 0;

  mutable std::mutex mutex;
  RemoteStats stats;

  // Request slots shared by concurrent read_many() calls (read-ahead fetches
  // several steps at once): at most options.max_concurrency requests in
  // flight for this source. Callers are served in the order they asked, so
  // the step a scan needs first is not starved by the ones behind it.
  std::mutex slots_mutex;
  std::condition_variable slots_freed;
  int64_t slots_used = 0;
  uint64_t next_ticket = 0;
  uint64_t serving = 0;
  std::vector<uint64_t> cancelled_tickets;  // turns given up, skipped when reached

  void skip_cancelled() {
    for (bool skipped = true; skipped;) {
      skipped = false;
      auto found = std::find(cancelled_tickets.begin(), cancelled_tickets.end(), serving);
      if (found != cancelled_tickets.end()) {
        cancelled_tickets.erase(found);
        ++serving;
        skipped = true;
      }
    }
  }

  /// Waits for `wanted` slots (all of them, or every slot when fewer exist)
  /// and returns how many were taken.
  int64_t take_slots(int64_t wanted, const std::atomic<bool>& cancel) {
    const int64_t limit = std::max(1, options.max_concurrency);
    wanted = std::clamp<int64_t>(wanted, 1, limit);
    std::unique_lock<std::mutex> lock(slots_mutex);
    const uint64_t ticket = next_ticket++;
    while (!(ticket == serving && slots_used + wanted <= limit)) {
      if (cancel.load(std::memory_order_relaxed)) {
        // Give the turn up, so the callers behind this one are still served.
        cancelled_tickets.push_back(ticket);
        skip_cancelled();
        slots_freed.notify_all();
        throw Error(ErrorCode::kIo, "remote read cancelled: the reader was closed",
                    ErrorLocation{target.location.display, "", -1, -1, -1});
      }
      slots_freed.wait_for(lock, std::chrono::milliseconds(20));
    }
    ++serving;
    skip_cancelled();
    slots_used += wanted;
    slots_freed.notify_all();  // the next ticket may fit beside this one
    return wanted;
  }
  void give_slots(int64_t count) {
    {
      std::lock_guard<std::mutex> lock(slots_mutex);
      slots_used -= count;
    }
    slots_freed.notify_all();
  }

  void add(const HttpCounters& c) {
    std::lock_guard<std::mutex> lock(mutex);
    stats.requests += c.requests;
    stats.gets += c.gets;
    stats.heads += c.heads;
    stats.retries += c.retries;
    stats.bytes += c.bytes;
  }

  /// Runs `requests` with at most `concurrency` in flight (0 = the options').
  void run(std::span<HttpRequest> requests, std::vector<HttpResponse>& responses, int concurrency = 0,
           const std::atomic<bool>* cancel = nullptr) {
    HttpCounters counters;
    RemoteOptions batch = options;
    if (concurrency > 0) batch.max_concurrency = concurrency;
    try {
      remote::perform(requests, responses, batch, counters, cancel);
    } catch (...) {
      add(counters);
      throw;
    }
    add(counters);
  }

  /// A response of another version than the pinned one is never used, even
  /// when the server ignored If-Match.
  Verdict check_version(const HttpResponse& response) const {
    const std::string& now = version_is_etag ? response.etag : response.last_modified;
    if (!now.empty() && now != version) {
      return Verdict::fail("the object changed since it was opened (" +
                           std::string(version_is_etag ? "ETag " : "Last-Modified ") + version + ", now " +
                           now + ")");
    }
    return Verdict::ok();
  }

  /// A ranged GET of [offset, offset + length) into `into`.
  HttpRequest ranged_get(int64_t offset, int64_t length, uint8_t* into) const {
    HttpRequest request = remote::object_request(target, false);
    request.offset = offset;
    request.length = length;
    request.body = into;
    request.body_capacity = length;
    if (!version.empty()) {
      request.headers.push_back(version_is_etag ? "If-Match: " + version : "If-Unmodified-Since: " + version);
    }
    const Impl* self = this;
    request.check = [self, offset, length](const HttpResponse& response) {
      if (response.status == 206) {
        int64_t first = 0, last = 0, total = 0;
        if (!remote::parse_content_range(response.content_range, first, last, total)) {
          return Verdict::retry("206 response without a valid Content-Range (\"" + response.content_range +
                                "\")");
        }
        if (first != offset || last != offset + length - 1) {
          return Verdict::retry("server sent bytes " + std::to_string(first) + "-" + std::to_string(last) +
                                " instead of the range asked");
        }
        if (total >= 0 && total != self->size) {
          return Verdict::fail("the object changed since it was opened (size " + std::to_string(self->size) +
                               ", now " + std::to_string(total) + ")");
        }
      } else if (!(response.status == 200 && offset == 0 && length == self->size)) {
        return Verdict::fail("server answered HTTP " + std::to_string(response.status) +
                             " to a ranged GET (Range not supported?)");
      }
      if (response.body_bytes != length) {
        return Verdict::retry("short body: " + std::to_string(response.body_bytes) + " of " +
                              std::to_string(length) + " bytes");
      }
      return self->check_version(response);
    };
    return request;
  }

  void open() {
    const int64_t hint = std::max<int64_t>(options.footer_hint, 8);
    tail.resize(size_t(hint));
    HttpRequest request = remote::object_request(target, false);
    request.suffix = hint;
    request.body = tail.data();
    request.body_capacity = hint;
    request.check = [](const HttpResponse& response) {
      if (response.status == 206) {
        int64_t first = 0, last = 0, total = 0;
        // A malformed or impossible Content-Range (a cache or proxy bug) is
        // retried like a short body: the bytes are never used.
        if (!remote::parse_content_range(response.content_range, first, last, total) || total < 0) {
          return Verdict::retry("206 response without a valid Content-Range (\"" + response.content_range +
                                "\")");
        }
        if (response.body_bytes != last - first + 1) {
          return Verdict::retry("short body: " + std::to_string(response.body_bytes) + " of " +
                                std::to_string(last - first + 1) + " bytes");
        }
        return Verdict::ok();
      }
      if (response.status == 200) {
        // The whole object (smaller than the hint, or a server that ignores
        // Range on small objects): usable when the length is known and met.
        if (response.content_length >= 0 && response.body_bytes != response.content_length) {
          return Verdict::retry("short body: " + std::to_string(response.body_bytes) + " of " +
                                std::to_string(response.content_length) + " bytes");
        }
        return Verdict::ok();
      }
      return Verdict::fail("unexpected HTTP " + std::to_string(response.status));
    };
    std::vector<HttpResponse> responses;
    run(std::span<HttpRequest>(&request, 1), responses);
    const HttpResponse& response = responses[0];
    if (!response.etag.empty()) {
      version = response.etag;
    } else {
      version = response.last_modified;
      version_is_etag = false;
    }
    if (response.status == 200) {
      size = response.body_bytes;
      tail.resize(size_t(size));
      tail_offset = 0;
      return;
    }
    int64_t first = 0, last = 0, total = 0;
    remote::parse_content_range(response.content_range, first, last, total);
    size = total;
    const int64_t got = last - first + 1;
    if (last == total - 1) {
      tail.resize(size_t(got));
      tail_offset = first;
      return;
    }
    // The server read "bytes=-N" as a prefix (some S3 clones do): keep
    // nothing of it and read the real end with an explicit range.
    const int64_t want = std::min(hint, size);
    tail.resize(size_t(want));
    tail_offset = size - want;
    HttpRequest exact = ranged_get(tail_offset, want, tail.data());
    run(std::span<HttpRequest>(&exact, 1), responses);
  }
};

RemoteSource::RemoteSource(const std::string& url, const RemoteOptions& options)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->target = remote::make_target(url, options);
  impl_->open();
}

RemoteSource::~RemoteSource() = default;

int64_t RemoteSource::size() const { return impl_->size; }
const std::string& RemoteSource::name() const { return impl_->target.location.display; }
int64_t RemoteSource::footer_read_hint() const { return std::max<int64_t>(impl_->options.footer_hint, 8); }
const std::string& RemoteSource::version() const { return impl_->version; }

RemoteStats RemoteSource::stats() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->stats;
}

std::span<const uint8_t> RemoteSource::read(int64_t offset, int64_t length, Buffer& scratch) {
  RangeRead one{offset, length, &scratch, {}};
  read_many(std::span<RangeRead>(&one, 1));
  return one.result;
}

void RemoteSource::read_many(std::span<RangeRead> reads) {
  static const std::atomic<bool> never{false};
  read_many(reads, never);
}

void RemoteSource::read_many(std::span<RangeRead> reads, const std::atomic<bool>& cancel) {
  Impl& impl = *impl_;
  const int64_t part = std::max<int64_t>(impl.options.part_size, 64 << 10);
  std::vector<HttpRequest> requests;
  for (RangeRead& one : reads) {
    check_range(one.offset, one.length);
    if (one.scratch == nullptr) throw_invalid("read_many: a range without a scratch buffer");
    if (one.length == 0) {
      one.result = {};
      continue;
    }
    const int64_t tail_end = impl.tail_offset + int64_t(impl.tail.size());
    if (one.offset >= impl.tail_offset && one.offset + one.length <= tail_end) {
      // Already here since the open: a view of the source's own copy.
      one.result = {impl.tail.data() + (one.offset - impl.tail_offset), size_t(one.length)};
      continue;
    }
    one.scratch->resize(size_t(one.length));
    // Parts of bounded size, all in flight together (up to max_concurrency):
    // a large coalesced range costs about one round trip, not one per part.
    for (int64_t done = 0; done < one.length; done += part) {
      const int64_t n = std::min(part, one.length - done);
      requests.push_back(impl.ranged_get(one.offset + done, n, one.scratch->data() + done));
    }
    one.result = one.scratch->span();
  }
  if (requests.empty()) return;
  const int64_t slots = impl.take_slots(int64_t(requests.size()), cancel);
  struct Release {
    Impl& impl;
    int64_t slots;
    ~Release() { impl.give_slots(slots); }
  } release{impl, slots};
  std::vector<HttpResponse> responses;
  impl.run(requests, responses, int(slots), &cancel);
}

int RemoteSource::concurrent_reads() const { return std::max(1, impl_->options.max_concurrency); }

}  // namespace parquetry
