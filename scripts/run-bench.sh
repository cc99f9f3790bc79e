#!/usr/bin/env bash
# Runs the benchmark suite with a profile and writes the results:
#   scripts/run-bench.sh [quick|full]     (make bench [PROFILE=full])
# 1. generates the datasets, or reuses them while their stamp is current;
# 2. runs every suite linked into parquetry_bench (each case in its own
#    process, peers beside our cases) and prints the JMH-style tables;
# 3. runs the Python/Dask scale-out benchmark (bench/python/bench_dask.py,
#    bench-results/dask.json) when the release build has the Python module;
# 4. writes bench-results/results.json, bench-results/report.html and the
#    "Latest results" section of docs/benchmarks.md.
# Environment: PARQUETRY_BENCH_BUILD (build folder, default build/release),
# PARQUETRY_BENCH_OUT (default bench-results), PARQUETRY_BENCH_ARGS (extra
# parquetry_bench options, e.g. "--suite reader").
set -euo pipefail

profile=${1:-quick}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PARQUETRY_BENCH_BUILD:-$root/build/release}
out=${PARQUETRY_BENCH_OUT:-$root/bench-results}
bench=$build/bin/parquetry_bench

case "$profile" in
  # Enough repetitions for an error estimate, small enough for 10 minutes on 2 cores.
  # The protobuf write table runs its two default configurations here; the
  # row-group/page/codec matrix of 1M-message writes is the full profile's.
  # The footer table keeps 1,000 and 10,000 columns x 20 row groups with
  # statistics (100,000 columns and the other shapes are the full profile's).
  # Cold figures (one operation per fresh process, docs/benchmarks.md): 3 samples of every
  # cold() case; of the protobuf writes only Test100Int32 in the default configuration.
  quick) run_args=(--warmup 1 --measure 3 --forks 1 --time 0.05 --param config=default --param config=default_nodict
                   --param columns=1000 --param columns=10000 --param row_groups=20 --param statistics=on
                   --cold 3 --cold-filter '^(reader|scan|record|writer)\.|^proto\.write_1M:[a-z]+/message=Test100Int32/config=default$') ;;
  # JMH-like: several forks, longer iterations.
  full) run_args=(--warmup 5 --measure 10 --forks 3 --time 1 --cold 5) ;;
  *) echo "usage: $0 [quick|full]" >&2; exit 2 ;;
esac

if [ ! -x "$bench" ]; then
  echo "run-bench: $bench is missing; build it first (make release)" >&2
  exit 2
fi

# Datasets live on tmpfs when it has room so I/O does not blur decoding.
shm_free_kb=$(df -Pk /dev/shm 2>/dev/null | awk 'NR==2 {print $4}')
if [ -n "${shm_free_kb:-}" ] && [ "$shm_free_kb" -ge $((2 * 1024 * 1024)) ]; then
  data_dir=/dev/shm/parquetry-bench
else
  data_dir=$out/data
fi
mkdir -p "$out" "$data_dir"

rm -f "$out/results.json"
start=$(date +%s)
echo "run-bench: profile $profile, datasets in $data_dir"
"$bench" --datasets --data-dir "$data_dir"

status=0
# shellcheck disable=SC2086
"$bench" "${run_args[@]}" --profile "$profile" --data-dir "$data_dir" --json "$out/results.json" \
  ${PARQUETRY_BENCH_ARGS:-} || status=$?

# Scale-out: the Python/Dask benchmark, when the release build has the Python module
# (docs/scale-out.md). It writes its own $out/dask.json.
if [ -d "$build/python/parquetry" ] && /usr/bin/python3 -c "import distributed" 2>/dev/null; then
  case "$profile" in
    # Quick: only the recommended worker setup (Dask's defaults plus the
    # parquetry.dask.MallocTuning plugin); idle clusters of the other setups
    # would steal CPU from the two-worker runs; one task per file and tasks
    # packed to parquetry.dask's default task_rows. Full: every setup and split.
    quick) dask_args=(--warmup 1 --measure 3 --configs plugin --splits file,rows) ;;
    full) dask_args=(--warmup 2 --measure 10 --configs tuned,defaults,plugin) ;;
  esac
  PYTHONPATH="$build/python" /usr/bin/python3 "$root/bench/python/bench_dask.py" \
    --data-dir "$data_dir" --json "$out/dask.json" "${dask_args[@]}" || status=$?
else
  echo "run-bench: no Python module in $build (or no python3-distributed): Dask benchmark skipped"
fi

if [ -f "$out/results.json" ]; then
  "$bench" --report "$out/results.json" --html "$out/report.html" --markdown-into "$root/docs/benchmarks.md"
  echo "run-bench: results $out/results.json, report $out/report.html, docs/benchmarks.md updated"
fi
echo "run-bench: finished in $(( $(date +%s) - start )) s (exit $status)"
exit $status
