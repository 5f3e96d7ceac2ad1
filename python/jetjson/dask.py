"""NDJSON files as a dask DataFrame, each partition read by ``jetjson.loads_arrow``.

``read_ndjson(paths, schema=None, blocksize="64MB")`` cuts every file into byte ranges of
about ``blocksize``; a range owns the lines that start inside it, so each line is read by
exactly one partition. Columns are ``pandas.ArrowDtype`` (the Arrow types themselves:
nested structs, lists and timestamps survive, and ``pyarrow.Table.from_pandas`` gives the
Arrow table back).

Without a schema, one pass over every partition (run by dask, in parallel) infers each
one's types; they are merged as ``pyarrow.json.read_json`` would infer them over all the
files read as one input (fields in order of first appearance, null taking the other
type, int64 beside double becoming double, structs gaining the fields of each part,
strings staying timestamps only where every part has them as timestamps), and the
partitions are then read with that schema. So the DataFrame's ``meta`` and every
partition have the same columns and dtypes, and no field is dropped. Any other mix
(a string in one part, a number in another) is a ``ValueError`` naming the field and the
two places. Pass ``schema=`` to skip that pass (the files are then read once).

This module imports dask, pandas and pyarrow; ``import jetjson`` imports none of them.
"""

from __future__ import annotations

import glob as _glob
import mmap
import os
import re
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple, Union

import dask.dataframe as dd
import pandas as pd
import pyarrow as pa
from dask.base import compute
from dask.delayed import delayed
from dask.utils import parse_bytes

from . import loads_arrow

if TYPE_CHECKING:
    from dask.dataframe import DataFrame

__all__ = ["read_ndjson"]

_PathLike = Union[str, "os.PathLike[str]"]


class _Range(NamedTuple):
    """Bytes [start, end) of a file, before the cuts move to line starts."""

    path: str
    start: int
    end: int
    size: int


def _expand(paths_or_glob: _PathLike | Iterable[_PathLike]) -> list[str]:
    """The files: one path, a glob (sorted matches) or a list of paths."""
    if isinstance(paths_or_glob, (str, os.PathLike)):
        path = os.fspath(paths_or_glob)
        if not isinstance(path, str):
            raise TypeError(f"paths must be str or os.PathLike[str], not {type(path).__name__}")
        if _glob.has_magic(path):
            found = sorted(_glob.glob(path))
            if not found:
                raise FileNotFoundError(f"no file matches {path!r}")
            return found
        return [path]
    paths = []
    for p in paths_or_glob:
        path = os.fspath(p)
        if not isinstance(path, str):
            raise TypeError(f"paths must be str or os.PathLike[str], not {type(path).__name__}")
        paths.append(path)
    if not paths:
        raise ValueError("no file to read")
    return paths


def _blocksize(blocksize: int | str | None) -> int | None:
    if blocksize is None:
        return None
    size = parse_bytes(blocksize) if isinstance(blocksize, str) else blocksize
    if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
        raise ValueError(f"blocksize must be a positive int, a size like '64MB' or None, not {blocksize!r}")
    return size


def _ranges(paths: list[str], blocksize: int | None) -> list[_Range]:
    ranges = []
    for path in paths:
        size = os.path.getsize(path)
        step = blocksize or max(size, 1)
        ranges += [_Range(path, s, min(s + step, size), size) for s in range(0, max(size, 1), step)]
    return ranges


def _line_start(data: Any, pos: int) -> int:
    """Where the first line starting at or after byte pos starts (len(data) if none)."""
    if pos <= 0:
        return 0
    newline = data.find(b"\n", pos - 1)
    return len(data) if newline < 0 else newline + 1


def _mapped(path: str) -> tuple[Any, Any]:
    """(the file object, its bytes mapped read-only, or b'' when empty)."""
    f = open(path, "rb")
    try:
        if os.fstat(f.fileno()).st_size == 0:
            return f, b""
        return f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except BaseException:
        f.close()
        raise


_AT_BYTE = re.compile(r"at byte (\d+)")
_RECORD = re.compile(r"^record (\d+)(?:: |, )")


