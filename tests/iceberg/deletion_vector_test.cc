// deletion-vector-v1 blobs: exact framing, round trips, and rejection of every
// kind of damage with a message that names it.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/iceberg.h"

namespace parquetry::iceberg {
namespace {

void put_be32(std::vector<uint8_t>& out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + size_t(i)] = uint8_t(v >> (24 - 8 * i));
}

// Wraps raw bitmap bytes in a correctly framed DV (length, magic, CRC), so
// that tests reach the bitmap checks behind the frame checks.
std::vector<uint8_t> frame(const std::vector<uint8_t>& bitmap) {
  std::vector<uint8_t> out(12 + bitmap.size());
  put_be32(out, 0, uint32_t(4 + bitmap.size()));
  std::memcpy(out.data() + 4, kDeletionVectorMagic, 4);
  if (!bitmap.empty()) std::memcpy(out.data() + 8, bitmap.data(), bitmap.size());
  uint32_t crc = uint32_t(crc32(0, out.data() + 4, uInt(4 + bitmap.size())));
  put_be32(out, out.size() - 4, crc);
  return out;
}

std::string error_of(const std::vector<uint8_t>& blob, std::optional<int64_t> cardinality = std::nullopt) {
  try {
    deserialize_deletion_vector(blob, cardinality);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCorrupt) << e.what();
    return e.message();
  }
  ADD_FAILURE() << "accepted a damaged deletion vector";
  return {};
}

PositionDeleteIndex sample_index() {
  // Array, bitset and run containers, and three high keys.
  PositionDeleteIndex index;
  for (int64_t p = 0; p < 20000; p += 3) index.add(p);
  index.add_range(100000, 140000);
  index.add_many(std::vector<int64_t>{(int64_t(1) << 32) + 5, (int64_t(1) << 32) + 9, (int64_t(7) << 32)});
  index.run_optimize();
  return index;
}

TEST(DeletionVector, FramingBytes) {
  PositionDeleteIndex index;
  index.add(1);
  index.add(3);
  std::vector<uint8_t> blob = serialize_deletion_vector(index);
  ASSERT_EQ(blob.size(), 12u + 32u);
  EXPECT_EQ(deletion_vector_size(index), blob.size());
  // Big-endian length of magic + 32-byte bitmap.
  EXPECT_EQ(std::vector<uint8_t>(blob.begin(), blob.begin() + 8),
            (std::vector<uint8_t>{0, 0, 0, 36, 0xD1, 0xD3, 0x39, 0x64}));
  EXPECT_EQ(std::vector<uint8_t>(blob.begin() + 8, blob.end() - 4), index.serialize_portable());
  uint32_t crc = uint32_t(crc32(0, blob.data() + 4, 36));
  EXPECT_EQ(blob[40], uint8_t(crc >> 24));
  EXPECT_EQ(blob[43], uint8_t(crc));
}

TEST(DeletionVector, RoundTrip) {
  PositionDeleteIndex index = sample_index();
  std::vector<uint8_t> blob = serialize_deletion_vector(index);
  PositionDeleteIndex back = deserialize_deletion_vector(blob, index.cardinality());
  EXPECT_EQ(back.cardinality(), 6667 + 40000 + 3);
  EXPECT_TRUE(back.contains(19998));
  EXPECT_FALSE(back.contains(19999));
  EXPECT_TRUE(back.contains(139999));
  EXPECT_TRUE(back.contains(int64_t(7) << 32));
  EXPECT_EQ(back.serialize_portable(), index.serialize_portable());
  PositionDeleteIndex empty;
  EXPECT_EQ(deserialize_deletion_vector(serialize_deletion_vector(empty), 0).cardinality(), 0);
}

TEST(DeletionVector, RejectsBadCrc) {
  std::vector<uint8_t> blob = serialize_deletion_vector(sample_index());
  blob.back() ^= 1;
  EXPECT_NE(error_of(blob).find("CRC-32 mismatch"), std::string::npos);
  blob = serialize_deletion_vector(sample_index());
  blob[20] ^= 0x40;  // damage inside the bitmap
  EXPECT_NE(error_of(blob).find("CRC-32 mismatch"), std::string::npos);
}

