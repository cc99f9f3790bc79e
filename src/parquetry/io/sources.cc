// RandomAccessSource implementations: pread, mmap and memory.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/io.h"

namespace parquetry {

namespace {

[[noreturn]] void throw_file_error(const std::string& what, const std::string& path, int errno_value) {
  ErrorLocation where;
  where.file = path;
  throw Error(ErrorCode::kIo, what + ": " + std::strerror(errno_value), std::move(where));
}

int open_read_only(const std::string& path, int64_t& size) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_file_error("cannot open for reading", path, errno);
  struct stat info;
  if (::fstat(fd, &info) != 0) {
    int e = errno;
    ::close(fd);
    throw_file_error("cannot stat", path, e);
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    ErrorLocation where;
    where.file = path;
    throw Error(ErrorCode::kInvalidArgument, "not a regular file", std::move(where));
  }
  size = static_cast<int64_t>(info.st_size);
  return fd;
}

}  // namespace

void RandomAccessSource::check_range(int64_t offset, int64_t length) const {
  int64_t total = size();
  if (offset < 0 || length < 0 || offset > total || length > total - offset) {
    ErrorLocation where;
    where.file = name();
    where.offset = offset;
    throw Error(ErrorCode::kCorrupt,
                "read of " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                    " is outside the file (size " + std::to_string(total) + ")",
                std::move(where));
  }
}

void RandomAccessSource::read_at(int64_t offset, int64_t length, Buffer& out) {
  std::span<const uint8_t> got = read(offset, length, out);
  if (got.data() != out.data()) {
    out.resize(got.size());
    if (!got.empty()) std::memcpy(out.data(), got.data(), got.size());
  }
}

void RandomAccessSource::read_many(std::span<RangeRead> reads) {
  for (RangeRead& one : reads) {
    if (one.scratch == nullptr) throw_invalid("read_many: a range without a scratch buffer");
    one.result = read(one.offset, one.length, *one.scratch);
  }
}

void RandomAccessSource::read_many(std::span<RangeRead> reads, const std::atomic<bool>& /*cancel*/) {
  read_many(reads);
}

// --- FileSource -------------------------------------------------------------

FileSource::FileSource(std::string path) : path_(std::move(path)) { fd_ = open_read_only(path_, size_); }

FileSource::~FileSource() {
  if (fd_ >= 0) ::close(fd_);
}

std::span<const uint8_t> FileSource::read(int64_t offset, int64_t length, Buffer& scratch) {
  check_range(offset, length);
  scratch.resize(static_cast<size_t>(length));
  size_t done = 0;
  while (done < static_cast<size_t>(length)) {
    ssize_t n = ::pread(fd_, scratch.data() + done, static_cast<size_t>(length) - done,
                        static_cast<off_t>(offset + static_cast<int64_t>(done)));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_file_error(
          "read of " + std::to_string(length) + " bytes at offset " + std::to_string(offset) + " failed",
          path_, errno);
    }
    if (n == 0) {
      ErrorLocation where;
      where.file = path_;
      where.offset = offset;
      throw Error(ErrorCode::kIo, "file shrank while reading (unexpected end of file)", std::move(where));
    }
    done += static_cast<size_t>(n);
  }
  return scratch.span();
}

// --- MmapSource -------------------------------------------------------------

MmapSource::MmapSource(std::string path) : path_(std::move(path)) {
  int fd = open_read_only(path_, size_);
  if (size_ > 0) {
    void* mapped = ::mmap(nullptr, static_cast<size_t>(size_), PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) {
      int e = errno;
      ::close(fd);
      throw_file_error("cannot map", path_, e);
    }
    data_ = static_cast<const uint8_t*>(mapped);
  }
  ::close(fd);  // the mapping stays valid without the descriptor
}

MmapSource::~MmapSource() {
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), static_cast<size_t>(size_));
}

std::span<const uint8_t> MmapSource::read(int64_t offset, int64_t length, Buffer&) {
  check_range(offset, length);
  if (length == 0) return {};
  return {data_ + offset, static_cast<size_t>(length)};
}

// --- MemorySource -----------------------------------------------------------

MemorySource::MemorySource(std::span<const uint8_t> bytes, std::string name)
    : bytes_(bytes), name_(std::move(name)) {}

MemorySource::MemorySource(std::vector<uint8_t> owned, std::string name)
    : owned_(std::move(owned)), bytes_(owned_), name_(std::move(name)) {}

std::span<const uint8_t> MemorySource::read(int64_t offset, int64_t length, Buffer&) {
  check_range(offset, length);
  return bytes_.subspan(static_cast<size_t>(offset), static_cast<size_t>(length));
}

}  // namespace parquetry