def _located(data: Any, start: int, end: int, message: str) -> str:
    """loads_arrow's message about data[start:end], its record and byte counted in the file
    instead: "line L: ..." (lines from 1), "... at byte B" (from the file's start)."""
    at, record = _AT_BYTE.search(message), _RECORD.search(message)
    offset = None
    if at:
        offset = start + int(at.group(1))
        message = _AT_BYTE.sub(f"at byte {offset}", message, count=1)
    elif record:
        # the record-th non-blank line of the range (one record per line)
        left, pos = int(record.group(1)), start
        while pos < end and offset is None:
            stop = data.find(b"\n", pos, end)
            stop = end if stop < 0 else stop
            if bytes(data[pos:stop]).strip():
                offset = pos if left == 0 else None
                left -= 1
            pos = stop + 1
    if record:
        message = message[record.end():]
    if offset is None:
        return f"bytes {start}-{end}: {message}"
    line = bytes(data[:offset]).count(b"\n") + 1
    return f"line {line}: {message}"


def _read(part: _Range, schema: Any, threads: int | None, unknown: bool) -> pa.Table:
    """The Arrow table of the lines that start in part's range."""
    f, data = _mapped(part.path)
    try:
        start, end = _line_start(data, part.start), _line_start(data, part.end)
        view = memoryview(data)
        try:
            with view[start:end] as piece:
                stream = loads_arrow(piece, schema, threads=threads, error_on_unknown_fields=unknown)
        except ValueError as exc:
            raise ValueError(f"{part.path}, {_located(data, start, end, str(exc))}") from exc
        finally:
            view.release()
        return pa.table(stream)
    finally:
        if isinstance(data, mmap.mmap):
            data.close()
        f.close()


def _to_pandas(table: pa.Table) -> pd.DataFrame:
    return table.to_pandas(types_mapper=pd.ArrowDtype)


class _ReadPart:
    """The partition function given to ``dd.from_map`` (picklable, for distributed).
    Its ``columns`` argument lets dask push a column selection into the read: only those
    fields are then built, the others skipped by the parser."""

    def __init__(self, schema: pa.Schema, threads: int | None, unknown: bool) -> None:
        self.schema, self.threads, self.unknown = schema, threads, unknown

    def __call__(self, part: _Range, columns: Any = None) -> pd.DataFrame:
        schema = self.schema
        if columns is not None:
            names = [columns] if isinstance(columns, str) else list(columns)
            schema = pa.schema([schema.field(n) for n in names])
        return _to_pandas(_read(part, schema, self.threads, self.unknown and columns is None))


def _infer(part: _Range, threads: int | None) -> pa.Schema:
    schema: pa.Schema = _read(part, None, threads, False).schema
    return schema


def _lines_of(part: _Range) -> str:
    """Where a part's lines are, for an error message: "file, lines A-B" (from 1)."""
    f, data = _mapped(part.path)
    try:
        start, end = _line_start(data, part.start), _line_start(data, part.end)
        first = bytes(data[:start]).count(b"\n") + 1
        last = first + max(bytes(data[start:end]).rstrip(b"\r\n").count(b"\n"), 0)
        return f"{part.path}, line {first}" if first == last else f"{part.path}, lines {first}-{last}"
    finally:
        if isinstance(data, mmap.mmap):
            data.close()
        f.close()


class _Clash(Exception):
    """Two parts that typed a field apart (_merge_schemas names them)."""

    def __init__(self, field: str, had: pa.DataType, got: pa.DataType) -> None:
        super().__init__(field, had, got)
        self.field, self.had, self.got = field, had, got