TEST(DeletionVector, RejectsBadMagic) {
  std::vector<uint8_t> blob = serialize_deletion_vector(sample_index());
  blob[5] = 0;
  EXPECT_NE(error_of(blob).find("bad magic"), std::string::npos);
}

TEST(DeletionVector, RejectsBadLength) {
  std::vector<uint8_t> blob = serialize_deletion_vector(sample_index());
  blob[3] += 1;
  EXPECT_NE(error_of(blob).find("length field"), std::string::npos);
  blob[3] -= 2;
  EXPECT_NE(error_of(blob).find("length field"), std::string::npos);
  blob = serialize_deletion_vector(sample_index());
  blob.push_back(0);  // trailing byte after the CRC
  EXPECT_NE(error_of(blob).find("length field"), std::string::npos);
}

TEST(DeletionVector, RejectsCardinalityMismatch) {
  PositionDeleteIndex index = sample_index();
  std::vector<uint8_t> blob = serialize_deletion_vector(index);
  std::string message = error_of(blob, index.cardinality() + 1);
  EXPECT_NE(message.find("holds 46670 positions, metadata says 46671"), std::string::npos) << message;
}

TEST(DeletionVector, RejectsUnsortedKeys) {
  PositionDeleteIndex key1, key0;
  key1.add((int64_t(1) << 32) + 2);
  key0.add(2);
  std::vector<uint8_t> a = key1.serialize_portable(), b = key0.serialize_portable();
  std::vector<uint8_t> bitmap = {2, 0, 0, 0, 0, 0, 0, 0};
  bitmap.insert(bitmap.end(), a.begin() + 8, a.end());
  bitmap.insert(bitmap.end(), b.begin() + 8, b.end());
  EXPECT_NE(error_of(frame(bitmap)).find("not strictly ascending"), std::string::npos);
  // Duplicate keys are unsorted too.
  bitmap = {2, 0, 0, 0, 0, 0, 0, 0};
  bitmap.insert(bitmap.end(), b.begin() + 8, b.end());
  bitmap.insert(bitmap.end(), b.begin() + 8, b.end());
  EXPECT_NE(error_of(frame(bitmap)).find("not strictly ascending"), std::string::npos);
}

TEST(DeletionVector, RejectsKeysAndPositionsBeyondTheLimit) {
  PositionDeleteIndex index;
  index.add(kMaxDeletePosition);
  std::vector<uint8_t> bitmap = index.serialize_portable();
  EXPECT_EQ(deserialize_deletion_vector(frame(bitmap)).max(), kMaxDeletePosition);
  // Same key, low bits one past the limit: patch the array value 0x8000 -> 0x8001.
  std::vector<uint8_t> past = bitmap;
  // The container under high 16 bits 0x8000 holds low 16 bits 0; make it 1.
  ASSERT_EQ(past[past.size() - 2], 0x00);
  past[past.size() - 2] = 0x01;
  EXPECT_NE(error_of(frame(past)).find("position"), std::string::npos);
  // Key 0x7FFFFFFF (INT32_MAX) is rejected.
  std::vector<uint8_t> key = bitmap;
  key[8 + 0] = 0xFF;
  key[8 + 3] = 0x7F;
  EXPECT_NE(error_of(frame(key)).find("exceeds the largest allowed key"), std::string::npos);
}

