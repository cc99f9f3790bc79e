// The parquetry_bench binary: every bench/bench_*.cc suite plus this harness.
#include "harness.h"
#include "parquetry/malloc_retention.h"

int main(int argc, char** argv) {
  // What an application embedding parquetry should do (malloc_retention.h):
  // scans reuse freed memory instead of faulting it in again.
  parquetry::retain_freed_malloc_memory(size_t{256} << 20);
  return parquetry::bench::run_main(argc, argv);
}
