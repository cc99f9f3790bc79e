"""Distributed scans on Dask: parquetry plans, Dask schedules, parquetry reads.

    import parquetry.dask as pqd
    ddf = pqd.read_parquet("data/*.parquet", columns=["fare_amount"], where="passenger_count > 2")
    ddf.fare_amount.sum().compute()
    pqd.write_parquet(ddf, "out/")

Planning reads footers only (many in parallel from a thread pool: the
extension releases the GIL), drops the row groups whose statistics exclude
``where`` and turns what is left into tasks: one per row group
(``split="row_group"``), per file (``split="file"``), or consecutive row
groups of one or more files packed into tasks of about ``task_rows`` rows
(``split="rows"``: small files stop costing a task each). A pruned row group is
never a task, so it costs no scheduling and no worker I/O. Each task opens
its file on the worker and reads just its row groups (the pages of the
projected columns, and with ``where`` only the selected rows' pages where
the page index allows it). ``plan_parquet`` returns the plan itself so
callers (and tests) can see what will run. docs/scale-out.md explains how
the same plan runs on a multi-host cluster.
"""

import glob
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from . import _parquetry, merge_summaries, read, schema, summarize, write

__all__ = ["Plan", "plan_parquet", "task_pieces", "read_parquet", "summarize_parquet", "write_parquet",
           "tune_worker_malloc", "MallocTuning"]


@dataclass
class Plan:
    """What read_parquet will run. ``tasks`` is a list with one entry per task:
    (path, row groups) for split="row_group" and split="file", and a tuple of
    such (path, row groups) pieces for split="rows" (see task_pieces)."""

    tasks: list
    meta: object  # the empty pandas DataFrame every task's result looks like
    columns: list = None
    where: str = None
    files: list = field(default_factory=list)
    row_groups_total: int = 0
    row_groups_pruned: int = 0
    rows_planned: int = 0  # rows of the row groups that became tasks (before the row filter)

    def __len__(self):
        return len(self.tasks)


def _expand(paths_or_glob):
    if isinstance(paths_or_glob, (str, os.PathLike)):
        path = os.fspath(paths_or_glob)
        if os.path.isdir(path):
            return sorted(glob.glob(os.path.join(path, "*.parquet")))
        if any(c in path for c in "*?["):
            return sorted(glob.glob(path))
        return [path]
    return [os.fspath(p) for p in paths_or_glob]


DEFAULT_TASK_ROWS = 1 << 20


def task_pieces(task):
    """The (path, row groups) pieces one task reads, in file order."""
    return [task] if isinstance(task[0], (str, os.PathLike)) else list(task)


