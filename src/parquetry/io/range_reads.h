// Coalesced range reads: the byte ranges one read step needs (column chunks,
// or the pages a page index keeps plus their dictionary pages) are sorted,
// checked, and merged when the gap between neighbours is small, so a row
// group costs a few large reads instead of one per range. Consumers get
// zero-copy views of the merged buffers.
//
// Why merge at all: a positioned read costs a system call (or, on an object
// store, a request round trip) however small it is, so reading a small gap of
// unused bytes is cheaper than a second read. The gap is tunable because the
// break-even point differs by orders of magnitude between a local file and a
// remote source.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "parquetry/io.h"
#include "parquetry/util/buffer.h"

namespace parquetry {

/// Bytes [offset, offset + length) of a source.
struct ByteRange {
  int64_t offset = 0;
  int64_t length = 0;
  int64_t end() const { return offset + length; }
  bool operator==(const ByteRange&) const = default;
};

struct CoalesceOptions {
  /// Neighbours whose gap is at most this many bytes share one read; 0 turns
  /// coalescing off (one read per range, even for touching ranges).
  int64_t gap = 0;
  /// A merged read grows no larger than this; a single range larger than it
  /// is still read whole, alone.
  int64_t max_size = 0;
};

/// Sorts `ranges`, drops empty ones, and merges neighbours per `options`.
/// Throws kCorrupt (naming `source_name`) when a range lies outside
/// [0, file_size) or two ranges overlap: metadata that points two consumers
/// at the same bytes, or past the file, is hostile or broken.
std::vector<ByteRange> coalesce_ranges(std::vector<ByteRange> ranges, int64_t file_size,
                                       const CoalesceOptions& options, const std::string& source_name);

/// What fetching cost, for the reader's statistics.
struct FetchStats {
  int64_t reads = 0;         ///< read calls issued to the source
  int64_t bytes_read = 0;    ///< bytes those calls returned
  int64_t bytes_unused = 0;  ///< bytes read only because they lay in a merged gap
};

/// The bytes of a set of merged ranges, one source read each. Memory-backed
/// sources (mmap, memory) hand out views of their own memory, so nothing is
/// copied; other sources read into buffers this object owns and reuses on
/// the next fetch().
class FetchedRanges {
 public:
  FetchedRanges() = default;
  FetchedRanges(const FetchedRanges&) = delete;
  FetchedRanges& operator=(const FetchedRanges&) = delete;

  /// Reads every range of `merged` (sorted, disjoint: coalesce_ranges'
  /// output); `needed_bytes` is the sum of the ranges they were merged from,
  /// so the difference is counted as unused. Views of a previous fetch
  /// become invalid. With `cancel`, a remote source gives up once it is set
  /// (RandomAccessSource::read_many).
  void fetch(RandomAccessSource& source, std::span<const ByteRange> merged, int64_t needed_bytes,
             const std::atomic<bool>* cancel = nullptr);

  /// The bytes [offset, offset + length), a view into a merged buffer.
  /// Throws kCorrupt when no fetched range holds all of them.
  std::span<const uint8_t> view(int64_t offset, int64_t length) const;
  /// The bytes from `offset` to the end of the fetched range holding it (to
  /// parse a header of unknown length); empty when no range holds `offset`.
  std::span<const uint8_t> tail(int64_t offset) const;
  /// Whether some fetched range holds `offset`.
  bool holds(int64_t offset) const { return find(offset) != nullptr; }

  /// Bytes held in buffers this object owns (0 for memory-backed sources).
  int64_t held_bytes() const { return held_bytes_; }
  /// What the last fetch() cost.
  const FetchStats& stats() const { return stats_; }
  /// Drops the views (buffers stay allocated for reuse).
  void clear();

 private:
  struct Piece {
    int64_t offset = 0;
    std::span<const uint8_t> bytes;
  };
  const Piece* find(int64_t offset) const;

  std::vector<Piece> pieces_;                     // sorted by offset, disjoint
  std::vector<std::unique_ptr<Buffer>> buffers_;  // reused fetch after fetch
  std::vector<RandomAccessSource::RangeRead> reads_;
  int64_t held_bytes_ = 0;
  FetchStats stats_;
};

}  // namespace parquetry
