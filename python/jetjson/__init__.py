"""jetjson: fast, exact JSON for Python on a C11 SIMD engine.

``loads``/``load`` return exactly what the standard library's ``json`` returns;
``dumps``/``dump`` give exactly the text ``json.dumps``/``json.dump`` give.
"""

from ._jetjson import (
    JSONDecodeError,
    dump,
    dumps,
    features,
    load_file,
    loads,
    release,
)

__version__ = "0.1.0"

__all__ = [
    "JSONDecodeError",
    "dump",
    "dumps",
    "features",
    "load",
    "load_file",
    "loads",
    "release",
]


def load(fp, **kw):
    """Deserialize ``fp.read()`` (a file opened in text or binary mode) like ``json.load``."""
    return loads(fp.read(), **kw)
