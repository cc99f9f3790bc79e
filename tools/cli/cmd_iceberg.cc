// `parquetry iceberg dv-inspect FILE.puffin [--json] [--positions N]`: lists
// the blobs of a Puffin file and, for every deletion vector, validates it
// (length, magic, CRC, cardinality property) and shows its referenced data
// file, cardinality and first positions.
//
// `parquetry iceberg index [--json] DELETES.parquet`: indexes a
// position-delete file (toPositionIndexes) and prints, per data file, how
// many positions it deletes.
#include <cerrno>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "parquetry/error.h"
#include "parquetry/iceberg.h"
#include "parquetry/iceberg_scan.h"
#include "parquetry/util/json_writer.h"

namespace parquetry::cli {
namespace {

using iceberg::PositionDeleteIndex;
using iceberg::PuffinBlobMetadata;
using iceberg::PuffinReader;

struct DvInspectOptions {
  std::string path;
  bool json = false;
  int64_t positions = 10;
};

// Puffin files are small (footers plus bitmaps); read the whole file, bounded
// by the footer limit plus a generous blob allowance.
std::vector<uint8_t> read_whole_file(const std::string& path) {
  constexpr int64_t kMaxPuffinFile = int64_t(4) << 30;
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw_io("cannot open " + path, errno);
  if (std::fseek(file.get(), 0, SEEK_END) != 0) throw_io("cannot seek " + path, errno);
  long size = std::ftell(file.get());
  if (size < 0) throw_io("cannot size " + path, errno);
  if (size > kMaxPuffinFile)
    throw_limit(path + ": " + std::to_string(size) + " bytes is too large for a Puffin file");
  std::rewind(file.get());
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  if (size > 0 && std::fread(bytes.data(), 1, bytes.size(), file.get()) != bytes.size()) {
    throw_io("cannot read " + path, errno);
  }
  return bytes;
}

struct BlobReport {
  const PuffinBlobMetadata* blob = nullptr;
  bool is_dv = false;
  std::string error;  // empty when the DV validated
  int64_t cardinality = -1;
  int64_t min = -1, max = -1;
  size_t bitmaps = 0;
  std::vector<int64_t> first_positions;
};

BlobReport inspect_blob(const PuffinReader& reader, const PuffinBlobMetadata& blob, int64_t max_positions) {
  BlobReport report;
  report.blob = &blob;
  report.is_dv = blob.type == iceberg::kDeletionVectorBlobType;
  if (!report.is_dv) return report;
  try {
    PositionDeleteIndex index = reader.read_deletion_vector(blob);
    report.cardinality = index.cardinality();
    report.min = index.min();
    report.max = index.max();
    report.bitmaps = index.bitmap_count();
    if (max_positions > 0) {
      report.first_positions.resize(size_t(std::min<int64_t>(max_positions, report.cardinality)));
      iceberg::PositionCursor cursor(index);
      size_t got = cursor.next(report.first_positions);
      report.first_positions.resize(got);
    }
  } catch (const Error& e) {
    report.error = e.message();
  }
  return report;
}

std::string property_or(const PuffinBlobMetadata& blob, std::string_view key, const char* fallback) {
  const std::string* value = blob.property(key);
  return value ? *value : fallback;
}

void print_text(const std::string& path, size_t file_size, const PuffinReader& reader,
                const std::vector<BlobReport>& reports) {
  const auto& metadata = reader.metadata();
  std::printf("file: %s (%zu bytes, footer %lld bytes%s)\n", path.c_str(), file_size,
              static_cast<long long>(reader.footer_size()),
              reader.footer_compressed() ? ", LZ4-compressed" : "");
  for (const auto& [key, value] : metadata.properties)
    std::printf("property %s: %s\n", key.c_str(), value.c_str());
  std::printf("blobs: %zu\n", metadata.blobs.size());
  for (size_t i = 0; i < reports.size(); ++i) {
    const BlobReport& r = reports[i];
    const PuffinBlobMetadata& blob = *r.blob;
    std::string fields;
    for (int32_t f : blob.fields) fields += (fields.empty() ? "" : ",") + std::to_string(f);
    std::printf("blob %zu: %s offset=%lld length=%lld fields=[%s] snapshot-id=%lld sequence-number=%lld", i,
                blob.type.c_str(), static_cast<long long>(blob.offset), static_cast<long long>(blob.length),
                fields.c_str(), static_cast<long long>(blob.snapshot_id),
                static_cast<long long>(blob.sequence_number));
    if (blob.codec != iceberg::PuffinCodec::kNone) {
      std::printf(" codec=%s", std::string(iceberg::puffin_codec_name(blob.codec)).c_str());
    }
    std::printf("\n");
    if (!r.is_dv) {
      for (const auto& [key, value] : blob.properties) std::printf("  %s: %s\n", key.c_str(), value.c_str());
      continue;
    }
    std::printf("  referenced-data-file: %s\n",
                property_or(blob, iceberg::kReferencedDataFileProperty, "(missing)").c_str());
    if (!r.error.empty()) {
      std::printf("  INVALID: %s\n", r.error.c_str());
      continue;
    }
    std::printf("  cardinality: %lld (property %s), bitmaps: %zu, positions %lld..%lld\n",
                static_cast<long long>(r.cardinality),
                property_or(blob, iceberg::kCardinalityProperty, "missing").c_str(), r.bitmaps,
                static_cast<long long>(r.min), static_cast<long long>(r.max));
    if (!r.first_positions.empty()) {
      std::string list;
      for (int64_t p : r.first_positions) list += (list.empty() ? "" : ", ") + std::to_string(p);
      if (int64_t(r.first_positions.size()) < r.cardinality) list += ", ...";
      std::printf("  first positions: %s\n", list.c_str());
    }
  }
}

std::string to_json(const std::string& path, size_t file_size, const PuffinReader& reader,
                    const std::vector<BlobReport>& reports) {
  JsonWriter json;
  json.begin_object();
  json.field("file", path);
  json.field("file_size", uint64_t(file_size));
  json.field("footer_size", reader.footer_size());
  json.field("footer_compressed", reader.footer_compressed());
  json.key("properties").begin_object();
  for (const auto& [key, value] : reader.metadata().properties) json.field(key, value);
  json.end_object();
  json.key("blobs").begin_array();
  for (const BlobReport& r : reports) {
    const PuffinBlobMetadata& blob = *r.blob;
    json.begin_object();
    json.field("type", blob.type);
    json.field("offset", blob.offset);
    json.field("length", blob.length);
    json.key("fields").begin_array();
    for (int32_t f : blob.fields) json.int64(f);
    json.end_array();
    json.field("snapshot_id", blob.snapshot_id);
    json.field("sequence_number", blob.sequence_number);
    if (blob.codec != iceberg::PuffinCodec::kNone)
      json.field("compression_codec", iceberg::puffin_codec_name(blob.codec));
    json.key("properties").begin_object();
    for (const auto& [key, value] : blob.properties) json.field(key, value);
    json.end_object();
    if (r.is_dv) {
      if (const std::string* file = blob.property(iceberg::kReferencedDataFileProperty)) {
        json.field("referenced_data_file", *file);
      }
      json.field("valid", r.error.empty());
      if (!r.error.empty()) {
        json.field("error", r.error);
      } else {
        json.field("cardinality", r.cardinality);
        json.field("bitmaps", uint64_t(r.bitmaps));
        json.field("min_position", r.min);
        json.field("max_position", r.max);
        json.key("first_positions").begin_array();
        for (int64_t p : r.first_positions) json.int64(p);
        json.end_array();
      }
    }
    json.end_object();
  }
  json.end_array();
  json.end_object();
  return json.take();
}

void run_dv_inspect(const DvInspectOptions& options) {
  std::vector<uint8_t> bytes = read_whole_file(options.path);
  ErrorLocation where;
  where.file = options.path;
  try {
    PuffinReader reader(bytes);
    std::vector<BlobReport> reports;
    size_t invalid = 0;
    for (const PuffinBlobMetadata& blob : reader.metadata().blobs) {
      reports.push_back(inspect_blob(reader, blob, options.positions));
      invalid += !reports.back().error.empty();
    }
    if (options.json) {
      std::string out = to_json(options.path, bytes.size(), reader, reports) + "\n";
      std::fwrite(out.data(), 1, out.size(), stdout);
    } else {
      print_text(options.path, bytes.size(), reader, reports);
    }
    if (invalid != 0) {
      std::fflush(stdout);
      throw Error(ErrorCode::kCorrupt, std::to_string(invalid) + " invalid deletion vector(s)");
    }
  } catch (const Error& e) {
    throw e.with_location(where);
  }
}

struct IndexOptions {
  std::string path;
  bool json = false;
  int threads = 1;
};

void run_index(const IndexOptions& options) {
  iceberg::DeleteFileOptions read_options;
  read_options.reader.threads = options.threads;
  iceberg::DeleteFileStats stats;
  iceberg::PositionIndexMap map = iceberg::read_position_delete_file(options.path, read_options, &stats);
  std::string out;
  if (options.json) {
    JsonWriter json;
    json.begin_object();
    json.key("files").begin_object();
    for (size_t i = 0; i < map.size(); ++i) {
      json.key(map.path(i)).begin_object();
      json.field("cardinality", map.index(i).cardinality());
      json.end_object();
    }
    json.end_object();
    json.end_object();
    out = json.take() + "\n";
  } else {
    for (size_t i = 0; i < map.size(); ++i) {
      out += std::string(map.path(i)) + "\t" + std::to_string(map.index(i).cardinality()) + "\n";
    }
    out += "data files: " + std::to_string(map.size()) +
           ", deletes: " + std::to_string(map.total_cardinality()) +
           ", row groups: " + std::to_string(stats.row_groups_read) + "\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
}

const CommandRegistration kIcebergCommand(60, [](CLI::App& app) {
  CLI::App* iceberg = app.add_subcommand("iceberg", "Iceberg tables (scan, info, files) and deletes (deletion vectors, Puffin files)");
  iceberg->require_subcommand(1);
  auto options = std::make_shared<DvInspectOptions>();
  CLI::App* inspect = iceberg->add_subcommand(
      "dv-inspect", "List the blobs of a Puffin file and validate its deletion vectors");
  inspect->add_option("file", options->path, "Puffin file")->required();
  inspect->add_flag("--json", options->json, "Print the report as JSON");
  inspect->add_option("--positions", options->positions, "How many leading positions to show per vector")
      ->check(CLI::NonNegativeNumber);
  inspect->callback([options] { run_dv_inspect(*options); });

  auto index_options = std::make_shared<IndexOptions>();
  CLI::App* index = iceberg->add_subcommand(
      "index", "Index a position-delete Parquet file: deleted positions per data file");
  index->add_option("file", index_options->path, "position-delete Parquet file")->required();
  index->add_flag("--json", index_options->json, R"(Print {"files": {"<path>": {"cardinality": N}}})");
  index->add_option("--threads", index_options->threads, "decode threads")->check(CLI::Range(1, 256));
  index->callback([index_options] { run_index(*index_options); });
});

}  // namespace
}  // namespace parquetry::cli
