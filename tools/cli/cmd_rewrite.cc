// `parquetry rewrite IN OUT [options]`: reads a Parquet file with FileReader
// and writes it again with FileWriter under other writer options (codec,
// level, row group and page sizes, encodings, dictionary, Bloom filters, page
// version). The output appears atomically when complete. With --json it
// prints what was written and what the run cost (wall time, peak RSS, page
// faults, user and kernel time).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/util/json_writer.h"
#include "parquetry/util/process_usage.h"
#include "parquetry/writer.h"

namespace parquetry::cli {

// Shared with cmd_convert.cc.
CompressionCodec parse_codec(const std::string& name);
Encoding parse_encoding(const std::string& name);

namespace {

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

CompressionCodec parse_codec(const std::string& name) {
  const std::string n = upper(name);
  if (n == "NONE" || n == "UNCOMPRESSED") return CompressionCodec::UNCOMPRESSED;
  if (n == "SNAPPY") return CompressionCodec::SNAPPY;
  if (n == "GZIP") return CompressionCodec::GZIP;
  if (n == "ZSTD") return CompressionCodec::ZSTD;
  if (n == "LZ4" || n == "LZ4_RAW") return CompressionCodec::LZ4_RAW;
  if (n == "BROTLI") return CompressionCodec::BROTLI;
  throw_invalid("unknown codec '" + name + "' (none, snappy, gzip, zstd, lz4_raw, brotli)");
}

Encoding parse_encoding(const std::string& name) {
  const std::string n = upper(name);
  if (n == "PLAIN") return Encoding::PLAIN;
  if (n == "DICTIONARY" || n == "RLE_DICTIONARY") return Encoding::RLE_DICTIONARY;
  if (n == "RLE") return Encoding::RLE;
  if (n == "DELTA_BINARY_PACKED") return Encoding::DELTA_BINARY_PACKED;
  if (n == "DELTA_LENGTH_BYTE_ARRAY") return Encoding::DELTA_LENGTH_BYTE_ARRAY;
  if (n == "DELTA_BYTE_ARRAY") return Encoding::DELTA_BYTE_ARRAY;
  if (n == "BYTE_STREAM_SPLIT") return Encoding::BYTE_STREAM_SPLIT;
  throw_invalid("unknown encoding '" + name + "'");
}

namespace {

/// A one-line progress bar on stderr, drawn only when stderr is a terminal.
class Progress {
 public:
  explicit Progress(int64_t total) : total_(total), enabled_(isatty(STDERR_FILENO) != 0 && total > 0) {}
  void update(int64_t done) {
    if (!enabled_) return;
    const int percent = int(std::min<int64_t>(100, done * 100 / total_));
    if (percent == last_) return;
    last_ = percent;
    const int width = 40;
    const int filled = percent * width / 100;
    std::fprintf(stderr, "\r[%s%s] %3d%% %lld rows", std::string(size_t(filled), '#').c_str(),
                 std::string(size_t(width - filled), ' ').c_str(), percent, static_cast<long long>(done));
    std::fflush(stderr);
  }
  void finish() {
    if (enabled_) std::fprintf(stderr, "\n");
  }

