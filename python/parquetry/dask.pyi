# Type stubs of `parquetry.dask` (docstrings live in dask.py).
from typing import Any, Callable, Optional, Sequence, Union

from . import Summary

DEFAULT_TASK_ROWS: int
_Paths = Union[str, Sequence[str]]

class Plan:
    tasks: list
    meta: Any
    columns: Optional[list]
    where: Optional[str]
    files: list
    row_groups_total: int
    row_groups_pruned: int
    rows_planned: int
    def __len__(self) -> int: ...

def task_pieces(task: Any) -> list: ...
def plan_parquet(paths_or_glob: _Paths, columns: Optional[Sequence[str]] = ..., where: Optional[str] = ...,
                 split: str = ..., footer_threads: Optional[int] = ..., task_rows: int = ...) -> Plan: ...
def read_parquet(paths_or_glob: _Paths, columns: Optional[Sequence[str]] = ..., where: Optional[str] = ...,
                 split: str = ..., threads: int = ..., footer_threads: Optional[int] = ...,
                 task_rows: int = ...) -> Any: ...
def from_plan(plan: Plan, threads: int = ...) -> Any: ...
def summarize_parquet(paths_or_glob: _Paths, columns: Optional[Sequence[str]] = ..., where: Optional[str] = ...,
                      split: str = ..., threads: int = ..., plan: Optional[Plan] = ..., compute: bool = ...,
                      task_rows: int = ...) -> Any: ...
def write_parquet(ddf: Any, folder: str, compute: bool = ..., name_function: Optional[Callable[[int], str]] = ...,
                  **options: Any) -> Any: ...
def tune_worker_malloc(mmap_threshold: int = ..., trim_threshold: int = ...) -> bool: ...

class MallocTuning:
    def __init__(self, mmap_threshold: int = ..., trim_threshold: int = ...) -> None: ...
    def setup(self, worker: Any) -> None: ...
