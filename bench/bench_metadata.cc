// Footer (FileMetaData) decoding on wide schemas, beside DuckDB.
//
// The footers are those of real Parquet files in the dataset folder,
// footer_<columns>x<row_groups>_<statistics>.parquet, written once by
// parquetry's FileWriter and reused while they match (see ensure_footer_file):
// <columns> nullable FLOAT columns x <row_groups> row groups of a few rows,
// snappy, dictionary encoded (so each chunk lists three encodings and two
// page-encoding-stats entries), with chunk Statistics (4-byte min/max, null
// count) when <statistics> is "on". No page index or size statistics, so each
// chunk holds what a typical writer puts there.
//
// Table footer_decode (params columns x row_groups x statistics):
//   parquetry            - decode_file_metadata() of the footer bytes, held in
//                          memory (read once, outside the measurement), plus
//                          freeing the result: the figure behind "ns per
//                          column chunk".
//   parquetry_skip_stats - the same bytes with skip_statistics +
//                          skip_page_encoding_stats + skip_size_statistics.
//   parquetry_read_file  - read_file_metadata() from the file (open, pread of
//                          the tail, decode, free): the work the peer does.
//   duckdb (peer)        - SELECT ... FROM parquet_metadata(file): DuckDB
//                          opens the file and decodes the whole footer.
// Every case reports the number of column chunks and the min/max of three
// chunk fields; the harness checks them against DuckDB's before timing counts.
// Cases also set ns_per_chunk / cpu_ns_per_chunk / instructions_per_chunk
// counters (instructions when perf events are permitted).
//
// BM_EncodeFooter encodes the 10,000 x 20 footer (a plain benchmark).
#include <benchmark/benchmark.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "harness.h"
#include "parquetry/array_builder.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "parquetry/util/buffer.h"
#include "parquetry/writer.h"

namespace parquetry::bench {
namespace {

constexpr int64_t kRowsPerGroup = 8;
// Written into the files' key-value metadata; bump when the generator changes
// so that files written by an older one are replaced.
constexpr const char* kGeneratorKey = "parquetry.bench.footer";
constexpr const char* kGeneratorVersion = "1";

struct FooterShape {
  int columns = 0;
  int row_groups = 0;
  bool statistics = true;
};

FooterShape shape_of(const CaseContext& ctx) {
  return FooterShape{static_cast<int>(ctx.param_int("columns")),
                     static_cast<int>(ctx.param_int("row_groups")), ctx.param("statistics") == "on"};
}

std::string footer_path(const FooterShape& shape) {
  return (std::filesystem::path(data_dir()) /
          ("footer_" + std::to_string(shape.columns) + "x" + std::to_string(shape.row_groups) + "_" +
           (shape.statistics ? "on" : "off") + ".parquet"))
      .string();
}

/// The encoded footer of a Parquet file (without length and magic).
Buffer read_footer_bytes(const std::string& path) {
  FileSource source(path);
  Buffer tail;
  if (source.size() < 12) throw std::runtime_error(path + " is too small for a Parquet file");
  source.read_at(source.size() - 8, 8, tail);
  uint32_t length = 0;
  std::memcpy(&length, tail.data(), 4);
  if (std::memcmp(tail.data() + 4, "PAR1", 4) != 0 || length > source.size() - 12) {
    throw std::runtime_error(path + " has no valid Parquet tail");
  }
  Buffer footer;
  source.read_at(source.size() - 8 - length, length, footer);
  return footer;
}

/// True when `m` is the footer the generator writes for `shape`.
bool matches(const FileMetaData& m, const FooterShape& shape) {
  bool version = false;
  for (const KeyValue& kv : m.key_value_metadata) {
    version = version || (kv.key == kGeneratorKey && kv.value == std::string(kGeneratorVersion));
  }
  if (!version || m.row_groups.size() != static_cast<size_t>(shape.row_groups)) return false;
  for (const RowGroup& g : m.row_groups) {
    if (g.columns.size() != static_cast<size_t>(shape.columns)) return false;
    for (const ColumnChunk& c : g.columns) {
      if (!c.meta_data || c.meta_data->statistics.has_value() != shape.statistics) return false;
    }
  }
  return true;
}

/// Writes the file for `shape` with FileWriter (atomically: a temporary
/// beside it, renamed on close), unless a matching one is there already.
/// Values are deterministic; every 11th one or so is null.
void ensure_footer_file(const FooterShape& shape) {
  const std::string path = footer_path(shape);
  if (std::filesystem::exists(path)) {
    try {
      if (matches(decode_file_metadata(read_footer_bytes(path).span()), shape)) return;
    } catch (const std::exception&) {
      // Unreadable or truncated: written again below.
    }
  }
  std::filesystem::create_directories(data_dir());
  BatchSchema schema;
  schema.fields.reserve(static_cast<size_t>(shape.columns));
  for (int c = 0; c < shape.columns; ++c) {
    DataType type;
    type.id = TypeId::kFloat32;
    Field field;
    field.name = "c" + std::to_string(c);
    field.type = type;
    field.nullable = true;
    schema.fields.push_back(std::move(field));
  }
  WriterOptions options;
  options.row_group_rows = kRowsPerGroup;
  options.codec = CompressionCodec::SNAPPY;
  options.statistics = shape.statistics;
  options.page_index = false;
  options.size_statistics = false;
  options.key_value_metadata = {KeyValue{kGeneratorKey, std::string(kGeneratorVersion)}};
  auto writer = FileWriter::open(path, schema, options);
  auto batch_schema = std::make_shared<const BatchSchema>(schema);
  for (int g = 0; g < shape.row_groups; ++g) {
    RecordBatch batch;
    batch.schema = batch_schema;
    batch.num_rows = kRowsPerGroup;
    batch.columns.reserve(static_cast<size_t>(shape.columns));
    for (int c = 0; c < shape.columns; ++c) {
      ArrayBuilder builder(schema.fields[static_cast<size_t>(c)]);
      for (int64_t r = 0; r < kRowsPerGroup; ++r) {
        if ((r * 7 + c + g) % 11 == 0) {
          builder.append_null();
        } else {
          builder.append_double(static_cast<float>((c % 977) * 0.5 - (r * 31 + g) % 97) * 1.25f);
        }
      }
      batch.columns.push_back(builder.finish());
    }
    writer->write(batch);
    writer->flush_row_group();
  }
  writer->close();
}

/// Count and min/max of an int64 chunk field over every chunk (absent values
/// counted as nulls), in the peer's result form.
class FieldFold {
 public:
  explicit FieldFold(std::string name) { stats_.name = std::move(name); }
  void add(const std::optional<int64_t>& value) {
    if (!value) {
      ++stats_.nulls;
      return;
    }
    ++stats_.count;
    min_ = std::min(min_, *value);
    max_ = std::max(max_, *value);
  }
  ColumnStats done() const {
    ColumnStats out = stats_;
    if (out.count != 0) {
      out.min = min_;
      out.max = max_;
    }
    return out;
  }

