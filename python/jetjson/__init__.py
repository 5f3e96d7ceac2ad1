"""jetjson: fast, exact JSON for Python on a C11 SIMD engine.

``loads``/``load`` return exactly what the standard library's ``json`` returns.
"""

from ._jetjson import (
    OPT_APPEND_NEWLINE,
    OPT_INDENT_2,
    OPT_NAIVE_UTC,
    OPT_NON_STR_KEYS,
    OPT_OMIT_MICROSECONDS,
    OPT_PASSTHROUGH_DATACLASS,
    OPT_PASSTHROUGH_DATETIME,
    OPT_PASSTHROUGH_SUBCLASS,
    OPT_SERIALIZE_NUMPY,
    OPT_SORT_KEYS,
    OPT_STRICT_INTEGER,
    OPT_UTC_Z,
    Fragment,
    JSONDecodeError,
    JSONEncodeError,
    dumpb,
    features,
    load_file,
    loads,
    release,
)

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
    "OPT_SERIALIZE_NUMPY",
    "OPT_SORT_KEYS",
    "OPT_STRICT_INTEGER",
    "OPT_UTC_Z",
    "Fragment",
    "JSONDecodeError",
    "JSONEncodeError",
    "dumpb",
    "features",
    "load",
    "load_file",
    "loads",
    "release",
]


def load(fp, **kw):
    """Deserialize ``fp.read()`` (a file opened in text or binary mode) like ``json.load``."""
    return loads(fp.read(), **kw)
