"""parquetry: a C++ Parquet engine, from Python.

    import parquetry
    table = parquetry.read("taxi.parquet", columns=["fare_amount"], where="passenger_count > 2")
    df = table.to_pandas()
    fares = table.column("fare_amount")          # numpy view of parquetry's buffer (no copy)
    for batch in parquetry.scan("taxi.parquet"):  # one Table per batch
        ...
    parquetry.write("out.parquet", df, codec="zstd")

Tables speak the Arrow PyCapsule stream interface (``__arrow_c_stream__``),
so Arrow-speaking libraries take them without copies. Failures raise
``parquetry.Error`` with the engine's message (file, row group, column, page)
and ``.code`` ("corrupt", "unsupported", "invalid argument", ...).

See docs/python.md for the type mapping; ``parquetry.dask`` runs scans on Dask.
"""

import numpy as np

from . import _parquetry
from ._parquetry import Error, __version__, build_commit

__all__ = ["__version__", "build_commit", "Error", "Table", "read", "scan", "summarize", "merge_summaries", "write",
           "schema", "metadata", "set_remote_options", "list_objects"]


def _widen(kind, values):
    """Numpy values of a kind that has no numpy dtype of its own width."""
    if kind == "date32":
        return values.astype("datetime64[D]")
    if kind.startswith("time32"):
        return values.astype("int64").view("timedelta64" + kind[len("time32"):])
    return values


def _empty(kind):
    if kind in ("str", "bytes", "json"):
        return np.empty(0, dtype=object)
    if kind == "date32":
        return np.empty(0, dtype="datetime64[D]")
    if kind.startswith("time32"):
        return np.empty(0, dtype="timedelta64" + kind[len("time32"):])
    return np.empty(0, dtype=kind)


class Table:
    """Rows read by parquetry: one C++ batch per row group, columns in Arrow layout.

    Fixed-width columns without nulls convert to numpy without copying when
    the table holds one batch (a read of one row group, a scan batch): the
    array views parquetry's buffer and keeps it alive.
    """

    def __init__(self, native):
        """Wraps a native table of the extension; made by read(), scan(), schema(), from_arrow()."""
        self._native = native

    @property
    def num_rows(self):
        """Rows in all batches."""
        return self._native.num_rows

    def __len__(self):
        """Same as num_rows."""
        return self._native.num_rows

    @property
    def num_batches(self):
        """C++ batches held (one per row group read, or one for a scan batch)."""
        return self._native.num_batches

    @property
    def column_names(self):
        """Top-level column names in schema order."""
        return list(self._native.column_names)

    @property
    def column_types(self):
        """Arrow type of each column ("int64", "timestamp[us, UTC]", "list<item: int32>", ...)."""
        return dict(zip(self._native.column_names, self._native.column_types))

    def _kind(self, name):
        names = self._native.column_names
        if name not in names:
            raise Error(f"no column {name}")
        return self._native.column_kinds[names.index(name)]

    def column_masked(self, name):
        """(values, valid): values as numpy (zero-copy where possible), valid a
        bool array (True = not null) or None when the column has no nulls."""
        kind = self._kind(name)
        pieces = self._native.column_pieces(name)
        if not pieces:
            return _empty(kind), None
        if len(pieces) == 1:
            values, valid = pieces[0]
            return _widen(kind, values), valid
        values = np.concatenate([_widen(kind, v) for v, _ in pieces])
        if all(m is None for _, m in pieces):
            return values, None
        valid = np.concatenate([np.ones(len(v), dtype=bool) if m is None else m for v, m in pieces])
        return values, valid

    def column(self, name):
        """One column as a numpy array. Nulls: a numpy masked array."""
        values, valid = self.column_masked(name)
        if valid is None:
            return values
        return np.ma.MaskedArray(values, mask=~valid)

    def to_numpy(self):
        """{name: numpy array} (masked arrays for columns holding nulls)."""
        return {name: self.column(name) for name in self.column_names}

    def buffer_address(self, name, batch=0):
        """Address of the first value of a fixed-width column in one batch:
        what a zero-copy numpy view's data pointer equals."""
        return self._native.buffer_address(name, batch)

    def to_pandas(self):
        """A pandas DataFrame. Integers holding nulls become float64 with NaN,
        booleans holding nulls objects with None, timestamps NaT (as pyarrow does)."""
        import pandas as pd

        columns = {}
        zones = dict(zip(self._native.column_names, self._native.column_timezones))
        for name in self.column_names:
            values, valid = self.column_masked(name)
            if valid is not None:
                values = _fill_nulls(values, valid)
            series = pd.Series(values, name=name, copy=False)
            if zones[name]:
                series = series.dt.tz_localize("UTC").dt.tz_convert(zones[name])
            columns[name] = series
        # copy=False: no consolidation into 2-d blocks, so fixed-width columns stay views.
        return pd.DataFrame(columns, columns=self.column_names, copy=False)

    def __arrow_c_stream__(self, requested_schema=None):
        """The Arrow PyCapsule stream interface: a capsule "arrow_array_stream"
        over the table's batches, sharing their buffers."""
        return self._native.__arrow_c_stream__(requested_schema)

    @staticmethod
    def from_arrow(source):
        """A Table from any object with ``__arrow_c_stream__`` (or such a capsule)."""
        return Table(_parquetry.table_from_stream(source))

    def __repr__(self):
        types = ", ".join(f"{n}: {t}" for n, t in self.column_types.items())
        return f"parquetry.Table({self.num_rows} rows; {types})"


