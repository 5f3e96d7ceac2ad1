"""The oracle of the typed-decoding tests: msgspec's outcome for a document and a type,
compared with jetjson's (the value with its type, or the error kind and wording)."""

import pytest

import jetjson

msgspec = pytest.importorskip("msgspec")


def outcome(fn, data, t):
    try:
        r = fn(data, type=t)
    except (msgspec.ValidationError, jetjson.ValidationError) as e:
        return ("invalid", str(e))
    except TypeError as e:
        return ("TypeError", str(e))
    return ("ok", r, type(r))


def assert_like_msgspec(data, t):
    got = outcome(jetjson.loads, data, t)
    exp = outcome(msgspec.json.decode, data, t)
    if got[0] == exp[0] == "ok":
        # repr tells 1 from 1.0 from True inside containers, and matches NaN with NaN
        assert (repr(got[1]), got[2]) == (repr(exp[1]), exp[2]), (t, data)
    else:
        assert got == exp, (t, data)
    return got
