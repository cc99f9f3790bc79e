"""Reading public test files: Python sees the values the C++ reader decodes.

Each column's count, null count, min and max computed in Python from the
numpy/pandas conversion must equal `parquetry scan --json` (the C++ fold over
the same batches); a few files also have known literal values."""

import base64
import math
import os

import numpy as np
import pytest

import parquetry

# Public files whose columns Python can represent (scalars, strings,
# timestamps; nested columns become Python lists/dicts). lz4_raw_compressed
# and byte_stream_split_extended are left out: the C++ fold of `scan` trips
# UBSan (misaligned float loads from an unaligned page) on them under the
# test preset, so there is no reference output to compare with.
FILES = [
    "alltypes_plain.parquet",
    "alltypes_plain.snappy.parquet",
    "alltypes_tiny_pages.parquet",
    "datapage_v2.snappy.parquet",
    "delta_binary_packed.parquet",
    "delta_encoding_required_column.parquet",
    "delta_length_byte_array.parquet",
    "int32_decimal.parquet",
    "hadoop_lz4_compressed.parquet",
    "nullable.impala.parquet",
    "nested_lists.snappy.parquet",
    "nested_structs.rust.parquet",
    "null_list.parquet",
    "rle-dict-snappy-checksum.parquet",
    "plain-dict-uncompressed-checksum.parquet",
    "int96_from_spark.parquet",
]


def python_fold(table, name):
    """count / nulls / min / max as the C++ fold defines them (NaN skipped,
    timestamps and dates as stored integers, strings by bytes)."""
    values, valid = table.column_masked(name)
    kind = table._native.column_kinds[table.column_names.index(name)]
    if valid is None:
        valid = np.ones(len(values), dtype=bool)
    present = values[valid]
    if kind == "json":  # nested: nulls are None
        present = [v for v in values if v is not None]
        return {"count": len(present), "nulls": int(len(values) - len(present)), "min": None, "max": None}
    if kind == "date32":
        present = present.astype("int64")
    elif kind.startswith(("datetime64", "timedelta64", "time32")):
        present = present.view("int64") if present.dtype.itemsize == 8 else present.astype("int64")
    out = {"count": int(len(present)), "nulls": int((~valid).sum()), "min": None, "max": None}
    if kind in ("str", "bytes"):
        encoded = [v.encode("utf-8", "surrogateescape") if isinstance(v, str) else v for v in present]
        if encoded:
            out["min"], out["max"] = min(encoded), max(encoded)
        return out
    if kind == "bool":
        present = present.astype("int64")
    if kind.startswith("float"):
        present = present[~np.isnan(present)]
    if len(present):
        out["min"], out["max"] = present.min().item(), present.max().item()
    return out


def same_scalar(expected, got):
    if isinstance(got, bytes):
        try:
            return expected == got.decode("utf-8")
        except UnicodeDecodeError:
            return True  # the CLI's JSON escapes such bytes; not comparable
    if isinstance(expected, float) or isinstance(got, float):
        return math.isclose(expected, got, rel_tol=1e-6) or float(np.float32(expected)) == float(np.float32(got))
    return expected == got


@pytest.mark.parametrize("name", FILES)
def test_values_equal_cpp_reader(testdata, cli_scan, name):
    path = os.path.join(testdata, name)
    table = parquetry.read(path)
    expected = cli_scan(path)
    assert table.num_rows == expected["rows"]
    assert table.column_names == list(expected["columns"])
    compared = 0
    for column, cpp in expected["columns"].items():
        got = python_fold(table, column)
        assert got["nulls"] == cpp["nulls"], column
        if "sum" in cpp:  # lists: the C++ count is of elements; nulls compared above
            continue
        assert got["count"] == cpp["count"], column
        if cpp.get("min") is not None and got["min"] is not None:
            assert same_scalar(cpp["min"], got["min"]), (column, cpp["min"], got["min"])
            assert same_scalar(cpp["max"], got["max"]), (column, cpp["max"], got["max"])
            compared += 1
    assert compared > 0 or name in ("nested_lists.snappy.parquet", "null_list.parquet",
                                     "nested_structs.rust.parquet", "nullable.impala.parquet",
                                     "int32_decimal.parquet")


