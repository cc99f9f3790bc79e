// Remote byte sources: Parquet files in S3 (and its clones) and behind plain
// HTTP(S) URLs, read through the same RandomAccessSource interface, the same
// coalesced read plans and the same read-ahead as local files.
//
//   auto reader = parquetry::FileReader::open("s3://bucket/data/taxi.parquet");
//   auto reader = parquetry::FileReader::open("https://host/taxi.parquet");
//
// Every path the library accepts may be such a URL; open_source() is the one
// place that tells local paths from remote ones. A remote source opens with a
// single request (a suffix GET of footer_hint bytes, which also yields the
// object's size and ETag), pins the ETag and sends it as If-Match on every
// later read, so a replaced object fails the read instead of mixing bytes of
// two versions. read_many() splits the ranges of a read step into parts of at
// most part_size bytes and keeps up to max_concurrency of them in flight on
// reused connections. docs/remote.md describes settings, request plan and
// tuning.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parquetry/export.h"
#include "parquetry/io.h"

namespace parquetry {

/// How remote objects are reached. Empty fields are taken from the
/// environment (AWS_ENDPOINT_URL, AWS_REGION / AWS_DEFAULT_REGION,
/// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_PROFILE)
/// and then from ~/.aws/credentials and ~/.aws/config (or the files named by
/// AWS_SHARED_CREDENTIALS_FILE / AWS_CONFIG_FILE).
struct RemoteOptions {
  /// S3 endpoint, e.g. "http://127.0.0.1:9000"; empty = AWS_ENDPOINT_URL, or
  /// AWS's regional endpoint.
  std::string endpoint;
  /// Signing region; empty = AWS_REGION, the profile's region, or us-east-1.
  std::string region;
  /// Profile of the shared files; empty = AWS_PROFILE or "default".
  std::string profile;
  /// Send unsigned requests (public buckets) even when credentials exist.
  bool anonymous = false;
  /// Address buckets as endpoint/bucket/key (true) or bucket.endpoint/key
  /// (false); unset = path style for a custom endpoint (MinIO, local
  /// servers), virtual-hosted for AWS.
  std::optional<bool> path_style;
  /// PEM file of certificate authorities to trust instead of the system's
  /// store (a private CA, a test's self-signed certificate).
  std::string ca_file;
  /// Requests in flight at once for one source (read steps fetched ahead
  /// together share them).
  int max_concurrency = 8;
  /// A merged range larger than this is fetched as several ranged GETs.
  int64_t part_size = 8LL << 20;
  /// Bytes of the object's end read when opening it (the footer in one
  /// request unless it is larger).
  int64_t footer_hint = 512 << 10;
  /// Timeouts, in milliseconds: establishing a connection (TCP + TLS), the
  /// first byte of a response, and a stall of an ongoing body.
  int64_t connect_timeout_ms = 5000;
  int64_t first_byte_timeout_ms = 15000;
  int64_t stall_timeout_ms = 10000;
  /// Attempts per request (1 = no retry) on 5xx, 429/SlowDown, connection
  /// failures, timeouts and short or long bodies.
  int max_tries = 5;
  /// Backoff before retry n (1-based): a random time in [b/2, b] with
  /// b = min(backoff_cap_ms, backoff_base_ms * 2^(n-1)).
  int64_t backoff_base_ms = 100;
  int64_t backoff_cap_ms = 5000;
};

/// Whether `path` names a remote object (s3://, http:// or https://).
PARQUETRY_API bool is_remote_path(std::string_view path);

/// Request counters of a remote source (for tests, the CLI and benchmarks).
struct RemoteStats {
  int64_t requests = 0;  ///< HTTP requests sent, retries included
  int64_t gets = 0;      ///< ranged GETs among them (retries included)
  int64_t heads = 0;
  int64_t retries = 0;  ///< requests that repeated a failed one
  int64_t bytes = 0;    ///< body bytes received and used
};

/// A remote object read with ranged GETs (see the top of this file).
class PARQUETRY_API RemoteSource final : public RandomAccessSource {
 public:
  /// Opens `url` (s3://bucket/key, http://..., https://...): one request.
  /// Throws kIo naming the URL (never credentials) when the object cannot be
  /// read, kInvalidArgument for a malformed URL.
  RemoteSource(const std::string& url, const RemoteOptions& options = {});
  ~RemoteSource() override;
  RemoteSource(const RemoteSource&) = delete;
  RemoteSource& operator=(const RemoteSource&) = delete;

  int64_t size() const override;
  /// The URL as given (s3://bucket/key or the http(s) URL, query stripped).
  const std::string& name() const override;
  std::span<const uint8_t> read(int64_t offset, int64_t length, Buffer& scratch) override;
  void read_many(std::span<RangeRead> reads) override;
  void read_many(std::span<RangeRead> reads, const std::atomic<bool>& cancel) override;
  int64_t footer_read_hint() const override;
  bool remote() const override { return true; }
  /// max_concurrency: the requests of concurrent read_many() calls share
  /// that budget (a call waits for slots), so several read steps in flight
  /// never have more than max_concurrency requests open together.
  int concurrent_reads() const override;

  /// The ETag (or Last-Modified when the server sends no ETag) pinned at open.
  const std::string& version() const;
  RemoteStats stats() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

/// Opens `path` for reading: a RemoteSource for s3:// and http(s):// URLs
/// (with `remote`, or default_remote_options() when null), else a MmapSource
/// (`use_mmap`) or a FileSource.
PARQUETRY_API std::shared_ptr<RandomAccessSource> open_source(const std::string& path, bool use_mmap = false,
                                                              const RemoteOptions* remote = nullptr);

/// Remote options every open_source() call without its own falls back to
/// (the CLI sets them from its flags once).
PARQUETRY_API void set_default_remote_options(const RemoteOptions& options);
PARQUETRY_API RemoteOptions default_remote_options();

/// One object of a listing.
struct ObjectInfo {
  std::string key;
  int64_t size = 0;
  std::string etag;
};

/// Lists the objects under `prefix_url` (s3://bucket/prefix) with
/// ListObjectsV2, following continuation tokens; at most `max_objects`
/// (kLimitExceeded beyond). Keys are sorted as S3 returns them.
PARQUETRY_API std::vector<ObjectInfo> list_objects(const std::string& prefix_url,
                                                   const RemoteOptions& options = {},
                                                   int64_t max_objects = 1000000);

}  // namespace parquetry
