import json
import os
from collections.abc import ItemsView, Iterable, Iterator, KeysView, Sequence, ValuesView
from typing import IO, Any, Callable, overload

__version__: str

class JSONDecodeError(json.JSONDecodeError): ...

def loads(
    s: str | bytes | bytearray | memoryview,
    *,
    cls: type[json.JSONDecoder] | None = ...,
    object_hook: Callable[[dict[Any, Any]], Any] | None = ...,
    parse_float: Callable[[str], Any] | None = ...,
    parse_int: Callable[[str], Any] | None = ...,
    parse_constant: Callable[[str], Any] | None = ...,
    object_pairs_hook: Callable[[list[tuple[Any, Any]]], Any] | None = ...,
    **kw: Any,
) -> Any: ...
def load(fp: IO[str] | IO[bytes], **kw: Any) -> Any: ...
def load_file(path: str | bytes | os.PathLike[str] | os.PathLike[bytes], *, type: Any = ...) -> Any: ...
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
    fp: IO[str],
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
class Object:
    """Read-only view of a JSON object (registered as a collections.abc.Mapping).

    len() and iteration follow the document's pairs (duplicate keys included); a lookup
    gives the first value of a duplicated key, as_dict() the last (as json.loads)."""
    def __getitem__(self, key: str) -> Any: ...
    def get(self, key: str, default: Any = ..., /) -> Any: ...
    def __contains__(self, key: object) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]: ...
    def keys(self) -> KeysView[str]: ...
    def values(self) -> ValuesView[Any]: ...
    def items(self) -> ItemsView[str, Any]: ...
    def as_dict(self) -> dict[str, Any]: ...
    def at_pointer(self, ptr: str, /) -> Any: ...

class Array:
    """Read-only view of a JSON array (registered as a collections.abc.Sequence).
    A slice is a list of the elements (views for nested containers)."""
    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __contains__(self, value: object) -> bool: ...
    def index(self, value: Any, /) -> int: ...
    def count(self, value: Any, /) -> int: ...
    def as_list(self) -> list[Any]: ...
    def at_pointer(self, ptr: str, /) -> Any: ...

def parse(s: str | bytes | bytearray | memoryview, /) -> Object | Array | Any: ...
def parse_file(path: str | bytes | os.PathLike[str] | os.PathLike[bytes]) -> Object | Array | Any: ...

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

class Fragment:
    contents: bytes | str
    def __init__(self, contents: bytes | str, /) -> None: ...

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
# canonical JSON (RFC 8785, JCS)
def canonical(obj: Any, /, *, default: Callable[[Any], Any] | None = ...) -> bytes: ...
def canonical_bytes(data: str | bytes | bytearray | memoryview, /) -> bytes: ...
# typed decoding: loads(s, type=T), load(fp, type=T), load_file(path, type=T)
class ValidationError(ValueError): ...

class Decoder:
    def __init__(
        self,
        type: Any = ...,
        *,
        forbid_unknown_fields: bool = ...,
        format: str = ...,
        fields: str | Sequence[str] | None = ...,
        default: Any = ...,
        lazy: bool = ...,
        batch_size: int = ...,
    ) -> None: ...
    type: Any
    def feed(self, chunk: str | bytes | bytearray | memoryview, /) -> list[Any]: ...
    def close(self) -> list[Any]: ...
    def decode(self, data: str | bytes | bytearray | memoryview, /) -> Any: ...

# streams of documents
_Text = str | bytes | bytearray | memoryview
_Path = str | bytes | os.PathLike[str] | os.PathLike[bytes]

def loads_many(
    data: _Text | IO[bytes],
    *,
    format: str = ...,
    fields: str | Sequence[str] | None = ...,
    default: Any = ...,
    threads: int | None = ...,
    batch_size: int = ...,
) -> Iterator[Any] | list[Any]: ...
def parse_many(
    data: _Text | IO[bytes], *, format: str = ..., threads: int | None = ..., batch_size: int = ...
) -> Iterator[Any] | list[Any]: ...
def load_many_file(path: _Path, **kw: Any) -> Iterator[Any] | list[Any]: ...
def parse_many_file(path: _Path, **kw: Any) -> Iterator[Any] | list[Any]: ...
def map_many(
    fn: Callable[[Any], Any],
    data: _Text | IO[bytes],
    *,
    format: str = ...,
    fields: str | Sequence[str] | None = ...,
    default: Any = ...,
    drop_none: bool = ...,
    threads: int | None = ...,
    lazy: bool = ...,
    batch_size: int = ...,
) -> list[Any]: ...
def dumpb_many(
    records: Iterable[Any], default: Callable[[Any], Any] | None = ..., option: int | None = ..., *, threads: int | None = ...
) -> bytes: ...

# NDJSON -> Apache Arrow
from typing import final  # noqa: E402
@final
class ArrowStream:
    """Record batches read by loads_arrow / load_arrow_file (Arrow PyCapsule interface)."""
    @property
    def num_rows(self) -> int | None: ...
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...
    def __arrow_c_schema__(self) -> object: ...

def loads_arrow(
    data: _Text,
    schema: Any = None,
    *,
    block_size: int = 1048576,
    error_on_unknown_fields: bool = False,
    validate_skipped: bool = True,
    threads: int | None = None,
) -> ArrowStream: ...
def load_arrow_file(
    path: _Path,
    schema: Any = None,
    *,
    block_size: int = 1048576,
    error_on_unknown_fields: bool = False,
    validate_skipped: bool = True,
    threads: int | None = None,
) -> ArrowStream: ...
