// The one place that tells remote paths from local ones.
#include <mutex>

#include "parquetry/io.h"
#include "parquetry/remote.h"

namespace parquetry {

namespace {

std::mutex g_defaults_mutex;

RemoteOptions& defaults() {
  static RemoteOptions options;
  return options;
}

}  // namespace

bool is_remote_path(std::string_view path) {
  return path.starts_with("s3://") || path.starts_with("http://") || path.starts_with("https://");
}

void set_default_remote_options(const RemoteOptions& options) {
  std::lock_guard<std::mutex> lock(g_defaults_mutex);
  defaults() = options;
}

RemoteOptions default_remote_options() {
  std::lock_guard<std::mutex> lock(g_defaults_mutex);
  return defaults();
}

std::shared_ptr<RandomAccessSource> open_source(const std::string& path, bool use_mmap,
                                                const RemoteOptions* remote) {
  if (is_remote_path(path)) {
    if (remote != nullptr) return std::make_shared<RemoteSource>(path, *remote);
    return std::make_shared<RemoteSource>(path, default_remote_options());
  }
  if (use_mmap) return std::make_shared<MmapSource>(path);
  return std::make_shared<FileSource>(path);
}

}  // namespace parquetry
