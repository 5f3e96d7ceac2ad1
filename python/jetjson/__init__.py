"""jetjson: fast, exact JSON for Python on a C11 SIMD engine.

``loads``/``load`` return exactly what the standard library's ``json`` returns;
``dumps``/``dump`` give exactly the text ``json.dumps``/``json.dump`` give.
"""

from collections.abc import ItemsView, KeysView, Mapping, Sequence, ValuesView

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
    JSONDecodeError,
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
from ._jetjson import _dumpb_many, _many
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

Mapping.register(Object)
Sequence.register(Array)
KeysView.register(_ObjectKeys)
ValuesView.register(_ObjectValues)
ItemsView.register(_ObjectItems)


def load(fp, **kw):
    """Deserialize ``fp.read()`` (a file opened in text or binary mode) like ``json.load``."""
    return loads(fp.read(), **kw)


def parse_file(path):
    """Parse the JSON file at ``path`` lazily, like ``parse`` (the views keep its bytes)."""
    with open(path, "rb") as f:
        return parse(f.read())


# ---- streams of documents ----

_FORMATS = {"whitespace": 0, "lines": 1, "json_seq": 2, "comma": 3, "array": 4}
_BATCH_SIZE = 1 << 20


def _many_args(format, batch_size, threads):
    code = _FORMATS.get(format) if isinstance(format, str) else None
    if code is None:
        raise ValueError(f"format must be one of {', '.join(map(repr, _FORMATS))}, not {format!r}")
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
        raise ValueError(f"batch_size must be a positive int, not {batch_size!r}")
    return code


def _all(it):
    """The documents of a stream as a list; an error raised on the way carries the
    documents read before it as its ``documents`` (as ``Decoder.close`` does)."""
    out = []
    try:
        out.extend(it)
    except (ValueError, RecursionError) as e:
        e.documents = out
        raise
    return out


def _many_workers(threads):
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


def _mapped(path):
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


def loads_many(data, *, format="whitespace", fields=None, default=None, threads=None, batch_size=_BATCH_SIZE):
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
    """
    code = _many_args(format, batch_size, threads)
    it = _many(data, code, False, fields, default, batch_size, _many_workers(threads))
    return it if threads is None else _all(it)


def load_many_file(path, **kw):
    """``loads_many`` of the file at ``path``, mapped in memory rather than read."""
    return loads_many(_mapped(path), **kw)


def parse_many_file(path, **kw):
    """``parse_many`` of the file at ``path``, mapped in memory rather than read."""
    return parse_many(_mapped(path), **kw)


def parse_many(data, *, format="whitespace", threads=None, batch_size=_BATCH_SIZE):
    """The documents of ``data`` one by one, as ``parse`` returns them (lazy views of
    objects and arrays, which stay valid after the iterator moves on). Formats and
    errors as ``loads_many``; with ``threads`` the result is a list (``threads`` as
    ``loads_many`` takes it)."""
    code = _many_args(format, batch_size, threads)
    it = _many(data, code, True, None, None, batch_size, _many_workers(threads))
    return it if threads is None else _all(it)


def map_many(fn, data, *, format="whitespace", fields=None, default=None, drop_none=False, threads=None,
             lazy=False, batch_size=_BATCH_SIZE):
    """``[fn(doc) for doc in loads_many(data, ...)]`` (documents as ``parse`` gives them
    with ``lazy=True``), leaving out the results that are None with ``drop_none``.
    ``threads`` as ``loads_many`` takes it; ``fn`` is always called on the calling
    thread, in document order."""
    if lazy and fields is not None:
        raise ValueError("fields cannot be combined with lazy=True")
    code = _many_args(format, batch_size, threads)
    it = _many(data, code, bool(lazy), fields, default, batch_size, _many_workers(threads))
    if drop_none:
        return [r for r in map(fn, it) if r is not None]
    return list(map(fn, it))


def dumpb_many(records, default=None, option=None, *, threads=None):
    """The records (any iterable) as NDJSON bytes: each as ``dumpb`` writes it, then a
    newline. ``OPT_INDENT_2`` is refused (a record would span several lines);
    ``OPT_APPEND_NEWLINE`` changes nothing."""
    if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool) or threads < 0):
        raise ValueError(f"threads must be None or an int >= 0, not {threads!r}")
    if isinstance(option, int) and not isinstance(option, bool) and option >= 0 and option & OPT_INDENT_2:
        raise ValueError("OPT_INDENT_2 cannot be used with dumpb_many: each record must stay on one line")
    return _dumpb_many(records, default, option)


class Decoder:
    """A decoder kept for repeated use.

    ``decode(data)``: one document, as ``loads(data, type=T)`` gives it (the compiled
    description of ``type`` is kept between calls, as ``msgspec.json.Decoder(T)``);
    without a type, as ``loads``.

    ``feed(chunk)``: documents from chunks that arrive (a socket, an HTTP body, a pipe):
    the list of documents that chunk completes; ``close()`` those the end of the input
    completes (a number at the very end), and raises ``JSONDecodeError`` for a document
    left unfinished. Formats, ``fields``, ``default`` and ``lazy`` as in
    ``loads_many``/``parse_many``; error positions count from the first chunk.
    """

    def __init__(self, type=None, *, forbid_unknown_fields=False, format="whitespace", fields=None, default=None,
                 lazy=False, batch_size=_BATCH_SIZE):
        if lazy and fields is not None:
            raise ValueError("fields cannot be combined with lazy=True")
        code = _many_args(format, batch_size, None)
        self._format = (code, bool(lazy), fields, default, batch_size)
        self._stream = None
        if type is None and not forbid_unknown_fields:
            self.type = None
            self.decode = loads
        else:
            typed = _TypedDecoder(type, forbid_unknown_fields=forbid_unknown_fields)
            self.type = typed.type
            self.decode = typed.decode

    def _fed(self):
        if self._stream is None:
            code, lazy, fields, default, batch_size = self._format
            self._stream = _many(None, code, lazy, fields, default, batch_size)
        return self._stream

    def feed(self, chunk):
        """The documents completed by ``chunk`` (bytes-like or str), in order."""
        return self._fed()._feed(chunk)

    def close(self):
        """The documents the end of the input completes; nothing may be fed after."""
        return self._fed()._close()


# JSON <-> MessagePack (src/formats, src/cpython/formats/msgpack.c)
from ._jetjson import json_to_msgpack, msgpack_to_json  # noqa: E402

__all__ += ["json_to_msgpack", "msgpack_to_json"]
# typed decoding: loads(data, type=T), Decoder(T)
from ._jetjson import Decoder as _TypedDecoder  # noqa: E402
from ._jetjson import ValidationError  # noqa: E402

__all__ += ["ValidationError"]
