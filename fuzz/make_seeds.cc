// Writes the seed corpora of every fuzz target from the public test files,
// so that no test file is copied into the repository:
//
//   make_seeds <parquet-testing dir> <output dir>
//
// creates <output dir>/<target>/seed-N for the targets thrift, footer, file,
// page, variant, shredded, puffin and snappy. Each seed uses the input layout its target's
// comment describes (a selector or configuration prefix, then real bytes).
#include <snappy.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/iceberg.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "parquetry/page/page_reader.h"
#include "parquetry/schema.h"
#include "parquetry/variant.h"
#include "parquetry/variant_json.h"

namespace fs = std::filesystem;
using namespace parquetry;

namespace {

using Bytes = std::vector<uint8_t>;

class Corpus {
 public:
  explicit Corpus(fs::path root) : root_(std::move(root)) {}
  void add(const std::string& target, const Bytes& bytes) {
    fs::create_directories(root_ / target);
    const int n = counts_[target]++;
    std::ofstream out(root_ / target / ("seed-" + std::to_string(n)), std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  void report() const {
    for (const auto& [target, n] : counts_) std::printf("%-8s %d seeds\n", target.c_str(), n);
  }

 private:
  fs::path root_;
  std::map<std::string, int> counts_;
};

Bytes read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Bytes with_prefix(std::initializer_list<uint8_t> prefix, const uint8_t* data, size_t size) {
  Bytes out(prefix);
  out.insert(out.end(), data, data + size);
  return out;
}

void append_u32(Bytes& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(uint8_t(value >> (8 * i)));
}

uint8_t type_index(Type type) {
  switch (type) {
    case Type::BOOLEAN: return 0;
    case Type::INT32: return 1;
    case Type::INT64: return 2;
    case Type::INT96: return 3;
    case Type::FLOAT: return 4;
    case Type::DOUBLE: return 5;
    case Type::BYTE_ARRAY: return 6;
    case Type::FIXED_LEN_BYTE_ARRAY: return 7;
  }
  return 0;
}

uint8_t codec_index(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED: return 0;
    case CompressionCodec::SNAPPY: return 1;
    case CompressionCodec::GZIP: return 2;
    case CompressionCodec::BROTLI: return 3;
    case CompressionCodec::LZ4: return 4;
    case CompressionCodec::ZSTD: return 5;
    case CompressionCodec::LZ4_RAW: return 6;
    default: return 7;
  }
}

void parquet_seeds(const fs::path& file, Corpus& corpus) {
  const Bytes bytes = read_file(file);
  if (bytes.size() < 12) return;
  const uint32_t footer_length = uint32_t(bytes[bytes.size() - 8]) | uint32_t(bytes[bytes.size() - 7]) << 8 |
                                 uint32_t(bytes[bytes.size() - 6]) << 16 |
                                 uint32_t(bytes[bytes.size() - 5]) << 24;
  if (footer_length > bytes.size() - 12) return;
  const uint8_t* footer = bytes.data() + bytes.size() - 8 - footer_length;
  corpus.add("thrift", with_prefix({0}, footer, footer_length));
  corpus.add("thrift", with_prefix({1}, footer, footer_length));
  // The footer target gets the footer alone, framed as a file.
  Bytes framed = {'P', 'A', 'R', '1'};
  framed.insert(framed.end(), footer, footer + footer_length + 8);
  corpus.add("footer", framed);
  if (bytes.size() <= (256u << 10)) corpus.add("file", bytes);

  MemorySource source(std::span<const uint8_t>(bytes.data(), bytes.size()), file.filename().string());
  try {
    FileMetaData metadata = read_file_metadata(source);
    Schema schema = Schema::from_metadata(metadata);
    int page_seeds = 0;
    for (const RowGroup& group : metadata.row_groups) {
      for (size_t c = 0; c < group.columns.size() && c < schema.num_columns(); ++c) {
        const ColumnChunk& chunk = group.columns[c];
        if (!chunk.meta_data) continue;
        const ColumnMetaData& meta = *chunk.meta_data;
        auto slice = [&](std::optional<int64_t> offset, std::optional<int32_t> length, uint8_t selector) {
          if (!offset || !length || *offset < 0 || *length <= 0 ||
              uint64_t(*offset) + uint64_t(*length) > bytes.size())
            return;
          corpus.add("thrift", with_prefix({selector}, bytes.data() + *offset, size_t(*length)));
        };
        slice(chunk.column_index_offset, chunk.column_index_length, 3);
        slice(chunk.offset_index_offset, chunk.offset_index_length, 4);
        try {
          PageHeaderWalker walker(source, meta);
          PageHeaderAt page;
          for (int n = 0; n < 3 && walker.next(page); ++n) {
            corpus.add("thrift", with_prefix({2}, bytes.data() + page.offset, size_t(page.header_size)));
          }
        } catch (const Error&) {
        }
        const int64_t start = column_chunk_start(meta);
        const int64_t length = meta.total_compressed_size;
        if (page_seeds >= 12 || start < 0 || length <= 0 || length > (128 << 10) ||
            uint64_t(start + length) > bytes.size() || meta.num_values > (1 << 20))
          continue;
        const ColumnDescriptor& column = schema.column(c);
        const bool flat_optional = column.path_parts.size() == 1 && column.max_definition_level == 1 &&
                                   column.max_repetition_level == 0;
        if (column.max_definition_level > 3 || column.max_repetition_level > 3) continue;
        Bytes seed = {type_index(meta.type),
                      uint8_t(column.max_definition_level | column.max_repetition_level << 2),
                      uint8_t(flat_optional ? 1 : 0), codec_index(meta.codec),
                      uint8_t(column.type_length > 0 ? column.type_length - 1 : 0)};
        append_u32(seed, uint32_t(meta.num_values));
        seed.insert(seed.end(), bytes.begin() + start, bytes.begin() + start + length);
        corpus.add("page", seed);
        ++page_seeds;
      }
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "%s: %s\n", file.filename().c_str(), e.what());
  }
}

void variant_seeds(const fs::path& folder, Corpus& corpus) {
  if (!fs::exists(folder)) return;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".metadata") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& metadata_path : files) {
    fs::path value_path = metadata_path;
    value_path.replace_extension(".value");
    if (!fs::exists(value_path)) continue;
    const Bytes metadata = read_file(metadata_path);
    const Bytes value = read_file(value_path);
    Bytes seed = {0, uint8_t(metadata.size()), uint8_t(metadata.size() >> 8)};
    seed.insert(seed.end(), metadata.begin(), metadata.end());
    seed.insert(seed.end(), value.begin(), value.end());
    corpus.add("variant", seed);
    try {
      VariantMetadata parsed(std::span<const uint8_t>(metadata.data(), metadata.size()));
      std::string json =
          variant_to_json(Variant(parsed, std::span<const uint8_t>(value.data(), value.size())));
      Bytes text = {1};
      text.insert(text.end(), json.begin(), json.end());
      corpus.add("variant", text);
    } catch (const Error&) {
    }
  }
}