def _merge_type(a: pa.DataType, b: pa.DataType, field: str) -> pa.DataType:
    """The type a column of types a (seen so far) and b (of one more part) is inferred as."""
    if pa.types.is_null(b) or a == b:
        return a
    if pa.types.is_null(a):
        return b
    if {str(a), str(b)} == {"int64", "double"}:
        return pa.float64()
    if pa.types.is_timestamp(a) and pa.types.is_string(b) or pa.types.is_string(a) and pa.types.is_timestamp(b):
        return pa.string()  # strings are timestamps only where every part has them so
    if pa.types.is_timestamp(a) and pa.types.is_timestamp(b):
        units = ["s", "ms", "us", "ns"]
        return a if units.index(a.unit) >= units.index(b.unit) else b
    if pa.types.is_struct(a) and pa.types.is_struct(b):
        return pa.struct(_merge_fields(list(a), list(b), field))
    if pa.types.is_list(a) and pa.types.is_list(b):
        item = _merge_type(a.value_type, b.value_type, field + "/[]")
        return pa.list_(pa.field(a.value_field.name, item))
    raise _Clash(field, a, b)


def _merge_fields(fields: list[pa.Field], more: list[pa.Field], path: str) -> list[pa.Field]:
    out = {f.name: f for f in fields}
    for f in more:
        had = out.get(f.name)
        out[f.name] = f if had is None else had.with_type(_merge_type(had.type, f.type, f"{path}/{f.name}"))
    return list(out.values())


def _merge_schemas(schemas: list[pa.Schema], parts: list[_Range]) -> pa.Schema:
    """The parts' inferred schemas as one: fields in order of first appearance."""
    fields: list[pa.Field] = []
    for i, schema in enumerate(schemas):
        try:
            fields = _merge_fields(fields, list(schema), "")
        except _Clash as clash:
            # the earlier part that gave the field the type it now clashes with
            earlier = next(j for j in range(i) if _has_type(schemas[j], clash.field, clash.had))
            raise ValueError(f"field '{clash.field}' is {clash.had} in {_lines_of(parts[earlier])} but "
                             f"{clash.got} in {_lines_of(parts[i])}: give read_ndjson a schema, "
                             "or make the files agree") from None
    return pa.schema(fields)


def _has_type(schema: pa.Schema, field: str, kind: pa.DataType) -> bool:
    """Whether the field at that path (``/a/b``, ``/[]`` for list items) has a type that
    merged into ``kind`` without being null."""
    names = field.strip("/").split("/")
    t: Any = pa.struct(list(schema))
    for name in names:
        if name == "[]" and pa.types.is_list(t):
            t = t.value_type
        elif pa.types.is_struct(t) and t.get_field_index(name) >= 0:
            t = t.field(name).type
        else:
            return False
    if pa.types.is_null(t):
        return False
    try:
        return bool(_merge_type(kind, t, field) == kind)
    except _Clash:
        return False


def read_ndjson(paths_or_glob: _PathLike | Iterable[_PathLike], schema: Any = None,
                blocksize: int | str | None = "64MB", *, threads: int | None = 1,
                error_on_unknown_fields: bool = False) -> DataFrame:
    """The NDJSON files as a dask DataFrame of ``pandas.ArrowDtype`` columns.

    ``paths_or_glob``: a path, a glob pattern (its matches, sorted) or a list of paths.
    ``blocksize``: bytes per partition (an int, or a size such as ``"64MB"`` or
    ``"64MiB"``); a partition holds the lines that start in its byte range; ``None``:
    one partition per file. ``schema``: anything with ``__arrow_c_schema__`` (a
    ``pyarrow.Schema``), as ``loads_arrow`` takes it; without it the schema is inferred
    over all the files first (a read of every partition; see the module's doc).
    ``threads``: ``loads_arrow``'s, per partition (dask already reads partitions at
    once). A malformed line raises ``ValueError`` naming the file and its line.
    """
    parts = _ranges(_expand(paths_or_glob), _blocksize(blocksize))
    if schema is None:
        schemas = compute(*[delayed(_infer, pure=True)(p, threads) for p in parts])
        arrow_schema = _merge_schemas(list(schemas), parts)
    else:
        arrow_schema = pa.schema(schema)
    meta = _to_pandas(arrow_schema.empty_table())
    reader = _ReadPart(arrow_schema, threads, error_on_unknown_fields)
    frame: DataFrame = dd.from_map(reader, parts, meta=meta, label="jetjson-read-ndjson", enforce_metadata=False)
    return frame
