"""jetjson.dumps/dump against json.dumps/dump on every corpus file, for many option sets."""

import json

import pytest

try:
    from conftest import corpus_files, data_params, read_bytes
    from dumps_util import OPTION_SETS, check_dump, check_dumps, option_id
except ImportError:  # tests/ turned into a package
    from .conftest import corpus_files, data_params, read_bytes
    from .dumps_util import OPTION_SETS, check_dump, check_dumps, option_id

_OBJECTS = {}


def corpus_object(path):
    if path not in _OBJECTS:
        _OBJECTS[path] = json.loads(read_bytes(path))
    return _OBJECTS[path]


@pytest.mark.parametrize("kw", OPTION_SETS, ids=option_id)
@pytest.mark.parametrize("path", data_params("corpus"))
def test_corpus_dumps(path, kw):
    check_dumps(corpus_object(path), path, **kw)


@pytest.mark.parametrize("kw", [{}, {"indent": 2}, {"ensure_ascii": False, "sort_keys": True}],
                         ids=option_id)
@pytest.mark.parametrize("path", data_params("corpus"))
def test_corpus_dump(path, kw):
    check_dump(corpus_object(path), path, **kw)


@pytest.mark.parametrize("path", data_params("corpus"))
def test_corpus_nan_without_allow_nan(path):
    """Each file with a NaN inserted at its end: json's ValueError, in both encoders."""
    obj = corpus_object(path)
    for extra in (float("nan"), float("inf"), -float("inf")):
        doc = [obj, extra]
        check_dumps(doc, path, allow_nan=False)
        check_dumps(doc, path, allow_nan=False, indent=1)
        check_dumps(doc, path)


def test_corpus_present():
    if not corpus_files():
        pytest.skip("test data not found: <repo>/data or $JETJSON_DATA")
    assert len(corpus_files()) >= 10
