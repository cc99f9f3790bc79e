#!/usr/bin/python3
"""Scale-out benchmark: a 40-file taxi-like dataset scanned by one process,
by Dask with 1 worker and with 2 workers (LocalCluster worker processes, one
thread each), all running the same parquetry code.

Workloads (each timed as the median of --measure runs after --warmup runs):
  fold    every value of every column decoded and folded into count / nulls /
          min / max in C++ (the CLI's `scan`); tasks return only their
          summaries. This isolates scheduling cost.
  pandas  three numeric columns read into pandas per task and summed
          (read_parquet(...).sum()), the common dataframe path.

Each workload runs with each task split of plan_parquet (--splits): one task
per file, per row group, or per --task-rows rows packed across files ("rows").
For each workload:
  plain          one process, parquetry over the files one by one (no Dask);
                 the process runs with parquetry.dask.tune_worker_malloc(), the
                 allocator settings the "plugin" workers get, so Dask is
                 compared with the best plain loop, not a slower one
  tasks          one process, the Dask plan's tasks run in a plain loop
  pool-1/pool-2  control without Dask: one task per file on a pool of 1 / 2
                 warm worker processes (what the machine allows), tuned alike
  dask-1/dask-2  planning + execution on a LocalCluster of 1 / 2 workers, with
                 Dask's default worker environment ("defaults"), without the
                 nanny's MALLOC_TRIM_THRESHOLD_ ("tuned"), and with the defaults
                 plus parquetry.dask.MallocTuning on the workers ("plugin")
Derived (wall times: best of the interleaved rounds): speedup = dask-1 / dask-2,
efficiency = speedup / 2, overhead vs plain = dask-1 / plain - 1, per-task
overhead = (dask-1 - tasks) / number of tasks. The same from CPU time (the
calling thread for plain/tasks, the workers' processes for Dask), which a shared,
loaded machine disturbs far less than wall time; "2w cores" is the CPU seconds
the two workers got per wall second (2.0 = two whole cores), "cpu 2w/1w" the
extra work two workers do, and "proj 2w/1w" = 2 / that: the speedup two idle
cores would give if that were the only loss (a projection, not a measurement).

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python/bench_dask.py \
        --data-dir /dev/shm/parquetry-bench --json bench-results/dask.json
"""

import argparse
import json
import logging
import os
import platform
import statistics
import sys
import time
import warnings

import dask
import numpy as np
import pandas as pd

import parquetry
import parquetry.dask as pqd

DATASET_VERSION = 1


def generate(folder, files, rows_per_file, row_group_rows, seed=2022):
    """Taxi-like files (the bench taxi dataset's main columns and shapes), reused while the stamp matches."""
    stamp_path = os.path.join(folder, "stamp.json")
    stamp = {"version": DATASET_VERSION, "files": files, "rows_per_file": rows_per_file,
             "row_group_rows": row_group_rows, "seed": seed}
    if os.path.exists(stamp_path):
        with open(stamp_path) as f:
            if json.load(f) == stamp:
                return sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".parquet"))
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        if name.endswith(".parquet"):
            os.remove(os.path.join(folder, name))
    rng = np.random.default_rng(seed)
    start = np.datetime64("2022-01-01T00:00:00", "us")
    zones = np.arange(1, 266)
    zone_weights = 1.0 / (1 + np.arange(265)) ** 1.1
    zone_weights /= zone_weights.sum()
    paths = []
    for f in range(files):
        n = rows_per_file
        pickup = start + np.sort(rng.integers(0, 31 * 86400 * 10**6, n)).astype("timedelta64[us]")
        duration = rng.gamma(2.0, 400.0, n).astype(np.int64) * 10**6
        distance = np.round(rng.gamma(1.5, 2.0, n), 2)
        fare = np.round(2.5 + distance * 2.5 + duration / 10**6 / 60 * 0.5, 2)
        tip = np.round(np.where(rng.random(n) < 0.7, fare * rng.uniform(0.1, 0.3, n), 0.0), 2)
        frame = pd.DataFrame({
            "VendorID": rng.choice([1, 2], n, p=[0.3, 0.7]).astype(np.int64),
            "tpep_pickup_datetime": pickup,
            "tpep_dropoff_datetime": pickup + duration.astype("timedelta64[us]"),
            "passenger_count": rng.choice([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], n,
                                          p=[0.7, 0.15, 0.05, 0.03, 0.04, 0.03]),
            "trip_distance": distance,
            "RatecodeID": rng.choice([1.0, 2.0, 5.0], n, p=[0.95, 0.03, 0.02]),
            "store_and_fwd_flag": rng.choice(np.array(["N", "Y"], dtype=object), n, p=[0.98, 0.02]),
            "PULocationID": rng.choice(zones, n, p=zone_weights).astype(np.int64),
            "DOLocationID": rng.choice(zones, n, p=zone_weights).astype(np.int64),
            "payment_type": rng.choice([1, 2, 3, 4], n, p=[0.75, 0.22, 0.02, 0.01]).astype(np.int64),
            "fare_amount": fare,
            "extra": rng.choice([0.0, 0.5, 1.0, 2.5], n),
            "mta_tax": np.full(n, 0.5),
            "tip_amount": tip,
            "tolls_amount": np.where(rng.random(n) < 0.05, 6.55, 0.0),
            "improvement_surcharge": np.full(n, 0.3),
            "total_amount": np.round(fare + tip + 0.8, 2),
            "congestion_surcharge": rng.choice([0.0, 2.5], n, p=[0.1, 0.9]),
            "airport_fee": rng.choice([0.0, 1.25], n, p=[0.9, 0.1]),
        })
        path = os.path.join(folder, f"taxi-{f:02d}.parquet")
        parquetry.write(path, frame, row_group_rows=row_group_rows)
        paths.append(path)
    with open(stamp_path, "w") as f:
        json.dump(stamp, f)
    return paths


