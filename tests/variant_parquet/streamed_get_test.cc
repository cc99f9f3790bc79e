// variant_get's streamed plans (unshredded and residual): the metadata and
// value leaves are walked page by page and paths found in the page bytes.
// Files are written with small pages so the two leaves' pages end at
// different rows, with every byte-array encoding the writer has (dictionary,
// PLAIN, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, v1 and v2 pages), rows
// whose metadata changes, SQL NULLs and non-objects; every result is
// compared with extracting the path from the input. Corrupted files end in
// errors, never crashes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/variant_builder.h"
#include "parquetry/variant_json.h"
#include "parquetry/variant_parquet.h"
#include "parquetry/variant_writer.h"
#include "parquetry/writer.h"
#include "test_support.h"
#include "variant_cases.h"

namespace parquetry {
namespace {

using variant_testing::same_variant;

std::string temp_file(const std::string& name) {
  static const std::filesystem::path dir = parquetry::testing::temp_dir();
  return (dir / name).string();
}

OwnedVariant from_json(const std::string& json) {
  VariantBuilder builder;
  VariantJsonParser parser;
  parser.parse(json, builder);
  OwnedVariant out;
  out.metadata.assign(builder.metadata().begin(), builder.metadata().end());
  out.value.assign(builder.value().begin(), builder.value().end());
  return out;
}

// Rows mixing objects whose keys come in different orders (so different
// metadata bytes), a shared run of identical rows, nested objects,
// non-objects, Variant nulls and SQL NULLs.
std::vector<std::optional<OwnedVariant>> mixed_rows(int count) {
  std::mt19937_64 rng(11);
  auto pick = [&](int n) { return int(rng() % uint64_t(n)); };
  std::vector<std::optional<OwnedVariant>> rows;
  for (int i = 0; i < count; ++i) {
    if (i % 53 == 0) {
      rows.emplace_back(std::nullopt);
    } else if (i % 41 == 0) {
      rows.emplace_back(from_json("[1, {\"a\": 2}]"));
    } else if (i % 37 == 0) {
      rows.emplace_back(from_json("null"));
    } else if (i >= 100 && i < 400) {
      // A long run of rows with identical metadata (the common case).
      rows.emplace_back(from_json("{\"a\": " + std::to_string(i) + ", \"b\": {\"c\": \"x" +
                                  std::to_string(i) + "\"}, \"pad\": \"" +
                                  std::string(size_t(pick(200)), 'p') + "\"}"));
    } else {
      std::string json = "{";
      const int order = pick(3);
      const std::string a = "\"a\": " + std::to_string(pick(1000));
      const std::string b = "\"b\": {\"c\": " + std::to_string(pick(10)) + ", \"d\": [1, 2]}";
      const std::string extra = "\"k" + std::to_string(pick(40)) + "\": true";
      if (order == 0) json += a + ", " + b + ", " + extra;
      if (order == 1) json += extra + ", " + b;  // no "a"
      if (order == 2) json += b + ", " + extra + ", " + a;
      rows.emplace_back(from_json(json + "}"));
    }
  }
  return rows;
}

std::vector<std::optional<Variant>> views(const std::vector<std::optional<OwnedVariant>>& rows) {
  std::vector<std::optional<Variant>> out;
  for (const auto& row : rows) out.emplace_back(row ? std::optional<Variant>(row->view()) : std::nullopt);
  return out;
}

// variant_get of every path agrees with extracting it from the input rows.
void expect_paths_match(const std::string& file, const std::vector<std::optional<OwnedVariant>>& rows,
                        VariantGetPlan expected_plan) {
  for (const char* path : {"a", "b", "b.c", "b.d", "b.c.x", "k3", "missing", ""}) {
    SCOPED_TRACE(std::string("path ") + path);
    const VariantGetResult got = variant_get(file, "var", path);
    EXPECT_EQ(got.plan.plan, expected_plan);
    ASSERT_EQ(got.values.size(), rows.size());
    const std::vector<std::string> keys = split_variant_path(path);
    int64_t found = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      const std::optional<Variant> want = rows[i] ? variant_find_path(rows[i]->view(), keys) : std::nullopt;
      ASSERT_EQ(got.values[i].has_value(), want.has_value()) << "row " << i;
      if (!want) continue;
      ++found;
      EXPECT_TRUE(same_variant(got.values[i]->view(), *want, "row " + std::to_string(i)));
    }
    if (std::string(path) == "a" || std::string(path) == "b.c") {
      EXPECT_GT(found, 500);
    }
  }
  // A type filter turns other types into absent rows: only the shared run's
  // "x<i>" values are strings.
  const VariantGetResult strings = variant_get(file, "var", "b.c", "string");
  ASSERT_EQ(strings.values.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::optional<Variant> want =
        rows[i] ? variant_find_path(rows[i]->view(), {"b", "c"}) : std::optional<Variant>();
    const bool is_string = want && want->type() == VariantValueType::kString;
    ASSERT_EQ(strings.values[i].has_value(), is_string) << "row " << i;
    if (is_string) {
      EXPECT_EQ(strings.values[i]->view().get_string(), "x" + std::to_string(i));
    }
  }
}

struct EncodingCase {
  const char* name;
  bool dictionary;
  std::optional<Encoding> encoding;
  bool v2;
};

TEST(VariantStreamedGet, UnshreddedAgreesAcrossEncodingsAndPageBoundaries) {
  const auto rows = mixed_rows(1500);
  const auto input = views(rows);
  for (const EncodingCase& c : {EncodingCase{"dictionary", true, std::nullopt, false},
                                EncodingCase{"plain", false, std::nullopt, false},
                                EncodingCase{"plain-v2", false, std::nullopt, true},
                                EncodingCase{"dictionary-v2", true, std::nullopt, true},
                                EncodingCase{"delta-length", false, Encoding::DELTA_LENGTH_BYTE_ARRAY, false},
                                EncodingCase{"delta", false, Encoding::DELTA_BYTE_ARRAY, true}}) {
    SCOPED_TRACE(c.name);
    WriterOptions options;
    options.row_group_rows = 700;  // row groups of 700, 700 and 100 rows
    options.page_bytes = 3000;     // many pages, ending at different rows per leaf
    options.dictionary = c.dictionary;
    options.dictionary_page_bytes = 4096;  // metadata stays dictionary-encoded, values fall back
    options.encoding = c.encoding;
    options.data_page_v2 = c.v2;
    const std::string file = temp_file(std::string("streamed-") + c.name + ".parquet");
    write_variant_file(file, "var", input, VariantShredding{}, options, 256);
    expect_paths_match(file, rows, VariantGetPlan::kUnshredded);
  }
}

TEST(VariantStreamedGet, ResidualPlanReadsTheShreddedLevelsValue) {
  const auto rows = mixed_rows(1500);
  const auto input = views(rows);
  // Only "b" is shredded (an object with "d" shredded): "a" and the k* keys
  // live in the root residual, "b.c" in b's residual.
  const VariantShredding root = VariantShredding::object(
      {{"b", VariantShredding::object(
                 {{"d", VariantShredding::array(VariantShredding::primitive(VariantValueType::kInt8))}})}});
  WriterOptions options;
  options.row_group_rows = 700;
  options.page_bytes = 3000;
  const std::string file = temp_file("streamed-residual.parquet");
  write_variant_file(file, "var", input, root, options, 256);
  for (const char* path : {"a", "k3", "b.c", "b.c.x", "missing"}) {
    SCOPED_TRACE(path);
    const VariantGetResult got = variant_get(file, "var", path);
    EXPECT_EQ(got.plan.plan, VariantGetPlan::kResidual);
    ASSERT_EQ(got.values.size(), rows.size());
    const std::vector<std::string> keys = split_variant_path(path);
    for (size_t i = 0; i < rows.size(); ++i) {
      const std::optional<Variant> want = rows[i] ? variant_find_path(rows[i]->view(), keys) : std::nullopt;
      ASSERT_EQ(got.values[i].has_value(), want.has_value()) << "row " << i;
      if (want) {
        EXPECT_TRUE(same_variant(got.values[i]->view(), *want, "row " + std::to_string(i)));
      }
    }
  }
}

// An unsorted dictionary may hold a key twice (the spec only forbids it when
// sorted_strings is set); objects may then use either id for it.
TEST(VariantStreamedGet, RepeatedKeyInAnUnsortedDictionary) {
  // Dictionary ["b", "a", "b"], offset size 1, unsorted.
  const std::vector<uint8_t> metadata = {0x01, 3, 0, 1, 2, 3, 'b', 'a', 'b'};
  // {b (id 2): int8 5} and {b (id 0): int8 6, a (id 1): int8 7} (ids in key order a < b).
  const std::vector<uint8_t> first = {0x02, 1, 2, 0, 2, 0x0C, 5};
  const std::vector<uint8_t> second = {0x02, 2, 1, 0, 0, 2, 4, 0x0C, 7, 0x0C, 6};
  std::vector<std::optional<Variant>> rows;
  for (int i = 0; i < 10; ++i) rows.emplace_back(Variant(VariantMetadata(metadata), i % 2 ? second : first));
  const std::string file = temp_file("streamed-repeated-key.parquet");
  write_variant_file(file, "var", rows, VariantShredding{}, WriterOptions{});
  const VariantGetResult b = variant_get(file, "var", "b");
  const VariantGetResult a = variant_get(file, "var", "a");
  ASSERT_EQ(b.values.size(), 10u);
  for (size_t i = 0; i < 10; ++i) {
    ASSERT_TRUE(b.values[i].has_value()) << i;
    EXPECT_EQ(b.values[i]->view().get_int(), i % 2 ? 6 : 5) << i;
    ASSERT_EQ(a.values[i].has_value(), i % 2 == 1) << i;
    if (i % 2) {
      EXPECT_EQ(a.values[i]->view().get_int(), 7);
    }
  }
}

// Byte mutations all over a small unshredded file: variant_get either
// succeeds or throws parquetry::Error (ASan/UBSan catch anything else).
TEST(VariantStreamedGet, CorruptedFilesFailCleanly) {
  const auto rows = mixed_rows(300);
  WriterOptions options;
  options.row_group_rows = 120;
  options.page_bytes = 1500;
  options.page_checksum = false;  // let corrupted pages through to the decoders
  options.codec = CompressionCodec::UNCOMPRESSED;
  options.dictionary_page_bytes = 2048;
  const std::string file = temp_file("streamed-corrupt-source.parquet");
  write_variant_file(file, "var", views(rows), VariantShredding{}, options, 100);
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 4096u);
  const std::string mutated = temp_file("streamed-corrupt.parquet");
  int errors = 0, reads = 0;
  const uint8_t patterns[] = {0x00, 0xFF, 0x80, 0x01};
  for (size_t at = 4; at + 8 < bytes.size(); at += 13) {
    std::vector<char> copy = bytes;
    copy[at] = char(patterns[(at / 13) % 4] ^ (at % 3 == 0 ? uint8_t(copy[at]) : 0));
    std::ofstream(mutated, std::ios::binary | std::ios::trunc)
        .write(copy.data(), std::streamsize(copy.size()));
    try {
      (void)variant_get(mutated, "var", "b.c");
      ++reads;
    } catch (const Error&) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 0);
  EXPECT_GT(reads, 0);
}

}  // namespace
}  // namespace parquetry