 private:
  ColumnStats stats_;
  int64_t min_ = std::numeric_limits<int64_t>::max();
  int64_t max_ = std::numeric_limits<int64_t>::min();
};

/// What both sides report: the column-chunk count (one parquet_metadata row
/// each) and three chunk fields folded over all chunks. Statistics that
/// decoding skipped are decoded here from their recorded spans of `footer`.
ScanResult footer_result(const FileMetaData& m, std::span<const uint8_t> footer) {
  ScanResult result;
  FieldFold null_count("stats_null_count"), compressed("total_compressed_size"),
      data_page("data_page_offset");
  for (const RowGroup& g : m.row_groups) {
    for (const ColumnChunk& c : g.columns) {
      ++result.rows;
      if (!c.meta_data) continue;
      const ColumnMetaData& md = *c.meta_data;
      if (md.statistics) {
        null_count.add(md.statistics->null_count);
      } else if (md.skipped_statistics.length != 0) {
        null_count.add(
            decode_statistics(footer.subspan(md.skipped_statistics.offset, md.skipped_statistics.length))
                .null_count);
      } else {
        null_count.add(std::nullopt);
      }
      compressed.add(md.total_compressed_size);
      data_page.add(md.data_page_offset);
    }
  }
  result.columns = {null_count.done(), compressed.done(), data_page.done()};
  return result;
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

/// Measures `decode` (which returns a FileMetaData, freed inside the timing:
/// freeing is part of what a reader pays per footer) and sets the per-chunk
/// counters and the result.
template <typename Decode>
void measure_footer(CaseContext& ctx, const FooterShape& shape, std::span<const uint8_t> footer,
                    Decode&& decode) {
  // Timed by hand too, in wall and thread CPU time, so the per-chunk figures
  // are exact and readable on a machine shared with other jobs (where wall
  // time overstates the cost).
  double wall_ns = 0, cpu_ns = 0, instructions = 0;
  const InstructionCounter counter;
  ctx.measure([&] {
    const uint64_t instructions_start = counter.read_count();
    const double cpu_start = cpu_now_ns();
    const auto wall_start = std::chrono::steady_clock::now();
    {
      FileMetaData m = decode();
      benchmark::DoNotOptimize(m.row_groups.data());
    }
    wall_ns +=
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - wall_start).count();
    cpu_ns += cpu_now_ns() - cpu_start;
    instructions += static_cast<double>(counter.read_count() - instructions_start);
  });
  benchmark::State& state = ctx.state();
  const double chunks =
      static_cast<double>(shape.columns) * shape.row_groups * static_cast<double>(state.iterations());
  state.counters["ns_per_chunk"] = wall_ns / chunks;
  state.counters["cpu_ns_per_chunk"] = cpu_ns / chunks;
  if (counter.available()) state.counters["instructions_per_chunk"] = instructions / chunks;
  ctx.set_result(footer_result(decode(), footer));
}

void decode_case(CaseContext& ctx, bool skip) {
  const FooterShape shape = shape_of(ctx);
  ensure_footer_file(shape);
  const Buffer bytes = read_footer_bytes(footer_path(shape));
  MetadataOptions options;
  if (skip) options.skip_statistics = options.skip_page_encoding_stats = options.skip_size_statistics = true;
  const Limits limits;
  ctx.state().counters["footer_bytes"] = static_cast<double>(bytes.size());
  measure_footer(ctx, shape, bytes.span(),
                 [&] { return decode_file_metadata(bytes.span(), limits, options); });
  ctx.state().SetBytesProcessed(static_cast<int64_t>(ctx.state().iterations()) *
                                static_cast<int64_t>(bytes.size()));
}

void decode_all_case(CaseContext& ctx) { decode_case(ctx, false); }
void decode_skipping_case(CaseContext& ctx) { decode_case(ctx, true); }

void read_file_case(CaseContext& ctx) {
  const FooterShape shape = shape_of(ctx);
  ensure_footer_file(shape);
  const std::string path = footer_path(shape);
  measure_footer(ctx, shape, {}, [&] {
    FileSource source(path);
    return read_file_metadata(source);
  });
}

// The shapes: 1,000 / 10,000 / 100,000 columns x 1 or 20 row groups, with
// and without chunk statistics (the quick profile keeps 1,000 and 10,000
// columns x 20 row groups with statistics: scripts/run-bench.sh).
CaseBuilder footer_shapes(CaseBuilder builder) {
  return builder.param("columns", {"1000", "10000", "100000"})
      .param("row_groups", {"1", "20"})
      .param("statistics", {"on", "off"});
}

}  // namespace

PARQUETRY_BENCH_CASE(
    metadata_footer_peer,
    set_table_peer("metadata", "footer_decode",
                   PeerSpec{"duckdb",
                            "footer_metadata.js",
                            {"--file", "{data_dir}/footer_{columns}x{row_groups}_{statistics}.parquet"}}));
PARQUETRY_BENCH_CASE(metadata_footer_decode,
                     footer_shapes(add_case("metadata", "footer_decode", "parquetry", decode_all_case)));
PARQUETRY_BENCH_CASE(metadata_footer_skip,
                     footer_shapes(add_case("metadata", "footer_decode", "parquetry_skip_stats",
                                            decode_skipping_case)));
PARQUETRY_BENCH_CASE(metadata_footer_read_file,
                     footer_shapes(add_case("metadata", "footer_decode", "parquetry_read_file",
                                            read_file_case)));

namespace {

void BM_EncodeFooter(benchmark::State& state) {
  const FooterShape shape{static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), true};
  ensure_footer_file(shape);
  FileMetaData m = decode_file_metadata(read_footer_bytes(footer_path(shape)).span());
  Buffer out;
  double cpu_ns = 0;
  for (auto _ : state) {
    const double cpu_start = cpu_now_ns();
    out.clear();
    encode_file_metadata(m, out);
    benchmark::DoNotOptimize(out.data());
    cpu_ns += cpu_now_ns() - cpu_start;
  }
  state.counters["cpu_ns_per_chunk"] = cpu_ns / (static_cast<double>(shape.columns) * shape.row_groups *
                                                 static_cast<double>(state.iterations()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(out.size()));
}

BENCHMARK(BM_EncodeFooter)
    ->ArgNames({"columns", "row_groups"})
    ->Args({10'000, 20})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace parquetry::bench