def _fill_nulls(values, valid):
    kind = values.dtype.kind
    if kind == "f":
        out = values.copy()
        out[~valid] = np.nan
        return out
    if kind in "iu":
        out = values.astype("float64")
        out[~valid] = np.nan
        return out
    if kind in "mM":
        out = values.copy()
        out[~valid] = np.datetime64("NaT") if kind == "M" else np.timedelta64("NaT")
        return out
    if kind == "b":
        out = values.astype(object)
        out[~valid] = None
        return out
    return values  # objects already hold None


def read(path, columns=None, where=None, threads=None, row_groups=None, decryption=None):
    """Reads a file into a Table.

    columns: dotted column paths (a group selects its leaves); None = all.
    where: a predicate in the CLI's ``--where`` syntax, e.g.
        "PULocationID = 132 AND fare_amount > 10"; row groups and pages the
        metadata excludes are not read.
    threads: threads decoding the columns of a row group.
    row_groups: indexes of the row groups to read (None = all).
    decryption: keys of an encrypted file, {"footer_key": key, "column_keys":
        {path: key}, "aad_prefix": str, "key_file": path}; a key is bytes
        (raw) or str (hex or base64). docs/encryption.md.
    """
    return Table(_parquetry.read(str(path), columns=_list(columns), where=where,
                                 row_groups=_list(row_groups), threads=threads, decryption=decryption))


def scan(path, columns=None, where=None, threads=None, row_groups=None, batch_size=64 * 1024,
         decryption=None):
    """Iterates over a file's rows as Tables of at most ``batch_size`` rows
    (with ``where``: the surviving rows of one row group each); ``decryption``
    as for read()."""
    native = _parquetry.scan(str(path), columns=_list(columns), where=where,
                             row_groups=_list(row_groups), threads=threads, batch_size=batch_size,
                             decryption=decryption)
    for batch in native:
        yield Table(batch)


def summarize(path, columns=None, where=None, threads=None, row_groups=None, decryption=None):
    """The `parquetry scan` workload: every selected value decoded and folded
    in C++ into {"rows", "columns": {name: {type, count, nulls, min, max}}}
    (min/max as stored: timestamps as integers in their unit, strings as bytes).
    Nothing but the summary crosses into Python."""
    return _parquetry.scan_summary(str(path), columns=_list(columns), where=where,
                                   row_groups=_list(row_groups), threads=threads, decryption=decryption)


def merge_summaries(summaries):
    """Folds summaries of disjoint parts (row groups, files) of one schema into one."""
    merged = {"rows": 0, "columns": {}}
    for summary in summaries:
        merged["rows"] += summary["rows"]
        for name, column in summary["columns"].items():
            into = merged["columns"].setdefault(name, {"type": column["type"], "count": 0, "nulls": 0,
                                                       "min": None, "max": None})
            into["count"] += column["count"]
            into["nulls"] += column["nulls"]
            if column["min"] is not None and (into["min"] is None or column["min"] < into["min"]):
                into["min"] = column["min"]
            if column["max"] is not None and (into["max"] is None or column["max"] > into["max"]):
                into["max"] = column["max"]
    return merged


def schema(path, columns=None):
    """The columns of a file as a Table without rows: ``column_names``,
    ``column_types``, and ``to_pandas()`` an empty frame of the read dtypes."""
    return Table(_parquetry.open_schema(str(path), columns=_list(columns)))


def metadata(path):
    """The footer as a dict: num_rows, created_by, schema (text),
    key_value_metadata and row_groups, each with num_rows, sizes and per-column
    statistics (min, max, null_count) decoded to Python values, as stored;
    statistics_not_used lists the writer-catalogue defects (docs/limits.md)
    for which parquetry does not prune on them."""
    return _parquetry.metadata(str(path))


def set_remote_options(endpoint="", region="", profile="", anonymous=False, path_style=None, ca_file="",
                       max_concurrency=8, footer_hint=0, max_tries=5):
    """Settings for s3:// and http(s):// paths, which every function here accepts
    like local paths. Empty values come from the AWS_* environment variables and
    ~/.aws/credentials / ~/.aws/config (docs/remote.md)."""
    _parquetry.set_remote_options(endpoint, region, profile, anonymous, path_style, ca_file,
                                  max_concurrency, footer_hint, max_tries)


def list_objects(url):
    """(key, size, etag) of every object under s3://bucket/prefix (ListObjectsV2)."""
    return [tuple(item) for item in _parquetry.list_objects(str(url))]


