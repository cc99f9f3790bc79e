// Force-included (-include) into every bench/bench_<suite>.cc by
// bench/CMakeLists.txt, with PARQUETRY_BENCH_SUITE_NAME="<suite>". It wraps
// the plain Google Benchmark registration macros so that each family also
// records the file it came from: the harness then groups plain BENCHMARK(...)s
// into one suite per file without the suites doing anything.
#pragma once

#include <benchmark/benchmark.h>

namespace parquetry::bench {

/// Records that benchmark family `family` belongs to `suite`; returns `registered`.
benchmark::internal::Benchmark* tag_suite(const char* suite, const char* family,
                                          benchmark::internal::Benchmark* registered);

}  // namespace parquetry::bench

#ifdef PARQUETRY_BENCH_SUITE_NAME

#undef BENCHMARK
#define BENCHMARK(...)                                                    \
  BENCHMARK_PRIVATE_DECLARE(_benchmark_) = ::parquetry::bench::tag_suite( \
      PARQUETRY_BENCH_SUITE_NAME, #__VA_ARGS__,                           \
      ::benchmark::internal::RegisterBenchmarkInternal(                   \
          new ::benchmark::internal::FunctionBenchmark(#__VA_ARGS__, &__VA_ARGS__)))

#undef BENCHMARK_CAPTURE
#define BENCHMARK_CAPTURE(func, test_case_name, ...)                                                 \
  BENCHMARK_PRIVATE_DECLARE(func) = ::parquetry::bench::tag_suite(                                   \
      PARQUETRY_BENCH_SUITE_NAME, #func,                                                             \
      ::benchmark::internal::RegisterBenchmarkInternal(new ::benchmark::internal::FunctionBenchmark( \
          #func "/" #test_case_name, [](::benchmark::State& st) { func(st, __VA_ARGS__); })))

#undef BENCHMARK_TEMPLATE
#define BENCHMARK_TEMPLATE(n, ...)                              \
  BENCHMARK_PRIVATE_DECLARE(n) = ::parquetry::bench::tag_suite( \
      PARQUETRY_BENCH_SUITE_NAME, #n "<" #__VA_ARGS__ ">",      \
      ::benchmark::internal::RegisterBenchmarkInternal(         \
          new ::benchmark::internal::FunctionBenchmark(#n "<" #__VA_ARGS__ ">", n<__VA_ARGS__>)))

#endif  // PARQUETRY_BENCH_SUITE_NAME