TEST(DeletionVector, RejectsHostileCountsAndContainers) {
  // A count of 2^62 bitmaps in a 16-byte input.
  std::vector<uint8_t> bitmap = {0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_NE(error_of(frame(bitmap)).find("cannot fit"), std::string::npos);
  // Unknown cookie.
  bitmap = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x99, 0x30, 0, 0, 0, 0, 0, 0};
  EXPECT_NE(error_of(frame(bitmap)).find("unknown cookie"), std::string::npos);
  // Array container with unsorted values: {1, 3} -> {3, 1}.
  PositionDeleteIndex small;
  small.add(1);
  small.add(3);
  bitmap = small.serialize_portable();
  std::swap(bitmap[28], bitmap[30]);
  EXPECT_NE(error_of(frame(bitmap)).find("not strictly ascending"), std::string::npos);
  // Header cardinality larger than the array payload.
  bitmap = small.serialize_portable();
  bitmap[22] = 200;
  EXPECT_NE(error_of(frame(bitmap)).find("truncated"), std::string::npos);
  // Bytes after the last bitmap.
  bitmap = small.serialize_portable();
  bitmap.push_back(0);
  EXPECT_NE(error_of(frame(bitmap)).find("unexpected bytes"), std::string::npos);
  // Bitset container whose popcount disagrees with its header.
  PositionDeleteIndex dense;
  dense.add_many(std::vector<int64_t>{});
  for (int64_t p = 0; p < 10000; p += 2) dense.add(p);
  bitmap = dense.serialize_portable();
  bitmap.back() |= 0x80;  // one more bit in the last bitset word
  EXPECT_NE(error_of(frame(bitmap)).find("bitset container holds"), std::string::npos);
  // Run container whose runs overlap.
  PositionDeleteIndex runs;
  runs.add_range(0, 100);
  runs.add_range(200, 300);
  runs.run_optimize();
  bitmap = runs.serialize_portable();
  // Layout: count(8) key(4) cookie(4) runflags(1) header(4) nruns(2) runs...
  size_t second_run = 8 + 4 + 4 + 1 + 4 + 2 + 4;
  bitmap[second_run] = 50;  // second run now starts at 50, overlapping the first
  bitmap[second_run + 1] = 0;
  EXPECT_NE(error_of(frame(bitmap)).find("runs overlap"), std::string::npos);
}

TEST(DeletionVector, RejectsTruncationAtEveryByte) {
  std::vector<uint8_t> blob = serialize_deletion_vector(sample_index());
  for (size_t cut = 0; cut < blob.size(); ++cut) {
    std::vector<uint8_t> prefix(blob.begin(), blob.begin() + ptrdiff_t(cut));
    EXPECT_THROW(deserialize_deletion_vector(prefix), Error) << cut;
  }
  // The bare bitmap too: every prefix is rejected, also with a correct frame.
  std::vector<uint8_t> bitmap = sample_index().serialize_portable();
  for (size_t cut = 0; cut < bitmap.size(); cut += (cut < 200 ? 1 : 97)) {
    std::vector<uint8_t> prefix(bitmap.begin(), bitmap.begin() + ptrdiff_t(cut));
    EXPECT_THROW(PositionDeleteIndex::deserialize_portable(prefix), Error) << cut;
    EXPECT_THROW(deserialize_deletion_vector(frame(prefix)), Error) << cut;
  }
}

TEST(DeletionVector, RandomDamageNeverCrashes) {
  // Damage behind a correct frame reaches the bitmap parser; it must either
  // reject the bytes or decode a set that serializes consistently.
  std::vector<uint8_t> bitmap = sample_index().serialize_portable();
  std::mt19937 rng(99);
  int rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint8_t> damaged = bitmap;
    int flips = 1 + int(rng() % 3);
    for (int f = 0; f < flips; ++f) {
      size_t at = rng() % std::min<size_t>(damaged.size(), trial % 2 ? 64 : damaged.size());
      damaged[at] ^= uint8_t(1u << (rng() % 8));
    }
    try {
      PositionDeleteIndex index = deserialize_deletion_vector(frame(damaged));
      EXPECT_EQ(int64_t(index.portable_size()) > 0, true);
      int64_t count = 0;
      int64_t last = -1;
      index.for_each([&](int64_t p) {
        EXPECT_GT(p, last);
        last = p;
        ++count;
      });
      EXPECT_EQ(count, index.cardinality());
    } catch (const Error&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 1000);
}

}  // namespace
}  // namespace parquetry::iceberg