 private:
  int64_t total_;
  bool enabled_;
  int last_ = -1;
};

struct RewriteOptions {
  std::string input;
  std::string output;
  std::string codec;
  int level = kDefaultCompressionLevel;
  bool level_given = false;
  int64_t row_group_size = 0;
  int64_t page_size = 0;
  std::vector<std::string> encodings;
  bool no_dictionary = false;
  std::vector<std::string> bloom;
  bool v2 = false;
  int threads = 1;
  bool json = false;
};

void run_rewrite(const RewriteOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  ReaderOptions reader_options;
  reader_options.threads = o.threads;  // decoding the input is half of a rewrite's work
  auto reader = FileReader::open(o.input, reader_options);
  WriterOptions options;
  if (!o.codec.empty()) options.codec = parse_codec(o.codec);
  if (o.level_given) options.compression_level = o.level;
  if (o.row_group_size > 0) options.row_group_rows = o.row_group_size;
  if (o.page_size > 0) options.page_bytes = o.page_size;
  options.dictionary = !o.no_dictionary;
  options.data_page_v2 = o.v2;
  options.threads = o.threads;
  for (const std::string& spec : o.encodings) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) throw_invalid("--encoding takes COLUMN=ENCODING, got '" + spec + "'");
    options.columns[spec.substr(0, eq)].encoding = parse_encoding(spec.substr(eq + 1));
  }
  for (const std::string& column : o.bloom) options.columns[column].bloom_filter = true;
  const BatchSchema& schema = *reader->batch_schema();
  // Keep the input's metadata except what the writer derives itself.
  for (const KeyValue& kv : reader->metadata().key_value_metadata) {
    bool in_schema = false;
    for (const auto& [key, value] : schema.metadata) in_schema = in_schema || key == kv.key;
    if (!in_schema) options.key_value_metadata.push_back(kv);
  }
  auto writer = FileWriter::open(o.output, schema, options);
  Progress progress(reader->metadata().num_rows);
  auto batches = reader->batches();
  RecordBatch batch;
  int64_t rows = 0;
  while (batches->next(batch)) {
    writer->write(batch);
    rows += batch.num_rows;
    progress.update(rows);
  }
  writer->close();
  progress.finish();
  if (o.json) {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    JsonWriter json;
    json.begin_object().field("rows", rows).field("row_groups", int64_t(writer->num_row_groups()));
    // The largest row group as stored: a writer holds one row group's
    // compressed pages at a time, so this is what its memory is measured against.
    int64_t largest_row_group = 0;
    for (const RowGroup& group : writer->metadata().row_groups)
      largest_row_group = std::max(largest_row_group, group.total_compressed_size.value_or(0));
    json.field("largest_row_group_bytes", largest_row_group);
    json.field("ms", ms);
    // The whole process: startup and the footer read are part of what a user waits for.
    write_usage_fields(json, current_process_usage());
    json.end_object();
    std::printf("%s\n", json.str().c_str());
  }
}

const CommandRegistration kRewriteCommand(51, [](CLI::App& app) {
  auto o = std::make_shared<RewriteOptions>();
  CLI::App* command = app.add_subcommand("rewrite", "Rewrite a Parquet file with other writer options");
  command->add_option("input", o->input, "Parquet file to read")->required();
  command->add_option("output", o->output, "Parquet file to write (replaced atomically)")->required();
  command->add_option("--codec", o->codec, "none, snappy, gzip, zstd, lz4_raw or brotli (default snappy)");
  command->add_option_function<int>(
      "--level", [o](const int& level) { o->level = level, o->level_given = true; }, "Compression level");
  command->add_option("--row-group-size", o->row_group_size, "Rows per row group (default 1048576)");
  command->add_option("--page-size", o->page_size, "Bytes per data page before compression (default 1 MiB)");
  command->add_option("--encoding", o->encodings,
                      "COLUMN=ENCODING (PLAIN, DICTIONARY, DELTA_BINARY_PACKED, ...)");
  command->add_flag("--no-dictionary", o->no_dictionary, "Do not dictionary-encode");
  command->add_option("--bloom", o->bloom, "Write a Bloom filter for COLUMN (repeatable)");
  command->add_flag("--v2", o->v2, "Write DATA_PAGE_V2 pages");
  command->add_option("--threads", o->threads, "Threads decoding and encoding columns (default 1)");
  command->add_flag(
      "--json", o->json,
      R"(print {"rows", "row_groups", "largest_row_group_bytes", "ms", "peak_rss_bytes", "minor_faults", "major_faults", )"
      R"("user_seconds", "kernel_seconds"} when done)");
  command->callback([o] { run_rewrite(*o); });
});

}  // namespace
}  // namespace parquetry::cli
