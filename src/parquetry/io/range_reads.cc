#include "parquetry/io/range_reads.h"

#include <algorithm>

#include "parquetry/error.h"
#include "parquetry/io.h"

namespace parquetry {

namespace {

[[noreturn]] void bad_range(const std::string& message, const std::string& source_name, int64_t offset) {
  ErrorLocation where;
  where.file = source_name;
  where.offset = offset;
  throw Error(ErrorCode::kCorrupt, message, std::move(where));
}

}  // namespace

std::vector<ByteRange> coalesce_ranges(std::vector<ByteRange> ranges, int64_t file_size,
                                       const CoalesceOptions& options, const std::string& source_name) {
  for (const ByteRange& range : ranges) {
    if (range.offset < 0 || range.length < 0 || range.offset > file_size ||
        range.length > file_size - range.offset) {
      bad_range("byte range [" + std::to_string(range.offset) + ", +" + std::to_string(range.length) +
                    ") from the metadata lies outside the file of " + std::to_string(file_size) + " bytes",
                source_name, range.offset);
    }
  }
  std::erase_if(ranges, [](const ByteRange& range) { return range.length == 0; });
  std::sort(ranges.begin(), ranges.end(),
            [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> merged;
  merged.reserve(ranges.size());
  for (size_t i = 0; i < ranges.size(); ++i) {
    const ByteRange& range = ranges[i];
    if (i > 0 && range.offset < ranges[i - 1].end()) {
      bad_range("byte ranges from the metadata overlap: [" + std::to_string(ranges[i - 1].offset) + ", +" +
                    std::to_string(ranges[i - 1].length) + ") and [" + std::to_string(range.offset) + ", +" +
                    std::to_string(range.length) + ")",
                source_name, range.offset);
    }
    if (!merged.empty() && options.gap > 0) {
      ByteRange& last = merged.back();
      const int64_t gap = range.offset - last.end();
      if (gap <= options.gap && range.end() - last.offset <= options.max_size) {
        last.length = range.end() - last.offset;
        continue;
      }
    }
    merged.push_back(range);
  }
  return merged;
}

void FetchedRanges::clear() {
  pieces_.clear();
  held_bytes_ = 0;
}

void FetchedRanges::fetch(RandomAccessSource& source, std::span<const ByteRange> merged, int64_t needed_bytes,
                          const std::atomic<bool>* cancel) {
  clear();
  stats_ = FetchStats{};
  int64_t total = 0;
  // One read_many() call for the whole step, so a remote source can have
  // every merged range (split into parts) in flight at once.
  reads_.resize(merged.size());
  for (size_t i = 0; i < merged.size(); ++i) {
    if (i >= buffers_.size()) buffers_.push_back(std::make_unique<Buffer>());
    reads_[i] = RandomAccessSource::RangeRead{merged[i].offset, merged[i].length, buffers_[i].get(), {}};
  }
  if (cancel != nullptr) {
    source.read_many(reads_, *cancel);
  } else {
    source.read_many(reads_);
  }
  for (size_t i = 0; i < merged.size(); ++i) {
    const ByteRange& range = merged[i];
    const Buffer& buffer = *buffers_[i];
    std::span<const uint8_t> bytes = reads_[i].result;
    if (int64_t(bytes.size()) != range.length) {
      bad_range("source returned " + std::to_string(bytes.size()) + " bytes for a read of " +
                    std::to_string(range.length),
                source.name(), range.offset);
    }
    // A source that read into the buffer (rather than handing out a view of
    // its own memory) makes us hold those bytes until the next fetch.
    if (range.length > 0 && bytes.data() == buffer.data()) held_bytes_ += range.length;
    pieces_.push_back(Piece{range.offset, bytes});
    total += range.length;
  }
  reads_.clear();
  stats_.reads = int64_t(merged.size());
  stats_.bytes_read = total;
  stats_.bytes_unused = std::max<int64_t>(0, total - needed_bytes);
}

const FetchedRanges::Piece* FetchedRanges::find(int64_t offset) const {
  auto after = std::upper_bound(pieces_.begin(), pieces_.end(), offset,
                                [](int64_t value, const Piece& piece) { return value < piece.offset; });
  if (after == pieces_.begin()) return nullptr;
  const Piece& piece = *(after - 1);
  if (offset - piece.offset >= int64_t(piece.bytes.size())) return nullptr;
  return &piece;
}

std::span<const uint8_t> FetchedRanges::tail(int64_t offset) const {
  const Piece* piece = find(offset);
  if (piece == nullptr) return {};
  return piece->bytes.subspan(size_t(offset - piece->offset));
}

std::span<const uint8_t> FetchedRanges::view(int64_t offset, int64_t length) const {
  const Piece* piece = find(offset);
  if (piece == nullptr || length < 0 || length > int64_t(piece->bytes.size()) - (offset - piece->offset)) {
    ErrorLocation where;
    where.offset = offset;
    throw Error(ErrorCode::kCorrupt,
                "bytes [" + std::to_string(offset) + ", +" + std::to_string(length) +
                    ") lie outside the ranges fetched for this read",
                std::move(where));
  }
  return piece->bytes.subspan(size_t(offset - piece->offset), size_t(length));
}

}  // namespace parquetry
