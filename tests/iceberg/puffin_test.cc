// Puffin files: several DVs per file addressed by offset and length, other
// blobs compressed with lz4/zstd, compressed footers, and damaged files.
#include <gtest/gtest.h>
#include <lz4frame.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/iceberg.h"

namespace parquetry::iceberg {
namespace {

std::string as_string(const std::vector<uint8_t>& bytes) { return {bytes.begin(), bytes.end()}; }

PositionDeleteIndex index_of(std::initializer_list<int64_t> positions) {
  PositionDeleteIndex index;
  index.add_many(std::vector<int64_t>(positions));
  return index;
}

TEST(Puffin, ExactBytesOfASmallFile) {
  PuffinWriter writer(PuffinWriterOptions{.compress_footer = false, .created_by = "test"});
  const std::vector<uint8_t> payload = {'a', 'b', 'c'};
  const PuffinBlobMetadata& blob = writer.add_blob("some-blob", {1, 2}, payload);
  EXPECT_EQ(blob.offset, 4);
  EXPECT_EQ(blob.length, 3);
  std::vector<uint8_t> file = writer.finish();
  std::string json =
      "{\"blobs\":[{\"type\":\"some-blob\",\"fields\":[1,2],\"snapshot-id\":-1,\"sequence-number\":-1,"
      "\"offset\":4,\"length\":3}],\"properties\":{\"created-by\":\"test\"}}";
  std::string expected = "PFA1abcPFA1" + json;
  expected += std::string{char(json.size()), char(json.size() >> 8), 0, 0};  // payload size, LE
  expected += std::string(4, '\0');                                          // flags
  expected += "PFA1";
  EXPECT_EQ(as_string(file), expected);
}

TEST(Puffin, SeveralDeletionVectorsRoundTrip) {
  for (bool compress_footer : {false, true}) {
    SCOPED_TRACE(compress_footer);
    PuffinWriter writer(PuffinWriterOptions{.compress_footer = compress_footer});
    PositionDeleteIndex a = index_of({0, 1, 2, 100});
    PositionDeleteIndex b;
    b.add_range(5, 70000);
    b.run_optimize();
    PositionDeleteIndex c = index_of({(int64_t(2) << 32) + 7});
    std::string path_a = "s3://bucket/table/data/00000-a.parquet";
    std::string path_b = "s3://bucket/table/data/\"quoted\"\\name\n.parquet";  // JSON escaping
    std::string path_c = "s3://bucket/table/data/ünïcode.parquet";
    PuffinBlobMetadata meta_a = writer.add_deletion_vector(path_a, a);
    std::vector<uint8_t> stats(5000, 'x');
    PuffinBlobMetadata meta_stats = writer.add_blob("apache-datasketches-theta-v1", {3}, stats,
                                                    PuffinCodec::kZstd, {{"ndv", "1"}}, 77, 3);
    PuffinBlobMetadata meta_b = writer.add_deletion_vector(path_b, b);
    PuffinBlobMetadata meta_lz4 = writer.add_blob("other", {}, stats, PuffinCodec::kLz4);
    PuffinBlobMetadata meta_c = writer.add_deletion_vector(path_c, c);
    writer.set_property("note", "two\tlines");
    std::vector<uint8_t> file = writer.finish();

    PuffinReader reader(file);
    const PuffinFileMetadata& metadata = reader.metadata();
    ASSERT_EQ(metadata.blobs.size(), 5u);
    ASSERT_NE(metadata.property("created-by"), nullptr);
    EXPECT_EQ(*metadata.property("created-by"), std::string("parquetry ") + PARQUETRY_VERSION_STRING);
    EXPECT_EQ(*metadata.property("note"), "two\tlines");

    const PuffinBlobMetadata& read_a = metadata.blobs[0];
    EXPECT_EQ(read_a.type, "deletion-vector-v1");
    EXPECT_EQ(read_a.fields, std::vector<int32_t>{kRowPositionFieldId});
    EXPECT_EQ(read_a.snapshot_id, -1);
    EXPECT_EQ(read_a.sequence_number, -1);
    EXPECT_EQ(read_a.offset, 4);
    EXPECT_EQ(read_a.offset, meta_a.offset);
    EXPECT_EQ(read_a.length, meta_a.length);
    EXPECT_EQ(read_a.codec, PuffinCodec::kNone);
    EXPECT_EQ(*read_a.property("referenced-data-file"), path_a);
    EXPECT_EQ(*read_a.property("cardinality"), "4");
    EXPECT_EQ(*metadata.blobs[2].property("referenced-data-file"), path_b);
    EXPECT_EQ(*metadata.blobs[2].property("cardinality"), "69995");
    EXPECT_EQ(*metadata.blobs[4].property("referenced-data-file"), path_c);

    // Through the reader, checked against the cardinality property.
    EXPECT_EQ(reader.read_deletion_vector(metadata.blobs[0]).serialize_portable(), a.serialize_portable());
    EXPECT_EQ(reader.read_deletion_vector(metadata.blobs[2]).cardinality(), 69995);
    EXPECT_TRUE(reader.read_deletion_vector(metadata.blobs[4]).contains((int64_t(2) << 32) + 7));
    // As a manifest addresses them: content_offset, content_size_in_bytes, record_count.
    PositionDeleteIndex direct_b = read_deletion_vector(file, meta_b.offset, meta_b.length, 69995);
    EXPECT_TRUE(direct_b.contains(69999));
    EXPECT_FALSE(direct_b.contains(70000));
    EXPECT_EQ(read_deletion_vector(file, meta_c.offset, meta_c.length, 1).max(), (int64_t(2) << 32) + 7);
    EXPECT_THROW(read_deletion_vector(file, meta_c.offset, meta_c.length, 2), Error);
    EXPECT_THROW(read_deletion_vector(file, meta_c.offset + 1, meta_c.length, 1), Error);
    EXPECT_THROW(read_deletion_vector(file, meta_c.offset, int64_t(file.size()), 1), Error);

    // Compressed blobs.
    const PuffinBlobMetadata& read_stats = metadata.blobs[1];
    EXPECT_EQ(read_stats.codec, PuffinCodec::kZstd);
    EXPECT_EQ(read_stats.snapshot_id, 77);
    EXPECT_EQ(read_stats.sequence_number, 3);
    EXPECT_EQ(read_stats.fields, std::vector<int32_t>{3});
    EXPECT_LT(read_stats.length, 5000);
    EXPECT_EQ(reader.read_blob(read_stats), stats);
    EXPECT_EQ(metadata.blobs[3].codec, PuffinCodec::kLz4);
    EXPECT_EQ(reader.read_blob(metadata.blobs[3]), stats);
    EXPECT_EQ(metadata.blobs[3].offset, meta_lz4.offset);
    EXPECT_EQ(metadata.blobs[1].offset, meta_stats.offset);
    EXPECT_THROW(reader.read_deletion_vector(read_stats), Error);  // not a DV
  }
}

TEST(Puffin, CompressedFooterSetsFlagBit) {
  PuffinWriter writer(PuffinWriterOptions{.compress_footer = true});
  writer.add_deletion_vector("f", index_of({1}));
  std::vector<uint8_t> file = writer.finish();
  EXPECT_EQ(file[file.size() - 8], 1);
  // The payload is an LZ4 frame (magic 04 22 4D 18) right after the footer magic.
  int32_t payload_size;
  std::memcpy(&payload_size, file.data() + file.size() - 12, 4);
  size_t payload_at = file.size() - 12 - size_t(payload_size);
  EXPECT_EQ(file[payload_at], 0x04);
  EXPECT_EQ(file[payload_at + 3], 0x18);
  EXPECT_EQ(PuffinReader(file).metadata().blobs.size(), 1u);
}

std::vector<uint8_t> sample_file() {
  PuffinWriter writer;
  writer.add_deletion_vector("s3://b/f1.parquet", index_of({1, 2, 3}));
  writer.add_deletion_vector("s3://b/f2.parquet", index_of({9}));
  return writer.finish();
}

std::string reader_error(const std::vector<uint8_t>& file) {
  try {
    PuffinReader reader(file);
  } catch (const Error& e) {
    return e.message();
  }
  ADD_FAILURE() << "accepted a damaged Puffin file";
  return {};
}

// Rebuilds a file with `json` as its (uncompressed) footer payload.
std::vector<uint8_t> with_footer(const std::string& blobs_area, const std::string& json, uint8_t flags = 0) {
  std::string file = "PFA1" + blobs_area + "PFA1" + json;
  uint32_t size = uint32_t(json.size());
  file.append(reinterpret_cast<const char*>(&size), 4);
  file += std::string{char(flags), 0, 0, 0};
  file += "PFA1";
  return {file.begin(), file.end()};
}

TEST(Puffin, RejectsDamagedFiles) {
  std::vector<uint8_t> good = sample_file();
  ASSERT_EQ(PuffinReader(good).metadata().blobs.size(), 2u);

  std::vector<uint8_t> file = good;
  file[0] = 'X';
  EXPECT_NE(reader_error(file).find("start of the file"), std::string::npos);
  file = good;
  file.back() = 'X';
  EXPECT_NE(reader_error(file).find("end of the file"), std::string::npos);
  file = good;
  file[file.size() - 9] = 0x7F;  // payload size huge
  EXPECT_NE(reader_error(file).find("exceeds the file"), std::string::npos);
  file = good;
  file[file.size() - 9] = 0x80;  // payload size negative
  EXPECT_NE(reader_error(file).find("negative"), std::string::npos);
  file = good;
  file[file.size() - 12] += 1;  // payload size off by one: footer magic misplaced
  EXPECT_NE(reader_error(file).find("start of the footer"), std::string::npos);
  file = good;
  file[file.size() - 8] = 2;  // reserved flag bit
  try {
    PuffinReader reader(file);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
  }
  file = good;
  file[file.size() - 8] = 1;  // claims compression, but the payload is JSON
  EXPECT_NE(reader_error(file).find("LZ4"), std::string::npos);

  // Footer JSON problems.
  EXPECT_NE(reader_error(with_footer("", "{\"blobs\":[")).find("not valid JSON"), std::string::npos);
  EXPECT_NE(reader_error(with_footer("", "[]")).find("not a JSON object"), std::string::npos);
  EXPECT_NE(reader_error(with_footer("", "{}")).find("\"blobs\""), std::string::npos);
  std::string blob_json =
      "{\"blobs\":[{\"type\":\"x\",\"fields\":[],\"snapshot-id\":1,\"sequence-number\":1,\"offset\":4,"
      "\"length\":";
  EXPECT_NE(reader_error(with_footer("abc", blob_json + "4}]}")).find("outside the blob area"),
            std::string::npos);
  EXPECT_NE(reader_error(with_footer("abc", blob_json + "-1}]}")).find("outside the blob area"),
            std::string::npos);
  EXPECT_NE(reader_error(with_footer("abc", blob_json + "\"3\"}]}")).find("not a 64-bit integer"),
            std::string::npos);
  EXPECT_EQ(PuffinReader(with_footer("abc", blob_json + "3}]}")).metadata().blobs[0].length, 3);
  EXPECT_NE(reader_error(
                with_footer("abc", "{\"blobs\":[{\"type\":\"x\",\"fields\":[],\"offset\":4,\"length\":3}]}"))
                .find("snapshot-id"),
            std::string::npos);
  try {
    PuffinReader reader(with_footer("abc", blob_json + "3,\"compression-codec\":\"snappy\"}]}"));
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_NE(e.message().find("snappy"), std::string::npos);
  }
}

TEST(Puffin, RejectsTruncationAtEveryByte) {
  std::vector<uint8_t> good = sample_file();
  for (size_t cut = 0; cut < good.size(); ++cut) {
    std::vector<uint8_t> prefix(good.begin(), good.begin() + ptrdiff_t(cut));
    EXPECT_THROW(PuffinReader reader(prefix), Error) << cut;
  }
}

TEST(Puffin, RejectsDamagedCompressedBlobs) {
  PuffinWriter writer;
  std::vector<uint8_t> data(3000, 'q');
  writer.add_blob("z", {}, data, PuffinCodec::kZstd);
  writer.add_blob("l", {}, data, PuffinCodec::kLz4);
  std::vector<uint8_t> file = writer.finish();
  PuffinReader reader(file);
  PuffinBlobMetadata z = reader.metadata().blobs[0];
  PuffinBlobMetadata l = reader.metadata().blobs[1];
  EXPECT_EQ(reader.read_blob(z), data);
  EXPECT_EQ(reader.read_blob(l), data);
  for (PuffinBlobMetadata blob : {z, l}) {
    blob.length -= 1;  // truncated frame
    EXPECT_THROW(reader.read_blob(blob), Error);
  }
  Limits tight;
  tight.max_page_size = 1000;
  PuffinReader limited(file, tight);
  EXPECT_THROW(limited.read_blob(z), Error);
  EXPECT_THROW(limited.read_blob(l), Error);
}

}  // namespace
}  // namespace parquetry::iceberg