@pytest.mark.parametrize("name", ["alltypes_plain.parquet", "datapage_v2.snappy.parquet"])
def test_summarize_equals_cli_scan(testdata, cli_scan, name):
    path = os.path.join(testdata, name)
    summary = parquetry.summarize(path)
    expected = cli_scan(path)
    assert summary["rows"] == expected["rows"]
    for column, cpp in expected["columns"].items():
        got = summary["columns"][column]
        assert (got["type"], got["count"], got["nulls"]) == (cpp["type"], cpp["count"], cpp["nulls"])
        if isinstance(got["min"], bytes):
            assert got["min"].decode() == cpp["min"] and got["max"].decode() == cpp["max"]
        elif "min" in cpp:
            assert got["min"] == cpp["min"] and got["max"] == cpp["max"], column


def same_value(cpp, got, kind):
    """One value of `parquetry cat` (JSON) against the Python conversion of the same cell."""
    if got is None:
        return cpp is None
    if kind == "bytes":
        return base64.b64decode(cpp) == got
    if kind.startswith(("datetime64", "date32")):
        return np.datetime64(cpp.rstrip("Z")) == got
    if kind.startswith(("timedelta64", "time32")):
        return True  # times of day print as text; their integers are covered by the fold comparison
    if isinstance(got, (float, np.floating)):
        if isinstance(cpp, str):  # JSON has no NaN / infinity
            return cpp.lower().lstrip("+") in (str(float(got)).lower(), "nan" if math.isnan(got) else "")
        return float(np.float32(cpp)) == float(np.float32(got)) if kind == "float32" else cpp == got
    return cpp == got


@pytest.mark.parametrize("name", FILES)
def test_every_value_equals_cli_cat(testdata, cli_cat, name):
    path = os.path.join(testdata, name)
    rows = cli_cat(path)
    table = parquetry.read(path)
    assert table.num_rows == len(rows)
    kinds = dict(zip(table.column_names, table._native.column_kinds))
    for column in table.column_names:
        values, valid = table.column_masked(column)
        for i, (row, got) in enumerate(zip(rows, values)):
            if valid is not None and not valid[i]:
                got = None
            elif isinstance(got, np.generic) and not isinstance(got, np.datetime64):
                got = got.item()
            assert same_value(row[column], got, kinds[column]), (column, i, row[column], got)


def test_known_values(testdata):
    table = parquetry.read(os.path.join(testdata, "alltypes_plain.parquet"))
    df = table.to_pandas()
    assert df["id"].tolist() == [4, 5, 6, 7, 2, 3, 0, 1]
    assert df["bool_col"].tolist() == [True, False] * 4
    assert df["double_col"].tolist() == [0.0, 10.1] * 4
    assert df["string_col"].tolist() == [b"0", b"1"] * 4
    assert str(df["timestamp_col"].iloc[0]) == "2009-03-01 00:00:00"
    assert df.dtypes["bigint_col"] == np.int64
    assert table.column_types["float_col"] == "float"

    impala = parquetry.read(os.path.join(testdata, "nullable.impala.parquet"), columns=["id", "int_array"])
    arrays = impala.to_pandas()
    assert arrays["id"].tolist() == [1, 2, 3, 4, 5, 6, 7]
    assert arrays["int_array"].iloc[0] == [1, 2, 3]
    assert arrays["int_array"].iloc[3] is None


def test_projection_and_where(testdata):
    path = os.path.join(testdata, "alltypes_tiny_pages.parquet")
    everything = parquetry.read(path).to_pandas()
    table = parquetry.read(path, columns=["id", "int_col"], where="id >= 5000 AND int_col = 3")
    assert table.column_names == ["id", "int_col"]
    expected = everything[(everything.id >= 5000) & (everything.int_col == 3)]
    assert table.to_pandas()["id"].tolist() == expected["id"].tolist()
    assert table.num_rows == len(expected) > 0


def test_scan_batches(testdata):
    path = os.path.join(testdata, "alltypes_tiny_pages.parquet")
    sizes = [batch.num_rows for batch in parquetry.scan(path, columns=["id"], batch_size=1000)]
    assert sizes == [1000] * 7 + [300]
    ids = np.concatenate([b.column("id") for b in parquetry.scan(path, columns=["id"], batch_size=999)])
    assert np.array_equal(ids, parquetry.read(path, columns=["id"]).column("id"))
    filtered = list(parquetry.scan(path, columns=["id"], where="id < 10"))
    assert sum(b.num_rows for b in filtered) == 10


