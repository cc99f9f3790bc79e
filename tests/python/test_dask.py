"""parquetry.dask on a LocalCluster of 2 worker processes over 40 generated
files: the same aggregates as a single-process scan, fewer tasks for a
selective filter, and write_parquet's files reading back the same."""

import logging
import os

import numpy as np
import pandas as pd
import pytest

import parquetry
import parquetry.dask as pqd

FILES = 40
ROWS_PER_GROUP = 500
GROUPS_PER_FILE = 2
ROWS_PER_FILE = ROWS_PER_GROUP * GROUPS_PER_FILE


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """40 files of 2 row groups; `id` increases across files so statistics can prune."""
    folder = tmp_path_factory.mktemp("dataset")
    rng = np.random.default_rng(11)
    for f in range(FILES):
        ids = np.arange(f * ROWS_PER_FILE, (f + 1) * ROWS_PER_FILE, dtype=np.int64)
        frame = pd.DataFrame({
            "id": ids,
            # Quarters: every partial sum is exact in binary, so sums do not depend on the order.
            "fare": rng.integers(0, 400, ROWS_PER_FILE) / 4.0,
            "passengers": rng.integers(1, 7, ROWS_PER_FILE).astype(np.int32),
            "vendor": rng.choice(["CMT", "VTS", "DDS"], ROWS_PER_FILE).astype(object),
            "pickup": pd.Timestamp("2024-01-01") + pd.to_timedelta(ids, unit="s"),
        })
        parquetry.write(str(folder / f"part-{f:02d}.parquet"), frame, row_group_rows=ROWS_PER_GROUP)
    return folder


@pytest.fixture(scope="module")
def single_process(dataset):
    files = sorted(os.listdir(dataset))
    return pd.concat([parquetry.read(str(dataset / f)).to_pandas() for f in files], ignore_index=True)


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.ERROR)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def aggregates(frame):
    """What both sides compute; `frame` is pandas or dask."""
    return {
        "rows": frame.id.count(),
        "id_sum": frame.id.sum(),
        "id_min": frame.id.min(),
        "id_max": frame.id.max(),
        "fare_sum": frame.fare.sum(),
        "fare_max": frame.fare.max(),
        "passengers_sum": frame.passengers.sum(),
        "pickup_max": frame.pickup.max(),
        "by_vendor": frame.groupby("vendor").passengers.sum(),
    }


def compute_all(values):
    import dask

    return dict(zip(values, dask.compute(*values.values())))


def assert_same(got, expected):
    assert set(got) == set(expected)
    for key, value in expected.items():
        if isinstance(value, pd.Series):
            pd.testing.assert_series_equal(got[key].sort_index(), value.sort_index(), check_names=False)
        else:
            assert got[key] == value, key


def test_plan_reads_footers_only_and_prunes(dataset):
    plan = pqd.plan_parquet(str(dataset / "*.parquet"))
    assert len(plan.files) == FILES
    assert len(plan) == FILES * GROUPS_PER_FILE
    assert plan.row_groups_pruned == 0
    assert list(plan.meta.columns) == ["id", "fare", "passengers", "vendor", "pickup"]
    assert len(plan.meta) == 0 and str(plan.meta.dtypes["pickup"]) == "datetime64[ns]"

    # id < 2250: files 0 and 1 whole, file 2's first row group only.
    selective = pqd.plan_parquet(str(dataset), where="id < 2250")
    assert len(selective) == 5
    assert selective.row_groups_pruned == FILES * GROUPS_PER_FILE - 5
    assert selective.tasks[-1] == (str(dataset / "part-02.parquet"), (0,))
    by_file = pqd.plan_parquet(str(dataset), where="id < 2250", split="file")
    assert [rgs for _, rgs in by_file.tasks] == [(0, 1), (0, 1), (0,)]
    assert len(pqd.plan_parquet(str(dataset), split="file")) == FILES
    assert len(pqd.plan_parquet(str(dataset), where="id > 1000000")) == 0
    with pytest.raises(parquetry.Error, match="nope"):
        pqd.plan_parquet(str(dataset), where="nope = 1")


def test_rows_split_packs_row_groups_across_files(dataset):
    # 2,500 rows a task: two whole files and the first row group of a third.
    plan = pqd.plan_parquet(str(dataset), split="rows", task_rows=2500)
    part = lambda f: str(dataset / f"part-{f:02d}.parquet")  # noqa: E731
    assert plan.tasks[0] == ((part(0), (0, 1)), (part(1), (0, 1)), (part(2), (0,)))
    assert plan.tasks[1] == ((part(2), (1,)), (part(3), (0, 1)), (part(4), (0, 1)))
    assert len(plan) == 16  # 40,000 rows / 2,500
    # Every surviving row group is in exactly one task, in file order.
    pieces = [(p, rg) for task in plan.tasks for p, rgs in pqd.task_pieces(task) for rg in rgs]
    assert pieces == [(part(f), rg) for f in range(FILES) for rg in range(GROUPS_PER_FILE)]
    # Pruning first, then packing: 2,500 planned rows make ceil(2500 / 2000) = 2 tasks of about 1,250.
    selective = pqd.plan_parquet(str(dataset), where="id < 2250", split="rows", task_rows=2000)
    assert selective.tasks == [((part(0), (0, 1)), (part(1), (0,))), ((part(1), (1,)), (part(2), (0,)))]
    # Equal tasks: 40,000 rows at 3,000 make 14 tasks of 5 or 6 row groups, not 13 of 6 and one of 2.
    sizes = [sum(len(rgs) for _, rgs in task) for task in pqd.plan_parquet(str(dataset), split="rows",
                                                                          task_rows=3000).tasks]
    assert len(sizes) == 14 and set(sizes) == {5, 6} and sum(sizes) == FILES * GROUPS_PER_FILE
    # A task as large as the dataset: one task.
    assert len(pqd.plan_parquet(str(dataset), split="rows", task_rows=10**9)) == 1
    with pytest.raises(ValueError, match="task_rows"):
        pqd.plan_parquet(str(dataset), split="rows", task_rows=0)


