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