def summarize_times(times, cpus):
    return {"median_s": statistics.median(times), "min_s": min(times), "max_s": max(times), "runs_s": times,
            "cpu_median_s": statistics.median(cpus), "cpu_runs_s": cpus}


def worker_cpu(client):
    """CPU seconds (user + system) used so far by every worker process of a client."""
    if client is None:
        # This thread only: the local clusters' schedulers run on threads of this process.
        return time.thread_time()

    def cpu():
        import psutil

        t = psutil.Process().cpu_times()
        return t.user + t.system

    return sum(client.run(cpu).values())


def measure_interleaved(variants, warmup, measure):
    """variants: {name: (fn, client or None)}. Each round runs every variant
    once, in turn, so a shared machine's background load falls on all of them
    alike. Records wall time and the CPU time of the process(es) doing the work."""
    wall = {name: [] for name in variants}
    cpu = {name: [] for name in variants}
    for round_ in range(warmup + measure):
        for name, (fn, client) in variants.items():
            before = worker_cpu(client)
            start = time.perf_counter()
            if client is None:
                fn()
            else:
                # The client's get as the scheduler: several clients coexist, none the default.
                with dask.config.set(scheduler=client.get):
                    fn()
            elapsed = time.perf_counter() - start
            used = worker_cpu(client) - before
            if round_ >= warmup:
                wall[name].append(elapsed)
                cpu[name].append(used)
    return {name: summarize_times(wall[name], cpu[name]) for name in variants}


PANDAS_COLUMNS = ["fare_amount", "tip_amount", "trip_distance"]
SPLITS = ("file", "row_group", "rows")


def pandas_task(task):
    return sum(parquetry.read(path, columns=PANDAS_COLUMNS, row_groups=list(row_groups)).to_pandas().sum()
               for path, row_groups in pqd.task_pieces(task))


def pool_fold(path):
    return parquetry.summarize(path)


def pool_pandas(path):
    return parquetry.read(path, columns=PANDAS_COLUMNS).to_pandas().sum()


def pool_run(pool, workload, files, reference):
    """The control without Dask: one task per file on a pool of warm processes."""
    if workload == "fold":
        got = parquetry.merge_summaries(pool.map(pool_fold, files))
        assert got == reference
    else:
        got = sum(pool.map(pool_pandas, files))
        assert np.allclose(got.to_numpy(), reference.to_numpy(), rtol=1e-9)


