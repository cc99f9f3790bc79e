// A small Iceberg table writer for tests and benchmarks: an Avro object
// container encoder, manifests and manifest lists in the v2 layout (field
// ids as format/spec.md assigns them), Parquet data files with field ids,
// and metadata JSON committed as a new version (temp file + rename, then the
// version hint).
#pragma once

// Tests describe entries with designated initializers naming only what
// matters to them; the rest keeps its default on purpose.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "parquetry/iceberg.h"
#include "parquetry/table.h"
#include "parquetry/writer.h"

namespace parquetry::testing {

/// Avro binary encoding of values, appended to a buffer.
class AvroEncoder {
 public:
  AvroEncoder& long_(int64_t v) {
    uint64_t z = (uint64_t(v) << 1) ^ uint64_t(v >> 63);
    while (z >= 0x80) {
      out_ += char(uint8_t(z) | 0x80);
      z >>= 7;
    }
    out_ += char(z);
    return *this;
  }
  AvroEncoder& bytes(std::string_view b) {
    long_(int64_t(b.size()));
    out_ += b;
    return *this;
  }
  AvroEncoder& boolean(bool b) {
    out_ += char(b ? 1 : 0);
    return *this;
  }
  AvroEncoder& raw(std::string_view b) {
    out_ += b;
    return *this;
  }
  /// A union branch index followed (by the caller) by the value.
  AvroEncoder& branch(int64_t index) { return long_(index); }
  AvroEncoder& null_or_long(std::optional<int64_t> v) {
    if (!v) return branch(0);
    return branch(1).long_(*v);
  }
  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

/// An object container file with one block of `count` objects, codec "null".
inline std::string avro_container(std::string_view schema_json, std::string_view objects, int64_t count,
                                  const std::vector<std::pair<std::string, std::string>>& metadata = {},
                                  std::string_view codec = "null", std::string_view block_override = {}) {
  AvroEncoder e;
  e.raw(std::string_view("Obj\x01", 4));
  e.long_(int64_t(2 + metadata.size()));
  e.bytes("avro.schema").bytes(schema_json);
  e.bytes("avro.codec").bytes(codec);
  for (const auto& [k, v] : metadata) e.bytes(k).bytes(v);
  e.long_(0);
  const std::string sync = "0123456789abcdef";
  e.raw(sync);
  const std::string_view block = block_override.empty() ? objects : block_override;
  if (count > 0) {
    e.long_(count).long_(int64_t(block.size())).raw(block).raw(sync);
  }
  return e.take();
}

inline const char* kManifestEntrySchema = R"({"type":"record","name":"manifest_entry","fields":[
 {"name":"status","type":"int","field-id":0},
 {"name":"snapshot_id","type":["null","long"],"field-id":1},
 {"name":"sequence_number","type":["null","long"],"field-id":3},
 {"name":"file_sequence_number","type":["null","long"],"field-id":4},
 {"name":"data_file","field-id":2,"type":{"type":"record","name":"r2","fields":[
   {"name":"content","type":"int","field-id":134},
   {"name":"file_path","type":"string","field-id":100},
   {"name":"file_format","type":"string","field-id":101},
   {"name":"partition","field-id":102,"type":{"type":"record","name":"r102","fields":[
     {"name":"part","type":["null","int"],"field-id":1000}]}},
   {"name":"record_count","type":"long","field-id":103},
   {"name":"file_size_in_bytes","type":"long","field-id":104},
   {"name":"null_value_counts","type":["null",{"type":"array","logicalType":"map","items":{"type":"record","name":"k121_v122","fields":[{"name":"key","type":"int","field-id":121},{"name":"value","type":"long","field-id":122}]}}],"field-id":110},
   {"name":"lower_bounds","type":["null",{"type":"array","logicalType":"map","items":{"type":"record","name":"k126_v127","fields":[{"name":"key","type":"int","field-id":126},{"name":"value","type":"bytes","field-id":127}]}}],"field-id":125},
   {"name":"upper_bounds","type":["null",{"type":"array","logicalType":"map","items":{"type":"record","name":"k129_v130","fields":[{"name":"key","type":"int","field-id":129},{"name":"value","type":"bytes","field-id":130}]}}],"field-id":128},
   {"name":"equality_ids","type":["null",{"type":"array","items":"int","element-id":136}],"field-id":135},
   {"name":"referenced_data_file","type":["null","string"],"field-id":143},
   {"name":"content_offset","type":["null","long"],"field-id":144},
   {"name":"content_size_in_bytes","type":["null","long"],"field-id":145}]}}]})";

inline const char* kManifestListSchema = R"({"type":"record","name":"manifest_file","fields":[
 {"name":"manifest_path","type":"string","field-id":500},
 {"name":"manifest_length","type":"long","field-id":501},
 {"name":"partition_spec_id","type":"int","field-id":502},
 {"name":"content","type":"int","field-id":517},
 {"name":"sequence_number","type":"long","field-id":515},
 {"name":"min_sequence_number","type":"long","field-id":516},
 {"name":"added_snapshot_id","type":"long","field-id":503},
 {"name":"added_files_count","type":"int","field-id":504},
 {"name":"existing_files_count","type":"int","field-id":505},
 {"name":"deleted_files_count","type":"int","field-id":506},
 {"name":"added_rows_count","type":"long","field-id":512},
 {"name":"existing_rows_count","type":"long","field-id":513},
 {"name":"deleted_rows_count","type":"long","field-id":514},
 {"name":"partitions","type":["null",{"type":"array","items":{"type":"record","name":"r508","fields":[
   {"name":"contains_null","type":"boolean","field-id":509},
   {"name":"contains_nan","type":["null","boolean"],"field-id":518},
   {"name":"lower_bound","type":["null","bytes"],"field-id":510},
   {"name":"upper_bound","type":["null","bytes"],"field-id":511}]},"element-id":508}],"field-id":507}]})";

