// The corrupt-file sweep: damaged versions of the public test files, read
// whole with page CRC verification off and on. Each read must end in a
// parquetry::Error or a successful read: never a crash, a hang, a leak or
// another exception type (ASan, UBSan and the watchdog below catch those).
// Errors must say where: the file always, and an error on a page the row
// group, column and page ordinal.
//
// Damage is derived from a fixed seed, so a failure reproduces exactly; the
// case name in the failure message says which file and which change.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <thread>

#include "hardening_support.h"
#include "parquetry/schema.h"
#include "test_support.h"

namespace parquetry::hardening {
namespace {

// Aborts the process, naming the case, when one read runs for longer than
// this: a read of these small files takes milliseconds, even under ASan.
constexpr auto kCaseDeadline = std::chrono::seconds(20);

class Watchdog {
 public:
  Watchdog()
      : thread_([this] {
          std::unique_lock lock(mutex_);
          while (!stop_) {
            const auto started = started_;
            if (wake_.wait_for(lock, kCaseDeadline, [&] { return stop_ || started_ != started; })) continue;
            std::fprintf(stderr, "hang: case '%s' ran for more than %lld s\n", current_.c_str(),
                         static_cast<long long>(kCaseDeadline.count()));
            std::abort();
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void start(const std::string& name) {
    {
      std::lock_guard lock(mutex_);
      current_ = name;
      ++started_;
    }
    wake_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string current_;
  uint64_t started_ = 0;
  bool stop_ = false;
  std::thread thread_;
};

struct SweepStats {
  int cases = 0;
  int reads = 0;
  int errors = 0;
  int page_errors = 0;
};

class Sweep {
 public:
  Sweep(std::string file, const Bytes& pristine, const FileImage& image, Watchdog& watchdog,
        SweepStats& stats)
      : file_(std::move(file)), image_(image), watchdog_(watchdog), stats_(stats) {
    // Some public files are broken on purpose (a bad CRC, a malformed
    // dictionary): checks that assume a readable original skip those.
    pristine_reads_[0] = !read_image(pristine, file_, false).error;
    pristine_reads_[1] = !read_image(pristine, file_, true).error;
    const std::optional<Schema> schema = [&]() -> std::optional<Schema> {
      try {
        return Schema::from_metadata(image.metadata);
      } catch (const Error&) {
        return std::nullopt;
      }
    }();
    if (schema) {
      for (size_t c = 0; c < schema->num_columns(); ++c) column_paths_.push_back(schema->column(c).path);
    }
  }

  /// Reads `bytes` with CRC checks off and on and checks each outcome.
  /// `page`, when set, is the page the damage was done to.
  void run(const std::string& change, const Bytes& bytes, const PageInfo* page = nullptr) {
    ++stats_.cases;
    for (bool verify_crc : {false, true}) {
      const std::string name = file_ + " [" + change + (verify_crc ? ", crc on]" : ", crc off]");
      watchdog_.start(name);
      ++stats_.reads;
      ReadOutcome outcome;
      try {
        outcome = read_image(bytes, name, verify_crc);
      } catch (const std::exception& e) {
        ADD_FAILURE() << name << ": a non-parquetry exception escaped: " << e.what();
        continue;
      }
      if (!outcome.error) continue;
      ++stats_.errors;
      check_location(name, *outcome.error, pristine_reads_[verify_crc] ? page : nullptr);
    }
  }

  /// Reads `bytes` with CRC checks on and expects the CRC error of `page`.
  void expect_crc_error(const std::string& change, const Bytes& bytes, const PageInfo& page) {
    if (!pristine_reads_[1]) return;
    const std::string name = file_ + " [" + change + ", crc on]";
    watchdog_.start(name);
    ++stats_.cases;
    ++stats_.reads;
    ReadOutcome outcome = read_image(bytes, name, true);
    ASSERT_TRUE(outcome.error.has_value()) << name << ": a damaged page with a CRC was accepted";
    ++stats_.errors;
    const ErrorLocation& where = outcome.error->where();
    EXPECT_EQ(outcome.error->code(), ErrorCode::kCorrupt) << name;
    EXPECT_NE(outcome.error->message().find("CRC"), std::string::npos)
        << name << ": " << outcome.error->what();
    EXPECT_EQ(where.file, name);
    EXPECT_EQ(where.row_group, page.row_group) << name;
    EXPECT_EQ(where.column, column_paths_.at(size_t(page.column))) << name;
    EXPECT_EQ(where.page, page.ordinal) << name;
  }

 private:
  void check_location(const std::string& name, const Error& error, const PageInfo* page) {
    const ErrorLocation& where = error.where();
    EXPECT_EQ(where.file, name) << "error without the file: " << error.what();
    if (where.page >= 0) {
      ++stats_.page_errors;
      EXPECT_GE(where.row_group, 0) << name << ": page error without its row group: " << error.what();
      EXPECT_FALSE(where.column.empty()) << name << ": page error without its column: " << error.what();
    }
    if (!where.column.empty()) {
      EXPECT_GE(where.row_group, 0) << name << ": column error without its row group: " << error.what();
    }
    // Damage to one page cannot make an earlier page of the same chunk fail.
    if (page != nullptr && where.page >= 0 && where.row_group == page->row_group &&
        size_t(page->column) < column_paths_.size() && where.column == column_paths_[size_t(page->column)]) {
      EXPECT_GE(where.page, page->ordinal) << name << ": " << error.what();
    }
  }

  std::string file_;
  const FileImage& image_;
  Watchdog& watchdog_;
  SweepStats& stats_;
  std::vector<std::string> column_paths_;
  bool pristine_reads_[2] = {false, false};  // by verify_crc
};

int32_t clamp32(int64_t value) { return int32_t(std::clamp<int64_t>(value, INT32_MIN, INT32_MAX)); }

// Lies a page header can tell, each applied to a copy of the real header.
std::vector<std::pair<std::string, PageHeader>> lying_headers(const PageHeader& real,
                                                              std::mt19937_64& random) {
  std::vector<std::pair<std::string, PageHeader>> out;
  auto add = [&](std::string name, auto edit) {
    PageHeader header = real;
    edit(header);
    out.emplace_back(std::move(name), std::move(header));
  };
  const int32_t compressed = real.compressed_page_size;
  const int32_t uncompressed = real.uncompressed_page_size;
  add("compressed size -1", [&](PageHeader& h) { h.compressed_page_size = -1; });
  add("compressed size 0", [&](PageHeader& h) { h.compressed_page_size = 0; });
  add("compressed size +1",
      [&](PageHeader& h) { h.compressed_page_size = clamp32(int64_t(compressed) + 1); });
  add("compressed size -1 byte",
      [&](PageHeader& h) { h.compressed_page_size = std::max(0, compressed - 1); });
  add("compressed size INT32_MAX", [&](PageHeader& h) { h.compressed_page_size = INT32_MAX; });
  add("uncompressed size -5", [&](PageHeader& h) { h.uncompressed_page_size = -5; });
  add("uncompressed size half", [&](PageHeader& h) { h.uncompressed_page_size = uncompressed / 2; });
  add("uncompressed size x3",
      [&](PageHeader& h) { h.uncompressed_page_size = clamp32(int64_t(uncompressed) * 3 + 1); });
  add("uncompressed size INT32_MAX", [&](PageHeader& h) { h.uncompressed_page_size = INT32_MAX; });
  add("wrong crc", [&](PageHeader& h) { h.crc = int32_t(random()); });
  add("page type swapped", [&](PageHeader& h) {
    h.type = h.type == PageType::DICTIONARY_PAGE ? PageType::DATA_PAGE : PageType::DICTIONARY_PAGE;
  });
  if (real.data_page_header) {
    const int32_t n = real.data_page_header->num_values;
    add("num_values -1", [&](PageHeader& h) { h.data_page_header->num_values = -1; });
    add("num_values 0", [&](PageHeader& h) { h.data_page_header->num_values = 0; });
    add("num_values +1", [&](PageHeader& h) { h.data_page_header->num_values = clamp32(int64_t(n) + 1); });
    add("num_values +9", [&](PageHeader& h) { h.data_page_header->num_values = clamp32(int64_t(n) + 9); });
    add("num_values half", [&](PageHeader& h) { h.data_page_header->num_values = n / 2; });
    add("num_values x1000",
        [&](PageHeader& h) { h.data_page_header->num_values = clamp32(int64_t(n) * 1000 + 1); });
    add("num_values INT32_MAX", [&](PageHeader& h) { h.data_page_header->num_values = INT32_MAX; });
    add("num_values 2^27", [&](PageHeader& h) { h.data_page_header->num_values = 1 << 27; });
    add("value encoding random",
        [&](PageHeader& h) { h.data_page_header->encoding = Encoding(int32_t(random() % 12)); });
    add("definition level encoding BIT_PACKED",
        [&](PageHeader& h) { h.data_page_header->definition_level_encoding = Encoding::BIT_PACKED; });
    add("repetition level encoding PLAIN",
        [&](PageHeader& h) { h.data_page_header->repetition_level_encoding = Encoding::PLAIN; });
  }
  if (real.data_page_header_v2) {
    const DataPageHeaderV2& v2 = *real.data_page_header_v2;
    add("v2 num_values +1",
        [&](PageHeader& h) { h.data_page_header_v2->num_values = clamp32(int64_t(v2.num_values) + 1); });
    add("v2 num_values -3", [&](PageHeader& h) { h.data_page_header_v2->num_values = -3; });
    add("v2 num_values x1000", [&](PageHeader& h) {
      h.data_page_header_v2->num_values = clamp32(int64_t(v2.num_values) * 1000 + 1);
    });
    add("v2 num_nulls +1",
        [&](PageHeader& h) { h.data_page_header_v2->num_nulls = clamp32(int64_t(v2.num_nulls) + 1); });
    add("v2 num_nulls -1", [&](PageHeader& h) { h.data_page_header_v2->num_nulls = -1; });
    add("v2 num_rows +1",
        [&](PageHeader& h) { h.data_page_header_v2->num_rows = clamp32(int64_t(v2.num_rows) + 1); });
    add("v2 def length +1", [&](PageHeader& h) {
      h.data_page_header_v2->definition_levels_byte_length =
          clamp32(int64_t(v2.definition_levels_byte_length) + 1);
    });
    add("v2 def length -1",
        [&](PageHeader& h) { h.data_page_header_v2->definition_levels_byte_length = -1; });
    add("v2 rep length huge",
        [&](PageHeader& h) { h.data_page_header_v2->repetition_levels_byte_length = INT32_MAX - 1; });
    add("v2 is_compressed flipped",
        [&](PageHeader& h) { h.data_page_header_v2->is_compressed = !v2.compressed(); });
    add("v2 value encoding random",
        [&](PageHeader& h) { h.data_page_header_v2->encoding = Encoding(int32_t(random() % 12)); });
  }
  if (real.dictionary_page_header) {
    const int32_t n = real.dictionary_page_header->num_values;
    add("dictionary size 1", [&](PageHeader& h) { h.dictionary_page_header->num_values = 1; });
    add("dictionary size half", [&](PageHeader& h) { h.dictionary_page_header->num_values = n / 2; });
    add("dictionary size 0", [&](PageHeader& h) { h.dictionary_page_header->num_values = 0; });
    add("dictionary size -1", [&](PageHeader& h) { h.dictionary_page_header->num_values = -1; });
    add("dictionary size +1",
        [&](PageHeader& h) { h.dictionary_page_header->num_values = clamp32(int64_t(n) + 1); });
    add("dictionary size INT32_MAX",
        [&](PageHeader& h) { h.dictionary_page_header->num_values = INT32_MAX; });
    add("dictionary encoding RLE",
        [&](PageHeader& h) { h.dictionary_page_header->encoding = Encoding::RLE; });
  }
  return out;
}

// Lies the footer can tell about a column chunk or row group.
std::vector<std::pair<std::string, FileMetaData>> lying_footers(const FileMetaData& real) {
  std::vector<std::pair<std::string, FileMetaData>> out;
  if (real.row_groups.empty() || real.row_groups[0].columns.empty() ||
      !real.row_groups[0].columns[0].meta_data)
    return out;
  auto add = [&](std::string name, auto edit) {
    FileMetaData metadata = real;
    edit(metadata.row_groups[0], *metadata.row_groups[0].columns[0].meta_data);
    out.emplace_back(std::move(name), std::move(metadata));
  };
  add("chunk num_values -1", [](RowGroup&, ColumnMetaData& m) { m.num_values = -1; });
  add("chunk num_values +1", [](RowGroup&, ColumnMetaData& m) { m.num_values += 1; });
  add("chunk num_values 2^40", [](RowGroup&, ColumnMetaData& m) { m.num_values = int64_t(1) << 40; });
  add("chunk size -1", [](RowGroup&, ColumnMetaData& m) { m.total_compressed_size = -1; });
  add("chunk size 0", [](RowGroup&, ColumnMetaData& m) { m.total_compressed_size = 0; });
  add("chunk size 2^40", [](RowGroup&, ColumnMetaData& m) { m.total_compressed_size = int64_t(1) << 40; });
  add("chunk size short", [](RowGroup&, ColumnMetaData& m) { m.total_compressed_size /= 2; });
  add("data page offset -8", [](RowGroup&, ColumnMetaData& m) { m.data_page_offset = -8; });
  add("data page offset +3", [](RowGroup&, ColumnMetaData& m) { m.data_page_offset += 3; });
  add("data page offset 2^40", [](RowGroup&, ColumnMetaData& m) { m.data_page_offset = int64_t(1) << 40; });
  add("dictionary offset +1", [](RowGroup&, ColumnMetaData& m) {
    if (m.dictionary_page_offset) *m.dictionary_page_offset += 1;
  });
  add("chunk codec changed", [](RowGroup&, ColumnMetaData& m) {
    m.codec =
        m.codec == CompressionCodec::UNCOMPRESSED ? CompressionCodec::SNAPPY : CompressionCodec::UNCOMPRESSED;
  });
  add("chunk type changed",
      [](RowGroup&, ColumnMetaData& m) { m.type = m.type == Type::INT32 ? Type::INT64 : Type::INT32; });
  add("row group num_rows +1", [](RowGroup& g, ColumnMetaData&) { g.num_rows += 1; });
  add("row group num_rows -1", [](RowGroup& g, ColumnMetaData&) { g.num_rows = -1; });
  add("row group num_rows 2^40", [](RowGroup& g, ColumnMetaData&) { g.num_rows = int64_t(1) << 40; });
  add("row group drops a column", [](RowGroup& g, ColumnMetaData&) { g.columns.pop_back(); });
  // Schema lies: a fixed-size binary as wide as the format allows.
  for (size_t i = 0; i < real.schema.size(); ++i) {
    if (real.schema[i].type != Type::FIXED_LEN_BYTE_ARRAY) continue;
    for (int64_t num_values : {int64_t(-1), int64_t(1) << 22}) {
      FileMetaData metadata = real;
      metadata.schema[i].type_length = INT32_MAX;
      for (RowGroup& group : metadata.row_groups) {
        for (ColumnChunk& chunk : group.columns) {
          if (chunk.meta_data && num_values >= 0) chunk.meta_data->num_values = num_values;
        }
      }
      out.emplace_back("schema: FLBA width INT32_MAX" + std::string(num_values >= 0 ? ", 2^22 values" : ""),
                       std::move(metadata));
    }
    break;
  }
  return out;
}

// Files of the sweep: every readable public file up to this size (the
// large ones would only repeat the same pages at a higher cost under ASan).
constexpr size_t kMaxFileSize = 80 << 10;
// Per file: random truncations, and bit flips in page headers and bodies.
constexpr int kTruncations = 10;
constexpr int kHeaderFlips = 12;
constexpr int kBodyFlips = 12;
// Pages whose header lies are picked at random, at most this many per file.
constexpr int kLyingPages = 3;

TEST(CorruptSweep, DamagedPublicFilesFailCleanlyAndSayWhere) {
  const auto begin = std::chrono::steady_clock::now();
  std::mt19937_64 random(0x9a7c3e11d5b0f24bULL);
  Watchdog watchdog;
  SweepStats stats;
  int swept_files = 0;
  for (const auto& path : testing::public_parquet_files()) {
    const Bytes bytes = testing::read_bytes(path);
    if (bytes.size() > kMaxFileSize) continue;
    const std::optional<FileImage> parsed = FileImage::parse(bytes);
    if (!parsed) continue;
    const FileImage& image = *parsed;
    const std::string file = path.filename().string();
    SCOPED_TRACE(file);
    ++swept_files;
    Sweep sweep(file, bytes, image, watchdog, stats);
    auto uniform = [&](int64_t n) { return n <= 0 ? int64_t(0) : int64_t(random() % uint64_t(n)); };

    // Truncations: the tail magic, inside the footer and anywhere earlier.
    sweep.run("truncated by 1", Bytes(bytes.begin(), bytes.end() - 1));
    sweep.run("truncated to the footer",
              Bytes(bytes.begin(), bytes.begin() + int64_t(image.data.size()) + 3));
    for (int i = 0; i < kTruncations; ++i) {
      const int64_t size = uniform(int64_t(bytes.size()));
      sweep.run("truncated to " + std::to_string(size), Bytes(bytes.begin(), bytes.begin() + size));
    }
    // The footer intact but the data truncated under it.
    for (int i = 0; i < 3 && !image.pages.empty(); ++i) {
      const PageInfo& page = image.pages[size_t(uniform(int64_t(image.pages.size())))];
      const int64_t cut = page.offset + uniform(page.header_size + page.body_size);
      Bytes data(image.data.begin(), image.data.begin() + cut);
      sweep.run("data truncated at " + std::to_string(cut), FileImage::assemble(data, image.metadata), &page);
    }
    if (image.pages.empty()) continue;

    // Bit flips in headers and in bodies.
    auto flip = [&](const PageInfo& page, int64_t from, int64_t length, const char* what) {
      if (length <= 0) return;
      Bytes damaged = bytes;
      const int64_t at = from + uniform(length);
      const int bit = int(random() % 8);
      damaged[size_t(at)] ^= uint8_t(1u << bit);
      sweep.run(std::string(what) + " bit " + std::to_string(bit) + " of byte " + std::to_string(at), damaged,
                &page);
    };
    for (int i = 0; i < kHeaderFlips; ++i) {
      const PageInfo& page = image.pages[size_t(uniform(int64_t(image.pages.size())))];
      flip(page, page.offset, page.header_size, "header");
    }
    for (int i = 0; i < kBodyFlips; ++i) {
      const PageInfo& page = image.pages[size_t(uniform(int64_t(image.pages.size())))];
      flip(page, page.offset + page.header_size, page.body_size, "body");
    }
    // A damaged body behind a stored CRC must be caught when CRCs are checked.
    for (const PageInfo& page : image.pages) {
      if (!page.header.crc || page.body_size == 0 || page.header.type == PageType::INDEX_PAGE) continue;
      Bytes damaged = bytes;
      damaged[size_t(page.offset + page.header_size + uniform(page.body_size))] ^= 0x10;
      sweep.expect_crc_error("crc-protected body flip in page " + std::to_string(page.ordinal), damaged,
                             page);
    }

    // Swapped and duplicated pages within a chunk.
    for (size_t i = 0; i + 1 < image.pages.size(); ++i) {
      const PageInfo& a = image.pages[i];
      const PageInfo& b = image.pages[i + 1];
      if (a.row_group != b.row_group || a.column != b.column || a.end() != b.offset) continue;
      if (i % 3 != 0) continue;  // a sample keeps the sweep short on files with many pages
      Bytes swapped(b.end() - a.offset);
      std::copy(image.data.begin() + b.offset, image.data.begin() + b.end(), swapped.begin());
      std::copy(image.data.begin() + a.offset, image.data.begin() + a.end(),
                swapped.begin() + (b.end() - b.offset));
      sweep.run("pages " + std::to_string(a.ordinal) + " and " + std::to_string(b.ordinal) + " swapped",
                image.splice(a.offset, swapped.size(), swapped), &a);
      Bytes doubled(image.data.begin() + a.offset, image.data.begin() + a.end());
      doubled.insert(doubled.end(), image.data.begin() + a.offset, image.data.begin() + a.end());
      sweep.run("page " + std::to_string(a.ordinal) + " duplicated",
                image.splice(a.offset, a.end() - a.offset, doubled), &a);
      Bytes replaced(image.data.begin() + a.offset, image.data.begin() + a.end());
      sweep.run("page " + std::to_string(b.ordinal) + " replaced by page " + std::to_string(a.ordinal),
                image.splice(b.offset, b.end() - b.offset, replaced), &b);
    }

    // Headers that lie: sizes, counts, encodings, dictionary sizes.
    std::vector<const PageInfo*> dictionary_pages;
    for (const PageInfo& page : image.pages) {
      if (page.header.type == PageType::DICTIONARY_PAGE) dictionary_pages.push_back(&page);
    }
    std::vector<const PageInfo*> lying;
    for (int i = 0; i < kLyingPages; ++i)
      lying.push_back(&image.pages[size_t(uniform(int64_t(image.pages.size())))]);
    if (!dictionary_pages.empty())
      lying.push_back(dictionary_pages[size_t(uniform(int64_t(dictionary_pages.size())))]);
    for (const PageInfo* page : lying) {
      for (const auto& [lie, header] : lying_headers(page->header, random)) {
        sweep.run("page " + std::to_string(page->ordinal) + " of column " + std::to_string(page->column) +
                      ": " + lie,
                  image.with_header(*page, header), page);
      }
    }
    // A footer that lies about the first chunk and row group.
    for (const auto& [lie, metadata] : lying_footers(image.metadata)) {
      sweep.run("footer: " + lie, FileImage::assemble(image.data, metadata));
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  std::printf("corrupt sweep: %d files, %d cases, %d reads, %d errors (%d naming a page), %.1f s\n",
              swept_files, stats.cases, stats.reads, stats.errors, stats.page_errors, seconds);
  EXPECT_GE(swept_files, 30);
  // Most damage must be noticed; a sweep where nothing fails tests nothing.
  EXPECT_GT(stats.errors, stats.reads / 2);
  EXPECT_GT(stats.page_errors, stats.errors / 4);
}

}  // namespace
}  // namespace parquetry::hardening
