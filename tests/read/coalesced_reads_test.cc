// Coalesced range reads and the read-ahead budget: a recording source checks
// the exact reads a row-group read issues for several gaps (whole chunks and
// page-index pruned pages), the values equal the uncoalesced read's, a
// parallel scan under a small budget stays within it and in file order, and
// metadata pointing two chunks at the same bytes (or past the file) fails
// with a clear error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/io/range_reads.h"
#include "parquetry/metadata.h"
#include "parquetry/reader.h"
#include "parquetry/writer.h"
#include "test_support.h"

namespace parquetry {
namespace {

constexpr int64_t kRows = 3000;       // 3 row groups
constexpr int64_t kGroupRows = 1000;  // 10 pages each
constexpr int64_t kPageRows = 100;
const char* const kNames[] = {"a", "b", "c", "d"};

int64_t value_of(int column, int64_t row) {
  switch (column) {
    case 0: return row;
    case 1: return row * 3 + 1;
    case 2: return -row;
    default: return row % 7;  // dictionary-encoded
  }
}

// Four int64 columns, uncompressed so chunk and page sizes are predictable;
// only d keeps a dictionary.
std::vector<uint8_t> write_file_bytes() {
  BatchSchema schema;
  for (const char* name : kNames) {
    Field field;
    field.name = name;
    field.type = DataType::make(TypeId::kInt64);
    field.nullable = false;
    schema.fields.push_back(field);
  }
  const auto path = (testing::temp_dir() / "coalesce.parquet").string();
  WriterOptions options;
  options.row_group_rows = kGroupRows;
  options.page_rows = kPageRows;
  options.codec = CompressionCodec::UNCOMPRESSED;
  options.dictionary = false;
  options.columns["d"].dictionary = true;
  auto writer = FileWriter::open(path, schema, options);
  RecordBatch batch;
  batch.schema = std::make_shared<BatchSchema>(schema);
  batch.num_rows = kRows;
  for (int c = 0; c < 4; ++c) {
    Buffer values;
    for (int64_t row = 0; row < kRows; ++row) {
      const int64_t v = value_of(c, row);
      values.append(&v, 8);
    }
    auto array = std::make_shared<ArrayData>();
    array->type = std::make_shared<DataType>(DataType::make(TypeId::kInt64));
    array->length = kRows;
    array->buffers = {BufferRef{}, BufferRef::adopt(std::move(values))};
    batch.columns.push_back(array);
  }
  writer->write(batch);
  writer->close();
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

const std::vector<uint8_t>& file_bytes() {
  static const std::vector<uint8_t> bytes = write_file_bytes();
  return bytes;
}

// Serves bytes by copying them (as pread does) and records every read.
class RecordingSource final : public RandomAccessSource {
 public:
  explicit RecordingSource(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
  int64_t size() const override { return int64_t(bytes_.size()); }
  const std::string& name() const override { return name_; }
  std::span<const uint8_t> read(int64_t offset, int64_t length, Buffer& scratch) override {
    check_range(offset, length);
    scratch.resize(size_t(length));
    if (length > 0) std::memcpy(scratch.data(), bytes_.data() + offset, size_t(length));
    std::lock_guard<std::mutex> lock(mutex_);
    reads_.push_back({offset, length});
    return scratch.span();
  }
  std::vector<ByteRange> reads() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return reads_;
  }
  void forget() {
    std::lock_guard<std::mutex> lock(mutex_);
    reads_.clear();
  }

 private:
  std::vector<uint8_t> bytes_;
  std::string name_ = "<recording>";
  mutable std::mutex mutex_;
  std::vector<ByteRange> reads_;
};

int64_t total(const std::vector<ByteRange>& ranges) {
  int64_t sum = 0;
  for (const ByteRange& range : ranges) sum += range.length;
  return sum;
}

ByteRange chunk_range(const FileMetaData& metadata, int rg, int column) {
  const ColumnMetaData& meta = *metadata.row_groups[size_t(rg)].columns[size_t(column)].meta_data;
  const int64_t start = meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 &&
                                *meta.dictionary_page_offset < meta.data_page_offset
                            ? *meta.dictionary_page_offset
                            : meta.data_page_offset;
  return {start, meta.total_compressed_size};
}

// Checks every value of `columns` (indexes into kNames) in a batch of row group `rg`.
void expect_values(const RecordBatch& batch, int rg, const std::vector<int>& columns) {
  ASSERT_EQ(batch.num_rows, kGroupRows);
  ASSERT_EQ(batch.columns.size(), columns.size());
  for (size_t f = 0; f < columns.size(); ++f) {
    const ArrayData& array = *batch.columns[f];
    const int64_t* values = array.buffers[1].as<int64_t>() + array.offset;
    for (int64_t i = 0; i < kGroupRows; ++i) {
      ASSERT_EQ(values[i], value_of(columns[f], rg * kGroupRows + i)) << kNames[columns[f]] << " row " << i;
    }
  }
}

struct ReadRun {
  std::vector<ByteRange> reads;
  FileReader::Stats stats;
};

// Reads every row group of `columns` through a recording source.
ReadRun read_groups(const std::vector<int>& columns, int64_t gap, int64_t max_size = 64LL << 20) {
  auto source = std::make_shared<RecordingSource>(file_bytes());
  ReaderOptions options;
  for (int c : columns) options.columns.push_back(kNames[c]);
  options.coalesce_gap = gap;
  options.coalesce_max_size = max_size;
  auto reader = FileReader::open(source, options);
  source->forget();  // the footer reads
  for (int rg = 0; rg < 3; ++rg) expect_values(reader->read_row_group(rg), rg, columns);
  return {source->reads(), reader->stats()};
}

TEST(CoalescedReads, GapDecidesHowManyReadsAWholeRowGroupTakes) {
  auto probe = FileReader::open(std::make_shared<MemorySource>(file_bytes()));
  const FileMetaData& metadata = probe->metadata();
  ASSERT_EQ(metadata.row_groups.size(), 3u);
  for (int rg = 0; rg < 3; ++rg) {
    // The writer lays a row group's chunks out back to back.
    for (int c = 0; c + 1 < 4; ++c)
      ASSERT_EQ(chunk_range(metadata, rg, c).end(), chunk_range(metadata, rg, c + 1).offset);
  }
  int64_t a_c_bytes = 0, b_bytes = 0, min_b = INT64_MAX, max_b = 0, all_bytes = 0;
  std::vector<ByteRange> separate, joined;
  for (int rg = 0; rg < 3; ++rg) {
    const ByteRange a = chunk_range(metadata, rg, 0), b = chunk_range(metadata, rg, 1),
                    c = chunk_range(metadata, rg, 2), d = chunk_range(metadata, rg, 3);
    a_c_bytes += a.length + c.length;
    b_bytes += b.length;
    min_b = std::min(min_b, b.length);
    max_b = std::max(max_b, b.length);
    all_bytes += a.length + b.length + c.length + d.length;
    separate.push_back(a);
    separate.push_back(c);
    joined.push_back({a.offset, c.end() - a.offset});
  }

  // Gap 0: one read per chunk, exactly the chunk bytes.
  ReadRun none = read_groups({0, 2}, 0);
  EXPECT_EQ(none.reads, separate);
  EXPECT_EQ(none.stats.read_calls, 6);
  EXPECT_EQ(none.stats.bytes_read, a_c_bytes);
  EXPECT_EQ(none.stats.bytes_unused, 0);
  // A gap just below b's chunk: still two reads per row group.
  ReadRun below = read_groups({0, 2}, min_b - 1);
  EXPECT_EQ(below.reads, separate);
  // A gap covering b: one read per row group, b's bytes read and unused.
  ReadRun over = read_groups({0, 2}, max_b);
  EXPECT_EQ(over.reads, joined);
  EXPECT_EQ(over.stats.read_calls, 3);
  EXPECT_EQ(over.stats.bytes_read, a_c_bytes + b_bytes);
  EXPECT_EQ(over.stats.bytes_unused, b_bytes);
  // A merged read may not grow past max_size: the large gap is not taken.
  ReadRun capped = read_groups({0, 2}, 1LL << 30, chunk_range(metadata, 0, 0).length + max_b);
  EXPECT_EQ(capped.reads, separate);
  // Every column, touching chunks, any positive gap: one read per row group, nothing unused.
  ReadRun all = read_groups({0, 1, 2, 3}, 1);
  EXPECT_EQ(all.stats.read_calls, 3);
  EXPECT_EQ(all.stats.bytes_read, all_bytes);
  EXPECT_EQ(all.stats.bytes_unused, 0);
  ReadRun all_separate = read_groups({0, 1, 2, 3}, 0);
  EXPECT_EQ(all_separate.stats.read_calls, 12);
  EXPECT_EQ(all_separate.stats.bytes_read, all_bytes);
}

TEST(CoalescedReads, MappedFileGivesTheSameValuesAndCounts) {
  const std::string path = (testing::temp_dir() / "coalesce_mapped.parquet").string();
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(file_bytes().data()), std::streamsize(file_bytes().size()));
  }
  for (bool mmap : {true, false}) {
    for (int64_t gap : {int64_t(0), int64_t(1) << 30}) {
      ReaderOptions options;
      options.use_mmap = mmap;
      options.columns = {"a", "c", "d"};
      options.coalesce_gap = gap;
      auto reader = FileReader::open(path, options);
      for (int rg = 0; rg < 3; ++rg) expect_values(reader->read_row_group(rg), rg, {0, 2, 3});
      const ReadRun recorded = read_groups({0, 2, 3}, gap);
      EXPECT_EQ(reader->stats().read_calls, recorded.stats.read_calls) << "mmap " << mmap << " gap " << gap;
      EXPECT_EQ(reader->stats().bytes_read, recorded.stats.bytes_read);
      EXPECT_EQ(reader->stats().bytes_unused, recorded.stats.bytes_unused);
      // A mapping copies nothing, so nothing is held.
      if (mmap) {
        EXPECT_EQ(reader->stats().peak_fetched_bytes, 0);
      }
    }
  }
}

// A consumer reading a row group field by field: the first field read of a
// copying source fetches every projected chunk in coalesced reads, the
// others use those bytes; a memory source reads per field.
TEST(CoalescedReads, FieldByFieldReadsShareOneFetchPerRowGroup) {
  for (bool copying : {true, false}) {
    SCOPED_TRACE(copying ? "copying" : "memory");
    std::shared_ptr<RandomAccessSource> source;
    if (copying) {
      source = std::make_shared<RecordingSource>(file_bytes());
    } else {
      source = std::make_shared<MemorySource>(file_bytes());
    }
    ReaderOptions options;
    options.coalesce_gap = 1;
    auto reader = FileReader::open(source, options);
    for (int rg = 0; rg < 3; ++rg) {
      for (int f = 3; f >= 0; --f) {
        const std::shared_ptr<ArrayData> array = reader->read_field(rg, f);
        ASSERT_EQ(array->length, kGroupRows);
        const int64_t* values = array->buffers[1].as<int64_t>() + array->offset;
        for (int64_t i = 0; i < kGroupRows; ++i) ASSERT_EQ(values[i], value_of(f, rg * kGroupRows + i));
      }
    }
    EXPECT_EQ(reader->stats().read_calls, copying ? 3 : 12);
  }
}

// Page-index pruned reads: rows 150..249 and 700..719 need pages 1, 2 and 7
// of each column (pages hold 100 rows), plus d's dictionary page.
TEST(CoalescedReads, PrunedPagesAreMergedPerGap) {
  const std::vector<RowRange> wanted = {{150, 250}, {700, 720}};
  auto probe_source = std::make_shared<MemorySource>(file_bytes());
  auto probe = FileReader::open(probe_source);
  const FileMetaData& metadata = probe->metadata();
  const int rg = 1;
  auto locations = [&](int column) {
    const ColumnChunk& chunk = metadata.row_groups[rg].columns[size_t(column)];
    Buffer scratch;
    return decode_offset_index(
               probe_source->read(*chunk.offset_index_offset, *chunk.offset_index_length, scratch))
        .page_locations;
  };
  const std::vector<PageLocation> a_pages = locations(0), d_pages = locations(3);
  ASSERT_EQ(a_pages.size(), 10u);
  ASSERT_EQ(d_pages.size(), 10u);
  auto page = [](const std::vector<PageLocation>& pages, size_t p) {
    return ByteRange{pages[p].offset, pages[p].compressed_page_size};
  };
  const ByteRange a_index{*metadata.row_groups[rg].columns[0].offset_index_offset,
                          *metadata.row_groups[rg].columns[0].offset_index_length};
  const ByteRange d_index{*metadata.row_groups[rg].columns[3].offset_index_offset,
                          *metadata.row_groups[rg].columns[3].offset_index_length};
  const ByteRange d_chunk = chunk_range(metadata, rg, 3);
  const ByteRange d_dictionary{d_chunk.offset, d_pages[0].offset - d_chunk.offset};
  ASSERT_GT(d_dictionary.length, 0);
  const int64_t gap_3_to_7 = a_pages[7].offset - page(a_pages, 2).end();

  struct Case {
    int64_t gap;
    std::vector<ByteRange> expected;  // after the offset index reads
    int64_t unused;
  };
  const Case cases[] = {
      // No coalescing: each page its own read (pages 1 and 2 touch but stay apart).
      {0, {page(a_pages, 1), page(a_pages, 2), page(a_pages, 7)}, 0},
      // Touching pages merge; the skipped pages 3..6 are too far.
      {1, {{a_pages[1].offset, page(a_pages, 2).end() - a_pages[1].offset}, page(a_pages, 7)}, 0},
      {gap_3_to_7 - 1,
       {{a_pages[1].offset, page(a_pages, 2).end() - a_pages[1].offset}, page(a_pages, 7)},
       0},
      // Gap over the skipped pages: one read, their bytes unused.
      {gap_3_to_7, {{a_pages[1].offset, page(a_pages, 7).end() - a_pages[1].offset}}, gap_3_to_7},
  };
  for (const Case& test : cases) {
    SCOPED_TRACE("gap " + std::to_string(test.gap));
    auto source = std::make_shared<RecordingSource>(file_bytes());
    ReaderOptions options;
    options.columns = {"a"};
    options.coalesce_gap = test.gap;
    auto reader = FileReader::open(source, options);
    source->forget();
    const RecordBatch batch = reader->read_row_group(rg, wanted);
    std::vector<ByteRange> expected = {a_index};
    expected.insert(expected.end(), test.expected.begin(), test.expected.end());
    EXPECT_EQ(source->reads(), expected);
    EXPECT_EQ(reader->stats().read_calls, int64_t(expected.size()));
    EXPECT_EQ(reader->stats().bytes_read, total(expected));
    EXPECT_EQ(reader->stats().bytes_unused, test.unused);
    EXPECT_EQ(reader->stats().pages_read, 3);
    EXPECT_EQ(reader->stats().pages_skipped, 7);
    ASSERT_EQ(batch.num_rows, 120);
    const int64_t* values = batch.columns[0]->buffers[1].as<int64_t>() + batch.columns[0]->offset;
    for (int64_t i = 0; i < 120; ++i) {
      const int64_t row = i < 100 ? 150 + i : 700 + (i - 100);
      ASSERT_EQ(values[i], rg * kGroupRows + row) << "row " << row;
    }
  }
  // The dictionary-encoded column also reads its dictionary page, merged with
  // the first selected page only when the gap covers page 0.
  for (int64_t gap : {int64_t(0), int64_t(1) << 20}) {
    SCOPED_TRACE("d, gap " + std::to_string(gap));
    auto source = std::make_shared<RecordingSource>(file_bytes());
    ReaderOptions options;
    options.columns = {"d"};
    options.coalesce_gap = gap;
    auto reader = FileReader::open(source, options);
    source->forget();
    const RecordBatch batch = reader->read_row_group(rg, wanted);
    std::vector<ByteRange> expected = {d_index};
    if (gap == 0) {
      expected.insert(expected.end(), {d_dictionary, page(d_pages, 1), page(d_pages, 2), page(d_pages, 7)});
    } else {
      expected.push_back({d_dictionary.offset, page(d_pages, 7).end() - d_dictionary.offset});
    }
    EXPECT_EQ(source->reads(), expected);
    const int64_t needed =
        d_dictionary.length + total({page(d_pages, 1), page(d_pages, 2), page(d_pages, 7)});
    EXPECT_EQ(reader->stats().bytes_unused, total(expected) - d_index.length - needed);
    ASSERT_EQ(batch.num_rows, 120);
    const int64_t* values = batch.columns[0]->buffers[1].as<int64_t>() + batch.columns[0]->offset;
    for (int64_t i = 0; i < 120; ++i) {
      const int64_t row = i < 100 ? 150 + i : 700 + (i - 100);
      ASSERT_EQ(values[i], value_of(3, rg * kGroupRows + row)) << "row " << row;
    }
  }
}

// A parallel scan of a copying source under a read-ahead budget: the bytes
// held stay within it, batches come in file order with the right values, and
// a budget below one row group (even below one chunk) still finishes.
TEST(CoalescedReads, ReadAheadStaysWithinItsBudgetInFileOrder) {
  auto probe = FileReader::open(std::make_shared<MemorySource>(file_bytes()));
  int64_t group_bytes = 0, largest_chunk = 0;  // the largest row group's and chunk's bytes
  for (int rg = 0; rg < 3; ++rg) {
    const FileMetaData& metadata = probe->metadata();
    group_bytes =
        std::max(group_bytes, chunk_range(metadata, rg, 3).end() - chunk_range(metadata, rg, 0).offset);
    for (int c = 0; c < 4; ++c) largest_chunk = std::max(largest_chunk, chunk_range(metadata, rg, c).length);
  }
  for (int64_t budget : {group_bytes * 2 + group_bytes / 2, group_bytes, group_bytes / 2, int64_t(1)}) {
    SCOPED_TRACE("budget " + std::to_string(budget));
    for (int repeat = 0; repeat < 3; ++repeat) {
      auto source = std::make_shared<RecordingSource>(file_bytes());
      ReaderOptions options;
      options.threads = 2;
      options.read_ahead_budget = budget;
      options.batch_size = 250;
      auto reader = FileReader::open(source, options);
      auto batches = reader->batches();
      RecordBatch batch;
      int64_t row = 0;
      while (batches->next(batch)) {
        ASSERT_EQ(batch.columns.size(), 4u);
        for (int c = 0; c < 4; ++c) {
          const ArrayData& array = *batch.columns[size_t(c)];
          const int64_t* values = array.buffers[1].as<int64_t>() + array.offset;
          for (int64_t i = 0; i < batch.num_rows; ++i)
            ASSERT_EQ(values[i], value_of(c, row + i)) << "row " << row + i;
        }
        row += batch.num_rows;
      }
      EXPECT_EQ(row, kRows);
      const FileReader::Stats stats = reader->stats();
      EXPECT_GT(stats.peak_fetched_bytes, 0);
      EXPECT_LE(stats.peak_fetched_bytes, std::max(budget, largest_chunk));
      // A local source holds one step at a time, whatever the budget allows.
      EXPECT_LE(stats.peak_fetched_bytes, std::max(std::min(budget, group_bytes), largest_chunk));
      // Each step is one read here (touching chunks): steps of whole row
      // groups when they fit, of single chunks when nothing more fits.
      if (budget >= group_bytes) {
        EXPECT_EQ(stats.read_calls, 3);
      }
      if (budget < largest_chunk) {
        EXPECT_EQ(stats.read_calls, 12);
      }
    }
  }
}

// Rewrites the footer of the test file with `edit` applied to its metadata.
std::shared_ptr<MemorySource> with_footer(void (*edit)(FileMetaData&)) {
  const std::vector<uint8_t>& bytes = file_bytes();
  uint32_t footer_length = 0;
  std::memcpy(&footer_length, bytes.data() + bytes.size() - 8, 4);
  const size_t footer_start = bytes.size() - 8 - footer_length;
  FileMetaData metadata =
      decode_file_metadata(std::span<const uint8_t>(bytes.data() + footer_start, footer_length));
  edit(metadata);
  Buffer footer;
  encode_file_metadata(metadata, footer);
  std::vector<uint8_t> out(bytes.begin(), bytes.begin() + std::ptrdiff_t(footer_start));
  out.insert(out.end(), footer.data(), footer.data() + footer.size());
  const uint32_t length = uint32_t(footer.size());
  const uint8_t* length_bytes = reinterpret_cast<const uint8_t*>(&length);
  out.insert(out.end(), length_bytes, length_bytes + 4);
  out.insert(out.end(), {'P', 'A', 'R', '1'});
  return std::make_shared<MemorySource>(std::move(out), "hostile.parquet");
}

void expect_corrupt(const std::shared_ptr<MemorySource>& source, const std::string& words, bool pread_like) {
  ReaderOptions options;
  options.columns = {"b", "c"};
  options.coalesce_gap = 1 << 20;
  std::shared_ptr<RandomAccessSource> input = source;
  if (pread_like) {
    Buffer all;
    input = std::make_shared<RecordingSource>(std::vector<uint8_t>(
        source->read(0, source->size(), all).begin(), source->read(0, source->size(), all).end()));
    options.threads = 2;  // through the read-ahead planner too
  }
  auto reader = FileReader::open(input, options);
  try {
    reader->read_all();
    FAIL() << "expected a kCorrupt error mentioning '" << words << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCorrupt) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(CoalescedReads, HostileRangesFailClearly) {
  // c's chunk starts inside b's: two consumers of the same bytes.
  auto overlapping = with_footer([](FileMetaData& m) {
    ColumnMetaData& b = *m.row_groups[1].columns[1].meta_data;
    ColumnMetaData& c = *m.row_groups[1].columns[2].meta_data;
    c.data_page_offset = b.data_page_offset + 8;
  });
  // c's chunk runs past the end of the file.
  auto past_end = with_footer([](FileMetaData& m) {
    m.row_groups[2].columns[2].meta_data->total_compressed_size = int64_t(1) << 40;
  });
  for (bool pread_like : {false, true}) {
    SCOPED_TRACE(pread_like ? "copying source, read-ahead" : "memory source");
    expect_corrupt(overlapping, "overlap", pread_like);
    expect_corrupt(past_end, "outside the file", pread_like);
  }

  // The planner itself, and the fetched bytes' bounds.
  const CoalesceOptions merge{1024, 1 << 20};
  EXPECT_THROW(coalesce_ranges({{0, 10}, {5, 10}}, 100, merge, "x"), Error);
  EXPECT_THROW(coalesce_ranges({{95, 10}}, 100, merge, "x"), Error);
  EXPECT_THROW(coalesce_ranges({{-1, 10}}, 100, merge, "x"), Error);
  EXPECT_EQ(coalesce_ranges({{50, 10}, {0, 10}, {20, 0}, {12, 3}}, 100, merge, "x"),
            (std::vector<ByteRange>{{0, 60}}));
  EXPECT_EQ(coalesce_ranges({{50, 10}, {0, 10}, {10, 5}}, 100, CoalesceOptions{0, 1 << 20}, "x"),
            (std::vector<ByteRange>{{0, 10}, {10, 5}, {50, 10}}));
  EXPECT_EQ(coalesce_ranges({{0, 10}, {12, 10}, {24, 10}}, 100, CoalesceOptions{2, 22}, "x"),
            (std::vector<ByteRange>{{0, 22}, {24, 10}}));
  MemorySource memory(std::vector<uint8_t>(100, 7));
  FetchedRanges fetched;
  const std::vector<ByteRange> merged = {{10, 20}, {40, 5}};
  fetched.fetch(memory, merged, 22);
  EXPECT_EQ(fetched.stats().reads, 2);
  EXPECT_EQ(fetched.stats().bytes_read, 25);
  EXPECT_EQ(fetched.stats().bytes_unused, 3);
  EXPECT_EQ(fetched.held_bytes(), 0);  // memory: views, no copy
  EXPECT_EQ(fetched.view(12, 18).size(), 18u);
  EXPECT_EQ(fetched.tail(41).size(), 4u);
  EXPECT_TRUE(fetched.tail(30).empty());
  EXPECT_THROW(fetched.view(25, 10), Error);
  EXPECT_THROW(fetched.view(30, 1), Error);
}

}  // namespace
}  // namespace parquetry
