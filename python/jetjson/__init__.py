"""jetjson: fast, exact JSON for Python on a C11 SIMD engine.

``loads``/``load`` return exactly what the standard library's ``json`` returns;
``dumps``/``dump`` give exactly the text ``json.dumps``/``json.dump`` give.
"""

# collections.abc re-exports these from _collections_abc, which os (so every interpreter
# with site) has already imported; importing collections.abc would add collections.
from _collections_abc import ItemsView as _ItemsView
from _collections_abc import KeysView as _KeysView
from _collections_abc import Mapping as _Mapping
from _collections_abc import Sequence as _Sequence
from _collections_abc import ValuesView as _ValuesView

# Annotations are quoted and their names imported only for the type checkers: importing
# typing would cost more than the rest of the module (tests/test_typing.py keeps it so).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from typing import IO, Any, Callable, Iterable
del TYPE_CHECKING

from ._jetjson import (
    OPT_APPEND_NEWLINE,
    OPT_INDENT_2,
    OPT_NAIVE_UTC,
    OPT_NON_STR_KEYS,
    OPT_OMIT_MICROSECONDS,
    OPT_PASSTHROUGH_DATACLASS,
    OPT_PASSTHROUGH_DATETIME,
    OPT_PASSTHROUGH_SUBCLASS,
    OPT_SERIALIZE_DATACLASS,
    OPT_SERIALIZE_NUMPY,
    OPT_SERIALIZE_UUID,
    OPT_SORT_KEYS,
    OPT_STRICT_INTEGER,
    OPT_UTC_Z,
    Array,
    delete_path,
    dump,
    dumpb,
    dumps,
    Fragment,
    JSONEncodeError,
    Object,
    features,
    get,
    get_many,
    indent,
    load_file,
    loads,
    minify,
    parse,
    release,
    set_path,
    valid,
)
from ._jetjson import _decode_error_type, _dumpb_many, _many, _raw_decode
from ._jetjson import canonical, canonical_bytes
from ._jetjson import ObjectItems as _ObjectItems
from ._jetjson import ObjectKeys as _ObjectKeys
from ._jetjson import ObjectValues as _ObjectValues

__version__ = "0.1.0"

__all__ = [
    "OPT_APPEND_NEWLINE",
    "OPT_INDENT_2",
    "OPT_NAIVE_UTC",
    "OPT_NON_STR_KEYS",
    "OPT_OMIT_MICROSECONDS",
    "OPT_PASSTHROUGH_DATACLASS",
    "OPT_PASSTHROUGH_DATETIME",
    "OPT_PASSTHROUGH_SUBCLASS",
    "OPT_SERIALIZE_DATACLASS",
    "OPT_SERIALIZE_NUMPY",
    "OPT_SERIALIZE_UUID",
    "OPT_SORT_KEYS",
    "OPT_STRICT_INTEGER",
    "OPT_UTC_Z",
    "Array",
    "delete_path",
    "dump",
    "dumpb",
    "dumps",
    "dumpb_many",
    "Decoder",
    "Fragment",
    "JSONDecodeError",
    "JSONEncodeError",
    "Object",
    "features",
    "get",
    "get_many",
    "indent",
    "load",
    "load_file",
    "load_many_file",
    "loads",
    "loads_many",
    "map_many",
    "minify",
    "parse",
    "parse_file",
    "parse_many",
    "parse_many_file",
    "release",
    "set_path",
    "valid",
    "canonical",
    "canonical_bytes",
]

_Mapping.register(Object)
_Sequence.register(Array)
_KeysView.register(_ObjectKeys)
_ValuesView.register(_ObjectValues)
_ItemsView.register(_ObjectItems)


def __getattr__(name: str) -> "Any":
    # jetjson.JSONDecodeError subclasses json.JSONDecodeError, so making it imports json
    # (with re, enum...): that happens on first use, here or when the C side raises it.
    if name == "JSONDecodeError":
        error_type = _decode_error_type()
        globals()[name] = error_type
        return error_type
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> "list[str]":
    return sorted({*globals(), "JSONDecodeError"})


