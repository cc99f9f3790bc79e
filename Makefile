# The two commands of the README. Both install what is missing first.
#   make test             build (ASan+UBSan) and run every test
#   make bench            build (release), generate datasets, run the suite, write the report
#   make bench PROFILE=full   the whole benchmark matrix
#   make fuzz TARGET=name SECONDS=n   run one libFuzzer target
#   make install PREFIX=/opt/parquetry   library, headers, CLI, CMake and pkg-config files
#   make package          parquetry_X.Y.Z_amd64.deb + parquetry-dev_X.Y.Z_amd64.deb (build/package/packages)

PROFILE ?= quick
JOBS ?= $(shell nproc)

# ccache keys on paths relative to the checkout, so a fresh clone in another
# folder (CI) reuses what an earlier build compiled.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
TARGET ?= file
SECONDS ?= 60
FUZZ_BUILD ?= build/fuzz
SHARED_DIR ?= $(abspath ../shared)

PREFIX ?= /usr/local

.PHONY: test bench deps peers release fuzz format clean install package package-build

deps:
	@bash scripts/install-deps.sh

peers: deps
	@bash scripts/install-peers.sh

test: deps peers
	cmake --preset test >/dev/null
	cmake --build --preset test -j $(JOBS)
	ctest --preset test

release: deps
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS)

# The `package` preset: -O2 for any x86-64 (no -march=native), no tests.
package-build: deps
	cmake --preset package >/dev/null
	cmake --build --preset package -j $(JOBS)

install: package-build
	cmake --install build/package --prefix $(PREFIX)

package: package-build
	cd build/package && cpack -G DEB
	@ls -1 build/package/packages/*.deb

bench: release peers
	bash scripts/run-bench.sh $(PROFILE)

format:
	git ls-files '*.h' '*.cc' | xargs clang-format -i

# Clang build with libFuzzer + ASan/UBSan; seeds come from the public test
# files (written to the build folder, never to the repository); the corpus
# the fuzzer grows is kept in $(FUZZ_BUILD)/corpus/$(TARGET) across runs.
fuzz: deps
	CC=clang CXX=clang++ cmake --preset test -B $(FUZZ_BUILD) -DPARQUETRY_BUILD_FUZZ=ON \
	  -DPARQUETRY_BUILD_BENCH=OFF -DPARQUETRY_BUILD_TESTS=OFF -DPARQUETRY_WERROR=OFF >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_$(TARGET) fuzz_make_seeds
	rm -rf $(FUZZ_BUILD)/seeds && $(FUZZ_BUILD)/fuzz/fuzz_make_seeds \
	  $(SHARED_DIR)/testdata/parquet-testing $(FUZZ_BUILD)/seeds
	mkdir -p $(FUZZ_BUILD)/corpus/$(TARGET) $(FUZZ_BUILD)/artifacts/$(TARGET)
	ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 \
	  $(FUZZ_BUILD)/fuzz/fuzz_$(TARGET) -max_total_time=$(SECONDS) -rss_limit_mb=2048 -timeout=20 \
	  -max_len=1048576 -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/artifacts/$(TARGET)/ \
	  $(FUZZ_BUILD)/corpus/$(TARGET) $(FUZZ_BUILD)/seeds/$(TARGET)

clean:
	rm -rf build bench-results