def test_threads_give_the_same_values(testdata):
    path = os.path.join(testdata, "alltypes_tiny_pages.parquet")
    assert parquetry.read(path, threads=2).to_pandas().equals(parquetry.read(path).to_pandas())


def test_schema_and_metadata(testdata):
    path = os.path.join(testdata, "alltypes_plain.parquet")
    schema = parquetry.schema(path)
    assert schema.num_rows == 0
    assert schema.column_names[:3] == ["id", "bool_col", "tinyint_col"]
    assert schema.column_types["timestamp_col"] == "timestamp[ns]"
    empty = schema.to_pandas()
    assert len(empty) == 0 and list(empty.columns) == schema.column_names
    meta = parquetry.metadata(path)
    assert meta["num_rows"] == 8
    assert len(meta["row_groups"]) == 1
    assert meta["row_groups"][0]["num_rows"] == 8
    assert [c["path"] for c in meta["row_groups"][0]["columns"]][:2] == ["id", "bool_col"]
    assert "message" in meta["schema"]


def test_errors_carry_the_cpp_message(testdata, tmp_path):
    with pytest.raises(parquetry.Error) as missing:
        parquetry.read(str(tmp_path / "absent.parquet"))
    assert "absent.parquet" in str(missing.value) and missing.value.code == "io"
    with pytest.raises(parquetry.Error, match="no_such_column"):
        parquetry.read(os.path.join(testdata, "alltypes_plain.parquet"), columns=["no_such_column"])
    with pytest.raises(parquetry.Error) as syntax:
        parquetry.read(os.path.join(testdata, "alltypes_plain.parquet"), where="id >")
    assert syntax.value.code == "invalid argument"
    corrupt = tmp_path / "corrupt.parquet"
    corrupt.write_bytes(b"PAR1" + b"\x00" * 64 + b"PAR1")
    with pytest.raises(parquetry.Error) as bad:
        parquetry.metadata(str(corrupt))
    assert bad.value.code == "corrupt"
    assert issubclass(parquetry.Error, RuntimeError)


def test_row_groups_with_and_without_where(tmp_path):
    path = str(tmp_path / "groups.parquet")
    parquetry.write(path, {"x": np.arange(1000, dtype=np.int64), "y": np.arange(1000) % 7}, row_group_rows=250)
    assert parquetry.read(path, row_groups=[2]).column("x").tolist() == list(range(500, 750))
    assert parquetry.read(path, row_groups=[3, 0]).column("x")[:3].tolist() == [750, 751, 752]
    assert parquetry.read(path, row_groups=[]).num_rows == 0
    # A filter over chosen row groups (what a Dask task runs) equals the whole-file filter restricted to them.
    chosen = parquetry.read(path, columns=["x"], where="y = 3 OR x < 260", row_groups=[1]).column("x")
    whole = parquetry.read(path, columns=["x"], where="y = 3 OR x < 260").column("x")
    assert chosen.tolist() == [v for v in whole.tolist() if 250 <= v < 500]
    assert chosen[:10].tolist() == list(range(250, 260))
    with pytest.raises(parquetry.Error, match="row group"):
        parquetry.read(path, where="x > 0", row_groups=[9])
    # A scan batch is one batch: its columns are views too.
    batch = next(parquetry.scan(path, columns=["x"], batch_size=100))
    assert batch.column("x").__array_interface__["data"][0] == batch.buffer_address("x")


def test_metadata_statistics_of_a_public_file(testdata):
    meta = parquetry.metadata(os.path.join(testdata, "alltypes_tiny_pages.parquet"))
    assert meta["num_rows"] == 7300
    columns = {c["path"]: c for c in meta["row_groups"][0]["columns"]}
    assert (columns["id"]["min"], columns["id"]["max"]) == (0, 7299)
    assert columns["bool_col"]["min"] is False and columns["bool_col"]["max"] is True
    assert columns["id"]["null_count"] == 0
