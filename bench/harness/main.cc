// The parquetry_bench binary: every bench/bench_*.cc suite plus this harness.
#include "harness.h"

int main(int argc, char** argv) { return parquetry::bench::run_main(argc, argv); }
