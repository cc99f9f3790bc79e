# The two commands of the README. Both install what is missing first.
#   make test             build (ASan+UBSan) and run every test
#   make bench            build (release), generate datasets, run the suite, write the report
#   make bench PROFILE=full   the whole benchmark matrix
#   make fuzz TARGET=name SECONDS=n   run one libFuzzer target

PROFILE ?= quick
JOBS ?= $(shell nproc)

.PHONY: test bench deps peers release fuzz format clean

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

bench: release peers
	bash scripts/run-bench.sh $(PROFILE)

format:
	git ls-files '*.h' '*.cc' | xargs clang-format -i

clean:
	rm -rf build bench-results
