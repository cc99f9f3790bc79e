"""Iceberg tables from Python.

    import parquetry.iceberg
    table = parquetry.iceberg.read("warehouse/db/events", columns=["user_id"],
                                   where="event_date >= DATE '2024-01-02'")
    df = table.to_pandas()

A table is a folder (its metadata/version-hint.text or highest metadata
version is used) or a metadata JSON file. Rows come from the current snapshot
or the one ``snapshot_id`` / ``as_of`` / ``ref`` names, with every delete
applied and columns projected by field id. See docs/iceberg.md.
"""

import datetime
import os

from . import Table, _parquetry

__all__ = ["read", "plan"]


def _as_of_ms(as_of):
    if as_of is None:
        return None
    if isinstance(as_of, datetime.datetime):
        if as_of.tzinfo is None:
            as_of = as_of.replace(tzinfo=datetime.timezone.utc)
        return int(as_of.timestamp() * 1000)
    if isinstance(as_of, str):
        text = as_of.replace(" ", "T")
        return _as_of_ms(datetime.datetime.fromisoformat(text))
    return int(as_of)  # milliseconds since the epoch


def read(table, columns=None, where=None, snapshot_id=None, as_of=None, ref=None, threads=None, metadata=None,
         tasks=None):
    """Reads a snapshot of an Iceberg table into a Table.

    columns: top-level columns (None = all); where: a predicate in the CLI's
    ``--where`` syntax (prunes manifests and files, then filters rows);
    snapshot_id / as_of (datetime, ISO text or epoch milliseconds) / ref:
    which snapshot (default: current); metadata: a metadata file to use;
    tasks: only these files of plan() (by index).
    """
    return Table(_parquetry.iceberg_read(os.fspath(table), columns=None if columns is None else list(columns),
                                         where=where, snapshot_id=snapshot_id, as_of_ms=_as_of_ms(as_of), ref=ref,
                                         threads=threads, metadata=metadata,
                                         tasks=None if tasks is None else list(tasks)))


def plan(table, where=None, snapshot_id=None, as_of=None, ref=None, metadata=None):
    """The data files a read would open, after pruning by ``where``:
    {"snapshot_id", "files": [{"path", "records", "deletes"}], "data_files",
    "files_pruned", "manifests_pruned"}. No data file is opened."""
    return _parquetry.iceberg_plan(os.fspath(table), where=where, snapshot_id=snapshot_id, as_of_ms=_as_of_ms(as_of),
                                   ref=ref, metadata=metadata)
