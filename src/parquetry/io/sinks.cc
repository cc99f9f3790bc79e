// AtomicFileSink: write to a temporary file, rename over the target on commit.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/io.h"

namespace parquetry {

namespace {

// Writes shorter than this are gathered before a write(2) call.
constexpr size_t kPendingCapacity = 256 * 1024;

[[noreturn]] void throw_file_error(const std::string& what, const std::string& path, int errno_value) {
  ErrorLocation where;
  where.file = path;
  throw Error(ErrorCode::kIo, what + ": " + std::strerror(errno_value), std::move(where));
}

std::string parent_folder(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

void write_all(int fd, const uint8_t* data, size_t length, const std::string& path) {
  while (length > 0) {
    ssize_t n = ::write(fd, data, length);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_file_error("write failed", path, errno);
    }
    data += n;
    length -= static_cast<size_t>(n);
  }
}

}  // namespace

AtomicFileSink::AtomicFileSink(std::string path) : path_(std::move(path)) {
  if (path_.empty()) throw_invalid("AtomicFileSink: empty path");
  // mkstemp gives a unique name in the target folder, so rename() stays
  // within one file system and is atomic.
  std::string pattern = path_ + ".tmp-XXXXXX";
  int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw_file_error("cannot create temporary file " + pattern, path_, errno);
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  fd_ = fd;
  temp_path_ = std::move(pattern);
  pending_.reserve(kPendingCapacity);
}

AtomicFileSink::~AtomicFileSink() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void AtomicFileSink::write(const void* data, size_t length) {
  if (fd_ < 0) throw_invalid("AtomicFileSink: write after commit to " + path_);
  if (pending_.size() + length > kPendingCapacity) flush();
  if (length >= kPendingCapacity) {
    write_all(fd_, static_cast<const uint8_t*>(data), length, temp_path_);
  } else {
    pending_.append(data, length);
  }
  position_ += static_cast<int64_t>(length);
}

void AtomicFileSink::flush() {
  if (pending_.empty()) return;
  write_all(fd_, pending_.data(), pending_.size(), temp_path_);
  pending_.clear();
}

void AtomicFileSink::commit() {
  if (fd_ < 0) throw_invalid("AtomicFileSink: commit called twice for " + path_);
  flush();
  // mkstemp creates the file 0600; give it the permissions of an ordinary data file.
  ::fchmod(fd_, 0644);
  if (::fsync(fd_) != 0) throw_file_error("fsync failed", temp_path_, errno);
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw_file_error("close failed", temp_path_, errno);
  }
  fd_ = -1;
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0)
    throw_file_error("cannot rename temporary file over", path_, errno);
  temp_path_.clear();
  // Make the rename itself durable.
  int dir = ::open(parent_folder(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace parquetry
