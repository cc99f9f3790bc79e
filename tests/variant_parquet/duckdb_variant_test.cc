// VARIANT interop with DuckDB (bench/peers/duckdb_variant.mjs, installed by
// scripts/install-peers.sh; skipped without node or the peer): DuckDB reads
// the shredded and unshredded files parquetry writes with the same values,
// and parquetry reads DuckDB's shredded files (its default inferred
// shredding) the same way DuckDB does. Values are compared as JSON: numbers
// by value (DuckDB prints 1.0 where parquetry prints 1), everything else
// exactly. Timestamps, times and binaries, which the two engines render
// differently as JSON text, are compared as numbers and hex through SQL.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "json_compare.h"
#include "parquetry/variant_builder.h"
#include "parquetry/variant_json.h"
#include "parquetry/variant_parquet.h"
#include "parquetry/variant_writer.h"
#include "parquetry/writer.h"
#include "test_support.h"
#include "variant_cases.h"

namespace parquetry {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

std::vector<std::string> run_duckdb(const std::string& args) {
  int status = 0;
  std::vector<std::string> lines = testing::run_peer("duckdb_variant.mjs", args, &status);
  EXPECT_EQ(status, 0) << (lines.empty() ? "" : lines.back());
  return lines;
}

bool same_json(element expected, element actual, std::string& why) {
  return testing::json_same(expected, actual, why, "", 1e-9);
}

// DuckDB 1.5 renders a decimal below 1 stored in variant bytes without its
// leading zero (0.24 as ".24", -0.5 as "-.5"), which is not JSON; put the
// zero back (the test data has no strings containing such patterns).
std::string fix_duckdb_decimals(const std::string& json) {
  std::string out;
  out.reserve(json.size() + 8);
  for (size_t i = 0; i < json.size(); ++i) {
    const char prev = out.empty() ? '\0' : out.back();
    if (json[i] == '.' && (prev == ':' || prev == ',' || prev == '[' || prev == '-' || out.empty())) {
      out += '0';
    }
    out += json[i];
  }
  return out;
}

// parquetry's rows (nullopt = SQL NULL) against DuckDB's lines.
void expect_same_rows(const std::vector<std::optional<std::string>>& ours,
                      const std::vector<std::string>& theirs, const std::string& what) {
  ASSERT_EQ(ours.size(), theirs.size()) << what << (theirs.empty() ? "" : ": " + theirs.back());
  simdjson::dom::parser p1, p2;
  int mismatches = 0;
  for (size_t i = 0; i < ours.size() && mismatches < 5; ++i) {
    if (!ours[i]) {
      EXPECT_EQ(theirs[i], "NULL") << what << " row " << i;
      continue;
    }
    // DuckDB reads a top-level Variant null as SQL NULL.
    if (*ours[i] == "null" && theirs[i] == "NULL") continue;
    element a, b;
    const std::string fixed = fix_duckdb_decimals(theirs[i]);
    ASSERT_EQ(p1.parse(*ours[i]).get(a), simdjson::SUCCESS) << *ours[i];
    ASSERT_EQ(p2.parse(fixed).get(b), simdjson::SUCCESS) << what << " row " << i << ": " << theirs[i];
    std::string why;
    if (!same_json(a, b, why)) {
      ADD_FAILURE() << what << " row " << i << ": " << why << "\n  parquetry: " << *ours[i]
                    << "\n  duckdb:    " << theirs[i];
      ++mismatches;
    }
  }
}

OwnedVariant own(VariantBuilder& b) {
  OwnedVariant out;
  const auto md = b.metadata();
  out.metadata.assign(md.begin(), md.end());
  out.value.assign(b.value().begin(), b.value().end());
  return out;
}

// Objects of stable types per key with type changes, missing keys, nested
// objects and arrays, UUIDs and dates, plus non-object rows and SQL NULLs.
std::vector<std::optional<OwnedVariant>> sample_rows(int n) {
  std::mt19937_64 rng(11);
  VariantBuilder b;
  VariantJsonParser parser;
  std::vector<std::optional<OwnedVariant>> rows;
  for (int i = 0; i < n; ++i) {
    b.clear();
    if (i % 61 == 5) {
      rows.emplace_back(std::nullopt);
      continue;
    }
    if (i % 47 == 3) {
      parser.parse(R"([1, "two", {"three": 3.25}, null])", b);
      rows.emplace_back(own(b));
      continue;
    }
    b.start_object();
    b.field("id");
    b.append_int64(i);
    b.field("category");
    if (i % 17 == 0) {
      b.append_int(i);  // a type change
    } else {
      b.append_string("cat-" + std::to_string(rng() % 10));
    }
    if (i % 3 != 0) {
      b.field("score");
      b.append_double(double(rng() % 1000) / 8.0);
    }
    b.field("price");
    b.append_decimal8(int64_t(rng() % 100000), 2);
    b.field("uuid");
    std::array<uint8_t, 16> uuid{};
    for (auto& byte : uuid) byte = uint8_t(rng());
    b.append_uuid(uuid);
    b.field("day");
    b.append_date(19000 + i % 400);
    b.field("nested");
    parser.parse(R"({"a": )" + std::to_string(i % 9) + R"(, "b": [true, false], "c": {"d": "deep"}})", b);
    if (i % 5 == 0) {
      b.field("extra_" + std::to_string(i % 4));
      b.append_string("rare");
    }
    b.finish_object();
    rows.emplace_back(own(b));
  }
  return rows;
}

TEST(VariantDuckDB, DuckDBReadsOurShreddedAndUnshreddedFiles) {
  if (!testing::duckdb_peer_available())
    GTEST_SKIP() << "node or the DuckDB peer is not installed (scripts/install-peers.sh)";
  const auto rows = sample_rows(1500);
  std::vector<std::optional<Variant>> input;
  std::vector<std::optional<std::string>> expected;
  for (const auto& row : rows) {
    input.emplace_back(row ? std::optional<Variant>(row->view()) : std::nullopt);
    expected.emplace_back(row ? std::optional<std::string>(row->to_json()) : std::nullopt);
  }
  const VariantShredding inferred = infer_variant_shredding(input);
  ASSERT_EQ(inferred.kind, VariantShredding::Kind::kObject) << inferred.to_string();
  const auto dir = parquetry::testing::temp_dir();
  WriterOptions options;
  options.row_group_rows = 700;
  for (const auto& [name, shredding] :
       {std::pair<std::string, VariantShredding>{"shredded", inferred}, {"unshredded", VariantShredding{}}}) {
    SCOPED_TRACE(name);
    const std::string file = (dir / (name + ".parquet")).string();
    write_variant_file(file, "var", input, shredding, options, 500);
    expect_same_rows(expected, run_duckdb("read '" + file + "' var"), name);
    // One shredded path through DuckDB's extraction.
    std::vector<std::optional<std::string>> ids;
    for (const auto& row : rows) {
      std::optional<Variant> id = row ? variant_find_path(row->view(), {"id"}) : std::nullopt;
      ids.emplace_back(id ? std::optional<std::string>(variant_to_json(*id)) : std::nullopt);
    }
    expect_same_rows(ids, run_duckdb("extract '" + file + "' var id"), name + " var.id");
  }
}

TEST(VariantDuckDB, WeReadDuckDBShreddedFilesAsDuckDBDoes) {
  if (!testing::duckdb_peer_available())
    GTEST_SKIP() << "node or the DuckDB peer is not installed (scripts/install-peers.sh)";
  const auto dir = parquetry::testing::temp_dir();
  const std::string file = (dir / "duckdb.parquet").string();
  run_duckdb("write '" + file + "' 3000");
  const auto columns = find_variant_columns(file);
  ASSERT_EQ(columns.size(), 1u);
  EXPECT_TRUE(columns[0].shredded()) << "DuckDB shreds by default";
  const auto got = read_variant_column(file, "var");
  std::vector<std::optional<std::string>> ours;
  for (const auto& row : got)
    ours.emplace_back(row ? std::optional<std::string>(row->to_json()) : std::nullopt);
  expect_same_rows(ours, run_duckdb("read '" + file + "' var"), "duckdb file");

  // variant_get on shredded paths and a path inside a shredded array's sibling.
  for (const char* path : {"name", "nested.a", "nested.b", "price", "uuid", "day"}) {
    SCOPED_TRACE(path);
    const VariantGetResult result = variant_get(file, "var", path);
    std::vector<std::optional<std::string>> values;
    for (const auto& v : result.values) {
      if (!v) {
        values.emplace_back(std::nullopt);
        continue;
      }
      // DuckDB's VARCHAR cast prints strings bare; parquetry's JSON quotes them.
      std::string text = v->to_json();
      if (v->view().type() == VariantValueType::kString || v->view().type() == VariantValueType::kUuid ||
          v->view().type() == VariantValueType::kDate) {
        text = "\"" + std::string(text.substr(1, text.size() - 2)) + "\"";
      }
      values.emplace_back(text);
    }
    std::vector<std::string> theirs = run_duckdb("extract '" + file + "' var " + path);
    for (size_t i = 0; i < theirs.size() && i < values.size(); ++i) {
      if (values[i] && (*values[i])[0] == '"') theirs[i] = "\"" + theirs[i] + "\"";
    }
    expect_same_rows(values, theirs, std::string("var.") + path);
  }
}

// One line per row of the typed values, in the form the DuckDB query below
// prints; a value of an unexpected type shows up as its JSON instead.
std::string typed_line(const Variant& v, bool nanos) {
  // DuckDB has no top-level Variant null: it reads one as SQL NULL (and with
  // an explicit SHREDDING writes its SQL NULL rows as value = 00).
  if (v.is_null()) return "NULL";
  static const char* digits = "0123456789ABCDEF";
  auto field = [&](const char* key, VariantValueType type) -> std::optional<Variant> {
    std::optional<Variant> f = v.get_field(key);
    if (!f || f->type() != type) return std::nullopt;
    return f;
  };
  const auto b = field("b", VariantValueType::kBinary);
  const auto ts = field("ts", VariantValueType::kTimestampNtzMicros);
  const auto tz = field("tz", VariantValueType::kTimestampMicros);
  const auto t = field("t", VariantValueType::kTimeNtzMicros);
  const auto id = v.get_field("id");
  const auto tsn = field("tsn", VariantValueType::kTimestampNtzNanos);
  if (!b || !ts || !tz || !t || !id || (nanos && !tsn)) return "unexpected types: " + variant_to_json(v);
  std::string hex;
  for (uint8_t byte : b->get_binary()) {
    hex += digits[byte >> 4];
    hex += digits[byte & 15];
  }
  std::string line = hex + " " + std::to_string(ts->get_timestamp_ntz_micros()) + " " +
                     std::to_string(tz->get_timestamp_micros()) + " " +
                     std::to_string(t->get_time_ntz_micros()) + " " + std::to_string(id->get_int());
  if (nanos) line += " " + std::to_string(tsn->get_timestamp_ntz_nanos());
  return line;
}

std::string typed_query(bool nanos) {
  std::string q =
      "hex(var['b']::BLOB) || ' ' || epoch_us(var['ts']::TIMESTAMP) || ' ' || "
      "epoch_us(var['tz']::TIMESTAMPTZ) "
      "|| ' ' || datediff('microsecond', TIME '00:00:00', var['t']::TIME) || ' ' || var['id']::BIGINT";
  if (nanos) q += " || ' ' || epoch_ns(var['tsn']::TIMESTAMP_NS)";
  return "\"" + q + "\"";
}

void expect_same_lines(const std::vector<std::optional<std::string>>& ours,
                       const std::vector<std::string>& theirs, const std::string& what) {
  ASSERT_EQ(ours.size(), theirs.size()) << what << (theirs.empty() ? "" : ": " + theirs.back());
  int mismatches = 0;
  for (size_t i = 0; i < ours.size() && mismatches < 5; ++i) {
    const std::string want = ours[i] ? *ours[i] : "NULL";
    if (want != theirs[i]) {
      ADD_FAILURE() << what << " row " << i << "\n  parquetry: " << want << "\n  duckdb:    " << theirs[i];
      ++mismatches;
    }
  }
}

TEST(VariantDuckDB, TimestampsTimesAndBinariesAgreeBothWays) {
  if (!testing::duckdb_peer_available())
    GTEST_SKIP() << "node or the DuckDB peer is not installed (scripts/install-peers.sh)";
  const auto dir = parquetry::testing::temp_dir();
  // DuckDB's file, every key shredded by an explicit SHREDDING.
  const std::string theirs_file = (dir / "duckdb-typed.parquet").string();
  run_duckdb("write-typed '" + theirs_file + "' 500");
  const auto columns = find_variant_columns(theirs_file);
  ASSERT_EQ(columns.size(), 1u);
  ASSERT_EQ(columns[0].root.kind, VariantShredKind::kObject);
  for (const auto& [key, id] :
       {std::pair<const char*, VariantPrimitive>{"ts", VariantPrimitive::kTimestampNtzMicros},
        {"tz", VariantPrimitive::kTimestampMicros},
        {"t", VariantPrimitive::kTimeNtzMicros},
        {"b", VariantPrimitive::kBinary}}) {
    const VariantShredNode* field = columns[0].root.field(key);
    ASSERT_NE(field, nullptr) << key;
    EXPECT_EQ(field->kind, VariantShredKind::kPrimitive) << key;
    EXPECT_EQ(field->primitive_id, uint8_t(id)) << key;
  }
  std::vector<std::optional<std::string>> ours;
  for (const auto& row : read_variant_column(theirs_file, "var")) {
    ours.emplace_back(row ? std::optional<std::string>(typed_line(row->view(), false)) : std::nullopt);
  }
  expect_same_lines(ours, run_duckdb("query '" + theirs_file + "' " + typed_query(false)), "duckdb file");

  // Our file: the same kinds of values plus nanosecond timestamps, shredded by inference.
  std::vector<std::optional<OwnedVariant>> rows;
  VariantBuilder b;
  for (int64_t i = 0; i < 500; ++i) {
    if (i % 10 == 9) {
      rows.emplace_back(std::nullopt);
      continue;
    }
    b.clear();
    b.start_object();
    b.field("id");
    b.append_int64(i);
    b.field("ts");
    b.append_timestamp_ntz_micros(1704067200000000LL + i * 1000003);
    b.field("tz");
    b.append_timestamp_micros(1704067200000000LL - i * 7000000);
    b.field("t");
    b.append_time_ntz_micros(36000000000LL + i * 13);
    b.field("b");
    const uint8_t bytes[3] = {uint8_t(i), 0, uint8_t(255 - i)};
    b.append_binary(bytes);
    b.field("tsn");
    b.append_timestamp_ntz_nanos(1704067200000000000LL + i * 1000000007LL);
    b.finish_object();
    rows.emplace_back(own(b));
  }
  std::vector<std::optional<Variant>> input;
  ours.clear();
  for (const auto& row : rows) {
    input.emplace_back(row ? std::optional<Variant>(row->view()) : std::nullopt);
    ours.emplace_back(row ? std::optional<std::string>(typed_line(row->view(), true)) : std::nullopt);
  }
  const VariantShredding inferred = infer_variant_shredding(input);
  EXPECT_EQ(
      inferred.to_string(),
      "object{b: binary, id: int64, t: time_ntz_micros, ts: timestamp_ntz_micros, tsn: timestamp_ntz_nanos, "
      "tz: timestamp_micros}");
  const std::string ours_file = (dir / "parquetry-typed.parquet").string();
  write_variant_file(ours_file, "var", input, inferred, WriterOptions{});
  expect_same_lines(ours, run_duckdb("query '" + ours_file + "' " + typed_query(true)), "parquetry file");
}

}  // namespace
}  // namespace parquetry
