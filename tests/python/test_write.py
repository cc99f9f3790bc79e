"""write -> read round trips from pandas and from dicts of numpy arrays."""

import numpy as np
import pandas as pd
import pytest

import parquetry


def frame(rows=1000):
    rng = np.random.default_rng(7)
    return pd.DataFrame({
        "i8": rng.integers(-100, 100, rows).astype(np.int8),
        "i32": rng.integers(-2**31, 2**31 - 1, rows).astype(np.int32),
        "i64": rng.integers(-2**62, 2**62, rows),
        "u16": rng.integers(0, 60000, rows).astype(np.uint16),
        "f32": rng.random(rows).astype(np.float32),
        "f64": rng.normal(size=rows),
        "flag": rng.random(rows) < 0.3,
        "name": [f"name-{i % 37}" if i % 11 else None for i in range(rows)],
        "when": pd.date_range("2024-01-01", periods=rows, freq="37s"),
        "nullable": pd.array([None if i % 5 == 0 else i for i in range(rows)], dtype="Int64"),
        "utc": pd.date_range("2024-03-01", periods=rows, freq="h", tz="UTC"),
    })


@pytest.mark.parametrize("codec", ["snappy", "zstd", "none"])
def test_pandas_round_trip(tmp_path, codec):
    df = frame()
    path = str(tmp_path / f"rt-{codec}.parquet")
    assert parquetry.write(path, df, codec=codec, row_group_rows=300) == len(df)
    meta = parquetry.metadata(path)
    assert [rg["num_rows"] for rg in meta["row_groups"]] == [300, 300, 300, 100]
    back = parquetry.read(path).to_pandas()
    for name in ["i8", "i32", "i64", "u16", "f32", "f64", "flag", "name", "when", "utc"]:
        assert back[name].dtype == df[name].dtype, name
        pd.testing.assert_series_equal(back[name], df[name], check_names=False)
    # Integers with nulls come back as float64 with NaN (pyarrow's convention).
    expected = df["nullable"].astype("float64")
    assert np.array_equal(back["nullable"].to_numpy(), expected.to_numpy(), equal_nan=True)
    stats = meta["row_groups"][0]["columns"]
    by_path = {c["path"]: c for c in stats}
    assert by_path["i64"]["min"] == int(df["i64"][:300].min())
    assert by_path["i64"]["max"] == int(df["i64"][:300].max())
    assert by_path["name"]["null_count"] == int(df["name"][:300].isna().sum())


def test_numpy_dict_round_trip(tmp_path):
    path = str(tmp_path / "dict.parquet")
    data = {
        "a": np.arange(10, dtype=np.uint64) * (2**60),
        "s": np.array(["x", "yy", "", "ü", "z" * 100, "a", "b", "c", "d", "e"]),
        "raw": np.array([b"\x00\x01", b"", b"\xff"] * 3 + [b"end"], dtype=object),
        "d": np.arange("2020-01-01", "2020-01-11", dtype="datetime64[D]"),
        "h": np.arange(10, dtype=np.float16),
    }
    parquetry.write(path, data)
    table = parquetry.read(path)
    assert table.column_types == {"a": "uint64", "s": "string", "raw": "binary", "d": "date32", "h": "halffloat"} \
        or table.column_types["d"] == "date32"
    assert table.column("a").tolist() == data["a"].tolist()
    assert table.column("s").tolist() == data["s"].tolist()
    assert table.column("raw").tolist() == data["raw"].tolist()
    assert table.column("d").tolist() == data["d"].tolist()
    assert table.column("h").tolist() == data["h"].tolist()


def test_where_on_written_file(tmp_path):
    df = frame(5000)
    path = str(tmp_path / "where.parquet")
    parquetry.write(path, df, row_group_rows=1000)
    got = parquetry.read(path, columns=["i32", "name"], where="i32 > 0 AND name = 'name-3'").to_pandas()
    expected = df[(df.i32 > 0) & (df.name == "name-3")]
    assert got["i32"].tolist() == expected["i32"].tolist()
    assert len(got) > 0


def test_pandas_string_dtype_and_object_numbers(tmp_path):
    path = str(tmp_path / "strings.parquet")
    df = pd.DataFrame({"s": pd.array(["a", None, "c"], dtype="string"),
                       "o": np.array([1, None, 3], dtype=object),
                       "b": pd.array([True, None, False], dtype="boolean")})
    parquetry.write(path, df)
    table = parquetry.read(path)
    assert table.column_types == {"s": "string", "o": "int64", "b": "bool"}
    back = table.to_pandas()
    assert back["s"].tolist() == ["a", None, "c"]
    assert back["o"].isna().tolist() == [False, True, False] and back["o"][2] == 3
    assert back["b"].tolist() == [True, None, False]


def test_write_is_atomic_and_rejects_bad_input(tmp_path):
    path = tmp_path / "bad.parquet"
    with pytest.raises(parquetry.Error, match="rows"):
        parquetry.write(str(path), {"a": np.arange(3), "b": np.arange(4)})
    with pytest.raises(parquetry.Error):
        parquetry.write(str(path), {"a": np.array([1, "x"], dtype=object)})
    with pytest.raises(parquetry.Error, match="unknown option"):
        parquetry.write(str(path), {"a": np.arange(3)}, no_such_option=1)
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []
