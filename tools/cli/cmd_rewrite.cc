// `parquetry rewrite IN OUT [options]`: reads a Parquet file with FileReader
// and writes it again with FileWriter under other writer options (codec,
// level, row group and page sizes, encodings, dictionary, Bloom filters, page
// version). The output appears atomically when complete. With --json it
// prints what was written and what the run cost (wall time, peak RSS, page
// faults, user and kernel time).
//
// The output keeps the input's Parquet schema element for element
// (WriterOptions::parquet_schema: logical and converted types with their
// parameters, field ids, repetitions, legacy layouts, INT96) and its
// key-value metadata; by default also its row groups, sorting columns, and
// per column its codec, dictionary, value encoding, Bloom filter and page
// version. Options change only what they name.
//
// Encryption: the input is read with the reading commands' key flags
// (--footer-key, --column-key, --key-file, --aad-prefix); the output is
// written in the clear unless --encrypt-footer-key is given. So the same
// command decrypts (input keys only), encrypts (output keys only) and
// re-keys (both).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "command.h"
#include "key_options.h"
#include "parquetry/encryption.h"
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "parquetry/reader.h"
#include "parquetry/schema.h"
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
  bool v1 = false;
  bool v2 = false;
  std::string int96_as;
  int threads = 1;
  KeyOptions input_keys;
  // The output's encryption (all empty: written in the clear).
  std::string encrypt_footer_key;
  std::string encrypt_footer_key_metadata;
  std::vector<std::string> encrypt_column_keys;          // PATH=KEY
  std::vector<std::string> encrypt_columns;              // PATH: with the footer key
  std::vector<std::string> encrypt_column_key_metadata;  // PATH=TEXT
  std::string encrypt_algorithm;
  bool plaintext_footer = false;
  std::string encrypt_aad_prefix;
  bool encrypt_aad_prefix_given = false;
  bool no_store_aad_prefix = false;
  bool json = false;  // print the run's figures and resource use when done
};

// Splits PATH=VALUE; the message names the flag, never the value (it may be a key).
std::pair<std::string, std::string> split_assignment(const std::string& entry, const char* flag) {
  const size_t equals = entry.find('=');
  if (equals == std::string::npos || equals == 0) throw_invalid(std::string(flag) + " expects PATH=VALUE");
  return {entry.substr(0, equals), entry.substr(equals + 1)};
}

std::string parse_flag_key(const std::string& text, const std::string& flag) {
  try {
    return parse_key(text);
  } catch (const Error& e) {
    throw_invalid(flag + ": " + e.message());
  }
}

EncryptionCipher parse_cipher(const std::string& name) {
  const std::string n = upper(name);
  if (n == "GCM" || n == "AES_GCM_V1" || n == "AES-GCM") return EncryptionCipher::kAesGcm;
  if (n == "GCM-CTR" || n == "GCM_CTR" || n == "AES_GCM_CTR_V1" || n == "AES-GCM-CTR")
    return EncryptionCipher::kAesGcmCtr;
  throw_invalid("--encrypt-algorithm takes GCM (AES_GCM_V1) or GCM-CTR (AES_GCM_CTR_V1), got '" + name + "'");
}

