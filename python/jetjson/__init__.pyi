import json
import os
from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, Sequence, ValuesView
from typing import IO, Any, Callable, Generic, Literal, TypeVar, final, overload

from _typeshed import SupportsRead, SupportsWrite
from typing_extensions import Self

# Checked against the module by tests/test_typing.py (stubtest, mypy --strict, pyright).
_T = TypeVar("_T")
_R = TypeVar("_R")
# the document formats of the streams (loads_many, parse_many, map_many, Decoder.feed)
_Format = Literal["whitespace", "lines", "json_seq", "comma", "array"]
# a JSON Pointer, or several (each document then gives a tuple of their values)
_Fields = str | Sequence[str] | None
# rename= of the typed calls: as msgspec's Struct option `rename`
_Rename = str | Mapping[str, str | None] | Callable[[str], str | None] | None

__version__: str

# as the module's (stubtest checks that the two agree)
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
__all__ += ["json_to_msgpack", "msgpack_to_json"]
__all__ += ["ValidationError"]
__all__ += ["dumpb_arrow"]
__all__ += ["ArrowStream", "load_arrow_file", "loads_arrow"]

class JSONDecodeError(json.JSONDecodeError): ...

# type=T: the document as an instance of T (ValidationError when it is not one). A class
# or a generic alias gives T itself; other type forms (unions, Literal...) give Any.
@overload
def loads(s: _Text, *, type: type[_T], forbid_unknown_fields: bool = ..., rename: _Rename = ...) -> _T: ...
@overload
def loads(s: _Text, *, type: Any, forbid_unknown_fields: bool = ..., rename: _Rename = ...) -> Any: ...
@overload
def loads(s: _Text, *, partial: bool | Literal["off", "on", "trailing-strings"] | None) -> Any: ...
@overload
def loads(
    s: _Text,
    *,
    cls: type[json.JSONDecoder] | None = ...,
    object_hook: Callable[[dict[Any, Any]], Any] | None = ...,
    parse_float: Callable[[str], Any] | None = ...,
    parse_int: Callable[[str], Any] | None = ...,
    parse_constant: Callable[[str], Any] | None = ...,
    object_pairs_hook: Callable[[list[tuple[Any, Any]]], Any] | None = ...,
    **kw: Any,
) -> Any: ...
@overload
def load(
    fp: SupportsRead[str] | SupportsRead[bytes], *, type: type[_T], forbid_unknown_fields: bool = ..., rename: _Rename = ...
) -> _T: ...
@overload
def load(fp: SupportsRead[str] | SupportsRead[bytes], **kw: Any) -> Any: ...
@overload
def load_file(path: _Path, *, type: type[_T], forbid_unknown_fields: bool = ..., rename: _Rename = ...) -> _T: ...
@overload
def load_file(path: _Path, *, type: Any = ..., forbid_unknown_fields: bool = ..., rename: _Rename = ...) -> Any: ...
def dumps(
    obj: Any,
    *,
    skipkeys: bool = ...,
    ensure_ascii: bool = ...,
    check_circular: bool = ...,
    allow_nan: bool = ...,
    cls: type[json.JSONEncoder] | None = ...,
    indent: None | int | str = ...,
    separators: tuple[str, str] | None = ...,
    default: Callable[[Any], Any] | None = ...,
    sort_keys: bool = ...,
    **kw: Any,
) -> str: ...
def dump(
    obj: Any,
    fp: SupportsWrite[str],
    *,
    skipkeys: bool = ...,
    ensure_ascii: bool = ...,
    check_circular: bool = ...,
    allow_nan: bool = ...,
    cls: type[json.JSONEncoder] | None = ...,
    indent: None | int | str = ...,
    separators: tuple[str, str] | None = ...,
    default: Callable[[Any], Any] | None = ...,
    sort_keys: bool = ...,
    **kw: Any,
) -> None: ...
def release() -> None: ...
def features() -> dict[str, Any]: ...

# ---- lazy views: parse / parse_file ----
@final
class Object(Mapping[str, Any]):
    """Read-only view of a JSON object (registered as a collections.abc.Mapping).

    len() and iteration follow the document's pairs (duplicate keys included); a lookup
    gives the first value of a duplicated key, as_dict() the last (as json.loads)."""
    def __getitem__(self, key: str, /) -> Any: ...
    @overload
    def get(self, key: str, /) -> Any | None: ...
    @overload
    def get(self, key: str, default: Any, /) -> Any: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]: ...
    def keys(self) -> KeysView[str]: ...
    def values(self) -> ValuesView[Any]: ...
    def items(self) -> ItemsView[str, Any]: ...
    def as_dict(self) -> dict[str, Any]: ...
    def at_pointer(self, ptr: str, /) -> Any: ...

# not a Sequence to type checkers (unlike Object, a Mapping): its index() takes no
# start or stop
@final
class Array:
    """Read-only view of a JSON array (registered as a collections.abc.Sequence).
    A slice is a list of the elements (views for nested containers)."""
    @overload
    def __getitem__(self, index: int, /) -> Any: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[Any]: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __contains__(self, value: object, /) -> bool: ...
    def index(self, value: Any, /) -> int: ...
    def count(self, value: Any, /) -> int: ...
    def as_list(self) -> list[Any]: ...
    def at_pointer(self, ptr: str, /) -> Any: ...

