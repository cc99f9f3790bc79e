"""Remote paths from Python and Dask: a file written here, served by nginx
(HTTP) and by s3rver (S3, signatures checked), both started by the test on
127.0.0.1, reads exactly as the local file does through read, scan,
summarize, metadata, list_objects and parquetry.dask."""

import os
import shutil
import socket
import subprocess
import time

import numpy as np
import pandas as pd
import pytest

import parquetry
import parquetry.dask as pqd

ROWS = 6000
GROUP_ROWS = 1000
SERVERS = os.path.join(os.path.dirname(__file__), "..", "servers")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, process, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Two files of 6 row groups: ints, doubles, strings with nulls, timestamps."""
    out = tmp_path_factory.mktemp("served")
    rng = np.random.default_rng(5)
    for part in range(2):
        ids = np.arange(part * ROWS, (part + 1) * ROWS, dtype=np.int64)
        vendor = rng.choice(["CMT", "VTS", "DDS"], ROWS).astype(object)
        vendor[ids % 9 == 0] = None
        frame = pd.DataFrame({
            "id": ids,
            "fare": rng.integers(0, 400, ROWS) / 4.0,
            "vendor": vendor,
            "pickup": pd.Timestamp("2024-01-01") + pd.to_timedelta(ids, unit="s"),
        })
        parquetry.write(str(out / f"part-{part}.parquet"), frame, row_group_rows=GROUP_ROWS)
    return out


@pytest.fixture(scope="module")
def nginx(folder, tmp_path_factory):
    """http://127.0.0.1:PORT serving `folder`."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    work = tmp_path_factory.mktemp("nginx")
    (work / "logs").mkdir()
    port = free_port()
    conf = work / "nginx.conf"
    temp = "".join(f"  {kind}_temp_path {work / kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf.write_text(
        f"daemon off;\nmaster_process off;\nworker_processes 1;\npid {work / 'nginx.pid'};\n"
        f"error_log {work / 'logs' / 'error.log'};\nevents {{ worker_connections 64; }}\n"
        f"http {{\n  access_log {work / 'logs' / 'access.log'};\n{temp}"
        f"  default_type application/octet-stream;\n"
        f"  server {{ listen 127.0.0.1:{port}; root {folder}; }}\n}}\n")
    process = subprocess.Popen([binary, "-p", str(work), "-c", str(conf), "-e", str(work / "logs" / "error.log")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def s3(folder, tmp_path_factory):
    """s3://data/ holding `folder`'s files, with the endpoint and keys set."""
    store = tmp_path_factory.mktemp("s3store")
    saved = {k: os.environ.get(k) for k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")}
    process = subprocess.Popen(["node", os.path.join(SERVERS, "s3_server.js"), str(store), "data", str(folder)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = None
        deadline = time.time() + 60
        while port is None and time.time() < deadline:
            line = process.stdout.readline()
            if not line:
                raise RuntimeError("the S3 server exited before printing its port")
            if line.startswith("PORT "):
                port = int(line.split()[1])
        assert port is not None, "no port from the S3 server"
        os.environ["AWS_ACCESS_KEY_ID"] = "S3RVER"
        os.environ["AWS_SECRET_ACCESS_KEY"] = "S3RVER"
        parquetry.set_remote_options(endpoint=f"http://127.0.0.1:{port}", region="us-east-1", max_concurrency=4)
        yield "s3://data"
    finally:
        parquetry.set_remote_options()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        process.terminate()
        process.wait(timeout=10)


def frame_of(path, **options):
    return parquetry.read(path, **options).to_pandas()


@pytest.mark.parametrize("server", ["nginx", "s3"])
def test_read_scan_and_metadata_equal_the_local_file(server, folder, request):
    base = request.getfixturevalue(server)
    local = str(folder / "part-1.parquet")
    url = f"{base}/part-1.parquet"

    expected = frame_of(local)
    got = frame_of(url, threads=2)
    pd.testing.assert_frame_equal(got, expected)
    assert len(got) == ROWS and got["id"].iloc[-1] == 2 * ROWS - 1

    # A projection and a filter: the rows the local file gives.
    filtered = frame_of(url, columns=["id", "vendor"], where="id >= 11500")
    pd.testing.assert_frame_equal(filtered, frame_of(local, columns=["id", "vendor"], where="id >= 11500"))
    assert filtered["id"].tolist() == list(range(11500, 12000))

    # Batches of 700 rows straddle the row groups' pages.
    batches = [t.to_pandas() for t in parquetry.scan(url, batch_size=700)]
    assert max(len(b) for b in batches) == 700
    pd.testing.assert_frame_equal(pd.concat(batches, ignore_index=True), expected)

    assert parquetry.summarize(url) == parquetry.summarize(local)
    meta = parquetry.metadata(url)
    assert meta["num_rows"] == ROWS and len(meta["row_groups"]) == ROWS // GROUP_ROWS
    local_meta = parquetry.metadata(local)
    assert meta["path"] == url and local_meta["path"] == local
    del meta["path"], local_meta["path"]
    assert meta == local_meta


def test_list_objects_names_the_files(s3, folder):
    listed = sorted(parquetry.list_objects(s3 + "/"))
    assert [key for key, _, _ in listed] == ["part-0.parquet", "part-1.parquet"]
    for key, size, etag in listed:
        assert size == os.path.getsize(folder / key)
        assert etag


def test_dask_reads_urls_like_local_paths(nginx, folder):
    urls = [f"{nginx}/part-{i}.parquet" for i in range(2)]
    locals_ = [str(folder / f"part-{i}.parquet") for i in range(2)]
    remote = pqd.read_parquet(urls, columns=["id", "fare"]).compute(scheduler="sync")
    local = pqd.read_parquet(locals_, columns=["id", "fare"]).compute(scheduler="sync")
    pd.testing.assert_frame_equal(remote.reset_index(drop=True), local.reset_index(drop=True))
    assert remote["id"].tolist() == list(range(2 * ROWS))
    # Statistics prune by URL too: one row group of one file survives.
    plan = pqd.plan_parquet(urls, where="id < 500")
    assert plan.tasks == [(urls[0], (0,))]
    summary = pqd.summarize_parquet(urls, columns=["fare"], compute=True)
    assert summary == pqd.summarize_parquet(locals_, columns=["fare"], compute=True)
    assert summary["rows"] == 2 * ROWS
