// PositionDeleteIndex: set semantics against std::set, and the portable 64-bit
// serialization against CRoaring's own C++ Roaring64Map (the reference the
// Iceberg spec points to), byte for byte.
#include <gtest/gtest.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#include <roaring/roaring64map.hh>
#pragma GCC diagnostic pop

#include <random>
#include <set>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/iceberg.h"

namespace parquetry::iceberg {
namespace {

std::vector<int64_t> positions_of(const PositionDeleteIndex& index) {
  std::vector<int64_t> out;
  index.for_each([&](int64_t p) { out.push_back(p); });
  return out;
}

std::vector<uint8_t> reference_bytes(const std::vector<uint64_t>& values, bool run_optimize) {
  Roaring64Map reference;
  for (uint64_t v : values) reference.add(v);
  if (run_optimize) reference.runOptimize();
  std::vector<uint8_t> bytes(reference.getSizeInBytes(true));
  size_t written = reference.write(reinterpret_cast<char*>(bytes.data()), true);
  EXPECT_EQ(written, bytes.size());
  return bytes;
}

struct NamedSet {
  const char* name;
  std::vector<uint64_t> values;
};

std::vector<NamedSet> reference_sets() {
  std::vector<NamedSet> sets;
  sets.push_back({"empty", {}});
  sets.push_back({"single", {5}});
  sets.push_back({"single_high", {(uint64_t(3) << 32) | 17}});
  {
    NamedSet dense{"dense_range", {}};
    for (uint64_t v = 0; v < 200000; ++v) dense.values.push_back(v);  // bitset containers
    sets.push_back(std::move(dense));
  }
  {
    NamedSet mixed{"mixed_containers", {}};
    for (uint64_t v = 0; v < 70000; v += 3) mixed.values.push_back(v);                   // bitsets
    for (uint64_t v = 1 << 20; v < (1 << 20) + 500; v += 7) mixed.values.push_back(v);   // array
    for (uint64_t v = 5u << 20; v < (5u << 20) + 40000; ++v) mixed.values.push_back(v);  // dense run
    sets.push_back(std::move(mixed));
  }
  {
    NamedSet sparse{"sparse_many_keys", {}};
    for (uint64_t key = 0; key < 300; ++key) {
      sparse.values.push_back((key * 7 << 32) | (key * 2654435761u % 4000000000u));
      sparse.values.push_back((key * 7 << 32) | 1);
    }
    sets.push_back(std::move(sparse));
  }
  {
    NamedSet random{"random_wide", {}};
    std::mt19937_64 rng(42);
    for (int i = 0; i < 5000; ++i) random.values.push_back(rng() % uint64_t(kMaxDeletePosition));
    sets.push_back(std::move(random));
  }
  {
    NamedSet edge{"max_position", {0, uint64_t(kMaxDeletePosition), uint64_t(kMaxDeletePosition) - 1}};
    sets.push_back(std::move(edge));
  }
  return sets;
}

TEST(PositionDeleteIndex, SerializationIsByteIdenticalToRoaring64Map) {
  for (bool optimize : {false, true}) {
    for (const NamedSet& set : reference_sets()) {
      SCOPED_TRACE(std::string(set.name) + (optimize ? " run-optimized" : ""));
      // Container types depend on how values were inserted (add_many turns
      // consecutive runs into range insertions, which build run containers).
      // Unoptimized, insert value by value as the reference does; optimized,
      // take the bulk path: run_optimize makes both canonical.
      PositionDeleteIndex index;
      std::vector<int64_t> signed_values(set.values.begin(), set.values.end());
      if (optimize) {
        index.add_many(signed_values);
        index.run_optimize();
      } else {
        for (int64_t v : signed_values) index.add(v);
      }
      std::vector<uint8_t> expected = reference_bytes(set.values, optimize);
      std::vector<uint8_t> actual = index.serialize_portable();
      EXPECT_EQ(index.portable_size(), expected.size());
      ASSERT_EQ(actual, expected);

      // And back: same positions, same bytes.
      PositionDeleteIndex back = PositionDeleteIndex::deserialize_portable(expected);
      std::set<uint64_t> unique(set.values.begin(), set.values.end());
      EXPECT_EQ(back.cardinality(), int64_t(unique.size()));
      std::vector<int64_t> want(unique.begin(), unique.end());
      EXPECT_EQ(positions_of(back), want);
      EXPECT_EQ(back.serialize_portable(), expected);

      // The reference reads our bytes back to the same set (only for inputs
      // that 0.2.66's unchecked readSafe handles: it reads the count unaligned).
      Roaring64Map reread =
          Roaring64Map::readSafe(reinterpret_cast<const char*>(actual.data()), actual.size());
      EXPECT_EQ(reread.cardinality(), uint64_t(unique.size()));
    }
  }
}

TEST(PositionDeleteIndex, KnownBytesForSmallSets) {
  PositionDeleteIndex index;
  index.add(1);
  index.add(3);
  // count=1 | key=0 | cookie 12346, 1 container | key 0, card-1 = 1 | offset 16 | values 1, 3
  std::vector<uint8_t> expected = {1, 0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0x3A, 0x30, 0, 0,
                                   1, 0, 0, 0, 0, 0, 1, 0, 16, 0, 0, 0, 1,    0,    3, 0};
  EXPECT_EQ(index.serialize_portable(), expected);
  PositionDeleteIndex empty;
  EXPECT_EQ(empty.serialize_portable(), std::vector<uint8_t>(8, 0));
}

TEST(PositionDeleteIndex, AcceptsJavaStyleEmptyBitmapsForUnusedKeys) {
  // Java's RoaringPositionBitmap writes a dense array: keys 0..max, empty
  // bitmaps included. Build keys 0 and 1 empty and key 2 = {1, 2}.
  std::vector<uint8_t> bytes = {3, 0, 0, 0, 0, 0, 0, 0};
  auto empty_bitmap = [&](uint32_t key) {
    for (int i = 0; i < 4; ++i) bytes.push_back(uint8_t(key >> (8 * i)));
    for (uint8_t b : {0x3A, 0x30, 0, 0, 0, 0, 0, 0}) bytes.push_back(b);
  };
  empty_bitmap(0);
  empty_bitmap(1);
  PositionDeleteIndex two;
  two.add((int64_t(2) << 32) | 1);
  two.add((int64_t(2) << 32) | 2);
  std::vector<uint8_t> tail = two.serialize_portable();
  bytes.insert(bytes.end(), tail.begin() + 8, tail.end());
  PositionDeleteIndex index = PositionDeleteIndex::deserialize_portable(bytes);
  EXPECT_EQ(index.cardinality(), 2);
  EXPECT_EQ(index.bitmap_count(), 1u);
  EXPECT_TRUE(index.contains((int64_t(2) << 32) | 1));
  EXPECT_TRUE(index.contains((int64_t(2) << 32) | 2));
  EXPECT_FALSE(index.contains(1));
  EXPECT_EQ(index.serialize_portable(), two.serialize_portable());
}

TEST(PositionDeleteIndex, SetOperationsMatchStdSet) {
  std::mt19937_64 rng(7);
  PositionDeleteIndex index;
  std::set<int64_t> reference;
  for (int round = 0; round < 50; ++round) {
    std::vector<int64_t> batch;
    int64_t base = int64_t(rng() % 4) << 32;
    for (int i = 0; i < 200; ++i) batch.push_back(base + int64_t(rng() % 100000));
    if (round % 2) std::sort(batch.begin(), batch.end());
    index.add_many(batch);
    reference.insert(batch.begin(), batch.end());
    int64_t range_start = base + int64_t(rng() % 100000);
    int64_t range_len = int64_t(rng() % 3000);
    index.add_range(range_start, range_start + range_len);
    for (int64_t p = range_start; p < range_start + range_len; ++p) reference.insert(p);
  }
  EXPECT_EQ(index.cardinality(), int64_t(reference.size()));
  EXPECT_EQ(positions_of(index), std::vector<int64_t>(reference.begin(), reference.end()));
  EXPECT_EQ(index.min(), *reference.begin());
  EXPECT_EQ(index.max(), *reference.rbegin());
  for (int i = 0; i < 2000; ++i) {
    int64_t probe = (int64_t(rng() % 4) << 32) + int64_t(rng() % 104000);
    EXPECT_EQ(index.contains(probe), reference.count(probe) == 1) << probe;
  }
  for (int i = 0; i < 50; ++i) {
    int64_t a = (int64_t(rng() % 4) << 32) + int64_t(rng() % 104000);
    int64_t b = a + int64_t(rng() % (int64_t(1) << 33));
    int64_t expected = std::distance(reference.lower_bound(a), reference.lower_bound(b));
    EXPECT_EQ(index.count_range(a, b), expected);
  }
}

TEST(PositionDeleteIndex, RangeAcrossKeyBoundary) {
  PositionDeleteIndex index;
  int64_t boundary = int64_t(1) << 32;
  index.add_range(boundary - 3, boundary + 2);
  EXPECT_EQ(index.cardinality(), 5);
  EXPECT_EQ(index.bitmap_count(), 2u);
  EXPECT_EQ(positions_of(index),
            (std::vector<int64_t>{boundary - 3, boundary - 2, boundary - 1, boundary, boundary + 1}));
  index.add_range(10, 10);  // empty
  index.add_range(10, 5);   // empty
  EXPECT_EQ(index.cardinality(), 5);
}

TEST(PositionDeleteIndex, ConsecutiveRunsInAddManyBecomeRanges) {
  PositionDeleteIndex index;
  std::vector<int64_t> batch;
  for (int64_t p = 100; p < 5000; ++p) batch.push_back(p);
  batch.push_back(7000);
  batch.push_back(7002);
  index.add_many(batch);
  EXPECT_EQ(index.cardinality(), 4902);
  EXPECT_TRUE(index.contains(4999));
  EXPECT_FALSE(index.contains(5000));
  EXPECT_TRUE(index.contains(7002));
  EXPECT_FALSE(index.contains(7001));
}

// Ascending batches of a position-delete file's size take the bulk build
// (a portable bitmap made directly: bitsets above 4096 values a container,
// arrays below, runs through run_optimize). Every density and shape gives
// the set, and after run_optimize the bytes, of inserting value by value,
// alone and onto an index that already holds other positions.
TEST(PositionDeleteIndex, AscendingBatchesBuildTheSetValueByValueBuilds) {
  std::mt19937_64 rng(31);
  struct Shape {
    const char* name;
    std::vector<int64_t> values;
  };
  std::vector<Shape> shapes;
  auto random_density = [&](const char* name, int64_t base, int64_t span, uint64_t one_in) {
    Shape shape{name, {}};
    for (int64_t p = base; p < base + span; ++p) {
      if (rng() % one_in == 0) shape.values.push_back(p);
    }
    shapes.push_back(std::move(shape));
  };
  random_density("10% of 500,000", 0, 500'000, 10);
  random_density("1% of 300,000", 70'000, 300'000, 100);
  random_density("every position across a high key", (int64_t(1) << 32) - 100'000, 200'000, 1);
  random_density("50% of 2^16 + 5", 65'531, 65'541, 2);
  {
    Shape runs{"runs and a full container", {}};
    for (int64_t p = 131'072; p < 131'072 + 65'536; ++p) runs.values.push_back(p);  // one whole container
    for (int64_t p = 300'000; p < 310'000; p += 3) runs.values.push_back(p);
    for (int64_t p = 400'000; p < 400'300; ++p) runs.values.push_back(p);
    shapes.push_back(std::move(runs));
  }
  {
    Shape exact{"4096 and 4097 in a container", {}};
    for (int64_t p = 0; p < 4096 * 3; p += 3) exact.values.push_back(p);                // 4096: an array
    for (int64_t p = 65'536; p < 65'536 + 4097 * 2; p += 2) exact.values.push_back(p);  // 4097: a bitset
    shapes.push_back(std::move(exact));
  }
  for (const Shape& shape : shapes) {
    SCOPED_TRACE(shape.name);
    ASSERT_GE(shape.values.size(), 256u);  // the bulk path's threshold
    for (bool onto_existing : {false, true}) {
      SCOPED_TRACE(onto_existing ? "onto an index holding other positions" : "into an empty index");
      PositionDeleteIndex bulk, by_value;
      std::set<int64_t> reference(shape.values.begin(), shape.values.end());
      if (onto_existing) {
        for (int64_t p :
             {int64_t(5), int64_t(65'537), shape.values[shape.values.size() / 2] + 1, int64_t(1) << 40}) {
          bulk.add(p);
          by_value.add(p);
          reference.insert(p);
        }
      }
      bulk.add_many(shape.values);
      for (int64_t p : shape.values) by_value.add(p);
      EXPECT_EQ(bulk.cardinality(), int64_t(reference.size()));
      EXPECT_EQ(positions_of(bulk), std::vector<int64_t>(reference.begin(), reference.end()));
      bulk.run_optimize();
      by_value.run_optimize();
      EXPECT_EQ(bulk.serialize_portable(), by_value.serialize_portable());
      EXPECT_EQ(bulk.count_range(shape.values.front(), shape.values.back() + 1),
                std::distance(reference.lower_bound(shape.values.front()),
                              reference.upper_bound(shape.values.back())));
    }
  }
  // Not ascending (a duplicate, then a step back): the value-by-value path,
  // same set.
  std::vector<int64_t> unsorted;
  for (int64_t p = 0; p < 5000; p += 7) unsorted.push_back(p);
  unsorted.push_back(14);
  unsorted.push_back(3);
  PositionDeleteIndex index;
  index.add_many(unsorted);
  std::set<int64_t> reference(unsorted.begin(), unsorted.end());
  EXPECT_EQ(positions_of(index), std::vector<int64_t>(reference.begin(), reference.end()));
}

TEST(PositionDeleteIndex, RejectsOutOfRangePositionsAndStaysUnchanged) {
  PositionDeleteIndex index;
  index.add(3);
  try {
    index.add(-1);
    FAIL() << "negative position accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(e.message().find("-1"), std::string::npos);
  }
  EXPECT_THROW(index.add(kMaxDeletePosition + 1), Error);
  EXPECT_THROW(index.add_range(kMaxDeletePosition, kMaxDeletePosition + 2), Error);
  std::vector<int64_t> batch = {4, 5, -7, 6};
  EXPECT_THROW(index.add_many(batch), Error);
  EXPECT_EQ(positions_of(index), std::vector<int64_t>{3});
  index.add(kMaxDeletePosition);
  EXPECT_TRUE(index.contains(kMaxDeletePosition));
  EXPECT_FALSE(index.contains(-5));
}

TEST(PositionDeleteIndex, MergeCopyMove) {
  PositionDeleteIndex a, b;
  a.add_range(0, 10);
  b.add_range(5, 20);
  b.add((int64_t(9) << 32) + 1);
  a.merge(b);
  EXPECT_EQ(a.cardinality(), 21);
  PositionDeleteIndex copy(a);
  a.add(100);
  EXPECT_EQ(copy.cardinality(), 21);
  EXPECT_EQ(a.cardinality(), 22);
  PositionDeleteIndex moved(std::move(a));
  EXPECT_EQ(moved.cardinality(), 22);
  EXPECT_TRUE(moved.contains((int64_t(9) << 32) + 1));
  copy = moved;
  EXPECT_EQ(copy.serialize_portable(), moved.serialize_portable());
  // Growing past the inline slot and back through moves.
  PositionDeleteIndex many;
  for (int64_t key = 10; key >= 0; --key) many.add((key << 32) + key);
  EXPECT_EQ(many.bitmap_count(), 11u);
  PositionDeleteIndex many_moved = std::move(many);
  EXPECT_EQ(positions_of(many_moved).front(), 0);
  EXPECT_EQ(positions_of(many_moved).back(), (int64_t(10) << 32) + 10);
}

TEST(PositionDeleteIndex, CursorBatchesAndBounds) {
  PositionDeleteIndex index;
  std::set<int64_t> reference;
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) {
    int64_t p = (int64_t(rng() % 3) << 32) + int64_t(rng() % 50000);
    index.add(p);
    reference.insert(p);
  }
  for (int trial = 0; trial < 30; ++trial) {
    int64_t from = (int64_t(rng() % 3) << 32) + int64_t(rng() % 60000) - 5000;
    int64_t to = from + int64_t(rng() % (int64_t(1) << 33));
    std::vector<int64_t> got;
    PositionCursor cursor(index, from, to);
    int64_t buffer[37];  // an odd size, to cross chunk and key boundaries
    for (size_t n; (n = cursor.next(buffer)) != 0;) got.insert(got.end(), buffer, buffer + n);
    std::vector<int64_t> want(reference.lower_bound(from), reference.lower_bound(to));
    EXPECT_EQ(got, want) << from << " " << to;
  }
}

// deleted_bitmap reads the index's containers directly: array, bitset and
// run containers (and the small inline form), windows at any bit alignment,
// across container and 2^32 key boundaries, starting before row 0, and
// never writing past its (num_rows + 7) / 8 bytes.
TEST(PositionDeleteIndex, DeletedBitmapReadsEveryContainerKind) {
  std::mt19937_64 rng(41);
  const int64_t high = int64_t(1) << 32;
  std::set<int64_t> reference;
  PositionDeleteIndex index;
  std::vector<int64_t> dense, sparse;
  for (int64_t p = 0; p < 200'000; ++p) {
    if (rng() % 10 == 0) dense.push_back(p);  // bitset containers
  }
  for (int64_t p = 200'000; p < 400'000; p += 97) sparse.push_back(p);  // array containers
  index.add_many(dense);
  index.add_many(sparse);
  index.add_range(450'000, 600'000);             // run containers, one a whole chunk
  index.add_range(high - 70'000, high + 3'000);  // across the key boundary
  index.add(high + 65'536 * 3 + 5);
  index.run_optimize();
  reference.insert(dense.begin(), dense.end());
  reference.insert(sparse.begin(), sparse.end());
  for (int64_t p = 450'000; p < 600'000; ++p) reference.insert(p);
  for (int64_t p = high - 70'000; p < high + 3'000; ++p) reference.insert(p);
  reference.insert(high + 65'536 * 3 + 5);

  PositionDeleteIndex small;  // the inline form
  small.add(3);
  small.add(70);
  const std::set<int64_t> small_reference{3, 70};

  struct Window {
    int64_t first, rows;
  };
  std::vector<Window> windows = {{0, 200'000},         {-13, 300},
                                 {65'531, 70'001},     {199'999, 250'003},
                                 {449'995, 150'011},   {high - 70'003, 73'010},
                                 {high + 196'600, 17}, {7, 1},
                                 {600'000, 5'000}};
  for (int i = 0; i < 40; ++i) {
    const int64_t first = int64_t(rng() % 620'000) - 5;
    windows.push_back({first, int64_t(rng() % 90'000) + 1});
  }
  for (const Window& w : windows) {
    for (bool use_small : {false, true}) {
      const PositionDeleteIndex& idx = use_small ? small : index;
      const std::set<int64_t>& model = use_small ? small_reference : reference;
      SCOPED_TRACE("first " + std::to_string(w.first) + " rows " + std::to_string(w.rows) +
                   (use_small ? " (small)" : ""));
      const size_t bytes = size_t((w.rows + 7) / 8);
      std::vector<uint8_t> bits(bytes + 9, 0xA5);
      idx.deleted_bitmap(w.first, w.rows, bits.data());
      int64_t wrong = 0;
      for (int64_t i = 0; i < w.rows; ++i) {
        const bool want = model.count(w.first + i) == 1;
        const bool got = (bits[size_t(i / 8)] >> (i % 8)) & 1;
        wrong += want != got;
      }
      EXPECT_EQ(wrong, 0);
      for (size_t b = bytes; b < bits.size(); ++b) EXPECT_EQ(bits[b], 0xA5) << "byte " << b;
    }
  }
}

TEST(PositionDeleteIndex, DeletedBitmapForRowRanges) {
  PositionDeleteIndex index;
  index.add_range(10, 20);
  index.add(64);
  index.add(1000);
  std::vector<uint8_t> bits(16, 0xAA);
  index.deleted_bitmap(8, 100, bits.data());
  for (int64_t i = 0; i < 100; ++i) {
    int64_t row = 8 + i;
    bool deleted = (row >= 10 && row < 20) || row == 64;
    EXPECT_EQ(bool((bits[size_t(i / 8)] >> (i % 8)) & 1), deleted) << row;
  }
  EXPECT_EQ(bits[13], 0xAA);  // bytes past (100 + 7) / 8 are untouched
}

}  // namespace
}  // namespace parquetry::iceberg

namespace parquetry::iceberg {
namespace {

// Up to three positions are held inline; every operation must agree with the
// bitmap representation across the switch.
TEST(PositionDeleteIndex, SmallSetsAcrossTheInlineLimit) {
  std::mt19937_64 rng(21);
  for (int trial = 0; trial < 300; ++trial) {
    size_t n = rng() % 7;
    std::vector<int64_t> values;
    for (size_t i = 0; i < n; ++i) values.push_back((int64_t(rng() % 3) << 32) + int64_t(rng() % 5));
    std::set<int64_t> want(values.begin(), values.end());
    PositionDeleteIndex one_by_one, bulk, merged, ranged;
    for (int64_t v : values) one_by_one.add(v);
    bulk.add_many(values);
    for (int64_t v : values) {
      PositionDeleteIndex single;
      single.add(v);
      merged.merge(single);
    }
    for (int64_t v : values) ranged.add_range(v, v + 1);
    std::vector<uint64_t> unsigned_values(values.begin(), values.end());
    std::vector<uint8_t> reference = reference_bytes(unsigned_values, false);
    for (PositionDeleteIndex* index : {&one_by_one, &bulk, &merged, &ranged}) {
      EXPECT_EQ(index->cardinality(), int64_t(want.size()));
      EXPECT_EQ(index->empty(), want.empty());
      EXPECT_EQ(positions_of(*index), std::vector<int64_t>(want.begin(), want.end()));
      EXPECT_EQ(index->serialize_portable(), reference);
      EXPECT_EQ(index->min(), want.empty() ? -1 : *want.begin());
      EXPECT_EQ(index->max(), want.empty() ? -1 : *want.rbegin());
      EXPECT_EQ(index->count_range(1, (int64_t(1) << 32) + 3),
                std::distance(want.lower_bound(1), want.lower_bound((int64_t(1) << 32) + 3)));
      for (int64_t probe = 0; probe < 6; ++probe) EXPECT_EQ(index->contains(probe), want.count(probe) == 1);
      PositionDeleteIndex copy(*index);
      PositionDeleteIndex moved(std::move(copy));
      EXPECT_EQ(positions_of(moved), std::vector<int64_t>(want.begin(), want.end()));
      EXPECT_TRUE(copy.empty());
      std::vector<int64_t> ranged_positions;
      PositionCursor cursor(moved, 2, (int64_t(2) << 32) + 2);
      int64_t buffer[2];
      for (size_t k; (k = cursor.next(buffer)) != 0;)
        ranged_positions.insert(ranged_positions.end(), buffer, buffer + k);
      EXPECT_EQ(ranged_positions,
                std::vector<int64_t>(want.lower_bound(2), want.lower_bound((int64_t(2) << 32) + 2)));
    }
    // Merging a bitmap-backed index into a small one.
    PositionDeleteIndex big;
    big.add_range(100, 200);
    PositionDeleteIndex small;
    small.add(7);
    small.merge(big);
    EXPECT_EQ(small.cardinality(), 101);
    EXPECT_TRUE(small.contains(7));
    EXPECT_TRUE(small.contains(150));
  }
  PositionDeleteIndex small;
  small.add(3);
  std::vector<uint8_t> bits(2, 0xFF);
  small.deleted_bitmap(0, 16, bits.data());
  EXPECT_EQ(bits[0], 0x08);
  EXPECT_EQ(bits[1], 0x00);
  EXPECT_EQ(deserialize_deletion_vector(serialize_deletion_vector(small), 1).min(), 3);
}

}  // namespace
}  // namespace parquetry::iceberg
