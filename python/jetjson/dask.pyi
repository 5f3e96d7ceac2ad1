# jetjson.dask (needs the jetjson[dask] extra); checked by tests/test_typing.py.
import os
from collections.abc import Iterable
from typing import Any

from dask.dataframe import DataFrame

__all__ = ["read_ndjson"]

def read_ndjson(
    paths_or_glob: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    schema: Any = None,
    blocksize: int | str | None = "64MB",
    *,
    threads: int | None = 1,
    error_on_unknown_fields: bool = False,
) -> DataFrame: ...