def load(fp: "IO[str] | IO[bytes]", **kw: "Any") -> "Any":
    """Deserialize ``fp.read()`` (a file opened in text or binary mode) like ``json.load``."""
    return loads(fp.read(), **kw)


def parse_file(path: "str | bytes | os.PathLike[str] | os.PathLike[bytes]") -> "Any":
    """Parse the JSON file at ``path`` lazily, like ``parse`` (the views keep its bytes)."""
    with open(path, "rb") as f:
        return parse(f.read())


# ---- streams of documents ----

_FORMATS = {"whitespace": 0, "lines": 1, "json_seq": 2, "comma": 3, "array": 4}
_BATCH_SIZE = 1 << 20


def _many_args(format: object, batch_size: object, threads: object) -> int:
    code = _FORMATS.get(format) if isinstance(format, str) else None
    if code is None:
        raise ValueError(f"format must be one of {', '.join(map(repr, _FORMATS))}, not {format!r}")
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
        raise ValueError(f"batch_size must be a positive int, not {batch_size!r}")
    return code


def _typed(stream: "Any", type: "Any", forbid_unknown_fields: bool, rename: "Any", fields: "Any",
           lazy: bool) -> "Any":
    """The stream decoding each document as ``loads(doc, type=type)`` does, when a type is given."""
    if type is None:
        return stream
    if fields is not None or lazy:
        raise ValueError("type= cannot be combined with fields= or lazy=True")
    return _TypedDecoder(type, forbid_unknown_fields=forbid_unknown_fields, rename=rename)._attach(stream)


def _all(it: "Any") -> "list[Any]":
    """The documents of a stream as a list; an error raised on the way carries the
    documents read before it as its ``documents`` (as ``Decoder.close`` does)."""
    out: "list[Any]" = []
    try:
        out.extend(it)
    except (ValueError, RecursionError) as e:
        setattr(e, "documents", out)
        raise
    return out


def _many_workers(threads: "int | None") -> int:
    """Pool workers for ``threads``: None, 0 and 1 read on the calling thread; N > 1 adds
    N - 1 engine workers (parsing windows ahead) to it; -1 means os.cpu_count() threads."""
    if threads is None:
        return 0
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < -1:
        raise ValueError(f"threads must be None or an int >= -1, not {threads!r}")
    if threads == -1:
        import os

        threads = os.cpu_count() or 1
    return max(threads - 1, 0)


def _mapped(path: "str | bytes | os.PathLike[str] | os.PathLike[bytes]") -> "bytes | memoryview":
    """The file's bytes, mapped read-only (read when it cannot be mapped: empty, a pipe)."""
    import mmap
    import os

    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size > 0:
            try:
                return memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))
            except (OSError, ValueError):
                pass
        return f.read()


def loads_many(data: "Any", *, type: "Any" = None, forbid_unknown_fields: bool = False, rename: "Any" = None,
               format: str = "whitespace", fields: "str | Iterable[str] | None" = None, default: "Any" = None,
               threads: "int | None" = None, batch_size: int = _BATCH_SIZE) -> "Any":
    """The documents of ``data`` one by one, each as ``loads`` returns it. ``data`` is
    bytes, bytearray, memoryview or str, or a binary file object (read in blocks of
    about ``batch_size`` bytes: memory stays bounded whatever the file's size).

    ``format``: ``"whitespace"`` (NDJSON, JSON Lines, concatenated JSON), ``"lines"``
    (one document per line), ``"json_seq"`` (RFC 7464), ``"comma"`` or ``"array"`` (the
    elements of one top-level array). ``fields``: a JSON Pointer or a list of them; each
    document then gives the value there (or a tuple of them), ``default`` where a
    pointer leads nowhere. A malformed document raises ``JSONDecodeError`` with json's
    message and its position in the whole input, after the documents before it. With
    ``threads`` (an int) the result is a list: ``threads=N`` (N > 1) parses the windows
    ahead on N - 1 engine threads, GIL released, while the calling thread builds the
    objects in order (results and errors as without threads; in-memory input in the
    formats "whitespace" and "lines" only, the rest is read on the calling thread);
    0 or 1: the calling thread alone; -1: ``os.cpu_count()`` threads. An error then
    carries the documents before it as its ``documents`` attribute.

    ``type`` (with ``forbid_unknown_fields`` and ``rename`` as ``loads`` takes them): each
    document as ``loads(doc, type=type)`` gives it (not with ``fields``);
    a ``ValidationError``'s path then starts with the document's number, counted from 0
    (``$[3].owner.id``), as ``msgspec.json.Decoder(type).decode_lines`` says it.
    """
    code = _many_args(format, batch_size, threads)
    it = _typed(_many(data, code, False, fields, default, batch_size, _many_workers(threads)), type,
                forbid_unknown_fields, rename, fields, False)
    return it if threads is None else _all(it)


