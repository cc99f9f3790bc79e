// Footer (FileMetaData) decoding on wide schemas.
//
// Footers of 1,000 / 10,000 / 100,000 FLOAT columns x 1 or 20 row groups are
// built in memory the way a typical writer fills them (path, three
// encodings, SNAPPY, offsets, two page-encoding-stats entries, column
// orders), encoded once with parquetry's encoder, then decoded per
// iteration. Modes:
//   stats      - every chunk has Statistics (4-byte min/max, null count), decoded
//   stats_skip - the same bytes, decoded with skip_statistics +
//                skip_page_encoding_stats + skip_size_statistics
//   no_stats   - a footer written without Statistics
// Counters: ns_per_chunk (wall time of decode + free / column chunks),
// cpu_ns_per_chunk (the same in thread CPU time), instructions_per_chunk
// (user-space instructions retired, when perf events are available: steadier
// than time on a loaded machine) and footer_bytes.
#include <benchmark/benchmark.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "parquetry/metadata.h"
#include "parquetry/util/buffer.h"

namespace parquetry {
namespace {

enum Mode { kStats = 0, kStatsSkip = 1, kNoStats = 2 };

std::string float_bytes(float v) {
  std::string s(4, '\0');
  std::memcpy(s.data(), &v, 4);
  return s;
}

/// The encoded footer of `columns` FLOAT columns x `row_groups` row groups.
Buffer make_footer(int columns, int row_groups, bool with_stats) {
  FileMetaData m;
  m.version = 1;
  m.created_by = "parquetry bench";
  m.schema.reserve(columns + 1);
  SchemaElement root;
  root.name = "schema";
  root.num_children = columns;
  m.schema.push_back(root);
  for (int c = 0; c < columns; ++c) {
    SchemaElement leaf;
    leaf.name = "c" + std::to_string(c);
    leaf.type = Type::FLOAT;
    leaf.repetition_type = FieldRepetitionType::OPTIONAL;
    m.schema.push_back(std::move(leaf));
  }
  m.column_orders.assign(columns, ColumnOrder::TYPE_ORDER);
  const int64_t rows_per_group = 100'000;
  int64_t offset = 4;
  for (int g = 0; g < row_groups; ++g) {
    RowGroup group;
    group.num_rows = rows_per_group;
    group.file_offset = offset;
    group.ordinal = static_cast<int16_t>(g);
    group.columns.reserve(columns);
    for (int c = 0; c < columns; ++c) {
      ColumnChunk chunk;
      ColumnMetaData& md = chunk.meta_data.emplace();
      md.type = Type::FLOAT;
      md.encodings = {Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY};
      md.path_in_schema = {m.schema[c + 1].name};
      md.codec = CompressionCodec::SNAPPY;
      md.num_values = rows_per_group;
      md.total_uncompressed_size = 400'123 + c;
      md.total_compressed_size = 210'456 + c;
      md.dictionary_page_offset = offset;
      md.data_page_offset = offset + 4'100;
      md.encoding_stats = {{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1},
                           {PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, 4}};
      if (with_stats) {
        Statistics& s = md.statistics.emplace();
        s.min_value = float_bytes(-1.5f * static_cast<float>(c % 977));
        s.max_value = float_bytes(2.25f * static_cast<float>(c % 613) + 1.0f);
        s.null_count = c % 17;
        s.is_min_value_exact = true;
        s.is_max_value_exact = true;
      }
      chunk.file_offset = offset;
      offset += md.total_compressed_size;
      group.total_byte_size += md.total_uncompressed_size;
      group.columns.push_back(std::move(chunk));
    }
    group.total_compressed_size = offset - *group.file_offset;
    m.num_rows += rows_per_group;
    m.row_groups.push_back(std::move(group));
  }
  Buffer out;
  encode_file_metadata(m, out);
  return out;
}

/// Footers are built once per shape and kept for the process (the largest is
/// about 100 MB; building it takes seconds).
const Buffer& footer(int columns, int row_groups, bool with_stats) {
  static std::map<std::tuple<int, int, bool>, std::unique_ptr<Buffer>> cache;
  auto& slot = cache[{columns, row_groups, with_stats}];
  if (!slot) slot = std::make_unique<Buffer>(make_footer(columns, row_groups, with_stats));
  return *slot;
}

/// Thread CPU time in nanoseconds.
double cpu_now_ns() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

/// Counts user-space instructions retired by this thread (perf_event_open);
/// reads 0 where perf events are not permitted.
class InstructionCounter {
 public:
  InstructionCounter() {
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof attr);
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof attr;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    fd_ = static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
  }
  ~InstructionCounter() {
    if (fd_ >= 0) close(fd_);
  }
  InstructionCounter(const InstructionCounter&) = delete;
  InstructionCounter& operator=(const InstructionCounter&) = delete;
  bool available() const { return fd_ >= 0; }
  uint64_t read_count() const {
    uint64_t value = 0;
    if (fd_ < 0 || ::read(fd_, &value, sizeof value) != static_cast<ssize_t>(sizeof value)) return 0;
    return value;
  }

