"""Zero-copy: numpy arrays view parquetry's buffers and keep them alive;
Arrow C streams hand the same buffers on."""

import gc
import os

import numpy as np

import parquetry


def data_pointer(array):
    return array.__array_interface__["data"][0]


def test_numpy_views_the_cpp_buffer(tmp_path):
    path = str(tmp_path / "fixed.parquet")
    values = np.arange(100_000, dtype=np.int64) * 3
    floats = np.linspace(0.0, 1.0, 100_000)
    parquetry.write(path, {"v": values, "f": floats, "i": values.astype(np.int32)}, dictionary=False)
    table = parquetry.read(path)
    assert table.num_batches == 1
    for name in ("v", "f", "i"):
        column = table.column(name)
        assert data_pointer(column) == table.buffer_address(name) != 0, name
        assert not column.flags.writeable
    # The pandas frame of a fixed-width column without nulls holds the same memory.
    frame = table.to_pandas()
    assert data_pointer(frame["v"].to_numpy()) == table.buffer_address("v")
    assert np.array_equal(table.column("v"), values)


def test_view_outlives_the_table(tmp_path):
    path = str(tmp_path / "alive.parquet")
    parquetry.write(path, {"v": np.arange(50_000, dtype=np.int64)})
    view = parquetry.read(path).column("v")
    gc.collect()
    # Under ASan a freed buffer would fault here.
    assert int(view.sum()) == 50_000 * 49_999 // 2


def test_columns_with_nulls_or_bits_are_converted(tmp_path):
    path = str(tmp_path / "nulls.parquet")
    parquetry.write(path, {"n": np.ma.MaskedArray([1, 2, 3], mask=[False, True, False]),
                           "b": np.array([True, False, True])})
    table = parquetry.read(path)
    assert table.buffer_address("b") == 0  # bits: no view possible
    masked = table.column("n")
    assert masked.mask.tolist() == [False, True, False]
    assert masked.compressed().tolist() == [1, 3]


def test_arrow_c_stream_capsule(testdata):
    table = parquetry.read(os.path.join(testdata, "alltypes_plain.parquet"))
    capsule = table.__arrow_c_stream__()
    assert type(capsule).__name__ == "PyCapsule"
    assert "arrow_array_stream" in repr(capsule)
    del capsule  # released unconsumed: the capsule's destructor releases the stream
    imported = parquetry.Table.from_arrow(table)
    assert imported.column_names == table.column_names
    assert imported.to_pandas().equals(table.to_pandas())
    # Imported buffers are the exporter's: still no copy.
    assert imported.buffer_address("id") == table.buffer_address("id")
