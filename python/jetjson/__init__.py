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
    "loads",
    "minify",
    "parse",
    "parse_file",
    "release",
    "set_path",
    "valid",
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

# typed decoding: loads(data, type=T), Decoder(T)
from ._jetjson import Decoder, ValidationError  # noqa: E402

__all__ += ["Decoder", "ValidationError"]