namespace parquetry::iceberg {
namespace {

TEST(Puffin, RandomDamageIsRejectedOrHarmless) {
  for (bool compress_footer : {false, true}) {
    PuffinWriter writer(PuffinWriterOptions{.compress_footer = compress_footer});
    PositionDeleteIndex a;
    a.add_range(0, 5000);
    a.add(123456);
    writer.add_deletion_vector("s3://bucket/a.parquet", a);
    writer.add_deletion_vector("s3://bucket/b.parquet", index_of({1, 5, 9}));
    std::vector<uint8_t> good = writer.finish();
    std::mt19937 rng(compress_footer ? 5 : 6);
    int parsed = 0, rejected = 0;
    for (int trial = 0; trial < 2000; ++trial) {
      std::vector<uint8_t> file = good;
      int flips = 1 + int(rng() % 3);
      for (int f = 0; f < flips; ++f) file[rng() % file.size()] ^= uint8_t(1u << (rng() % 8));
      try {
        PuffinReader reader(file);
        ++parsed;
        for (const PuffinBlobMetadata& blob : reader.metadata().blobs) {
          try {
            PositionDeleteIndex index = reader.read_deletion_vector(blob);
            const std::string* cardinality = blob.property("cardinality");
            ASSERT_NE(cardinality, nullptr);
            EXPECT_EQ(std::to_string(index.cardinality()), *cardinality);
          } catch (const Error&) {
            ++rejected;
          }
        }
      } catch (const Error&) {
        ++rejected;
      }
    }
    EXPECT_GT(rejected, 1000);
    EXPECT_GT(parsed, 0);
  }
}

}  // namespace
}  // namespace parquetry::iceberg

