// Byte sources and sinks.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/io/read_ahead.h"
#include "test_support.h"

namespace parquetry {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> pattern(size_t n) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + 3);
  return bytes;
}

void write_at(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::string write_file(const std::string& name, const std::vector<uint8_t>& bytes) {
  auto path = (testing::temp_dir() / name).string();
  write_at(path, bytes);
  return path;
}

void check_source(RandomAccessSource& source, const std::vector<uint8_t>& expected) {
  ASSERT_EQ(source.size(), static_cast<int64_t>(expected.size()));
  Buffer scratch;
  auto all = source.read(0, source.size(), scratch);
  ASSERT_EQ(all.size(), expected.size());
  EXPECT_TRUE(std::equal(all.begin(), all.end(), expected.begin()));
  auto middle = source.read(1000, 17, scratch);
  ASSERT_EQ(middle.size(), 17u);
  EXPECT_EQ(middle[0], expected[1000]);
  EXPECT_EQ(middle[16], expected[1016]);
  EXPECT_TRUE(source.read(source.size(), 0, scratch).empty());
  Buffer copy;
  source.read_at(5, 3, copy);
  ASSERT_EQ(copy.size(), 3u);
  EXPECT_EQ(copy.data()[0], expected[5]);
  EXPECT_EQ(copy.data()[2], expected[7]);

  for (auto [offset, length] : {std::pair<int64_t, int64_t>{-1, 1},
                                {0, -1},
                                {source.size(), 1},
                                {source.size() - 2, 3},
                                {1, INT64_MAX}}) {
    try {
      source.read(offset, length, scratch);
      ADD_FAILURE() << offset << "+" << length;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
      EXPECT_EQ(e.where().file, source.name());
      EXPECT_NE(e.message().find("outside the file"), std::string::npos);
    }
  }
}

TEST(Sources, FileMmapAndMemoryAgree) {
  auto bytes = pattern(100000);
  auto path = write_file("source.bin", bytes);
  FileSource file(path);
  EXPECT_EQ(file.name(), path);
  check_source(file, bytes);
  MmapSource mapped(path);
  check_source(mapped, bytes);
  // mmap and memory sources hand out views of their memory, no copy.
  Buffer scratch;
  EXPECT_EQ(mapped.read(10, 5, scratch).data(), mapped.bytes().data() + 10);
  MemorySource view{std::span<const uint8_t>(bytes), "view"};
  check_source(view, bytes);
  EXPECT_EQ(view.read(10, 5, scratch).data(), bytes.data() + 10);
  MemorySource owned(std::vector<uint8_t>(bytes), "owned");
  check_source(owned, bytes);
}

TEST(Sources, EmptyFileAndErrorsNameTheFile) {
  auto path = write_file("empty.bin", {});
  MmapSource mapped(path);
  EXPECT_EQ(mapped.size(), 0);
  Buffer scratch;
  EXPECT_TRUE(mapped.read(0, 0, scratch).empty());
  FileSource file(path);
  EXPECT_EQ(file.size(), 0);
  EXPECT_THROW(file.read(0, 1, scratch), Error);

  const std::string missing = (testing::temp_dir() / "does-not-exist.parquet").string();
  for (int kind = 0; kind < 2; ++kind) {
    try {
      std::unique_ptr<RandomAccessSource> source;
      if (kind == 0)
        source = std::make_unique<FileSource>(missing);
      else
        source = std::make_unique<MmapSource>(missing);
      FAIL();
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kIo);
      EXPECT_EQ(e.where().file, missing);
      EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos) << e.what();
    }
  }
  // A folder is not a file.
  EXPECT_THROW(FileSource(testing::temp_dir().string()), Error);
}

// Steps of 1,000 bytes over a 10,000-byte source, one merged range each.
std::vector<ReadStep> thousand_byte_steps(int count) {
  std::vector<ReadStep> steps(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    steps[size_t(i)].merged = {ByteRange{int64_t(i) * 1000, 1000}};
    steps[size_t(i)].needed = 1000;
    steps[size_t(i)].bytes = 1000;
  }
  return steps;
}

// With one step held at a time the next step is fetched only after the
// previous came back, into the same buffers: the peak is one step, whatever
// the byte budget, and nothing fresh is allocated per step.
TEST(ReadAhead, OneStepHeldReusesTheHandedBackBuffers) {
  const std::vector<uint8_t> bytes = pattern(10000);
  auto source = std::make_shared<MemorySource>(std::span<const uint8_t>(bytes));
  ReadAhead ahead(source, thousand_byte_steps(5), int64_t(1) << 30, 1);
  const FetchedRanges* first = nullptr;
  for (int i = 0; i < 5; ++i) {
    std::unique_ptr<FetchedRanges> step = ahead.take();
    ASSERT_TRUE(step);
    std::span<const uint8_t> view = step->view(int64_t(i) * 1000 + 10, 3);
    EXPECT_EQ(view[0], bytes[size_t(i) * 1000 + 10]);
    EXPECT_EQ(view[2], bytes[size_t(i) * 1000 + 12]);
    if (i == 0) first = step.get();
    EXPECT_EQ(step.get(), first) << "step " << i << " did not reuse the handed-back buffers";
    ahead.give_back(std::move(step));
  }
  EXPECT_EQ(ahead.peak_bytes(), 1000);
  EXPECT_EQ(ahead.taken(), 5u);
}

