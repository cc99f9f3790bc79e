// `parquetry meta FILE [--json]`: everything the footer says about a file:
// rows, row groups, writer, key-value metadata and, per column chunk, codec,
// encodings, sizes, offsets (pages, page index, bloom filter) and statistics
// with min/max decoded through the column's logical type, and which of those
// statistics the reader will not use because the writer catalogue
// (include/parquetry/writer_quirks.h) knows that writer version got them wrong.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command.h"
#include "key_options.h"
#include "parquetry/encryption/file_decryptor.h"
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "parquetry/remote.h"
#include "parquetry/schema.h"
#include "parquetry/schema/value_text.h"
#include "parquetry/util/json_writer.h"
#include "parquetry/writer_quirks.h"

namespace parquetry::cli {
namespace {

struct MetaOptions {
  std::string path;
  bool json = false;
  KeyOptions keys;
};

// Key-value metadata such as ARROW:schema can be many kilobytes; the text
// form shortens it (the JSON form never does).
constexpr size_t kTextValueLimit = 160;

struct FileFacts {
  std::string path;
  int64_t size = 0;
  FileMetaData metadata;
};

// The footer, decrypted with the keys given (encrypted columns whose key is
// missing show only what a plaintext footer tells about them). The path may
// be local or remote (open_source).
FileFacts read_footer(const std::string& path, const KeyOptions& keys) {
  std::shared_ptr<RandomAccessSource> source = open_source(path);
  FileFacts facts;
  facts.path = path;
  facts.size = source->size();
  facts.metadata = open_footer(*source, Limits{}, keys.decryption()).metadata;
  return facts;
}

Error located(const Error& e, const std::string& file, int64_t row_group, const std::string& column) {
  ErrorLocation where;
  where.file = file;
  where.row_group = row_group;
  where.column = column;
  return e.with_location(where);
}

// The chunk's metadata after checking that it belongs where it sits.
const ColumnMetaData& chunk_metadata(const ColumnChunk& chunk, const ColumnDescriptor& column) {
  if (!chunk.meta_data) {
    if (chunk.crypto_metadata) throw_invalid("column chunk is encrypted and its key was not given");
    throw_corrupt("column chunk has no metadata");
  }
  const ColumnMetaData& meta = *chunk.meta_data;
  if (meta.type != column.physical_type) {
    throw_corrupt("column chunk has type " + std::string(type_name(meta.type)) + " but the schema says " +
                  std::string(type_name(column.physical_type)));
  }
  return meta;
}

void check_row_group(const RowGroup& row_group, const Schema& schema) {
  if (row_group.columns.size() != schema.num_columns()) {
    throw_corrupt("row group has " + std::to_string(row_group.columns.size()) +
                  " column chunks but the schema has " + std::to_string(schema.num_columns()) +
                  " leaf columns");
  }
  if (row_group.num_rows < 0) throw_corrupt("row group has a negative row count");
}

struct DecodedStats {
  std::optional<DisplayValue> min;
  std::optional<DisplayValue> max;
  bool legacy = false;  // from the deprecated min/max fields
};

// min_value/max_value when present; else the deprecated min/max, which
// writers filled with signed comparison and are only meaningful then.
DecodedStats decode_stats(const Statistics& stats, const ColumnDescriptor& column) {
  DecodedStats decoded;
  if (stats.min_value || stats.max_value) {
    if (stats.min_value) decoded.min = decode_plain_value(column, *stats.min_value);
    if (stats.max_value) decoded.max = decode_plain_value(column, *stats.max_value);
  } else if ((stats.min || stats.max) && column.sort_order == SortOrder::kSigned) {
    decoded.legacy = true;
    if (stats.min) decoded.min = decode_plain_value(column, *stats.min);
    if (stats.max) decoded.max = decode_plain_value(column, *stats.max);
  }
  return decoded;
}

void write_value(JsonWriter& json, const DisplayValue& value) {
  switch (value.kind) {
    case DisplayValue::Kind::kBool: json.boolean(value.bool_value); return;
    case DisplayValue::Kind::kInt: json.int64(value.int_value); return;
    case DisplayValue::Kind::kUInt: json.uint64(value.uint_value); return;
    case DisplayValue::Kind::kDouble:
      // JSON has no NaN or infinity: those become strings.
      if (std::isfinite(value.double_value)) {
        json.number(value.double_value);
      } else {
        json.string(value.to_string());
      }
      return;
    case DisplayValue::Kind::kText:
    case DisplayValue::Kind::kInvalid: json.string(value.text); return;
  }
}

void write_key_values(JsonWriter& json, const std::vector<KeyValue>& pairs) {
  json.begin_array();
  for (const KeyValue& pair : pairs) {
    json.begin_object().field("key", pair.key).key("value");
    if (pair.value) {
      json.string(*pair.value);
    } else {
      json.null();
    }
    json.end_object();
  }
  json.end_array();
}

void write_optional(JsonWriter& json, const char* name, const std::optional<int64_t>& value) {
  if (value) json.field(name, *value);
}

void write_optional(JsonWriter& json, const char* name, const std::optional<int32_t>& value) {
  if (value) json.field(name, *value);
}

std::string_view field_word(StatisticsField field) {
  return field == StatisticsField::kMinMax ? "min/max" : "null_count";
}

// The defects of the chunk's statistics, as {field, defect, source, reason}.
void write_not_used(JsonWriter& json, const StatisticsTrust& trust) {
  json.key("not_used").begin_array();
  for (StatisticsDefect defect : trust.list()) {
    const StatisticsDefectInfo& info = statistics_defect_info(defect);
    json.begin_object()
        .field("field", field_word(info.field))
        .field("defect", info.name)
        .field("source", info.source)
        .field("reason", info.description)
        .end_object();
  }
  json.end_array();
}

void write_chunk_json(JsonWriter& json, const ColumnChunk& chunk, const ColumnDescriptor& column,
                      const StatisticsCatalogue& catalogue) {
  const ColumnMetaData& meta = chunk_metadata(chunk, column);
  json.begin_object();
  json.field("path", column.path);
  json.field("type", type_name(meta.type));
  if (column.logical_type) json.field("logical_type", logical_type_to_string(*column.logical_type));
  json.field("codec", codec_name(meta.codec));
  json.key("encodings").begin_array();
  for (Encoding encoding : meta.encodings) json.string(encoding_name(encoding));
  json.end_array();
  json.field("num_values", meta.num_values);
  json.field("total_compressed_size", meta.total_compressed_size);
  json.field("total_uncompressed_size", meta.total_uncompressed_size);
  json.field("data_page_offset", meta.data_page_offset);
  write_optional(json, "dictionary_page_offset", meta.dictionary_page_offset);
  write_optional(json, "index_page_offset", meta.index_page_offset);
  json.field("file_offset", chunk.file_offset);
  if (chunk.file_path) json.field("file_path", *chunk.file_path);
  write_optional(json, "column_index_offset", chunk.column_index_offset);
  write_optional(json, "column_index_length", chunk.column_index_length);
  write_optional(json, "offset_index_offset", chunk.offset_index_offset);
  write_optional(json, "offset_index_length", chunk.offset_index_length);
  write_optional(json, "bloom_filter_offset", meta.bloom_filter_offset);
  write_optional(json, "bloom_filter_length", meta.bloom_filter_length);
  if (meta.statistics) {
    const Statistics& stats = *meta.statistics;
    DecodedStats decoded = decode_stats(stats, column);
    json.key("statistics").begin_object();
    write_optional(json, "null_count", stats.null_count);
    write_optional(json, "distinct_count", stats.distinct_count);
    write_optional(json, "nan_count", stats.nan_count);
    if (decoded.min) write_value(json.key("min"), *decoded.min);
    if (decoded.max) write_value(json.key("max"), *decoded.max);
    if (decoded.legacy) json.field("legacy_min_max", true);
    if (stats.is_min_value_exact) json.field("is_min_value_exact", *stats.is_min_value_exact);
    if (stats.is_max_value_exact) json.field("is_max_value_exact", *stats.is_max_value_exact);
    const StatisticsTrust trust = catalogue.chunk_trust(column, meta);
    json.field("min_max_used", trust.min_max_usable());
    json.field("null_count_used", trust.null_count_usable());
    write_not_used(json, trust);
    json.end_object();
  }
  if (!meta.encoding_stats.empty()) {
    json.key("encoding_stats").begin_array();
    for (const PageEncodingStats& page : meta.encoding_stats) {
      json.begin_object()
          .field("page_type", page_type_name(page.page_type))
          .field("encoding", encoding_name(page.encoding))
          .field("count", page.count)
          .end_object();
    }
    json.end_array();
  }
  if (!meta.key_value_metadata.empty())
    write_key_values(json.key("key_value_metadata"), meta.key_value_metadata);
  json.end_object();
}

std::string meta_json(const FileFacts& facts, const Schema& schema) {
  const FileMetaData& metadata = facts.metadata;
  JsonWriter json;
  json.begin_object();
  json.field("file", facts.path);
  json.field("file_size", facts.size);
  json.field("version", metadata.version);
  if (metadata.created_by) json.field("created_by", *metadata.created_by);
  const StatisticsCatalogue catalogue(metadata);
  {
    const WriterVersion& writer = catalogue.writer();
    json.key("writer").begin_object().field("application", writer.application);
    if (writer.has_version) {
      json.field("version", std::to_string(writer.major) + "." + std::to_string(writer.minor) + "." +
                                std::to_string(writer.patch));
      if (!writer.pre_release.empty()) json.field("pre_release", writer.pre_release);
    }
    if (!writer.build.empty()) json.field("build", writer.build);
    json.end_object();
  }
  json.field("num_rows", metadata.num_rows);
  json.field("num_row_groups", static_cast<int64_t>(metadata.row_groups.size()));
  json.field("num_columns", static_cast<int64_t>(schema.num_columns()));
  write_key_values(json.key("key_value_metadata"), metadata.key_value_metadata);
  json.key("columns").begin_array();
  for (const ColumnDescriptor& column : schema.columns()) {
    json.begin_object().field("path", column.path).field("physical_type", type_name(column.physical_type));
    if (column.logical_type) json.field("logical_type", logical_type_to_string(*column.logical_type));
    json.field("max_definition_level", int32_t{column.max_definition_level});
    json.field("max_repetition_level", int32_t{column.max_repetition_level});
    json.end_object();
  }
  json.end_array();
  json.key("row_groups").begin_array();
  for (size_t g = 0; g < metadata.row_groups.size(); ++g) {
    const RowGroup& row_group = metadata.row_groups[g];
    const auto group_index = static_cast<int64_t>(g);
    try {
      check_row_group(row_group, schema);
    } catch (const Error& e) {
      throw located(e, facts.path, group_index, "");
    }
    json.begin_object();
    json.field("index", group_index);
    json.field("num_rows", row_group.num_rows);
    json.field("total_byte_size", row_group.total_byte_size);
    write_optional(json, "total_compressed_size", row_group.total_compressed_size);
    write_optional(json, "file_offset", row_group.file_offset);
    if (row_group.ordinal) json.field("ordinal", int32_t{*row_group.ordinal});
    if (!row_group.sorting_columns.empty()) {
      json.key("sorting_columns").begin_array();
      for (const SortingColumn& sorting : row_group.sorting_columns) {
        json.begin_object()
            .field("column_idx", sorting.column_idx)
            .field("descending", sorting.descending)
            .field("nulls_first", sorting.nulls_first)
            .end_object();
      }
      json.end_array();
    }
    json.key("columns").begin_array();
    for (size_t c = 0; c < row_group.columns.size(); ++c) {
      const ColumnDescriptor& column = schema.column(c);
      try {
        write_chunk_json(json, row_group.columns[c], column, catalogue);
      } catch (const Error& e) {
        throw located(e, facts.path, group_index, column.path);
      }
    }
    json.end_array();
    json.end_object();
  }
  json.end_array();
  json.end_object();
  return json.take() + "\n";
}

// ---------------------------------------------------------------------------
// Text form

std::string shorten(const std::string& text) {
  std::string one_line;
  for (char c : text) one_line += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  if (one_line.size() <= kTextValueLimit) return one_line;
  return one_line.substr(0, kTextValueLimit) + "... (" + std::to_string(text.size()) + " bytes)";
}

template <typename T>
std::string or_dash(const std::optional<T>& value) {
  return value ? std::to_string(*value) : std::string("-");
}

void append_key_values(std::string& out, const std::vector<KeyValue>& pairs, const char* indent) {
  for (const KeyValue& pair : pairs) {
    out += indent + shorten(pair.key) + " = " + (pair.value ? shorten(*pair.value) : std::string("(null)")) +
           "\n";
  }
}

void append_chunk_text(std::string& out, const ColumnChunk& chunk, const ColumnDescriptor& column,
                       const StatisticsCatalogue& catalogue) {
  const ColumnMetaData& meta = chunk_metadata(chunk, column);
  out += "  column " + std::to_string(column.index) + " " + column.path + ": " +
         std::string(type_name(meta.type));
  if (column.logical_type) out += " (" + logical_type_to_string(*column.logical_type) + ")";
  out += " " + std::string(codec_name(meta.codec)) + " [";
  for (size_t i = 0; i < meta.encodings.size(); ++i) {
    if (i != 0) out += ", ";
    out += encoding_name(meta.encodings[i]);
  }
  out += "]\n";
  out += "    values " + std::to_string(meta.num_values) + ", compressed " +
         std::to_string(meta.total_compressed_size) + " B, uncompressed " +
         std::to_string(meta.total_uncompressed_size) + " B\n";
  out += "    offsets: data page " + std::to_string(meta.data_page_offset) + ", dictionary page " +
         or_dash(meta.dictionary_page_offset) + ", index page " + or_dash(meta.index_page_offset) + "\n";
  if (chunk.column_index_offset || chunk.offset_index_offset || meta.bloom_filter_offset) {
    out += "    page index: column index " + or_dash(chunk.column_index_offset) + " (" +
           or_dash(chunk.column_index_length) + " B), offset index " + or_dash(chunk.offset_index_offset) +
           " (" + or_dash(chunk.offset_index_length) + " B); bloom filter " +
           or_dash(meta.bloom_filter_offset) + " (" + or_dash(meta.bloom_filter_length) + " B)\n";
  }
  if (meta.statistics) {
    const Statistics& stats = *meta.statistics;
    DecodedStats decoded = decode_stats(stats, column);
    out += "    statistics: min " + (decoded.min ? decoded.min->to_string() : std::string("-"));
    if (stats.is_min_value_exact) out += *stats.is_min_value_exact ? " (exact)" : " (truncated)";
    out += ", max " + (decoded.max ? decoded.max->to_string() : std::string("-"));
    if (stats.is_max_value_exact) out += *stats.is_max_value_exact ? " (exact)" : " (truncated)";
    if (decoded.legacy) out += " [legacy min/max]";
    out += ", nulls " + or_dash(stats.null_count) + ", distinct " + or_dash(stats.distinct_count);
    if (stats.nan_count) out += ", NaNs " + std::to_string(*stats.nan_count);
    out += "\n";
    for (StatisticsDefect defect : catalogue.chunk_trust(column, meta).list()) {
      const StatisticsDefectInfo& info = statistics_defect_info(defect);
      out += "    statistics not used: " + std::string(field_word(info.field)) + " (" +
             std::string(info.source) + ": " + std::string(info.description) + ")\n";
    }
  }
  if (!meta.key_value_metadata.empty()) {
    out += "    key-value metadata:\n";
    append_key_values(out, meta.key_value_metadata, "      ");
  }
}

std::string meta_text(const FileFacts& facts, const Schema& schema) {
  const FileMetaData& metadata = facts.metadata;
  std::string out;
  out += "file: " + facts.path + " (" + std::to_string(facts.size) + " bytes)\n";
  out += "version: " + std::to_string(metadata.version) + "\n";
  out += "created by: " + (metadata.created_by ? shorten(*metadata.created_by) : std::string("-")) + "\n";
  const StatisticsCatalogue catalogue(metadata);
  out += "writer: " + shorten(catalogue.writer().to_string()) + "\n";
  out += "rows: " + std::to_string(metadata.num_rows) + "\n";
  out += "row groups: " + std::to_string(metadata.row_groups.size()) + "\n";
  out += "columns: " + std::to_string(schema.num_columns()) + "\n";
  if (!metadata.key_value_metadata.empty()) {
    out += "key-value metadata:\n";
    append_key_values(out, metadata.key_value_metadata, "  ");
  }
  for (size_t g = 0; g < metadata.row_groups.size(); ++g) {
    const RowGroup& row_group = metadata.row_groups[g];
    const auto group_index = static_cast<int64_t>(g);
    try {
      check_row_group(row_group, schema);
    } catch (const Error& e) {
      throw located(e, facts.path, group_index, "");
    }
    out += "row group " + std::to_string(g) + ": rows " + std::to_string(row_group.num_rows) +
           ", total bytes " + std::to_string(row_group.total_byte_size);
    if (row_group.total_compressed_size)
      out += ", compressed " + std::to_string(*row_group.total_compressed_size);
    out += "\n";
    for (size_t c = 0; c < row_group.columns.size(); ++c) {
      const ColumnDescriptor& column = schema.column(c);
      try {
        append_chunk_text(out, row_group.columns[c], column, catalogue);
      } catch (const Error& e) {
        throw located(e, facts.path, group_index, column.path);
      }
    }
  }
  return out;
}

void run_meta(const MetaOptions& options) {
  FileFacts facts = read_footer(options.path, options.keys);
  Schema schema = [&] {
    try {
      return Schema::from_metadata(facts.metadata);
    } catch (const Error& e) {
      throw located(e, options.path, -1, "");
    }
  }();
  std::string out = options.json ? meta_json(facts, schema) : meta_text(facts, schema);
  std::fwrite(out.data(), 1, out.size(), stdout);
}

const CommandRegistration kMetaCommand(20, [](CLI::App& app) {
  auto options = std::make_shared<MetaOptions>();
  CLI::App* command = app.add_subcommand("meta", "Print the footer metadata of a Parquet file");
  command->add_option("file", options->path, "Parquet file")->required();
  command->add_flag("--json", options->json, "Print the metadata as JSON");
  add_key_options(command, options->keys);
  command->callback([options] { run_meta(*options); });
});

}  // namespace
}  // namespace parquetry::cli