def test_rows_split_on_the_cluster(dataset, single_process, client):
    ddf = pqd.read_parquet(str(dataset), split="rows", task_rows=3000)
    assert ddf.npartitions == 14  # ceil(40,000 / 3,000)
    assert_same(compute_all(aggregates(ddf)), aggregates(single_process))
    where = "id < 2250 AND passengers >= 3"
    got = pqd.read_parquet(str(dataset), columns=["id", "passengers"], where=where, split="rows",
                           task_rows=2000).compute().reset_index(drop=True)
    expected = single_process[(single_process.id < 2250) & (single_process.passengers >= 3)]
    pd.testing.assert_frame_equal(got, expected[["id", "passengers"]].reset_index(drop=True))
    whole = parquetry.merge_summaries(parquetry.summarize(str(dataset / f)) for f in sorted(os.listdir(dataset)))
    assert pqd.summarize_parquet(str(dataset), split="rows", task_rows=7000) == whole


def test_two_workers_get_the_single_process_aggregates(dataset, single_process, client):
    assert len(client.scheduler_info()["workers"]) == 2
    ddf = pqd.read_parquet(str(dataset / "*.parquet"))
    assert ddf.npartitions == FILES * GROUPS_PER_FILE
    got = compute_all(aggregates(ddf))
    expected = aggregates(single_process)
    assert expected["rows"] == FILES * ROWS_PER_FILE
    assert_same(got, expected)
    # The tasks ran in both worker processes, not in this one.
    pids = set(ddf.map_partitions(lambda df: pd.Series([os.getpid()]), meta=(None, "int64")).compute())
    assert len(pids) == 2 and os.getpid() not in pids


def test_where_and_projection_on_the_cluster(dataset, single_process, client):
    where = "id < 2250 AND passengers >= 3"
    ddf = pqd.read_parquet(str(dataset), columns=["id", "passengers", "vendor"], where=where)
    assert ddf.npartitions == 5 < FILES * GROUPS_PER_FILE
    assert list(ddf.columns) == ["id", "passengers", "vendor"]
    got = ddf.compute().reset_index(drop=True)
    expected = single_process[(single_process.id < 2250) & (single_process.passengers >= 3)]
    expected = expected[["id", "passengers", "vendor"]].reset_index(drop=True)
    pd.testing.assert_frame_equal(got, expected)
    by_file = pqd.read_parquet(str(dataset), columns=["id"], where=where, split="file")
    assert by_file.npartitions == 3
    assert by_file.id.sum().compute() == expected.id.sum()


def test_write_parquet_one_file_per_partition(dataset, single_process, client, tmp_path):
    ddf = pqd.read_parquet(str(dataset), split="file")
    counts = pqd.write_parquet(ddf, tmp_path / "out", codec="zstd", row_group_rows=400)
    assert counts == [ROWS_PER_FILE] * FILES
    written = sorted(os.listdir(tmp_path / "out"))
    assert len(written) == FILES and written[0] == "part.0.parquet"
    assert not [f for f in written if not f.endswith(".parquet")]  # no temporary files left
    back = pqd.read_parquet(str(tmp_path / "out"))
    assert back.npartitions == FILES * 3  # 1000 rows in row groups of 400, 400, 200
    assert_same(compute_all(aggregates(back)), aggregates(single_process))


def test_summaries_on_the_cluster_equal_one_process(dataset, single_process, client):
    whole = parquetry.merge_summaries(parquetry.summarize(str(dataset / f)) for f in sorted(os.listdir(dataset)))
    assert whole["rows"] == FILES * ROWS_PER_FILE
    assert whole["columns"]["id"]["max"] == FILES * ROWS_PER_FILE - 1
    assert whole["columns"]["fare"]["max"] == single_process.fare.max()
    assert whole["columns"]["vendor"]["min"] == b"CMT"
    assert whole["columns"]["pickup"]["max"] == single_process.pickup.max().value  # stored nanoseconds
    assert pqd.summarize_parquet(str(dataset)) == whole
    assert pqd.summarize_parquet(str(dataset), split="file") == whole
    selective = pqd.summarize_parquet(str(dataset), columns=["id"], where="id < 2250")
    assert selective["rows"] == 2250 and selective["columns"]["id"]["max"] == 2249


def test_malloc_tuning_on_the_workers(client):
    assert pqd.tune_worker_malloc() is True
    assert set(client.run(pqd.tune_worker_malloc).values()) == {True}
    client.register_worker_plugin(pqd.MallocTuning())