namespace parquetry::iceberg {
namespace {

TEST(Puffin, DeletionVectorBlobsNeedTheirProperties) {
  std::vector<uint8_t> file = sample_file();
  PuffinReader reader(file);
  PuffinBlobMetadata blob = reader.metadata().blobs[0];
  EXPECT_EQ(reader.read_deletion_vector(blob).cardinality(), 3);
  for (const char* bad : {"", "+3", " 3", "3 ", "-3", "0x3", "99999999999999999999"}) {
    PuffinBlobMetadata copy = blob;
    copy.properties = {{"referenced-data-file", "s3://b/f1.parquet"}, {"cardinality", bad}};
    EXPECT_THROW(reader.read_deletion_vector(copy), Error) << bad;
  }
  PuffinBlobMetadata wrong = blob;
  wrong.properties = {{"referenced-data-file", "s3://b/f1.parquet"}, {"cardinality", "4"}};
  EXPECT_THROW(reader.read_deletion_vector(wrong), Error);
  PuffinBlobMetadata no_file = blob;
  no_file.properties = {{"cardinality", "3"}};
  EXPECT_THROW(reader.read_deletion_vector(no_file), Error);
  PuffinBlobMetadata no_count = blob;
  no_count.properties = {{"referenced-data-file", "s3://b/f1.parquet"}};
  EXPECT_THROW(reader.read_deletion_vector(no_count), Error);
}

}  // namespace
}  // namespace parquetry::iceberg