// The step cap and the byte budget bound together: with two steps held the
// peak never passes two steps, and a budget of one step keeps it at one.
TEST(ReadAhead, PeakStaysWithinStepsAndBudget) {
  const std::vector<uint8_t> bytes = pattern(10000);
  auto source = std::make_shared<MemorySource>(std::span<const uint8_t>(bytes));
  for (auto [budget, steps_held, most] :
       {std::tuple<int64_t, size_t, int64_t>{1 << 30, 2, 2000}, {1500, 4, 1000}, {1 << 30, 3, 3000}}) {
    ReadAhead ahead(source, thousand_byte_steps(8), budget, steps_held);
    for (int i = 0; i < 8; ++i) {
      std::unique_ptr<FetchedRanges> step = ahead.take();
      EXPECT_EQ(step->view(int64_t(i) * 1000, 1)[0], bytes[size_t(i) * 1000]);
      ahead.give_back(std::move(step));
    }
    EXPECT_GE(ahead.peak_bytes(), 1000);
    EXPECT_LE(ahead.peak_bytes(), most) << "budget " << budget << ", " << steps_held << " steps";
  }
}

TEST(Sinks, MemorySink) {
  MemorySink sink;
  sink.write("abc", 3);
  std::vector<uint8_t> more = {1, 2};
  sink.write(std::span<const uint8_t>(more));
  EXPECT_EQ(sink.position(), 5);
  sink.commit();
  ASSERT_EQ(sink.buffer().size(), 5u);
  EXPECT_EQ(std::memcmp(sink.buffer().data(), "abc\x01\x02", 5), 0);
}

TEST(Sinks, AtomicFileSinkCommits) {
  auto dir = testing::temp_dir();
  auto path = (dir / "out.parquet").string();
  auto big = pattern(600 * 1024);  // above the sink's gathering buffer
  {
    AtomicFileSink sink(path);
    std::string temp = sink.temp_path();
    EXPECT_EQ(fs::path(temp).parent_path(), dir);
    EXPECT_TRUE(fs::exists(temp));
    EXPECT_FALSE(fs::exists(path));  // nothing at the final path until commit
    sink.write("PAR1", 4);
    for (int i = 0; i < 1000; ++i) sink.write(big.data() + i, 1);  // many small writes
    sink.write(big.data(), big.size());
    EXPECT_EQ(sink.position(), static_cast<int64_t>(4 + 1000 + big.size()));
    EXPECT_FALSE(fs::exists(path));
    sink.commit();
    EXPECT_TRUE(fs::exists(path));
    EXPECT_FALSE(fs::exists(temp));
    EXPECT_TRUE(sink.temp_path().empty());
    EXPECT_THROW(sink.write("x", 1), Error);
    EXPECT_THROW(sink.commit(), Error);
  }
  auto written = testing::read_bytes(path);
  ASSERT_EQ(written.size(), 4 + 1000 + big.size());
  EXPECT_EQ(std::memcmp(written.data(), "PAR1", 4), 0);
  EXPECT_EQ(std::memcmp(written.data() + 4, big.data(), 1000), 0);
  EXPECT_EQ(std::memcmp(written.data() + 1004, big.data(), big.size()), 0);
  struct stat info;
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0644u);
}

TEST(Sinks, AtomicFileSinkWithoutCommitLeavesNothing) {
  auto dir = testing::temp_dir();
  auto path = (dir / "abandoned.parquet").string();
  // An existing file at the path survives an abandoned rewrite untouched.
  std::vector<uint8_t> old_bytes = {'o', 'l', 'd'};
  write_at(path, old_bytes);
  std::string temp;
  {
    AtomicFileSink sink(path);
    temp = sink.temp_path();
    sink.write("half-written", 12);
  }
  EXPECT_FALSE(fs::exists(temp));
  EXPECT_EQ(testing::read_bytes(path), old_bytes);
  size_t entries = std::distance(fs::directory_iterator(dir), fs::directory_iterator());
  EXPECT_EQ(entries, 1u);

  // A folder that does not exist: the error names the path.
  auto bad = (dir / "no" / "such" / "dir" / "x.parquet").string();
  try {
    AtomicFileSink sink(bad);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kIo);
    EXPECT_EQ(e.where().file, bad);
  }
}

}  // namespace
}  // namespace parquetry
