// Variant (BENCHMARKS.md section 4, seed 000): builder and converters.
//
// Builder: one object per iteration, {idstr, varid, varcategory, col4 (a
// 120-byte string), uuid}, from 1024 precomputed deterministic rows, with
// per-row metadata (clear()) and with one dictionary shared by all rows
// (clear_value()); and a deep/nested variant (8 levels of objects, each with
// an array). Converters: a string field to std::string_view (zero-copy) and
// to std::string (owned copy), whole value to JSON, JSON to a variant, and
// validate()/field lookup for reference. Every case reports ns per value
// (items/s) and the harness adds bytes allocated per value. Builders, parsers
// and output strings are function statics: they warm up during the timed
// runs, so the harness's allocation run (a few iterations) sees the steady
// state rather than first-use growth.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "parquetry/variant.h"
#include "parquetry/variant_builder.h"
#include "parquetry/variant_json.h"

namespace parquetry {
namespace {

constexpr size_t kRows = 1024;

struct Row {
  std::string idstr;
  int64_t varid;
  int32_t varcategory;
  std::string col4;
  std::array<uint8_t, 16> uuid;
};

uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

const std::vector<Row>& rows() {
  static const std::vector<Row> data = [] {
    std::vector<Row> out(kRows);
    for (size_t i = 0; i < kRows; ++i) {
      Row& r = out[i];
      char id[32];
      std::snprintf(id, sizeof(id), "id-%08zu", i);
      r.idstr = id;
      r.varid = int64_t(mix(i) >> 20);
      r.varcategory = int32_t(mix(i + 1) % 50);
      r.col4.reserve(120);
      while (r.col4.size() < 120)
        r.col4 += "lorem ipsum dolor sit amet " + std::to_string(mix(i + r.col4.size()) % 1000);
      r.col4.resize(120);
      for (int b = 0; b < 16; ++b) r.uuid[b] = uint8_t(mix(i * 16 + b));
    }
    return out;
  }();
  return data;
}

void build_row(VariantBuilder& b, const Row& r) {
  b.start_object();
  b.field("idstr");
  b.append_string(r.idstr);
  b.field("varid");
  b.append_int(r.varid);
  b.field("varcategory");
  b.append_int(r.varcategory);
  b.field("col4");
  b.append_string(r.col4);
  b.field("uuid");
  b.append_uuid(r.uuid);
  b.finish_object();
}

void build_nested(VariantBuilder& b, int depth, int64_t seed) {
  b.start_object();
  b.field("level");
  b.append_int(depth);
  b.field("name");
  b.append_string("node-" + std::to_string(seed % 1000));
  b.field("items");
  b.start_array();
  for (int i = 0; i < 4; ++i) b.append_int(seed + i);
  b.finish_array();
  if (depth > 1) {
    b.field("child");
    build_nested(b, depth - 1, seed + 7);
  }
  b.finish_object();
}

// One encoded row, owned.
struct Encoded {
  std::vector<uint8_t> metadata;
  std::vector<uint8_t> value;
  Variant variant() const { return Variant(VariantMetadata(metadata), value); }
};

const std::vector<Encoded>& encoded_rows() {
  static const std::vector<Encoded> data = [] {
    std::vector<Encoded> out;
    VariantBuilder b;
    for (const Row& r : rows()) {
      b.clear();
      build_row(b, r);
      out.push_back({{b.metadata().begin(), b.metadata().end()}, {b.value().begin(), b.value().end()}});
    }
    return out;
  }();
  return data;
}

void BM_Variant_BuildObject(benchmark::State& state) {
  const auto& data = rows();
  static VariantBuilder b;
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    b.clear();
    build_row(b, data[i++ & (kRows - 1)]);
    const auto m = b.metadata();
    const auto v = b.value();
    benchmark::DoNotOptimize(m.data());
    benchmark::DoNotOptimize(v.data());
    bytes += m.size() + v.size();
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.SetBytesProcessed(int64_t(bytes));
}
BENCHMARK(BM_Variant_BuildObject);

void BM_Variant_BuildObject_SharedDictionary(benchmark::State& state) {
  const auto& data = rows();
  static VariantBuilder b;
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    b.clear_value();
    build_row(b, data[i++ & (kRows - 1)]);
    const auto v = b.value();
    benchmark::DoNotOptimize(v.data());
    bytes += v.size();
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.SetBytesProcessed(int64_t(bytes));
}
BENCHMARK(BM_Variant_BuildObject_SharedDictionary);

void BM_Variant_BuildNested(benchmark::State& state) {
  static VariantBuilder b;
  int64_t seed = 0;
  for (auto _ : state) {
    b.clear();
    build_nested(b, 8, seed++ & 1023);
    const auto m = b.metadata();
    const auto v = b.value();
    benchmark::DoNotOptimize(m.data());
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_Variant_BuildNested);

void BM_Variant_StringToStringView(benchmark::State& state) {
  const auto& data = encoded_rows();
  size_t i = 0, total = 0;
  for (auto _ : state) {
    const Variant v = data[i++ & (kRows - 1)].variant();
    const std::string_view s = v.get_field("col4")->get_string();
    benchmark::DoNotOptimize(s.data());
    total += s.size();
  }
  benchmark::DoNotOptimize(total);
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_Variant_StringToStringView);

void BM_Variant_StringToStdString(benchmark::State& state) {
  const auto& data = encoded_rows();
  size_t i = 0;
  for (auto _ : state) {
    const Variant v = data[i++ & (kRows - 1)].variant();
    std::string s(v.get_field("col4")->get_string());
    benchmark::DoNotOptimize(s.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_Variant_StringToStdString);

void BM_Variant_GetFieldVarcategory(benchmark::State& state) {
  const auto& data = encoded_rows();
  size_t i = 0;
  int64_t sum = 0;
  for (auto _ : state) {
    const Variant v = data[i++ & (kRows - 1)].variant();
    sum += v.get_field("varcategory")->get_int();
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_Variant_GetFieldVarcategory);

void BM_Variant_Validate(benchmark::State& state) {
  const auto& data = encoded_rows();
  size_t i = 0;
  for (auto _ : state) data[i++ & (kRows - 1)].variant().validate();
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_Variant_Validate);

void BM_Variant_ToJson(benchmark::State& state) {
  const auto& data = encoded_rows();
  static std::string out;
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    out.clear();
    variant_to_json(data[i++ & (kRows - 1)].variant(), out);
    benchmark::DoNotOptimize(out.data());
    bytes += out.size();
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.SetBytesProcessed(int64_t(bytes));
}
BENCHMARK(BM_Variant_ToJson);

void BM_Variant_NestedToJson(benchmark::State& state) {
  static const Encoded nested = [] {
    VariantBuilder b;
    build_nested(b, 8, 42);
    return Encoded{{b.metadata().begin(), b.metadata().end()}, {b.value().begin(), b.value().end()}};
  }();
  static std::string out;
  for (auto _ : state) {
    out.clear();
    variant_to_json(nested.variant(), out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_Variant_NestedToJson);

void BM_Variant_FromJson(benchmark::State& state) {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> out;
    for (const Encoded& e : encoded_rows()) out.push_back(variant_to_json(e.variant()));
    return out;
  }();
  static VariantJsonParser parser;
  static VariantBuilder b;
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    const std::string& text = texts[i++ & (kRows - 1)];
    b.clear();
    parser.parse(text, b);
    benchmark::DoNotOptimize(b.metadata().data());
    bytes += text.size();
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.SetBytesProcessed(int64_t(bytes));
}
BENCHMARK(BM_Variant_FromJson);

}  // namespace
}  // namespace parquetry