// The shredded target takes whole files: every public shredded_variant case
// small enough for the fuzzer's input limit.
void shredded_seeds(const fs::path& folder, Corpus& corpus) {
  if (!fs::exists(folder)) return;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".parquet") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    const Bytes bytes = read_file(file);
    if (bytes.size() <= (256u << 10)) corpus.add("shredded", bytes);
  }
}

void puffin_seeds(Corpus& corpus) {
  using namespace parquetry::iceberg;
  PositionDeleteIndex small;
  for (int64_t pos : {1, 5, 9}) small.add(pos);
  PositionDeleteIndex wide;
  wide.add_range(100, 5000);
  for (int64_t pos = 70000; pos < 90000; pos += 3) wide.add(pos);
  wide.add((int64_t(3) << 32) + 17);
  wide.run_optimize();
  for (const PositionDeleteIndex* index : {&small, &wide}) {
    Bytes portable = index->serialize_portable();
    portable.insert(portable.begin(), 2);
    corpus.add("puffin", portable);
    Bytes dv = serialize_deletion_vector(*index);
    dv.insert(dv.begin(), 1);
    corpus.add("puffin", dv);
  }
  for (bool compress_footer : {false, true}) {
    for (PuffinCodec codec : {PuffinCodec::kNone, PuffinCodec::kLz4, PuffinCodec::kZstd}) {
      PuffinWriter writer(PuffinWriterOptions{compress_footer, "make_seeds"});
      writer.add_deletion_vector("s3://bucket/data/a.parquet", small);
      writer.add_deletion_vector("s3://bucket/data/b.parquet", wide);
      const uint8_t payload[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
      writer.add_blob("apache-datasketches-theta-v1", {1, 2}, payload, codec, {{"ndv", "16"}}, 7, 3);
      writer.set_property("note", "seed");
      Bytes file = writer.finish();
      file.insert(file.begin(), 0);
      corpus.add("puffin", file);
    }
  }
}

// Page-like shapes (sorted int64, repeated strings, text, zeros), both as
// data for the round-trip mode and as libsnappy streams for the hostile mode.
void snappy_seeds(Corpus& corpus) {
  std::vector<Bytes> shapes;
  Bytes sorted;
  for (int64_t v = 1000; v < 1000 + 4096; v += 3) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    sorted.insert(sorted.end(), p, p + 8);
  }
  shapes.push_back(sorted);
  Bytes strings;
  for (int i = 0; i < 300; ++i) {
    const std::string value =
        "s3://bucket/warehouse/db/table/data/part-" + std::to_string(i / 7) + ".parquet";
    const uint32_t length = uint32_t(value.size());
    const auto* p = reinterpret_cast<const uint8_t*>(&length);
    strings.insert(strings.end(), p, p + 4);
    strings.insert(strings.end(), value.begin(), value.end());
  }
  shapes.push_back(strings);
  Bytes text;
  for (uint32_t i = 0, x = 12345; i < 5000; ++i) {
    x = x * 1103515245u + 12345u;
    text.push_back(uint8_t('a' + (x >> 16) % 6));
  }
  shapes.push_back(text);
  shapes.push_back(Bytes(70000, 0));
  for (const Bytes& shape : shapes) {
    corpus.add("snappy", with_prefix({1}, shape.data(), shape.size()));
    std::string packed;
    snappy::Compress(reinterpret_cast<const char*>(shape.data()), shape.size(), &packed);
    corpus.add("snappy", with_prefix({0}, reinterpret_cast<const uint8_t*>(packed.data()), packed.size()));
  }
}

