// `parquetry rewrite IN OUT [options]`: reads a Parquet file with FileReader
// and writes it again with FileWriter under other writer options (codec,
// level, row group and page sizes, encodings, dictionary, Bloom filters, page
// version). The output appears atomically when complete.
//
// The output keeps the input's Parquet schema element for element
// (WriterOptions::parquet_schema: logical and converted types with their
// parameters, field ids, repetitions, legacy layouts, INT96) and its
// key-value metadata; by default also its row groups, sorting columns, and
// per column its codec, dictionary, value encoding, Bloom filter and page
// version. Options change only what they name.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command.h"
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "parquetry/reader.h"
#include "parquetry/schema.h"
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
  bool v1 = false;
  bool v2 = false;
  std::string int96_as;
  int threads = 1;
};

TimeUnit parse_int96_unit(const std::string& name) {
  const std::string n = upper(name);
  if (n == "MILLIS") return TimeUnit::MILLIS;
  if (n == "MICROS") return TimeUnit::MICROS;
  if (n == "NANOS") return TimeUnit::NANOS;
  throw_invalid("--int96-as takes MILLIS, MICROS or NANOS, got '" + name + "'");
}

// INT96 leaves become INT64 TIMESTAMP(unit) without UTC adjustment: FileReader
// (like Arrow C++ and DuckDB) reads INT96 as a timestamp without a time zone,
// so the values read back are the same, only at the unit asked for.
void convert_int96(std::vector<SchemaElement>& elements, TimeUnit unit) {
  for (SchemaElement& e : elements) {
    if (e.type != Type::INT96) continue;
    e.type = Type::INT64;
    e.logical_type = LogicalType{TimestampType{false, unit}};
    e.converted_type.reset();  // TIMESTAMP_MILLIS/MICROS mean UTC-adjusted
  }
}

// The input's codec for a column, as the writer can write it.
CompressionCodec writable_codec(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::LZ4: return CompressionCodec::LZ4_RAW;  // Hadoop framing is deprecated
    case CompressionCodec::LZO: return CompressionCodec::SNAPPY;   // no LZO compressor
    default: return codec;
  }
}

bool is_dictionary(Encoding e) { return e == Encoding::PLAIN_DICTIONARY || e == Encoding::RLE_DICTIONARY; }

// The encoding the input's data pages used besides the dictionary, when it is
// one the writer chooses by option (levels are RLE/BIT_PACKED and say nothing).
std::optional<Encoding> value_encoding(const ColumnMetaData& meta) {
  for (Encoding e : meta.encodings) {
    if (e == Encoding::DELTA_BINARY_PACKED || e == Encoding::DELTA_LENGTH_BYTE_ARRAY ||
        e == Encoding::DELTA_BYTE_ARRAY || e == Encoding::BYTE_STREAM_SPLIT) {
      return e;
    }
  }
  return std::nullopt;
}

// Whether the input's data pages are DATA_PAGE_V2: from the encoding stats
// when the writer kept them, else from the first page header of the first chunk.
bool input_uses_v2(const std::string& path, const FileMetaData& metadata) {
  for (const RowGroup& group : metadata.row_groups) {
    for (const ColumnChunk& chunk : group.columns) {
      if (!chunk.meta_data) continue;
      for (const PageEncodingStats& stats : chunk.meta_data->encoding_stats) {
        if (stats.page_type == PageType::DATA_PAGE_V2) return true;
        if (stats.page_type == PageType::DATA_PAGE) return false;
      }
      FileSource source(path);
      PageHeaderWalker walker(source, *chunk.meta_data);
      PageHeaderAt page;
      while (walker.next(page)) {
        if (page.header.type == PageType::DATA_PAGE_V2) return true;
        if (page.header.type == PageType::DATA_PAGE) return false;
      }
    }
  }
  return false;
}

// Writer options that keep what the input chose per column (codec,
// dictionary, value encoding, Bloom filter, page version) unless an option
// of the command says otherwise.
void keep_input_choices(const RewriteOptions& o, const FileReader& reader, WriterOptions& options) {
  const FileMetaData& metadata = reader.metadata();
  if (metadata.row_groups.empty()) return;
  if (!o.v1 && !o.v2) options.data_page_v2 = input_uses_v2(o.input, metadata);
  const Schema& schema = reader.schema();
  for (size_t c = 0; c < schema.num_columns(); ++c) {
    const ColumnDescriptor& column = schema.column(c);
    const ColumnChunk& chunk = metadata.row_groups[0].columns.at(c);
    if (!chunk.meta_data) continue;
    const ColumnMetaData& meta = *chunk.meta_data;
    ColumnWriterOptions& settings = options.columns[column.path];
    if (o.codec.empty()) settings.codec = writable_codec(meta.codec);
    bool dictionary = false;
    for (Encoding e : meta.encodings) dictionary = dictionary || is_dictionary(e);
    if (!o.no_dictionary) settings.dictionary = dictionary;
    if (std::optional<Encoding> e = value_encoding(meta)) {
      settings.encoding = *e;
      settings.dictionary = dictionary && !o.no_dictionary;
    }
    if (meta.bloom_filter_offset) settings.bloom_filter = true;
  }
}