# an Object or an Array, or the str, int, float, bool or None of a scalar document
def parse(s: _Text, /) -> Object | Array | Any: ...
def parse_file(path: _Path) -> Object | Array | Any: ...

# JSON Pointers (RFC 6901): lookups that build only the value found, and byte-range edits.
def get(
    data: str | bytes | bytearray | memoryview, pointer: str, /, default: Any = ..., *, validate: bool = True
) -> Any: ...
def get_many(
    data: str | bytes | bytearray | memoryview,
    pointers: Iterable[str],
    /,
    *,
    default: Any = ...,
    validate: bool = True,
) -> list[Any]: ...
def set_path(
    data: str | bytes | bytearray | memoryview, pointer: str, value_json: str | bytes | bytearray | memoryview, /
) -> bytes: ...
def delete_path(data: str | bytes | bytearray | memoryview, pointer: str, /) -> bytes: ...

def valid(s: str | bytes | bytearray | memoryview, /) -> bool: ...
def minify(s: str | bytes | bytearray | memoryview, /) -> bytes: ...
def indent(s: str | bytes | bytearray | memoryview, /, indent: int | str = 2) -> bytes: ...

# dumpb: orjson.dumps-compatible serializer (bytes out, orjson's options and errors)
# TypeError itself, as orjson.JSONEncodeError is
JSONEncodeError = TypeError

@final
class Fragment:
    contents: bytes | str
    def __new__(cls, contents: bytes | str, /) -> Self: ...

OPT_APPEND_NEWLINE: int
OPT_INDENT_2: int
OPT_NAIVE_UTC: int
OPT_NON_STR_KEYS: int
OPT_OMIT_MICROSECONDS: int
OPT_PASSTHROUGH_DATACLASS: int
OPT_PASSTHROUGH_DATETIME: int
OPT_PASSTHROUGH_SUBCLASS: int
OPT_SERIALIZE_DATACLASS: int  # 0, as in orjson: no effect
OPT_SERIALIZE_NUMPY: int
OPT_SERIALIZE_UUID: int  # 0, as in orjson: no effect
OPT_SORT_KEYS: int
OPT_STRICT_INTEGER: int
OPT_UTC_Z: int

def dumpb(
    obj: Any,
    /,
    default: Callable[[Any], Any] | None = ...,
    option: int | None = ...,
) -> bytes: ...

# JSON <-> MessagePack
def json_to_msgpack(
    data: str | bytes | bytearray | memoryview,
    /,
    *,
    ndjson: bool = False,
    block_size: int = 1048576,
    threads: int | None = None,
) -> bytes: ...
def msgpack_to_json(
    data: bytes | bytearray | memoryview,
    /,
    *,
    stream: bool = False,
    validate_utf8: bool = True,
    binary_as_base64: bool = True,
    ext_as_null: bool = False,
    block_size: int = 1048576,
    threads: int | None = None,
) -> bytes: ...
# Arrow -> NDJSON: anything with __arrow_c_stream__ or __arrow_c_array__
def dumpb_arrow(
    data: Any,
    /,
    *,
    write_nulls: bool = True,
    block_size: int = 262144,
    threads: int | None = None,
) -> bytes: ...
# canonical JSON (RFC 8785, JCS)
def canonical(obj: Any, /, *, default: Callable[[Any], Any] | None = ...) -> bytes: ...
def canonical_bytes(data: str | bytes | bytearray | memoryview, /) -> bytes: ...
# typed decoding: loads(s, type=T), load(fp, type=T), load_file(path, type=T)
class ValidationError(ValueError): ...

# Decoder(T).decode(data) gives a T (as loads(data, type=T)); Decoder() gives Any
class Decoder(Generic[_T]):
    @overload
    def __init__(
        self: Decoder[Any],
        type: None = None,
        *,
        forbid_unknown_fields: bool = ...,
        rename: _Rename = ...,
        format: _Format = ...,
        fields: _Fields = ...,
        default: Any = ...,
        lazy: bool = ...,
        batch_size: int = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: Decoder[_T],
        type: type[_T],
        *,
        forbid_unknown_fields: bool = ...,
        rename: _Rename = ...,
        format: _Format = ...,
        fields: _Fields = ...,
        default: Any = ...,
        lazy: bool = ...,
        batch_size: int = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: Decoder[Any],
        type: Any,
        *,
        forbid_unknown_fields: bool = ...,
        rename: _Rename = ...,
        format: _Format = ...,
        fields: _Fields = ...,
        default: Any = ...,
        lazy: bool = ...,
        batch_size: int = ...,
    ) -> None: ...
    type: Any
    def feed(self, chunk: _Text) -> list[Any]: ...
    def close(self) -> list[Any]: ...
    def decode(self, data: _Text, /) -> _T: ...
    def raw_decode(self, s: _Text, idx: int = 0) -> tuple[_T, int]: ...

