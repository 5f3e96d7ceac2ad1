import json
import os
from typing import IO, Any, Callable

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
def load_file(path: str | bytes | os.PathLike[str] | os.PathLike[bytes]) -> Any: ...
def release() -> None: ...
def features() -> dict[str, Any]: ...

# dumpb: orjson.dumps-compatible serializer (bytes out, orjson's options and errors)
class JSONEncodeError(TypeError): ...

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
OPT_SERIALIZE_NUMPY: int
OPT_SORT_KEYS: int
OPT_STRICT_INTEGER: int
OPT_UTC_Z: int

def dumpb(
    obj: Any,
    /,
    default: Callable[[Any], Any] | None = ...,
    option: int | None = ...,
) -> bytes: ...
