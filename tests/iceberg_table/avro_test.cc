// The Avro decoder: schema resolution by field id and name, promotions,
// codecs, and hostile containers.
#include <gtest/gtest.h>
#include <libdeflate.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "parquetry/error.h"
#include "parquetry/iceberg_table.h"
#include "parquetry/iceberg_table/avro.h"
#include "table_writer.h"

namespace parquetry::testing {
namespace {

using namespace parquetry::iceberg;

std::span<const uint8_t> as_span(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

// A manifest list in an older layout: v1 names, no field ids, an extra
// field, int counts, no content or sequence numbers.
const char* kV1ListSchema = R"({"type":"record","name":"manifest_file","fields":[
 {"name":"manifest_path","type":"string"},
 {"name":"manifest_length","type":"long"},
 {"name":"partition_spec_id","type":"int"},
 {"name":"writer_extra","type":{"type":"array","items":"string"}},
 {"name":"added_snapshot_id","type":["null","long"]},
 {"name":"added_data_files_count","type":["null","int"]}]})";

std::string v1_list_objects() {
  AvroEncoder e;
  e.bytes("m-one.avro").long_(1234).long_(7);
  e.long_(2).bytes("x").bytes("yy").long_(0);  // skipped
  e.branch(1).long_(99).branch(1).long_(5);
  e.bytes("m-two.avro").long_(10).long_(0);
  e.long_(0);
  e.branch(0).branch(0);
  return e.take();
}

TEST(Avro, ResolvesByNameWithoutIdsAndSkipsUnknownFields) {
  const std::string file = avro_container(kV1ListSchema, v1_list_objects(), 2);
  const std::vector<ManifestFile> list = read_manifest_list(as_span(file), "list.avro");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].path, "m-one.avro");
  EXPECT_EQ(list[0].length, 1234);
  EXPECT_EQ(list[0].partition_spec_id, 7);
  EXPECT_EQ(list[0].added_snapshot_id, 99);
  EXPECT_EQ(list[0].added_files_count, 5);  // int promoted into the long field
  EXPECT_EQ(list[0].content, ManifestContent::kData);
  EXPECT_EQ(list[0].sequence_number, 0);    // absent in v1: default
  EXPECT_EQ(list[1].path, "m-two.avro");
  EXPECT_EQ(list[1].added_snapshot_id, -1);
}

TEST(Avro, ManifestEntriesInheritSequenceNumbers) {
  EntrySpec added{.snapshot_id = std::nullopt, .path = "s3://b/f1.parquet", .part = 4, .record_count = 10, .file_size = 100,
                  .lower = {{1, le64(-5)}}, .upper = {{1, le64(77)}}};
  EntrySpec existing{.status = 0, .snapshot_id = 3, .sequence_number = 2, .content = 2, .path = "s3://b/eq.parquet",
                     .record_count = 1, .equality_ids = {1, 3}};
  const std::string file = manifest_bytes({added, existing}, 0, 0);
  ManifestFile mf;
  mf.sequence_number = 9;
  mf.added_snapshot_id = 42;
  PartitionSpec spec;
  spec.fields.push_back(PartitionField{2, 1000, "part", Transform::parse("identity")});
  const std::vector<ManifestEntry> entries = read_manifest(as_span(file), mf, spec, "m.avro");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].status, EntryStatus::kAdded);
  EXPECT_EQ(entries[0].snapshot_id, 42);
  EXPECT_EQ(entries[0].sequence_number, 9);
  EXPECT_EQ(entries[0].file.file_path, "s3://b/f1.parquet");
  ASSERT_EQ(entries[0].file.partition.size(), 1u);
  EXPECT_EQ(entries[0].file.partition[0].kind, PartitionValue::Kind::kInt);
  EXPECT_EQ(entries[0].file.partition[0].int_value, 4);
  const ColumnStats* s = entries[0].file.column_stats(1);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(*s->lower_bound, le64(-5));
  EXPECT_EQ(*s->upper_bound, le64(77));
  EXPECT_EQ(entries[1].status, EntryStatus::kExisting);
  EXPECT_EQ(entries[1].snapshot_id, 3);
  EXPECT_EQ(entries[1].sequence_number, 2);
  EXPECT_EQ(entries[1].file.content, FileContent::kEqualityDeletes);
  EXPECT_EQ(entries[1].file.equality_ids, (std::vector<int32_t>{1, 3}));
  EXPECT_EQ(entries[1].file.partition[0].kind, PartitionValue::Kind::kNull);
}