def dask_run(workload, files, reference, split, task_rows):
    """One distributed run on the current scheduler: planning included, result checked."""
    if workload == "fold":
        got = pqd.summarize_parquet(files, split=split, task_rows=task_rows)
        assert got == reference, "Dask summary differs from the single-process one"
    else:
        got = pqd.read_parquet(files, columns=PANDAS_COLUMNS, split=split, task_rows=task_rows).sum().compute()
        assert np.allclose(got.to_numpy(), reference.to_numpy(), rtol=1e-9)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", default="bench-results/data")
    parser.add_argument("--json", default="bench-results/dask.json")
    parser.add_argument("--files", type=int, default=40)
    parser.add_argument("--rows-per-file", type=int, default=250_000)
    parser.add_argument("--row-group-rows", type=int, default=125_000)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--measure", type=int, default=5)
    parser.add_argument("--workloads", default="fold,pandas")
    # Worker environments to start (see below). Every cluster stays up for the
    # whole interleaved run, and idle Dask processes still wake up (heartbeats,
    # event-loop ticks, profiling), which takes CPU from the two-worker runs that
    # need both cores: the quick profile starts only the ones it reports.
    parser.add_argument("--configs", default="tuned,defaults,plugin")
    parser.add_argument("--splits", default=",".join(SPLITS))
    parser.add_argument("--task-rows", type=int, default=pqd.DEFAULT_TASK_ROWS)
    args = parser.parse_args()
    splits = [s for s in args.splits.split(",") if s]
    if not splits or any(s not in SPLITS for s in splits):
        parser.error(f"--splits takes a comma-separated subset of {','.join(SPLITS)}")
    # The plain loops run in this process: the same allocator settings as the tuned workers.
    pqd.tune_worker_malloc()

    folder = os.path.join(args.data_dir, f"dask-taxi-{args.files}")
    t0 = time.perf_counter()
    files = generate(folder, args.files, args.rows_per_file, args.row_group_rows)
    print(f"bench_dask: {len(files)} files, {args.files * args.rows_per_file:,} rows in {folder} "
          f"({sum(os.path.getsize(p) for p in files) / 2**20:.0f} MiB, ready in {time.perf_counter() - t0:.1f} s)")

    # Worker processes import parquetry from the same place as this process.
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(parquetry.__file__)))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [package_dir, os.environ.get("PYTHONPATH")]))
    from distributed import Client, LocalCluster

    # Another process may hold Dask's default HTTP port; the scheduler then picks another one.
    warnings.filterwarnings("ignore", message="Port .* is already in use")

    plans = {split: pqd.plan_parquet(files, split=split, task_rows=args.task_rows) for split in SPLITS}
    planning = measure_interleaved({"plan": (lambda: pqd.plan_parquet(files), None)},
                                   args.warmup, args.measure)["plan"]
    load_before = os.getloadavg()
    results = {"dataset": {"files": len(files), "rows": args.files * args.rows_per_file,
                           "row_groups": plans["row_group"].row_groups_total,
                           "tasks": {split: len(plan) for split, plan in plans.items()}, "task_rows": args.task_rows,
                           "bytes": sum(os.path.getsize(p) for p in files)},
               "planning": planning, "workloads": {},
               "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                           "dask": dask.__version__, "platform": platform.platform(),
                           "load_average_before": load_before}}

    # Dask's nanny sets MALLOC_TRIM_THRESHOLD_=65536 in worker processes, which
    # also switches off glibc's dynamic mmap threshold: every buffer above
    # 128 KiB is then a fresh mmap, faulted in page by page, for every row
    # group. Both configurations are measured; "tuned" drops that variable.
    defaults = dict(dask.config.get("distributed.nanny.pre-spawn-environ"))
    tuned = {k: v for k, v in defaults.items() if k != "MALLOC_TRIM_THRESHOLD_"}
    # The nanny applies its environment to its own process before spawning (and
    # an inherited variable wins over the config), so the tuned workers are
    # spawned first, while this process's environment is still clean.
    if "MALLOC_TRIM_THRESHOLD_" in os.environ:
        print("bench_dask: MALLOC_TRIM_THRESHOLD_ is set in this environment; the tuned workers inherit it")
    # "plugin": Dask's default environment, then parquetry.dask.MallocTuning on every worker.
    environments = {"tuned": tuned, "defaults": defaults, "plugin": defaults}
    chosen = [c for c in args.configs.split(",") if c]
    if not chosen or any(c not in environments for c in chosen):
        parser.error(f"--configs takes a comma-separated subset of {','.join(environments)}")
    configs = [(c, environments[c]) for c in chosen]
    clusters = {}
    for config, environ in configs:
        for workers in (1, 2):
            with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}):
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.ERROR)
            client = Client(cluster, set_as_default=False)
            if config == "plugin":
                client.register_worker_plugin(pqd.MallocTuning())
            clusters[(config, workers)] = (cluster, client)

    # Control: the same per-file work on 1 and 2 plain worker processes, no Dask.
    # Its 2-vs-1 speedup is what the machine allows at the moment.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    pools = {n: ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("spawn"),
                                    initializer=pqd.tune_worker_malloc)
             for n in (1, 2)}

    workloads = [w for w in args.workloads.split(",") if w]
    task = pqd._SummaryTask(None, None, 1)
    reference = {"fold": parquetry.merge_summaries(parquetry.summarize(p) for p in files),
                 "pandas": sum(parquetry.read(p, columns=PANDAS_COLUMNS).to_pandas().sum() for p in files)}
    runs = {}
    for w in workloads:
        if w == "fold":
            variants = {"plain": (lambda: parquetry.merge_summaries(parquetry.summarize(p) for p in files), None)}
            for split in splits:
                variants[f"tasks/{split}"] = (
                    lambda split=split: parquetry.merge_summaries(task(t) for t in plans[split].tasks), None)
        else:
            variants = {"plain": (
                lambda: sum(parquetry.read(p, columns=PANDAS_COLUMNS).to_pandas().sum() for p in files), None)}
            for split in splits:
                variants[f"tasks/{split}"] = (lambda split=split: sum(pandas_task(t) for t in plans[split].tasks),
                                              None)
        for n, pool in pools.items():
            variants[f"pool-{n}"] = (lambda w=w, pool=pool: pool_run(pool, w, files, reference[w]), None)
        for (config, workers), (_, client) in clusters.items():
            for split in splits:
                variants[f"{config}/{split}/dask-{workers}"] = (
                    lambda w=w, split=split: dask_run(w, files, reference[w], split, args.task_rows), client)
        runs[w] = measure_interleaved(variants, args.warmup, args.measure)
    for cluster, client in clusters.values():
        client.close()
        cluster.close()
    for pool in pools.values():
        pool.shutdown()
    results["machine"]["load_average_after"] = os.getloadavg()

    print(f"\nplanning (footers of {len(files)} files, thread pool): {planning['median_s'] * 1000:.1f} ms median")
    print(f"load average before/after: {load_before[0]:.1f} / {results['machine']['load_average_after'][0]:.1f} "
          f"on {os.cpu_count()} cpus; wall times are the best of {args.measure} interleaved rounds, "
          f"CPU times their median")
    header = f"{'workload':8} {'env':8} {'split':9} {'tasks':>5} {'plain s':>7} {'dask-1 s':>8} {'dask-2 s':>8} " \
             f"{'2w/1w':>5} {'eff':>4} {'1w/plain':>8} {'ms/task':>7} | {'cpu 1w/plain':>12} " \
             f"{'cpu ms/task':>11} {'cpu 2w/1w':>9} {'2w cores':>8} {'proj 2w/1w':>10}"
    print(header)
    print("-" * len(header))
    for w in workloads:
        r = runs[w]
        r["derived"] = {}
        plain, plain_cpu = r["plain"]["min_s"], r["plain"]["cpu_median_s"]
        for config, _ in configs:
            for split in splits:
                tasks, tasks_cpu = r[f"tasks/{split}"]["min_s"], r[f"tasks/{split}"]["cpu_median_s"]
                one, two = r[f"{config}/{split}/dask-1"], r[f"{config}/{split}/dask-2"]
                n = len(plans[split])
                d = {"tasks": n,
                     "speedup_2_vs_1": one["min_s"] / two["min_s"],
                     "efficiency": one["min_s"] / two["min_s"] / 2,
                     "overhead_vs_plain": one["min_s"] / plain - 1,
                     "per_task_overhead_ms": (one["min_s"] - tasks) / n * 1000,
                     "cpu_overhead_vs_plain": one["cpu_median_s"] / plain_cpu - 1,
                     "cpu_per_task_overhead_ms": (one["cpu_median_s"] - tasks_cpu) / n * 1000,
                     # Extra work two workers do over one (1.0 = none).
                     "cpu_2_vs_1": two["cpu_median_s"] / one["cpu_median_s"],
                     # CPU seconds the two workers got per wall second: 2.0 = two whole cores.
                     "two_worker_cores": two["cpu_median_s"] / two["median_s"]}
                # What two idle cores would give if the only loss were the extra work
                # (a projection for loaded machines, not a measurement).
                d["projected_speedup_idle_cores"] = 2 / d["cpu_2_vs_1"]
                d["meets_speedup_target"] = d["speedup_2_vs_1"] >= 1.7
                d["meets_overhead_target"] = d["overhead_vs_plain"] <= 0.15
                r["derived"][f"{config}/{split}"] = d
                print(f"{w:8} {config:8} {split:9} {n:5d} {plain:7.3f} {one['min_s']:8.3f} {two['min_s']:8.3f} "
                      f"{d['speedup_2_vs_1']:5.2f} {d['efficiency']:4.2f} {d['overhead_vs_plain'] * 100:+7.1f}% "
                      f"{d['per_task_overhead_ms']:7.2f} | {d['cpu_overhead_vs_plain'] * 100:+11.1f}% "
                      f"{d['cpu_per_task_overhead_ms']:11.2f} {d['cpu_2_vs_1']:9.2f} {d['two_worker_cores']:8.2f} "
                      f"{d['projected_speedup_idle_cores']:10.2f}")
        control = r["pool-1"]["min_s"] / r["pool-2"]["min_s"]
        r["derived"]["pool_speedup_2_vs_1"] = control
        print(f"{w:8} control: the same files on 1 / 2 plain worker processes (no Dask): "
              f"{r['pool-1']['min_s']:.3f} / {r['pool-2']['min_s']:.3f} s, 2w/1w {control:.2f}")
        results["workloads"][w] = r
    print("targets: 2w/1w >= 1.70, 1w/plain within +15%")
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(results, f, indent=1)
    print(f"bench_dask: results in {args.json}")


if __name__ == "__main__":
    sys.exit(main())