def write(path, data, **options):
    """Writes a pandas DataFrame or a dict of numpy arrays as one Parquet
    file, atomically (the file appears whole or not at all). Returns the row count.

    Columns: integers, floats, bools, strings (object arrays of str/None),
    bytes, datetime64 (NaT = null; tz-aware pandas columns keep their zone),
    pandas nullable Int*/boolean/string, masked arrays.
    Options: row_group_rows, row_group_bytes, page_rows, page_bytes, codec
    ("snappy", "zstd", "gzip", "lz4_raw", "brotli", "none"),
    compression_level, dictionary, statistics, page_index, data_page_v2,
    bloom_filter, page_checksum, threads, key_value_metadata (dict),
    encryption (dict: footer_key, footer_key_metadata, cipher, plaintext_footer,
    column_keys {path: key or (key, key_metadata)}, aad_prefix, store_aad_prefix;
    docs/encryption.md).
    """
    columns = [_column_spec(str(name), values) for name, values in _items(data)]
    return _parquetry.write(str(path), columns, options)


def _list(value):
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    return list(value)


def _items(data):
    if hasattr(data, "items"):  # DataFrame or dict
        return list(data.items())
    raise TypeError("parquetry.write takes a pandas DataFrame or a dict of arrays")


def _column_spec(name, values):
    """(name, kind, values, valid, unit, timezone) as _parquetry.write takes it."""
    timezone = ""
    valid = None
    dtype = getattr(values, "dtype", None)
    if dtype is not None and getattr(dtype, "tz", None) is not None:  # tz-aware pandas
        import pandas as pd

        timezone = str(dtype.tz)
        values = pd.Series(values).dt.tz_convert("UTC").dt.tz_localize(None)
        dtype = values.dtype
    if dtype is not None and hasattr(values, "array") and not isinstance(dtype, np.dtype):
        values = values.array  # a pandas Series of an extension type
    if hasattr(values, "_data") and hasattr(values, "_mask"):  # pandas masked arrays (Int64, boolean)
        valid = ~np.asarray(values._mask)
        values = np.asarray(values._data)
    elif isinstance(values, np.ma.MaskedArray):
        valid = ~np.ma.getmaskarray(values)
        values = np.asarray(values.data)
    else:
        values = np.asarray(values)
    if values.ndim != 1:
        raise Error(f"write: column {name} is not one-dimensional")
    kind = values.dtype.kind
    if kind in "biuf":
        return (name, "numeric", np.ascontiguousarray(values), valid, "", "")
    if kind == "M":
        unit = np.datetime_data(values.dtype)[0]
        if unit == "D":
            nat = np.isnat(values)
            ints = values.astype("int64").astype("int32")
            return (name, "date32", ints, _and(valid, ~nat) if nat.any() else valid, "", "")
        if unit not in ("s", "ms", "us", "ns"):
            values = values.astype("datetime64[us]")
            unit = "us"
        nat = np.isnat(values)
        return (name, "timestamp", np.ascontiguousarray(values.view("int64")),
                _and(valid, ~nat) if nat.any() else valid, unit, timezone)
    if kind in "OUS":
        return _object_spec(name, values, valid)
    raise Error(f"write: column {name} has dtype {values.dtype}, which parquetry cannot write")


def _and(valid, other):
    return other if valid is None else (valid & other)


def _is_missing(value):
    """None, NaN, and pandas' NA / NaT singletons (what pandas puts in object and string columns)."""
    if value is None:
        return True
    if isinstance(value, float):
        return value != value
    return type(value).__name__ in ("NAType", "NaTType")


def _object_spec(name, values, valid):
    if values.dtype.kind == "U":
        return (name, "str", values.astype(object), valid, "", "")
    if values.dtype.kind == "S":
        return (name, "bytes", values.astype(object), valid, "", "")
    missing = np.fromiter((_is_missing(v) for v in values), dtype=bool, count=len(values))
    present = values[~missing]
    if len(present) and all(isinstance(v, (bytes, bytearray)) for v in present):
        kind = "bytes"
        present_type = bytes
    elif all(isinstance(v, str) for v in present):
        kind = "str"
        present_type = str
    else:
        # Objects holding numbers or booleans with None: numeric values plus a null mask.
        for python_type, dtype in ((bool, np.bool_), (int, np.int64), (float, np.float64)):
            if all(isinstance(v, python_type) and (python_type is bool or not isinstance(v, bool)) for v in present):
                filled = np.zeros(len(values), dtype=dtype)
                filled[~missing] = present.astype(dtype)
                return (name, "numeric", filled, _and(valid, ~missing), "", "")
        raise Error(f"write: column {name} mixes Python types parquetry cannot write")
    if missing.any():
        values = values.copy()
        values[missing] = None
    if kind == "bytes":
        values = np.array([None if v is None else present_type(v) for v in values], dtype=object)
    return (name, kind, values, valid, "", "")