def _pack_by_rows(footers, task_rows):
    """Consecutive surviving row groups, across file boundaries, packed into
    ceil(rows / task_rows) tasks of about equal rows (a row group is never
    split). A scheduler spends a few milliseconds per task whatever its size
    (docs/scale-out.md), so packing keeps that cost small next to the decoding
    of many small files; equal tasks keep the workers busy to the end."""
    total = sum(num_rows for footer in footers for _, num_rows, _ in footer["row_groups"])
    count = max(1, -(-total // task_rows))
    tasks, pieces, rows = [], [], 0
    for footer in footers:
        kept = []
        for index, num_rows, _ in footer["row_groups"]:
            kept.append(index)
            rows += num_rows
            # Task k closes once the rows so far reach k / count of the total.
            if rows * count >= (len(tasks) + 1) * total:
                pieces.append((footer["path"], tuple(kept)))
                tasks.append(tuple(pieces))
                kept, pieces = [], []
        if kept:
            pieces.append((footer["path"], tuple(kept)))
    if pieces:
        tasks.append(tuple(pieces))
    return tasks


def plan_parquet(paths_or_glob, columns=None, where=None, split="row_group", footer_threads=None,
                 task_rows=DEFAULT_TASK_ROWS):
    """Reads the footers of the files (a glob, a folder or a list) in parallel
    and returns the Plan of read_parquet: one task per surviving row group
    (split="row_group"), per file with any surviving row group (split="file"),
    or per run of consecutive surviving row groups, ceil(rows / task_rows)
    runs of about equal rows (split="rows")."""
    if split not in ("row_group", "file", "rows"):
        raise ValueError('split must be "row_group", "file" or "rows"')
    if split == "rows" and task_rows < 1:
        raise ValueError("task_rows must be at least 1")
    files = _expand(paths_or_glob)
    if not files:
        raise FileNotFoundError(f"no Parquet files match {paths_or_glob!r}")
    columns = None if columns is None else list(columns)
    workers = footer_threads or min(32, len(files), (os.cpu_count() or 1) * 4)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        footers = list(pool.map(lambda p: _parquetry.plan_file(p, columns, where), files))
    tasks = []
    total = 0
    kept = 0
    rows = 0
    for footer in footers:
        total += footer["num_row_groups"]
        groups = footer["row_groups"]
        kept += len(groups)
        rows += sum(r for _, r, _ in groups)
        if not groups or split == "rows":
            continue
        if split == "file":
            tasks.append((footer["path"], tuple(i for i, _, _ in groups)))
        else:
            tasks.extend((footer["path"], (i,)) for i, _, _ in groups)
    if split == "rows":
        tasks = _pack_by_rows(footers, task_rows)
    meta = schema(files[0], columns=columns).to_pandas()
    return Plan(tasks=tasks, meta=meta, columns=columns, where=where, files=files,
                row_groups_total=total, row_groups_pruned=total - kept, rows_planned=rows)


class _ReadTask:
    """One task: read the row groups of one file with parquetry (on the worker)."""

    def __init__(self, columns, where, threads):
        self.columns = columns
        self.where = where
        self.threads = threads

    def __call__(self, task):
        frames = [read(path, columns=self.columns, where=self.where, row_groups=list(row_groups),
                       threads=self.threads).to_pandas() for path, row_groups in task_pieces(task)]
        if len(frames) == 1:
            return frames[0]
        import pandas as pd

        return pd.concat(frames, ignore_index=True)


def read_parquet(paths_or_glob, columns=None, where=None, split="row_group", threads=1, footer_threads=None,
                 task_rows=DEFAULT_TASK_ROWS):
    """A dask DataFrame over Parquet files, read by parquetry.

    columns: column paths to read (None = all); where: a row predicate in the
    CLI's --where syntax, applied both at planning (statistics prune row
    groups) and in each task (exact row filter). threads: decode threads per
    task (1 suits one Dask worker thread per core).
    """
    import dask.dataframe as dd

    plan = plan_parquet(paths_or_glob, columns=columns, where=where, split=split,
                        footer_threads=footer_threads, task_rows=task_rows)
    return from_plan(plan, threads=threads)


def from_plan(plan, threads=1):
    """The dask DataFrame of a Plan (one partition per task)."""
    import dask.dataframe as dd

    if not plan.tasks:
        return dd.from_pandas(plan.meta, npartitions=1)
    return dd.from_map(_ReadTask(plan.columns, plan.where, threads), plan.tasks, meta=plan.meta,
                       label="parquetry-read", enforce_metadata=False)


class _SummaryTask(_ReadTask):
    """One task of summarize_parquet: fold its row groups in C++, one summary per task."""

    def __call__(self, task):
        parts = [summarize(path, columns=self.columns, where=self.where, row_groups=list(row_groups),
                           threads=self.threads) for path, row_groups in task_pieces(task)]
        return parts[0] if len(parts) == 1 else merge_summaries(parts)


def summarize_parquet(paths_or_glob, columns=None, where=None, split="row_group", threads=1, plan=None,
                      compute=True, task_rows=DEFAULT_TASK_ROWS):
    """count / nulls / min / max of every selected column over many files, one
    task per planned row group (or file) on the current Dask scheduler; only
    the small per-task summaries travel back. `plan` reuses a plan_parquet()
    result. Returns the merged summary (or the delayed one when compute=False)."""
    import dask

    if plan is None:
        plan = plan_parquet(paths_or_glob, columns=columns, where=where, split=split, task_rows=task_rows)
    task = _SummaryTask(plan.columns, plan.where, threads)
    parts = [dask.delayed(task)(t) for t in plan.tasks]
    merged = dask.delayed(merge_summaries)(parts)
    return merged.compute() if compute else merged


def _write_partition(frame, path, options):
    return write(path, frame, **options)


def write_parquet(ddf, folder, compute=True, name_function=None, **options):
    """Writes each partition of a dask DataFrame as one file in ``folder``
    (``part.<i>.parquet``, or ``name_function(i)``) with parquetry's atomic
    writer; options as parquetry.write. The index is not written. Returns the
    row count of each file (or the delayed writes when compute=False)."""
    import dask

    folder = os.fspath(folder)
    os.makedirs(folder, exist_ok=True)
    name_function = name_function or (lambda i: f"part.{i}.parquet")
    writes = [
        dask.delayed(_write_partition)(part, os.path.join(folder, name_function(i)), options)
        for i, part in enumerate(ddf.to_delayed())
    ]
    if not compute:
        return writes
    return list(dask.compute(*writes))


def tune_worker_malloc(mmap_threshold=32 << 20, trim_threshold=256 << 20):
    """Gives back glibc's malloc its large-buffer reuse in this process.

    Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which also
    fixes glibc's mmap threshold at 128 KiB: every decode buffer above that is
    a fresh mmap, faulted in page by page for every row group (~45% more CPU
    per scan here, docs/scale-out.md). This raises both thresholds with
    mallopt. Run it on running workers with ``client.run(tune_worker_malloc)``
    or on every worker that starts with ``client.register_worker_plugin(MallocTuning())``.
    Returns True when glibc accepted both settings (False elsewhere)."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's malloc.h
    return bool(mallopt(M_MMAP_THRESHOLD, int(mmap_threshold))) and bool(mallopt(M_TRIM_THRESHOLD, int(trim_threshold)))


class MallocTuning:
    """A Dask worker plugin running tune_worker_malloc on every worker (also restarted ones)."""

    name = "parquetry-malloc-tuning"

    def __init__(self, mmap_threshold=32 << 20, trim_threshold=256 << 20):
        self.mmap_threshold = mmap_threshold
        self.trim_threshold = trim_threshold

    def setup(self, worker):
        tune_worker_malloc(self.mmap_threshold, self.trim_threshold)


class _IcebergTask:
    """One task of read_iceberg: the planned files with these indexes."""

    def __init__(self, table, columns, where, snapshot_id, threads, metadata):
        self.table, self.columns, self.where = table, columns, where
        self.snapshot_id, self.threads, self.metadata = snapshot_id, threads, metadata

    def __call__(self, indexes):
        from . import iceberg

        return iceberg.read(self.table, columns=self.columns, where=self.where, snapshot_id=self.snapshot_id,
                            threads=self.threads, metadata=self.metadata, tasks=list(indexes)).to_pandas()


def read_iceberg(table, columns=None, where=None, snapshot_id=None, as_of=None, ref=None, threads=1, metadata=None,
                 files_per_task=1):
    """A dask DataFrame over a snapshot of an Iceberg table.

    The snapshot is planned once here (manifests read, files pruned by
    ``where``; no data file opened), then every ``files_per_task`` planned
    data files become one task that reads them with their deletes. The
    snapshot id is pinned at planning so tasks read the same snapshot even
    when the table moves on.
    """
    import dask.dataframe as dd

    from . import iceberg

    planned = iceberg.plan(table, where=where, snapshot_id=snapshot_id, as_of=as_of, ref=ref, metadata=metadata)
    snapshot = planned["snapshot_id"]
    meta = iceberg.read(table, columns=columns, where=where, snapshot_id=snapshot, metadata=metadata,
                        tasks=[]).to_pandas().iloc[0:0] if snapshot is not None else None
    count = len(planned["files"])
    if snapshot is None or count == 0:
        import pandas as pd

        return dd.from_pandas(meta if meta is not None else pd.DataFrame(), npartitions=1)
    groups = [list(range(i, min(i + files_per_task, count))) for i in range(0, count, files_per_task)]
    task = _IcebergTask(os.fspath(table), columns, where, snapshot, threads, metadata)
    return dd.from_map(task, groups, meta=meta, label="parquetry-iceberg", enforce_metadata=False)
