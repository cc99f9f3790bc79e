// The parquetry-written twin of every dataset (BENCHMARKS.md: "each dataset
// exists twice: written by parquetry and written by DuckDB; readers are
// measured on both"). The DuckDB file is read and written again by
// FileWriter with its default options and snappy, the codec DuckDB's file
// uses. The copy is kept while its stamp names the same source file and the
// same writer version, and it is checked before use: its full-scan fold must
// equal the DuckDB file's.
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "datasets.h"
#include "json_writer.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"
#include "parquetry/writer.h"
#include "scan_summary_result.h"

namespace parquetry::bench::datasets {
namespace fs = std::filesystem;

namespace {

std::string copy_stamp_path(const std::string& data_dir, const std::string& name) {
  return (fs::path(data_dir) / (name + ".parquetry.stamp.json")).string();
}

// What the copy depends on: the source bytes and the writer that wrote it.
std::string copy_key(const DatasetFile& source) { return source.file_checksum + "|" + writer_created_by(); }

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_copy(const std::string& source, const std::string& target) {
  auto reader = FileReader::open(source);
  WriterOptions options;
  options.codec = CompressionCodec::SNAPPY;
  auto writer = FileWriter::open(target, *reader->batch_schema(), options);
  auto batches = reader->batches();
  RecordBatch batch;
  while (batches->next(batch)) writer->write(batch);
  writer->close();
}

}  // namespace

std::string parquetry_parquet_path(const std::string& data_dir, const std::string& name) {
  return (fs::path(data_dir) / (name + ".parquetry.parquet")).string();
}

DatasetFile ensure_parquetry_copy(const DatasetFile& source, const std::string& data_dir) {
  DatasetFile copy;
  copy.name = source.name;
  copy.path = parquetry_parquet_path(data_dir, source.name);
  copy.rows = source.rows;
  copy.params_key = copy_key(source);
  copy.content_checksum = source.content_checksum;
  const std::string stamp_path = copy_stamp_path(data_dir, source.name);
  if (fs::exists(copy.path) && fs::exists(stamp_path)) {
    // The stamp holds the key and the copy's checksum, one per line.
    const std::string stamp = read_text(stamp_path);
    const std::string checksum = file_checksum(copy.path);
    if (stamp == copy.params_key + "\n" + checksum + "\n") {
      copy.bytes = int64_t(fs::file_size(copy.path));
      copy.file_checksum = checksum;
      copy.reused = true;
      return copy;
    }
  }
  write_copy(source.path, copy.path);
  const std::vector<std::string> diffs = compare_scan_results(to_scan_result(scan_file(copy.path, {})),
                                                              to_scan_result(scan_file(source.path, {})));
  if (!diffs.empty()) {
    std::string message = "dataset " + source.name + ": parquetry's copy differs from DuckDB's file:";
    for (const std::string& d : diffs) message += "\n  " + d;
    fs::remove(copy.path);
    throw std::runtime_error(message);
  }
  copy.bytes = int64_t(fs::file_size(copy.path));
  copy.file_checksum = file_checksum(copy.path);
  std::ofstream(stamp_path, std::ios::trunc) << copy.params_key << "\n" << copy.file_checksum << "\n";
  return copy;
}

}  // namespace parquetry::bench::datasets