def load_many_file(path: "str | bytes | os.PathLike[str] | os.PathLike[bytes]", **kw: "Any") -> "Any":
    """``loads_many`` of the file at ``path``, mapped in memory rather than read."""
    return loads_many(_mapped(path), **kw)


def parse_many_file(path: "str | bytes | os.PathLike[str] | os.PathLike[bytes]", **kw: "Any") -> "Any":
    """``parse_many`` of the file at ``path``, mapped in memory rather than read."""
    return parse_many(_mapped(path), **kw)


def parse_many(data: "Any", *, format: str = "whitespace", threads: "int | None" = None,
               batch_size: int = _BATCH_SIZE) -> "Any":
    """The documents of ``data`` one by one, as ``parse`` returns them (lazy views of
    objects and arrays, which stay valid after the iterator moves on). Formats and
    errors as ``loads_many``; with ``threads`` the result is a list (``threads`` as
    ``loads_many`` takes it)."""
    code = _many_args(format, batch_size, threads)
    it = _many(data, code, True, None, None, batch_size, _many_workers(threads))
    return it if threads is None else _all(it)


def map_many(fn: "Callable[[Any], Any]", data: "Any", *, type: "Any" = None, forbid_unknown_fields: bool = False,
             rename: "Any" = None, format: str = "whitespace", fields: "str | Iterable[str] | None" = None,
             default: "Any" = None, drop_none: bool = False, threads: "int | None" = None, lazy: bool = False,
             batch_size: int = _BATCH_SIZE) -> "list[Any]":
    """``[fn(doc) for doc in loads_many(data, ...)]`` (documents as ``parse`` gives them
    with ``lazy=True``, as ``loads(doc, type=type)`` with ``type``), leaving out the
    results that are None with ``drop_none``. ``threads`` as ``loads_many`` takes it;
    ``fn`` is always called on the calling thread, in document order."""
    if lazy and fields is not None:
        raise ValueError("fields cannot be combined with lazy=True")
    code = _many_args(format, batch_size, threads)
    it = _typed(_many(data, code, bool(lazy), fields, default, batch_size, _many_workers(threads)), type,
                forbid_unknown_fields, rename, fields, lazy)
    if drop_none:
        return [r for r in map(fn, it) if r is not None]
    return list(map(fn, it))


def dumpb_many(records: "Iterable[Any]", default: "Callable[[Any], Any] | None" = None, option: "int | None" = None,
               *, threads: "int | None" = None) -> bytes:
    """The records (any iterable) as NDJSON bytes: each as ``dumpb`` writes it, then a
    newline. ``OPT_INDENT_2`` is refused (a record would span several lines);
    ``OPT_APPEND_NEWLINE`` changes nothing."""
    if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool) or threads < 0):
        raise ValueError(f"threads must be None or an int >= 0, not {threads!r}")
    if isinstance(option, int) and not isinstance(option, bool) and option >= 0 and option & OPT_INDENT_2:
        raise ValueError("OPT_INDENT_2 cannot be used with dumpb_many: each record must stay on one line")
    ndjson: bytes = _dumpb_many(records, default, option)
    return ndjson