std::string compress(const std::string& codec, const std::string& data) {
  if (codec == "deflate") {
    libdeflate_compressor* c = libdeflate_alloc_compressor(6);
    std::string out(libdeflate_deflate_compress_bound(c, data.size()), '\0');
    out.resize(libdeflate_deflate_compress(c, data.data(), data.size(), out.data(), out.size()));
    libdeflate_free_compressor(c);
    return out;
  }
  if (codec == "zstandard") {
    std::string out(ZSTD_compressBound(data.size()), '\0');
    out.resize(ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3));
    return out;
  }
  size_t n = snappy_max_compressed_length(data.size());
  std::string out(n, '\0');
  snappy_compress(data.data(), data.size(), out.data(), &n);
  out.resize(n);
  const uint32_t crc = uint32_t(crc32(0, reinterpret_cast<const Bytef*>(data.data()), uInt(data.size())));
  for (int shift = 24; shift >= 0; shift -= 8) out += char((crc >> shift) & 0xff);
  return out;
}

TEST(Avro, Codecs) {
  const std::string objects = v1_list_objects();
  for (const std::string codec : {"deflate", "zstandard", "snappy"}) {
    const std::string file = avro_container(kV1ListSchema, objects, 2, {}, codec, compress(codec, objects));
    const std::vector<ManifestFile> list = read_manifest_list(as_span(file), "list.avro");
    ASSERT_EQ(list.size(), 2u) << codec;
    EXPECT_EQ(list[0].path, "m-one.avro") << codec;
    EXPECT_EQ(list[1].length, 10) << codec;
  }
}

void expect_error(const std::string& file, ErrorCode code, const std::string& needle) {
  try {
    read_manifest_list(as_span(file), "bad.avro");
    ADD_FAILURE() << "no error for " << needle;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bad.avro"), std::string::npos) << e.what();
  }
}

TEST(Avro, HostileContainers) {
  const std::string objects = v1_list_objects();
  const std::string good = avro_container(kV1ListSchema, objects, 2);
  expect_error(good.substr(0, good.size() - 3), ErrorCode::kCorrupt, "beyond");   // truncated sync
  std::string bad_sync = good;
  bad_sync[bad_sync.size() - 1] ^= 1;
  expect_error(bad_sync, ErrorCode::kCorrupt, "sync marker");
  expect_error(avro_container(kV1ListSchema, objects, 3), ErrorCode::kCorrupt, "");  // one object too many
  expect_error(avro_container(kV1ListSchema, objects, 1), ErrorCode::kCorrupt, "after its 1 objects");
  expect_error(avro_container(kV1ListSchema, objects, 2, {}, "lzo"), ErrorCode::kUnsupported, "lzo");
  expect_error(avro_container(kV1ListSchema, objects, 2, {}, "deflate"), ErrorCode::kCorrupt, "deflate");
  expect_error(avro_container(kV1ListSchema, objects, 2, {}, "snappy"), ErrorCode::kCorrupt, "");
  expect_error(avro_container(R"({"type":"record","name":"r","fields":[{"name":"a","type":"nope"}]})", "", 0),
               ErrorCode::kCorrupt, "unknown type");
  expect_error(avro_container("[not json", "", 0), ErrorCode::kCorrupt, "invalid JSON");
  expect_error("Obj", ErrorCode::kCorrupt, "magic");
  // A huge array count in a tiny block.
  AvroEncoder e;
  e.bytes("p").long_(1).long_(1);
  e.long_(int64_t(1) << 40);
  expect_error(avro_container(kV1ListSchema, e.str(), 1), ErrorCode::kCorrupt, "");
  // A block that declares a billion objects.
  expect_error(avro_container(kV1ListSchema, objects, 1000000000), ErrorCode::kCorrupt, "");
  // Wrong types for known fields: a path that is an int.
  const char* wrong = R"({"type":"record","name":"m","fields":[{"name":"manifest_path","type":"long"}]})";
  expect_error(avro_container(wrong, AvroEncoder().long_(5).str(), 1), ErrorCode::kCorrupt, "integer");
}

TEST(Avro, SchemaDepthIsBounded) {
  std::string schema = "\"int\"";
  for (int i = 0; i < 200; ++i) schema = R"({"type":"array","items":)" + schema + "}";
  schema = R"({"type":"record","name":"r","fields":[{"name":"a","type":)" + schema + "}]}";
  expect_error(avro_container(schema, "", 0), ErrorCode::kCorrupt, "deep");
}

}  // namespace
}  // namespace parquetry::testing
