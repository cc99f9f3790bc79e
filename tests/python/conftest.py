"""Shared fixtures: the public test files (read in place from the shared
folder, never copied) and the parquetry CLI the values are compared with."""

import json
import os
import subprocess

import pytest


def shared_dir():
    return os.environ.get("PARQUETRY_SHARED_DIR",
                          os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared"))


@pytest.fixture(scope="session")
def testdata():
    path = os.path.join(shared_dir(), "testdata", "parquet-testing", "data")
    if not os.path.isdir(path):
        pytest.skip(f"no test data at {path}")
    return path


@pytest.fixture(scope="session")
def cli_scan():
    """parquetry scan --json FILE, parsed."""
    cli = os.environ.get("PARQUETRY_CLI")
    if not cli or not os.path.exists(cli):
        pytest.skip("PARQUETRY_CLI not set")

    def run(path, *args):
        out = subprocess.run([cli, "scan", "--json", path, *args], check=True, capture_output=True, text=True)
        return json.loads(out.stdout)

    return run


@pytest.fixture(scope="session")
def cli_cat():
    """parquetry cat FILE (JSON lines), parsed: one dict per row."""
    cli = os.environ.get("PARQUETRY_CLI")
    if not cli or not os.path.exists(cli):
        pytest.skip("PARQUETRY_CLI not set")

    def run(path):
        out = subprocess.run([cli, "cat", path], check=True, capture_output=True, text=True)
        return [json.loads(line) for line in out.stdout.splitlines() if line]

    return run