 private:
  int fd_ = -1;
};

void BM_DecodeFooter(benchmark::State& state) {
  const int columns = static_cast<int>(state.range(0));
  const int row_groups = static_cast<int>(state.range(1));
  const Mode mode = static_cast<Mode>(state.range(2));
  const Buffer& bytes = footer(columns, row_groups, mode != kNoStats);
  MetadataOptions options;
  if (mode == kStatsSkip) {
    options.skip_statistics = options.skip_page_encoding_stats = options.skip_size_statistics = true;
  }
  const Limits limits;
  // Timed by hand too, in wall and thread CPU time, so the per-chunk figures
  // are exact and readable on a machine shared with other jobs (where wall
  // time overstates the cost).
  double wall_ns = 0, cpu_ns = 0, instructions = 0;
  const InstructionCounter counter;
  for (auto _ : state) {
    const uint64_t instructions_start = counter.read_count();
    const double cpu_start = cpu_now_ns();
    const auto wall_start = std::chrono::steady_clock::now();
    {
      FileMetaData m = decode_file_metadata(bytes.span(), limits, options);
      benchmark::DoNotOptimize(m.row_groups.data());
      // Freeing is part of the cost a reader pays for each footer.
    }
    wall_ns +=
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - wall_start).count();
    cpu_ns += cpu_now_ns() - cpu_start;
    instructions += static_cast<double>(counter.read_count() - instructions_start);
  }
  const double chunks = static_cast<double>(columns) * row_groups * static_cast<double>(state.iterations());
  state.counters["ns_per_chunk"] = wall_ns / chunks;
  state.counters["cpu_ns_per_chunk"] = cpu_ns / chunks;
  if (counter.available()) state.counters["instructions_per_chunk"] = instructions / chunks;
  state.counters["footer_bytes"] = static_cast<double>(bytes.size());
  state.SetLabel(mode == kStats ? "stats" : mode == kStatsSkip ? "stats_skip" : "no_stats");
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes.size()));
}

BENCHMARK(BM_DecodeFooter)
    ->ArgNames({"columns", "row_groups", "mode"})
    ->ArgsProduct({{1'000, 10'000, 100'000}, {1, 20}, {kStats, kStatsSkip, kNoStats}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_EncodeFooter(benchmark::State& state) {
  const int columns = static_cast<int>(state.range(0));
  const int row_groups = static_cast<int>(state.range(1));
  FileMetaData m = decode_file_metadata(footer(columns, row_groups, true).span());
  Buffer out;
  double cpu_ns = 0;
  for (auto _ : state) {
    const double cpu_start = cpu_now_ns();
    out.clear();
    encode_file_metadata(m, out);
    benchmark::DoNotOptimize(out.data());
    cpu_ns += cpu_now_ns() - cpu_start;
  }
  state.counters["cpu_ns_per_chunk"] =
      cpu_ns / (static_cast<double>(columns) * row_groups * static_cast<double>(state.iterations()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(out.size()));
}

BENCHMARK(BM_EncodeFooter)
    ->ArgNames({"columns", "row_groups"})
    ->Args({10'000, 20})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace parquetry