class Decoder:
    """A decoder kept for repeated use.

    ``decode(data)``: one document, as ``loads(data, type=T)`` gives it (the compiled
    description of ``type`` is kept between calls, as ``msgspec.json.Decoder(T)``);
    without a type, as ``loads``.

    ``feed(chunk)``: documents from chunks that arrive (a socket, an HTTP body, a pipe):
    the list of documents that chunk completes; ``close()`` those the end of the input
    completes (a number at the very end), and raises ``JSONDecodeError`` for a document
    left unfinished. Formats, ``fields``, ``default`` and ``lazy`` as in
    ``loads_many``/``parse_many``; error positions count from the first chunk. With
    ``type``, each fed document is decoded as ``decode`` does (a ``ValidationError``'s
    path starts with the document's number, as in ``loads_many(type=)``).
    """

    # Decoder[T] at run time too: the stub makes Decoder generic in what decode() gives
    __class_getitem__: "classmethod[Any, Any, Any]" = classmethod(type(list[int]))

    def __init__(self, type: "Any" = None, *, forbid_unknown_fields: bool = False, rename: "Any" = None,
                 format: str = "whitespace", fields: "str | Iterable[str] | None" = None, default: "Any" = None,
                 lazy: bool = False, batch_size: int = _BATCH_SIZE) -> None:
        if lazy and fields is not None:
            raise ValueError("fields cannot be combined with lazy=True")
        code = _many_args(format, batch_size, None)
        self._format = (code, bool(lazy), fields, default, batch_size)
        self._stream = None
        self._typed = None
        if type is None and not forbid_unknown_fields and rename is None:
            self.type = None
            self.decode = loads
        else:
            if fields is not None or lazy:
                raise ValueError("type= cannot be combined with fields= or lazy=True")
            self._typed = _TypedDecoder(type, forbid_unknown_fields=forbid_unknown_fields, rename=rename)
            self.type = self._typed.type
            self.decode = self._typed.decode

    def _fed(self) -> "Any":
        if self._stream is None:
            code, lazy, fields, default, batch_size = self._format
            stream = _many(None, code, lazy, fields, default, batch_size)
            self._stream = stream if self._typed is None else self._typed._attach(stream)
        return self._stream

    def feed(self, chunk: "str | bytes | bytearray | memoryview") -> "list[Any]":
        """The documents completed by ``chunk`` (bytes-like or str), in order."""
        documents: "list[Any]" = self._fed()._feed(chunk)
        return documents

    def close(self) -> "list[Any]":
        """The documents the end of the input completes; nothing may be fed after."""
        documents: "list[Any]" = self._fed()._close()
        return documents

    def raw_decode(self, s: "str | bytes | bytearray | memoryview", idx: int = 0) -> "tuple[Any, int]":
        """``(value, end)`` for the document that starts exactly at ``idx`` of ``s``, as
        ``json.JSONDecoder.raw_decode``: nothing is skipped before it, nothing after it is
        read; ``end`` is where it stops (characters of a str, bytes of UTF-8 input). Only
        that document is walked, so a buffer of many is read in linear time. With a
        ``type``, the value is decoded into it."""
        value, end = _raw_decode(s, idx)
        if self.decode is not loads:
            value = self.decode(s[idx:end])
        return value, end


# JSON <-> MessagePack (src/formats, src/cpython/formats/msgpack.c)
from ._jetjson import json_to_msgpack, msgpack_to_json  # noqa: E402

__all__ += ["json_to_msgpack", "msgpack_to_json"]
# typed decoding: loads(data, type=T), Decoder(T)
from ._jetjson import Decoder as _TypedDecoder  # noqa: E402
from ._jetjson import ValidationError  # noqa: E402

__all__ += ["ValidationError"]
# Arrow -> NDJSON (src/formats/arrow_write*.c, src/cpython/formats/arrow_write.c)
from ._jetjson import dumpb_arrow  # noqa: E402

__all__ += ["dumpb_arrow"]

# NDJSON -> Apache Arrow (src/formats/arrow_build*.c, src/cpython/formats/arrow.c)
from ._jetjson import ArrowStream, load_arrow_file, loads_arrow  # noqa: E402

__all__ += ["ArrowStream", "load_arrow_file", "loads_arrow"]