// Iceberg table metadata and Avro manifests of the table corpus (a sibling of
// parquet-testing under the shared test data): manifest lists get selector
// byte 0, manifests 1 (fuzz_avro), metadata JSON as is (fuzz_iceberg_metadata).
void iceberg_table_seeds(const fs::path& corpus_root, Corpus& corpus) {
  std::error_code ec;
  if (!fs::is_directory(corpus_root, ec)) return;
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(corpus_root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file()) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    const std::string name = file.filename().string();
    std::ifstream in(file, std::ios::binary);
    Bytes bytes((std::istreambuf_iterator<char>(in)), {});
    if (name.ends_with(".avro") && name[0] != '.') {
      Bytes seed;
      seed.push_back(name.starts_with("snap-") || name.find("manifest-list") != std::string::npos ? 0 : 1);
      seed.insert(seed.end(), bytes.begin(), bytes.end());
      corpus.add("avro", seed);
    } else if (name.ends_with(".metadata.json") && name.find(".gz.") == std::string::npos) {
      corpus.add("iceberg_metadata", bytes);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <parquet-testing dir> <output dir>\n", argv[0]);
    return 2;
  }
  const fs::path testing = argv[1];
  Corpus corpus(argv[2]);
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(testing / "data")) {
    if (entry.path().extension() == ".parquet") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) parquet_seeds(file, corpus);
  variant_seeds(testing / "variant", corpus);
  shredded_seeds(testing / "shredded_variant", corpus);
  puffin_seeds(corpus);
  snappy_seeds(corpus);
  iceberg_table_seeds(testing.parent_path() / "iceberg", corpus);
  corpus.report();
  return 0;
}
