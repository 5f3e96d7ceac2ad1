"""dumpb vs orjson.dumps on every corpus file, with each option alone and in pairs."""

import itertools
import json

import pytest

import jetjson
from conftest import data_params, read_bytes
from dumpb_util import OPTION_NAMES, outcome, check_same
import orjson

# Options that change what these (plain JSON) values become.
RELEVANT = ["OPT_APPEND_NEWLINE", "OPT_INDENT_2", "OPT_NON_STR_KEYS", "OPT_SORT_KEYS",
            "OPT_STRICT_INTEGER", "OPT_PASSTHROUGH_SUBCLASS"]
OPTION_SETS = [0] + [getattr(orjson, n) for n in OPTION_NAMES] + [
    getattr(orjson, a) | getattr(orjson, b) for a, b in itertools.combinations(RELEVANT, 2)]

_LOADED = {}


def loaded(path):
    if path not in _LOADED:
        _LOADED[path] = json.loads(read_bytes(path))
    return _LOADED[path]


@pytest.mark.parametrize("path", data_params("corpus"))
@pytest.mark.parametrize("option", OPTION_SETS)
def test_corpus_file(path, option):
    obj = loaded(path)
    check_same(outcome(jetjson.dumpb, obj, option=option),
               outcome(orjson.dumps, obj, option=option), f"{path} option={option}")


def test_options_are_orjsons():
    for name in OPTION_NAMES:
        assert getattr(jetjson, name) == getattr(orjson, name), name


@pytest.mark.parametrize("path", data_params("corpus"))
def test_round_trip_through_loads(path):
    # the bytes read back with json as the same document (independent of orjson)
    obj = loaded(path)
    assert json.loads(jetjson.dumpb(obj)) == obj