// The output's EncryptionOptions from the --encrypt-* flags; nullopt when
// the output is written in the clear. Flags that only make sense with a
// footer key are refused without one rather than silently ignored.
std::optional<EncryptionOptions> output_encryption(const RewriteOptions& o) {
  const bool other_flags = !o.encrypt_footer_key_metadata.empty() || !o.encrypt_column_keys.empty() ||
                           !o.encrypt_columns.empty() || !o.encrypt_column_key_metadata.empty() ||
                           !o.encrypt_algorithm.empty() || o.plaintext_footer || o.encrypt_aad_prefix_given ||
                           o.no_store_aad_prefix;
  if (o.encrypt_footer_key.empty()) {
    if (other_flags)
      throw_invalid(
          "the --encrypt-* options, --plaintext-footer and --no-store-aad-prefix need --encrypt-footer-key");
    return std::nullopt;
  }
  EncryptionOptions out;
  out.footer_key = parse_flag_key(o.encrypt_footer_key, "--encrypt-footer-key");
  out.footer_key_metadata = o.encrypt_footer_key_metadata;
  if (!o.encrypt_algorithm.empty()) out.cipher = parse_cipher(o.encrypt_algorithm);
  out.plaintext_footer = o.plaintext_footer;
  for (const std::string& entry : o.encrypt_column_keys) {
    auto [path, key] = split_assignment(entry, "--encrypt-column-key");
    out.columns[path].key = parse_flag_key(key, "--encrypt-column-key " + path);
  }
  for (const std::string& path : o.encrypt_columns) {
    if (out.columns.count(path) != 0)
      throw_invalid("--encrypt-column " + path + ": the column also has --encrypt-column-key");
    out.columns[path] = ColumnEncryption{};  // empty key: the footer key
  }
  for (const std::string& entry : o.encrypt_column_key_metadata) {
    auto [path, metadata] = split_assignment(entry, "--encrypt-column-key-metadata");
    auto column = out.columns.find(path);
    if (column == out.columns.end()) {
      throw_invalid("--encrypt-column-key-metadata " + path +
                    ": the column has no --encrypt-column-key or --encrypt-column");
    }
    column->second.key_metadata = metadata;
  }
  if (o.encrypt_aad_prefix_given) out.aad_prefix = o.encrypt_aad_prefix;
  if (o.no_store_aad_prefix) {
    if (!out.aad_prefix) throw_invalid("--no-store-aad-prefix needs --encrypt-aad-prefix");
    out.store_aad_prefix = false;
  }
  return out;
}

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
      if (chunk.crypto_metadata) continue;  // encrypted page headers: not walkable in the clear
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
  const auto start = std::chrono::steady_clock::now();
  if (o.v1 && o.v2) throw_invalid("--v1 and --v2 exclude each other");
  std::optional<EncryptionOptions> encryption = output_encryption(o);  // flag errors before any reading
  ReaderOptions reader_options;
  reader_options.threads = o.threads;     // decoding the input is half of a rewrite's work
  reader_options.int96_as_binary = true;  // INT96 copied bit for bit (or converted by the writer)
  reader_options.decryption = o.input_keys.decryption();
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
  options.encryption = std::move(encryption);
  auto writer = FileWriter::open(o.output, *reader->batch_schema(), options);
  Progress progress(input.num_rows);
  int64_t rows = 0;
  // Streamed in batches either way, so memory stays bounded by a batch and
  // the row group being written, not by a decoded input row group. Batches
  // never span row groups, so counting rows finds each input group's end.
  size_t group = 0;
  int64_t left_in_group = 0;
  // Empty input row groups are written as empty row groups, in place.
  auto next_nonempty_group = [&] {
    while (group < input.row_groups.size() && input.row_groups[group].num_rows <= 0) {
      writer->write_empty_row_group();
      ++group;
    }
    left_in_group = group < input.row_groups.size() ? input.row_groups[group].num_rows : 0;
  };
  if (keep_row_groups) next_nonempty_group();
  auto batches = reader->batches();
  RecordBatch batch;
  while (batches->next(batch)) {
    writer->write(batch);
    rows += batch.num_rows;
    progress.update(rows);
    if (!keep_row_groups) continue;
    left_in_group -= batch.num_rows;
    if (left_in_group < 0) {
      throw_invalid("input row group " + std::to_string(group) + " holds more rows than its metadata's " +
                    std::to_string(input.row_groups[group].num_rows));
    }
    if (left_in_group == 0) {
      writer->flush_row_group();
      ++group;
      next_nonempty_group();
    }
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
  command->add_option("--threads", o->threads, "Threads decoding and encoding columns (default 1)");
  command->add_flag(
      "--json", o->json,
      R"(print {"rows", "row_groups", "largest_row_group_bytes", "ms", "peak_rss_bytes", "minor_faults", "major_faults", )"
      R"("user_seconds", "kernel_seconds"} when done)");
  add_key_options(command, o->input_keys);  // the input's keys
  command->add_option("--encrypt-footer-key", o->encrypt_footer_key,
                      "Encrypt the output: its footer key (hex or base64 of 16, 24 or 32 bytes); without "
                      "--encrypt-column-key every column is encrypted with it");
  command->add_option("--encrypt-footer-key-metadata", o->encrypt_footer_key_metadata,
                      "Key metadata stored with the footer (e.g. a key id for key retrievers)");
  command->add_option(
      "--encrypt-column-key", o->encrypt_column_keys,
      "PATH=KEY: encrypt this column with its own key (repeatable); columns not named stay in "
      "the clear");
  command->add_option("--encrypt-column", o->encrypt_columns,
                      "PATH: encrypt this column with the footer key (repeatable); with --encrypt-column-key "
                      "or --encrypt-column, columns not named stay in the clear");
  command->add_option("--encrypt-column-key-metadata", o->encrypt_column_key_metadata,
                      "PATH=TEXT: key metadata stored with that column (repeatable)");
  command->add_option("--encrypt-algorithm", o->encrypt_algorithm,
                      "GCM (AES_GCM_V1, default) or GCM-CTR (AES_GCM_CTR_V1)");
  command->add_flag("--plaintext-footer", o->plaintext_footer,
                    "Keep the output's footer in the clear, signed with the footer key");
  command
      ->add_option("--encrypt-aad-prefix", o->encrypt_aad_prefix,
                   "AAD prefix bound into every module of the output")
      ->each([o](const std::string&) { o->encrypt_aad_prefix_given = true; });
  command->add_flag("--no-store-aad-prefix", o->no_store_aad_prefix,
                    "Do not store the AAD prefix in the output (readers must supply it)");
  command->callback([o] { run_rewrite(*o); });
});

}  // namespace
}  // namespace parquetry::cli
