// Byte sources and sinks: where parquetry reads files from and writes them to.
//
// A RandomAccessSource serves positioned reads. Memory-backed sources (a
// caller's buffer, an mmap) hand out views without copying; file sources copy
// into a caller-provided Buffer. Every read is bounds-checked against size(),
// and errors name the source.
//
// A Sink receives bytes in order. AtomicFileSink never leaves a half-written
// file at its final path: bytes go to a temporary file in the target folder
// that replaces the target only on commit().
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "parquetry/export.h"
#include "parquetry/util/buffer.h"

namespace parquetry {

/// Positioned reads from a file-like object of known size.
class PARQUETRY_API RandomAccessSource {
 public:
  virtual ~RandomAccessSource() = default;

  /// Total size in bytes.
  virtual int64_t size() const = 0;
  /// Name used in error messages (a path, or a description of the memory).
  virtual const std::string& name() const = 0;

  /// Returns the bytes [offset, offset + length). Memory-backed sources return
  /// a view of their own memory (valid as long as the source); others read
  /// into `scratch` and return a view of it (valid until `scratch` changes).
  /// Throws kCorrupt when the range is outside [0, size()) and kIo on a
  /// failed read.
  virtual std::span<const uint8_t> read(int64_t offset, int64_t length, Buffer& scratch) = 0;

  /// True when read() hands out views of memory the source owns (nothing is
  /// copied, so holding fetched bytes costs no extra memory): readers then
  /// skip read-ahead, which would only add work.
  virtual bool zero_copy() const { return false; }

  /// One range of a read_many() call: `result` receives the bytes, as read()
  /// would return them (a view into `*scratch` or into the source's memory).
  struct RangeRead {
    int64_t offset = 0;
    int64_t length = 0;
    Buffer* scratch = nullptr;
    std::span<const uint8_t> result;
  };
  /// Reads several ranges (each into its own scratch). The default reads
  /// them one after the other; remote sources fetch them concurrently, which
  /// is how a coalesced read plan hides a request's latency. Same checks and
  /// errors as read().
  virtual void read_many(std::span<RangeRead> reads);
  /// read_many() that gives up early once `cancel` becomes true (throwing
  /// kIo): read-ahead passes its flag, so closing a reader does not wait for
  /// reads nobody will use. The default ignores the flag (a local read is
  /// short); remote sources drop their transfers.
  virtual void read_many(std::span<RangeRead> reads, const std::atomic<bool>& cancel);

  /// Bytes to read from the end of the file to get the footer in one read;
  /// 0 = the reader's default (a local file wants a small read, an object
  /// store, where a request costs a round trip, a large one).
  virtual int64_t footer_read_hint() const { return 0; }
  /// True when every read is a request over a network (a round trip of
  /// milliseconds): the footer reader then skips the separate 4-byte read of
  /// the leading magic (the trailing magic, the footer length and the
  /// footer's decoding already vouch for the file), so opening costs one
  /// request.
  virtual bool remote() const { return false; }
  /// How many read_many() calls it pays to have running at once (from
  /// different threads). 1 for local files, where one read after another
  /// keeps up with decoding; a remote source answers its request budget, so
  /// read-ahead fetches several row groups at once and their round trips
  /// overlap instead of adding up. read_many() must be thread-safe when
  /// this is above 1.
  virtual int concurrent_reads() const { return 1; }

  /// Copies the bytes [offset, offset + length) into `out` (resized to length).
  void read_at(int64_t offset, int64_t length, Buffer& out);

 protected:
  /// Throws kCorrupt unless 0 <= offset, 0 <= length and offset + length <= size().
  void check_range(int64_t offset, int64_t length) const;
};

/// Reads a file with pread(2).
class PARQUETRY_API FileSource final : public RandomAccessSource {
 public:
  explicit FileSource(std::string path);
  ~FileSource() override;
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  int64_t size() const override { return size_; }
  const std::string& name() const override { return path_; }
  std::span<const uint8_t> read(int64_t offset, int64_t length, Buffer& scratch) override;

 private:
  std::string path_;
  int fd_ = -1;
  int64_t size_ = 0;
};

/// Maps a whole file read-only; reads are views of the mapping.
class PARQUETRY_API MmapSource final : public RandomAccessSource {
 public:
  explicit MmapSource(std::string path);
  ~MmapSource() override;
  MmapSource(const MmapSource&) = delete;
  MmapSource& operator=(const MmapSource&) = delete;

  int64_t size() const override { return size_; }
  const std::string& name() const override { return path_; }
  std::span<const uint8_t> read(int64_t offset, int64_t length, Buffer& scratch) override;
  bool zero_copy() const override { return true; }
  /// The whole mapping.
  std::span<const uint8_t> bytes() const { return {data_, static_cast<size_t>(size_)}; }

 private:
  std::string path_;
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
};

/// Serves bytes already in memory: either a view of caller-owned memory
/// (which must outlive the source) or a vector the source owns.
class PARQUETRY_API MemorySource final : public RandomAccessSource {
 public:
  explicit MemorySource(std::span<const uint8_t> bytes, std::string name = "<memory>");
  explicit MemorySource(std::vector<uint8_t> owned, std::string name = "<memory>");

  int64_t size() const override { return static_cast<int64_t>(bytes_.size()); }
  const std::string& name() const override { return name_; }
  std::span<const uint8_t> read(int64_t offset, int64_t length, Buffer& scratch) override;
  bool zero_copy() const override { return true; }

 private:
  std::vector<uint8_t> owned_;
  std::span<const uint8_t> bytes_;
  std::string name_;
};

/// Sequential writes.
class PARQUETRY_API Sink {
 public:
  virtual ~Sink() = default;
  virtual void write(const void* data, size_t length) = 0;
  void write(std::span<const uint8_t> bytes) { write(bytes.data(), bytes.size()); }
  /// Bytes written so far (the offset the next byte will have).
  virtual int64_t position() const = 0;
  /// Makes everything written durable and visible; no writes afterwards.
  virtual void commit() = 0;
};

/// Collects the bytes in a Buffer.
class PARQUETRY_API MemorySink final : public Sink {
 public:
  using Sink::write;
  void write(const void* data, size_t length) override { buffer_.append(data, length); }
  int64_t position() const override { return static_cast<int64_t>(buffer_.size()); }
  void commit() override {}
  const Buffer& buffer() const { return buffer_; }
  Buffer& buffer() { return buffer_; }

 private:
  Buffer buffer_;
};

/// Writes to a temporary file beside `path`; commit() flushes, fsyncs and
/// renames it over `path` (then fsyncs the folder). Destroying the sink
/// without commit() removes the temporary file.
class PARQUETRY_API AtomicFileSink final : public Sink {
 public:
  explicit AtomicFileSink(std::string path);
  ~AtomicFileSink() override;
  using Sink::write;
  AtomicFileSink(const AtomicFileSink&) = delete;
  AtomicFileSink& operator=(const AtomicFileSink&) = delete;

  void write(const void* data, size_t length) override;
  int64_t position() const override { return position_; }
  void commit() override;
  const std::string& path() const { return path_; }
  /// The temporary file's path (empty once committed).
  const std::string& temp_path() const { return temp_path_; }

 private:
  void flush();

  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  int64_t position_ = 0;
  Buffer pending_;  // small writes are gathered here before write(2)
};

}  // namespace parquetry
