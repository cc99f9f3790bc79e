// Protobuf suite (BENCHMARKS.md §6, seed 004): 1,000,000 messages of
// Test100Int32, Test30Int32, Test30String ("fieldXX:YY" values) and Test1
// written to Parquet through the reflection path (proto::ProtoWriter) and the
// generated path (protoc-gen-parquetry's <Msg>ParquetWriter), in parquet-java
// ProtoWriteBenchmarks' configurations: default row-group/page sizes,
// row group 256/512 MiB x page 4/8 MiB uncompressed, default sizes with
// SNAPPY and GZIP (plus default_nodict: no dictionary encoding). Then the
// default file read back into messages, both paths.
//
// The messages are built before the measured loop (parquet-java's benchmark
// also writes pre-built messages); the file goes to /dev/shm so the figure is
// the conversion and the writer, not the disk. Quick runs can narrow the
// matrix with --param config=default (and --param message=Test100Int32).
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_messages.parquetry.h"
#include "harness.h"
#include "parquetry/proto.h"

namespace parquetry::bench {
namespace {

constexpr int64_t kRows = 1'000'000;

uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Row `row` of each message: random int32 values; "fieldXX:YY" strings.
void fill(protobench::Test100Int32& m, int64_t row) {
  const auto* d = m.GetDescriptor();
  const auto* r = m.GetReflection();
  for (int k = 0; k < d->field_count(); ++k)
    r->SetInt32(&m, d->field(k), int32_t(mix(uint64_t(row) * 131 + k)));
}
void fill(protobench::Test30Int32& m, int64_t row) {
  const auto* d = m.GetDescriptor();
  const auto* r = m.GetReflection();
  for (int k = 0; k < d->field_count(); ++k)
    r->SetInt32(&m, d->field(k), int32_t(mix(uint64_t(row) * 131 + k)));
}
void fill(protobench::Test30String& m, int64_t row) {
  const auto* d = m.GetDescriptor();
  const auto* r = m.GetReflection();
  char text[32];
  for (int k = 0; k < d->field_count(); ++k) {
    std::snprintf(text, sizeof(text), "field%02d:%02d", k + 1, int(mix(uint64_t(row) * 131 + k) % 100));
    r->SetString(&m, d->field(k), text);
  }
}
void fill(protobench::Test1& m, int64_t row) {
  m.set_id(int32_t(row));
  m.set_timestamp(1'700'000'000'000 + row * 1000);
  m.set_name("name" + std::to_string(row % 1000));
  m.set_score(double(mix(uint64_t(row)) % 100000) / 100.0);
  m.set_flag(row % 3 == 0);
  m.set_count(uint32_t(mix(uint64_t(row) + 7)));
}

template <typename Msg>
const std::vector<Msg>& corpus() {
  static const std::vector<Msg> messages = [] {
    std::vector<Msg> out(kRows);
    for (int64_t row = 0; row < kRows; ++row) fill(out[size_t(row)], row);
    return out;
  }();
  return messages;
}

WriterOptions writer_options(const std::string& config) {
  WriterOptions options;
  options.codec = CompressionCodec::UNCOMPRESSED;
  if (config == "SNAPPY") options.codec = CompressionCodec::SNAPPY;
  if (config == "GZIP") options.codec = CompressionCodec::GZIP;
  // Not in parquet-java's matrix: default sizes without dictionary encoding,
  // which shows the conversion itself when the values are high-cardinality.
  if (config == "default_nodict") options.dictionary = false;
  if (config.starts_with("BS")) {
    // BS<row group MiB>M_PS<page MiB>M; one row group holds all 1M rows either way.
    const int64_t mib = 1024 * 1024;
    options.row_group_bytes = (config.starts_with("BS512") ? 512 : 256) * mib;
    options.page_bytes = (config.ends_with("PS8M") ? 8 : 4) * mib;
  }
  return options;
}

std::string output_path(const std::string& what) {
  const std::filesystem::path dir = std::filesystem::exists("/dev/shm") ? "/dev/shm" : "/tmp";
  return (dir / ("parquetry-bench-proto-" + what + "-" + std::to_string(getpid()) + ".parquet")).string();
}

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// The machine class is 2 shared cores: beside the wall-clock score, print the
// process CPU time per operation, which other processes' load does not inflate.
template <typename Op>
void measure_with_cpu(CaseContext& ctx, const char* what, Op&& op) {
  double cpu = 0;
  int64_t ops = 0;
  ctx.measure([&] {
    const double start = process_cpu_seconds();
    op();
    cpu += process_cpu_seconds() - start;
    ++ops;
  });
  std::string label = std::string(" ") + what;
  for (const auto& [key, value] : ctx.params()) label += " " + key + "=" + value;
  std::fprintf(stderr, "# proto cpu:%s %.3f s/op over %lld ops\n", label.c_str(),
               ops ? cpu / double(ops) : 0.0, static_cast<long long>(ops));
}

template <typename Msg, typename Generated>
void write_messages(CaseContext& ctx, bool generated) {
  const std::vector<Msg>& messages = corpus<Msg>();
  const WriterOptions options = writer_options(ctx.param("config"));
  const std::string path = output_path("write");
  measure_with_cpu(ctx, generated ? "generated" : "reflection", [&] {
    if (generated) {
      Generated writer(path, {}, options);
      for (const Msg& m : messages) writer.write(m);
      writer.close();
    } else {
      auto writer = proto::ProtoWriter::open(path, Msg::descriptor(), {}, options);
      for (const Msg& m : messages) writer->write(m);
      writer->close();
    }
  });
  ctx.state().counters["file_bytes"] = double(std::filesystem::file_size(path));
  ctx.state().counters["rows"] = double(messages.size());
  std::filesystem::remove(path);
}

template <typename Msg, typename Generated, typename GeneratedReader>
void read_messages(CaseContext& ctx, bool generated) {
  const std::string path = output_path("read");
  {
    Generated writer(path, {}, writer_options("default"));
    for (const Msg& m : corpus<Msg>()) writer.write(m);
    writer.close();
  }
  int64_t rows = 0;
  measure_with_cpu(ctx, generated ? "generated" : "reflection", [&] {
    Msg m;
    rows = 0;
    if (generated) {
      GeneratedReader reader(path);
      while (reader.next(&m)) ++rows;
    } else {
      auto reader = proto::ProtoReader::open(path, Msg::descriptor());
      while (reader->next(&m)) ++rows;
    }
    benchmark::DoNotOptimize(m);
  });
  if (rows != kRows) ctx.state().SkipWithError("read back a different number of rows");
  ctx.state().counters["rows"] = double(rows);
  std::filesystem::remove(path);
}

void write_case(CaseContext& ctx, bool generated) {
  using namespace parquetry::protobench;
  const std::string& message = ctx.param("message");
  if (message == "Test100Int32")
    return write_messages<Test100Int32, Test100Int32ParquetWriter>(ctx, generated);
  if (message == "Test30Int32") return write_messages<Test30Int32, Test30Int32ParquetWriter>(ctx, generated);
  if (message == "Test30String")
    return write_messages<Test30String, Test30StringParquetWriter>(ctx, generated);
  write_messages<Test1, Test1ParquetWriter>(ctx, generated);
}

void read_case(CaseContext& ctx, bool generated) {
  using namespace parquetry::protobench;
  const std::string& message = ctx.param("message");
  if (message == "Test100Int32") {
    return read_messages<Test100Int32, Test100Int32ParquetWriter, Test100Int32ParquetReader>(ctx, generated);
  }
  if (message == "Test30Int32") {
    return read_messages<Test30Int32, Test30Int32ParquetWriter, Test30Int32ParquetReader>(ctx, generated);
  }
  if (message == "Test30String") {
    return read_messages<Test30String, Test30StringParquetWriter, Test30StringParquetReader>(ctx, generated);
  }
  read_messages<Test1, Test1ParquetWriter, Test1ParquetReader>(ctx, generated);
}

const std::vector<std::string> kMessages = {"Test100Int32", "Test30Int32", "Test30String", "Test1"};
const std::vector<std::string> kConfigs = {"default",     "BS256M_PS4M", "BS256M_PS8M", "BS512M_PS4M",
                                           "BS512M_PS8M", "SNAPPY",      "GZIP",        "default_nodict"};

PARQUETRY_BENCH_CASE(proto_write_reflection, add_case("proto", "write_1M", "reflection",
                                                      [](CaseContext& ctx) { write_case(ctx, false); })
                                                 .param("message", kMessages)
                                                 .param("config", kConfigs)
                                                 .single_shot()
                                                 .baseline()
                                                 .cold());
PARQUETRY_BENCH_CASE(proto_write_generated, add_case("proto", "write_1M", "generated",
                                                     [](CaseContext& ctx) { write_case(ctx, true); })
                                                .param("message", kMessages)
                                                .param("config", kConfigs)
                                                .single_shot()
                                                .cold());
PARQUETRY_BENCH_CASE(proto_read_reflection, add_case("proto", "read_1M", "reflection",
                                                     [](CaseContext& ctx) { read_case(ctx, false); })
                                                .param("message", kMessages)
                                                .single_shot()
                                                .baseline());
PARQUETRY_BENCH_CASE(proto_read_generated,
                     add_case("proto", "read_1M", "generated", [](CaseContext& ctx) { read_case(ctx, true); })
                         .param("message", kMessages)
                         .single_shot());

}  // namespace
}  // namespace parquetry::bench
