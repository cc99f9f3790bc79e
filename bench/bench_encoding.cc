// Encoding-layer kernels, one page-sized batch per iteration.
//
// items/s counts decoded (or encoded) values. Data shapes: bit unpacking of
// random values per width; definition levels with realistic run structure
// (about 40-value bit-packed stretches and 90-value runs, as measured on
// ClickBench hits.parquet) straight to a validity bitmap versus to int16
// levels; dictionary indices + gather; delta-encoded sorted and random
// integers; BYTE_STREAM_SPLIT floats and doubles; PLAIN byte arrays to
// offsets and to views; and the matching encoders.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parquetry/encoding/bit_unpack.h"
#include "parquetry/encoding/byte_stream_split.h"
#include "parquetry/encoding/delta.h"
#include "parquetry/encoding/dictionary.h"
#include "parquetry/encoding/plain.h"
#include "parquetry/encoding/rle.h"
#include "parquetry/encoding/spaced.h"
#include "parquetry/util/buffer.h"

namespace parquetry::encoding {
namespace {

constexpr int64_t kValues = 64 * 1024;

template <typename T>
void BM_Unpack(benchmark::State& state) {
  const int width = int(state.range(0));
  std::mt19937_64 rng(1);
  std::vector<uint8_t> packed(size_t((kValues * width + 7) / 8));
  for (auto& b : packed) b = uint8_t(rng());
  std::vector<T> out(kValues);
  for (auto _ : state) {
    unpack<T>(packed.data(), width, out.data(), kValues);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * int64_t(packed.size()));
}
BENCHMARK(BM_Unpack<uint32_t>)
    ->ArgName("width")
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->Arg(5)
    ->Arg(8)
    ->Arg(12)
    ->Arg(16)
    ->Arg(20)
    ->Arg(32);
BENCHMARK(BM_Unpack<uint8_t>)->ArgName("width")->Arg(1)->Arg(3);
BENCHMARK(BM_Unpack<uint16_t>)->ArgName("width")->Arg(1)->Arg(2);
BENCHMARK(BM_Unpack<uint64_t>)->ArgName("width")->Arg(1)->Arg(17)->Arg(33)->Arg(48)->Arg(64);

// Definition levels of an optional column at max level 1 with mixed runs.
Buffer levels_page(std::vector<uint8_t>* levels_out) {
  std::mt19937 rng(2);
  std::vector<uint8_t> levels;
  while (int64_t(levels.size()) < kValues) {
    if (rng() % 2 == 0) {
      levels.insert(levels.end(), 60 + rng() % 60, uint8_t(rng() % 4 != 0));
    } else {
      for (int i = 0; i < 40; ++i) levels.push_back(uint8_t(rng() % 5 != 0));
    }
  }
  levels.resize(kValues);
  RleBitPackedEncoder enc(1);
  enc.put(levels.data(), kValues);
  Buffer out;
  enc.flush_to(out);
  if (levels_out) *levels_out = levels;
  return out;
}

void BM_RleLevelsToBitmap(benchmark::State& state) {
  Buffer page = levels_page(nullptr);
  std::vector<uint8_t> bitmap(kValues / 8 + 8);
  int64_t nulls = 0;
  for (auto _ : state) {
    RleBitPackedDecoder d(page.span(), 1);
    nulls = 0;
    d.decode_validity(bitmap.data(), 0, kValues, &nulls);
    benchmark::DoNotOptimize(bitmap.data());
  }
  state.counters["nulls"] = double(nulls);
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_RleLevelsToBitmap);

// The same levels through int16 then a bitmap: what the fast path avoids.
void BM_RleLevelsToInt16ThenBitmap(benchmark::State& state) {
  Buffer page = levels_page(nullptr);
  std::vector<int16_t> levels(kValues);
  std::vector<uint8_t> bitmap(kValues / 8 + 8);
  for (auto _ : state) {
    RleBitPackedDecoder d(page.span(), 1);
    d.decode(levels.data(), kValues);
    for (int64_t i = 0; i < kValues; i += 8) {
      uint8_t b = 0;
      for (int j = 0; j < 8; ++j) b |= uint8_t((levels[size_t(i + j)] == 1) << j);
      bitmap[size_t(i / 8)] = b;
    }
    benchmark::DoNotOptimize(bitmap.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_RleLevelsToInt16ThenBitmap);

void BM_ExpandSpacedDouble(benchmark::State& state) {
  std::vector<uint8_t> levels;
  Buffer page = levels_page(&levels);
  std::vector<uint8_t> bitmap(kValues / 8 + 8);
  int64_t nulls = 0;
  RleBitPackedDecoder(page.span(), 1).decode_validity(bitmap.data(), 0, kValues, &nulls);
  const int64_t dense = kValues - nulls;
  std::vector<double> values(kValues);
  for (auto _ : state) {
    for (int64_t i = 0; i < dense; ++i) values[size_t(i)] = double(i);
    expand_spaced(values.data(), kValues, dense, bitmap.data(), 0);
    benchmark::DoNotOptimize(values.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_ExpandSpacedDouble);

void BM_RleDecodeLevelsInt16(benchmark::State& state) {
  // Repetition-like levels at width 2 (max level 3).
  std::mt19937 rng(3);
  std::vector<int16_t> levels(kValues);
  for (auto& l : levels) l = int16_t(rng() % 8 < 6 ? 3 : rng() % 3);
  RleBitPackedEncoder enc(2);
  enc.put(levels.data(), kValues);
  Buffer page;
  enc.flush_to(page);
  std::vector<int16_t> out(kValues);
  for (auto _ : state) {
    RleBitPackedDecoder d(page.span(), 2);
    d.decode_levels(out.data(), kValues, 3);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_RleDecodeLevelsInt16);

void BM_DictionaryIndicesAndGatherInt64(benchmark::State& state) {
  const int32_t dict_size = int32_t(state.range(0));
  std::mt19937 rng(4);
  std::vector<int64_t> dict(static_cast<size_t>(dict_size));
  for (auto& v : dict) v = int64_t(rng()) * 7919;
  std::vector<int32_t> idx(kValues);
  for (auto& i : idx) i = int32_t(rng() % uint32_t(dict_size));
  Buffer page;
  encode_dictionary_indices(idx.data(), kValues, dictionary_index_bit_width(dict_size), page);
  std::vector<int32_t> indices(kValues);
  std::vector<int64_t> out(kValues);
  for (auto _ : state) {
    DictionaryIndexDecoder d(page.span(), dict_size);
    d.decode(indices.data(), kValues);
    gather(dict.data(), indices.data(), kValues, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DictionaryIndicesAndGatherInt64)->ArgName("dict")->Arg(16)->Arg(1000)->Arg(60000);

void BM_DictionaryDecodeGatherInt64(benchmark::State& state) {
  const int32_t dict_size = int32_t(state.range(0));
  std::mt19937 rng(4);
  std::vector<int64_t> dict(static_cast<size_t>(dict_size));
  for (auto& v : dict) v = int64_t(rng()) * 7919;
  std::vector<int32_t> idx(kValues);
  for (auto& i : idx) i = int32_t(rng() % uint32_t(dict_size));
  Buffer page;
  encode_dictionary_indices(idx.data(), kValues, dictionary_index_bit_width(dict_size), page);
  std::vector<int64_t> out(kValues);
  for (auto _ : state) {
    DictionaryIndexDecoder d(page.span(), dict_size);
    d.decode_gather(dict.data(), out.data(), kValues);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DictionaryDecodeGatherInt64)->ArgName("dict")->Arg(16)->Arg(1000)->Arg(60000);

void BM_DictionaryGatherStrings(benchmark::State& state) {
  std::mt19937 rng(5);
  std::vector<std::string> words;
  for (int i = 0; i < 1000; ++i) words.push_back("word-" + std::to_string(rng() % 100000) + "-x");
  std::vector<ByteArrayView> dict;
  for (auto& w : words) dict.push_back({reinterpret_cast<const uint8_t*>(w.data()), uint32_t(w.size())});
  std::vector<int32_t> idx(kValues);
  for (auto& i : idx) i = int32_t(rng() % 1000);
  Buffer offsets, data;
  for (auto _ : state) {
    offsets.clear();
    data.clear();
    gather_byte_arrays(dict.data(), idx.data(), kValues, offsets, data);
    benchmark::DoNotOptimize(data.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DictionaryGatherStrings);

template <typename T>
void BM_DeltaDecode(benchmark::State& state) {
  const bool sorted = state.range(0) == 0;
  std::mt19937_64 rng(6);
  std::vector<T> v(kValues);
  T acc = 0;
  for (auto& x : v) x = sorted ? (acc += T(rng() % 100)) : T(rng());
  DeltaBinaryPackedEncoder<T> enc;
  enc.put(v.data(), kValues);
  Buffer page;
  enc.flush_to(page);
  std::vector<T> out(kValues);
  for (auto _ : state) {
    DeltaBinaryPackedDecoder<T> d(page.span());
    d.decode(out.data(), kValues);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetLabel(sorted ? "sorted" : "random");
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DeltaDecode<int32_t>)->ArgName("random")->Arg(0)->Arg(1);
BENCHMARK(BM_DeltaDecode<int64_t>)->ArgName("random")->Arg(0)->Arg(1);

template <typename T>
void BM_DeltaEncode(benchmark::State& state) {
  std::mt19937_64 rng(7);
  std::vector<T> v(kValues);
  T acc = 0;
  for (auto& x : v) x = (acc += T(rng() % 100));
  DeltaBinaryPackedEncoder<T> enc;
  Buffer page;
  for (auto _ : state) {
    page.clear();
    enc.put(v.data(), kValues);
    enc.flush_to(page);
    benchmark::DoNotOptimize(page.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DeltaEncode<int64_t>);

template <typename T>
void BM_ByteStreamSplitDecode(benchmark::State& state) {
  std::mt19937 rng(8);
  std::vector<T> v(kValues);
  for (auto& x : v) x = T(rng()) / T(7);
  Buffer page;
  byte_stream_split_encode(v.data(), int(sizeof(T)), kValues, page);
  std::vector<T> out(kValues);
  for (auto _ : state) {
    ByteStreamSplitDecoder d(page.span(), int(sizeof(T)));
    d.decode(out.data(), kValues);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * int64_t(sizeof(T)));
}
BENCHMARK(BM_ByteStreamSplitDecode<float>);
BENCHMARK(BM_ByteStreamSplitDecode<double>);

Buffer strings_page() {
  std::mt19937 rng(9);
  std::vector<int32_t> offsets = {0};
  std::string all;
  for (int64_t i = 0; i < kValues; ++i) {
    all += "user" + std::to_string(rng() % 1000000) + "@example.org";
    offsets.push_back(int32_t(all.size()));
  }
  Buffer page;
  plain_encode_byte_arrays(offsets.data(), reinterpret_cast<const uint8_t*>(all.data()), kValues, page);
  return page;
}

void BM_PlainByteArrayToOffsets(benchmark::State& state) {
  Buffer page = strings_page();
  Buffer offsets, data;
  for (auto _ : state) {
    offsets.clear();
    data.clear();
    PlainDecoder d(page.span());
    d.decode_byte_arrays(offsets, data, kValues);
    benchmark::DoNotOptimize(data.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * int64_t(page.size()));
}
BENCHMARK(BM_PlainByteArrayToOffsets);

void BM_PlainByteArrayToViews(benchmark::State& state) {
  Buffer page = strings_page();
  std::vector<ByteArrayView> views(kValues);
  for (auto _ : state) {
    PlainDecoder d(page.span());
    d.decode_byte_array_views(views.data(), kValues);
    benchmark::DoNotOptimize(views.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * int64_t(page.size()));
}
BENCHMARK(BM_PlainByteArrayToViews);

void BM_DeltaLengthByteArrayDecode(benchmark::State& state) {
  Buffer plain = strings_page();
  std::vector<ByteArrayView> views(kValues);
  PlainDecoder(plain.span()).decode_byte_array_views(views.data(), kValues);
  DeltaLengthByteArrayEncoder enc;
  enc.put(views.data(), kValues);
  Buffer page;
  enc.flush_to(page);
  Buffer offsets, data;
  DeltaLengthByteArrayDecoder d;  // reused across pages, as a column reader does
  for (auto _ : state) {
    offsets.clear();
    data.clear();
    d.reset(page.span(), kValues);
    d.decode(offsets, data, kValues);
    benchmark::DoNotOptimize(data.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DeltaLengthByteArrayDecode);

void BM_RleEncodeIndices(benchmark::State& state) {
  std::mt19937 rng(10);
  std::vector<int32_t> idx(kValues);
  for (auto& i : idx) i = int32_t(rng() % 1000);
  Buffer page;
  for (auto _ : state) {
    page.clear();
    encode_dictionary_indices(idx.data(), kValues, 10, page);
    benchmark::DoNotOptimize(page.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_RleEncodeIndices);

void BM_DictionaryBuildInt64(benchmark::State& state) {
  std::mt19937_64 rng(11);
  std::vector<int64_t> v(kValues);
  for (auto& x : v) x = int64_t(rng() % 5000);
  std::vector<int32_t> idx(kValues);
  DictionaryBuilder<int64_t> b;
  for (auto _ : state) {
    b.reset();
    b.put(v.data(), kValues, idx.data());
    benchmark::DoNotOptimize(idx.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DictionaryBuildInt64);

}  // namespace
}  // namespace parquetry::encoding