/// One manifest entry the writer encodes (partition: the identity value of
/// `part`, or none for unpartitioned specs).
struct EntrySpec {
  int status = 1;  // ADDED
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> sequence_number;  // nullopt: inherited
  int content = 0;
  std::string path;
  std::string format = "PARQUET";
  std::optional<int32_t> part;
  int64_t record_count = 0;
  int64_t file_size = 0;
  std::vector<std::pair<int32_t, int64_t>> null_counts;
  std::vector<std::pair<int32_t, std::string>> lower, upper;
  std::vector<int32_t> equality_ids;
  std::optional<std::string> referenced_data_file;
  std::optional<int64_t> content_offset, content_size;
};

inline std::string encode_entry(const EntrySpec& s) {
  AvroEncoder e;
  e.long_(s.status).null_or_long(s.snapshot_id).null_or_long(s.sequence_number).null_or_long(s.sequence_number);
  e.long_(s.content).bytes(s.path).bytes(s.format);
  if (s.part) {
    e.branch(1).long_(*s.part);
  } else {
    e.branch(0);
  }
  e.long_(s.record_count).long_(s.file_size);
  auto map_long = [&](const std::vector<std::pair<int32_t, int64_t>>& m) {
    e.branch(1);
    if (!m.empty()) {
      e.long_(int64_t(m.size()));
      for (const auto& [k, v] : m) e.long_(k).long_(v);
    }
    e.long_(0);
  };
  auto map_bytes = [&](const std::vector<std::pair<int32_t, std::string>>& m) {
    e.branch(1);
    if (!m.empty()) {
      e.long_(int64_t(m.size()));
      for (const auto& [k, v] : m) e.long_(k).bytes(v);
    }
    e.long_(0);
  };
  map_long(s.null_counts);
  map_bytes(s.lower);
  map_bytes(s.upper);
  if (s.equality_ids.empty()) {
    e.branch(0);
  } else {
    e.branch(1).long_(int64_t(s.equality_ids.size()));
    for (int32_t id : s.equality_ids) e.long_(id);
    e.long_(0);
  }
  if (s.referenced_data_file) {
    e.branch(1).bytes(*s.referenced_data_file);
  } else {
    e.branch(0);
  }
  e.null_or_long(s.content_offset).null_or_long(s.content_size);
  return e.take();
}

/// A manifest file holding `entries`, partitioned by `part` when
/// spec_id is 0 (identity) and unpartitioned when 1 (the partition record
/// then holds a null `part`).
inline std::string manifest_bytes(const std::vector<EntrySpec>& entries, int32_t spec_id, int content) {
  std::string objects;
  for (const EntrySpec& s : entries) objects += encode_entry(s);
  return avro_container(kManifestEntrySchema, objects, int64_t(entries.size()),
                        {{"partition-spec-id", std::to_string(spec_id)},
                         {"format-version", "2"},
                         {"content", content == 0 ? "data" : "deletes"}});
}

struct ManifestSpec {
  std::string path;
  int64_t length = 0;
  int32_t spec_id = 0;
  int content = 0;
  int64_t sequence_number = 0;
  int64_t snapshot_id = 0;
  std::optional<int32_t> lower_part, upper_part;  // summary of `part` (spec 0)
  bool contains_null = false;
};

inline std::string manifest_list_bytes(const std::vector<ManifestSpec>& manifests) {
  std::string objects;
  for (const ManifestSpec& m : manifests) {
    AvroEncoder e;
    e.bytes(m.path).long_(m.length).long_(m.spec_id).long_(m.content).long_(m.sequence_number).long_(m.sequence_number);
    e.long_(m.snapshot_id).long_(1).long_(0).long_(0).long_(1).long_(0).long_(0);
    if (m.spec_id == 0) {
      e.branch(1).long_(1).boolean(m.contains_null).branch(0);
      auto bound = [&](std::optional<int32_t> v) {
        if (!v) {
          e.branch(0);
          return;
        }
        char le[4];
        std::memcpy(le, &*v, 4);
        e.branch(1).bytes(std::string_view(le, 4));
      };
      bound(m.lower_part);
      bound(m.upper_part);
      e.long_(0);
    } else {
      e.branch(1).long_(0);
    }
    objects += e.take();
  }
  return avro_container(kManifestListSchema, objects, int64_t(manifests.size()));
}

inline void write_text(const std::string& path, std::string_view bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error("cannot write " + path);
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  std::filesystem::rename(tmp, path);  // atomic commit of the new file
}

inline std::string le32(int32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);
  return std::string(b, 4);
}
inline std::string le64(int64_t v) {
  char b[8];
  std::memcpy(b, &v, 8);
  return std::string(b, 8);
}

}  // namespace parquetry::testing