// The sorting columns every row group declares, when they all agree.
std::vector<SortingColumn> common_sorting_columns(const FileMetaData& metadata) {
  if (metadata.row_groups.empty()) return {};
  const auto& first = metadata.row_groups[0].sorting_columns;
  for (const RowGroup& group : metadata.row_groups) {
    if (!(group.sorting_columns == first)) return {};
  }
  return std::vector<SortingColumn>(first.begin(), first.end());
}

void run_rewrite(const RewriteOptions& o) {
  if (o.v1 && o.v2) throw_invalid("--v1 and --v2 exclude each other");
  ReaderOptions reader_options;
  reader_options.int96_as_binary = true;  // INT96 copied bit for bit (or converted by the writer)
  auto reader = FileReader::open(o.input, reader_options);
  const FileMetaData& input = reader->metadata();
  WriterOptions options;
  // The input's schema, annotation for annotation, and its key-value metadata as is.
  options.parquet_schema = input.schema;
  if (!o.int96_as.empty()) convert_int96(options.parquet_schema, parse_int96_unit(o.int96_as));
  options.schema_metadata = false;
  options.key_value_metadata = input.key_value_metadata;
  keep_input_choices(o, *reader, options);
  if (!o.codec.empty()) options.codec = parse_codec(o.codec);
  if (o.level_given) options.compression_level = o.level;
  // Row groups stay as in the input unless a size is asked for.
  const bool keep_row_groups = o.row_group_size <= 0;
  if (keep_row_groups) {
    for (const RowGroup& group : input.row_groups) {
      options.row_group_rows = std::max(options.row_group_rows, group.num_rows);
    }
    options.row_group_bytes = std::numeric_limits<int64_t>::max();
    options.sorting_columns = common_sorting_columns(input);
  } else {
    options.row_group_rows = o.row_group_size;
  }
  if (o.page_size > 0) options.page_bytes = o.page_size;
  if (o.no_dictionary) options.dictionary = false;
  if (o.v1) options.data_page_v2 = false;
  if (o.v2) options.data_page_v2 = true;
  options.threads = o.threads;
  for (const std::string& spec : o.encodings) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) throw_invalid("--encoding takes COLUMN=ENCODING, got '" + spec + "'");
    ColumnWriterOptions& column = options.columns[spec.substr(0, eq)];
    column.encoding = parse_encoding(spec.substr(eq + 1));
    column.dictionary.reset();  // the option decides, not the input's choice
  }
  for (const std::string& column : o.bloom) options.columns[column].bloom_filter = true;
  auto writer = FileWriter::open(o.output, *reader->batch_schema(), options);
  Progress progress(input.num_rows);
  int64_t rows = 0;
  if (keep_row_groups) {
    for (int g = 0; g < reader->num_row_groups(); ++g) {
      RecordBatch batch = reader->read_row_group(g);
      writer->write(batch);
      writer->flush_row_group();
      rows += batch.num_rows;
      progress.update(rows);
    }
  } else {
    auto batches = reader->batches();
    RecordBatch batch;
    while (batches->next(batch)) {
      writer->write(batch);
      rows += batch.num_rows;
      progress.update(rows);
    }
  }
  writer->close();
  progress.finish();
}

const CommandRegistration kRewriteCommand(51, [](CLI::App& app) {
  auto o = std::make_shared<RewriteOptions>();
  CLI::App* command = app.add_subcommand("rewrite", "Rewrite a Parquet file with other writer options");
  command->add_option("input", o->input, "Parquet file to read")->required();
  command->add_option("output", o->output, "Parquet file to write (replaced atomically)")->required();
  command->add_option("--codec", o->codec,
                      "none, snappy, gzip, zstd, lz4_raw or brotli (default: each column's input codec)");
  command->add_option_function<int>(
      "--level", [o](const int& level) { o->level = level, o->level_given = true; }, "Compression level");
  command->add_option("--row-group-size", o->row_group_size,
                      "Rows per row group (default: the input's row groups)");
  command->add_option("--page-size", o->page_size, "Bytes per data page before compression (default 1 MiB)");
  command->add_option("--encoding", o->encodings,
                      "COLUMN=ENCODING (PLAIN, DICTIONARY, DELTA_BINARY_PACKED, ...)");
  command->add_flag("--no-dictionary", o->no_dictionary, "Do not dictionary-encode");
  command->add_option("--bloom", o->bloom, "Write a Bloom filter for COLUMN (repeatable)");
  command->add_flag("--v1", o->v1, "Write DATA_PAGE (v1) pages (default: the input's page version)");
  command->add_flag("--v2", o->v2, "Write DATA_PAGE_V2 pages (default: the input's page version)");
  command->add_option("--int96-as", o->int96_as,
                      "Write INT96 timestamps as INT64 TIMESTAMP of this unit: MILLIS, MICROS or NANOS "
                      "(default: kept as INT96)");
  command->add_option("--threads", o->threads, "Threads encoding columns (default 1)");
  command->callback([o] { run_rewrite(*o); });
});

}  // namespace
}  // namespace parquetry::cli