# streams of documents
_Text = str | bytes | bytearray | memoryview
_Path = str | bytes | os.PathLike[str] | os.PathLike[bytes]

# with threads (an int) a list, else an iterator
@overload
def loads_many(
    data: _Text | IO[bytes],
    *,
    type: type[_T],
    forbid_unknown_fields: bool = ...,
    rename: _Rename = ...,
    format: _Format = ...,
    default: Any = ...,
    threads: None = None,
    batch_size: int = ...,
) -> Iterator[_T]: ...
@overload
def loads_many(
    data: _Text | IO[bytes],
    *,
    type: type[_T],
    forbid_unknown_fields: bool = ...,
    rename: _Rename = ...,
    format: _Format = ...,
    default: Any = ...,
    threads: int,
    batch_size: int = ...,
) -> list[_T]: ...
@overload
def loads_many(
    data: _Text | IO[bytes],
    *,
    type: Any = ...,
    forbid_unknown_fields: bool = ...,
    rename: _Rename = ...,
    format: _Format = ...,
    fields: _Fields = ...,
    default: Any = ...,
    threads: None = None,
    batch_size: int = ...,
) -> Iterator[Any]: ...
@overload
def loads_many(
    data: _Text | IO[bytes],
    *,
    type: Any = ...,
    forbid_unknown_fields: bool = ...,
    rename: _Rename = ...,
    format: _Format = ...,
    fields: _Fields = ...,
    default: Any = ...,
    threads: int,
    batch_size: int = ...,
) -> list[Any]: ...
@overload
def parse_many(
    data: _Text | IO[bytes], *, format: _Format = ..., threads: None = None, batch_size: int = ...
) -> Iterator[Any]: ...
@overload
def parse_many(data: _Text | IO[bytes], *, format: _Format = ..., threads: int, batch_size: int = ...) -> list[Any]: ...
@overload
def load_many_file(
    path: _Path,
    *,
    type: type[_T],
    forbid_unknown_fields: bool = ...,
    rename: _Rename = ...,
    format: _Format = ...,
    default: Any = ...,
    threads: None = None,
    batch_size: int = ...,
) -> Iterator[_T]: ...
@overload
def load_many_file(
    path: _Path,
    *,
    type: type[_T],
    forbid_unknown_fields: bool = ...,
    rename: _Rename = ...,
    format: _Format = ...,
    default: Any = ...,
    threads: int,
    batch_size: int = ...,
) -> list[_T]: ...
@overload
def load_many_file(
    path: _Path,
    *,
    type: Any = ...,
    forbid_unknown_fields: bool = ...,
    rename: _Rename = ...,
    format: _Format = ...,
    fields: _Fields = ...,
    default: Any = ...,
    threads: None = None,
    batch_size: int = ...,
) -> Iterator[Any]: ...
@overload
def load_many_file(
    path: _Path,
    *,
    type: Any = ...,
    forbid_unknown_fields: bool = ...,
    rename: _Rename = ...,
    format: _Format = ...,
    fields: _Fields = ...,
    default: Any = ...,
    threads: int,
    batch_size: int = ...,
) -> list[Any]: ...
@overload
def parse_many_file(path: _Path, *, format: _Format = ..., threads: None = None, batch_size: int = ...) -> Iterator[Any]: ...
@overload
def parse_many_file(path: _Path, *, format: _Format = ..., threads: int, batch_size: int = ...) -> list[Any]: ...
def map_many(
    fn: Callable[[Any], _R],
    data: _Text | IO[bytes],
    *,
    type: Any = ...,
    forbid_unknown_fields: bool = ...,
    rename: _Rename = ...,
    format: _Format = ...,
    fields: _Fields = ...,
    default: Any = ...,
    drop_none: bool = ...,
    threads: int | None = ...,
    lazy: bool = ...,
    batch_size: int = ...,
) -> list[_R]: ...
def dumpb_many(
    records: Iterable[Any], default: Callable[[Any], Any] | None = ..., option: int | None = ..., *, threads: int | None = ...
) -> bytes: ...

# NDJSON -> Apache Arrow
@final
class ArrowStream:
    """Record batches read by loads_arrow / load_arrow_file (Arrow PyCapsule interface)."""
    @property
    def num_rows(self) -> int | None: ...
    def __arrow_c_stream__(self, /, requested_schema: object | None = None) -> object: ...
    def __arrow_c_schema__(self, /) -> object: ...

def loads_arrow(
    data: _Text | SupportsRead[bytes] | SupportsRead[bytearray],
    /,
    schema: Any = None,
    *,
    block_size: int = 1048576,
    error_on_unknown_fields: bool = False,
    validate_skipped: bool = True,
    threads: int | None = None,
) -> ArrowStream: ...
def load_arrow_file(
    path: _Path,
    /,
    schema: Any = None,
    *,
    block_size: int = 1048576,
    error_on_unknown_fields: bool = False,
    validate_skipped: bool = True,
    threads: int | None = None,
) -> ArrowStream: ...
