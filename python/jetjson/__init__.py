"""jetjson: fast, exact JSON for Python on a C11 SIMD engine.

``loads``/``load`` return exactly what the standard library's ``json`` returns.
"""

from ._jetjson import (
    JSONDecodeError,
    features,
    indent,
    load_file,
    loads,
    minify,
    release,
    valid,
)

__version__ = "0.1.0"

__all__ = [
    "JSONDecodeError",
    "features",
    "indent",
    "load",
    "load_file",
    "loads",
    "minify",
    "release",
    "valid",
]


def load(fp, **kw):
    """Deserialize ``fp.read()`` (a file opened in text or binary mode) like ``json.load``."""
    return loads(fp.read(), **kw)
