"""Helpers of the dumpb suites: orjson.dumps (the installed one) is the oracle.

``same(obj, **kw)`` runs jetjson.dumpb and orjson.dumps on the same arguments and requires
the same bytes, or the same exception type family (jetjson.JSONEncodeError for orjson's
JSONEncodeError) with the same message (orjson's "dumps()" reads "dumpb()" in ours,
"orjson." reads "jetjson.").
"""

import orjson
import pytest

import jetjson

OPTION_NAMES = [
    "OPT_APPEND_NEWLINE", "OPT_INDENT_2", "OPT_NAIVE_UTC", "OPT_NON_STR_KEYS",
    "OPT_OMIT_MICROSECONDS", "OPT_PASSTHROUGH_DATACLASS", "OPT_PASSTHROUGH_DATETIME",
    "OPT_PASSTHROUGH_SUBCLASS", "OPT_SERIALIZE_NUMPY", "OPT_SORT_KEYS",
    "OPT_STRICT_INTEGER", "OPT_UTC_Z",
]


def outcome(fn, *args, **kw):
    try:
        return ("ok", fn(*args, **kw))
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        return ("raised", e)


def _our_message(msg):
    return msg.replace("dumps()", "dumpb()").replace("orjson.", "jetjson.")


def check_same(got, exp, what=""):
    label = f" for {what}" if what else ""
    if exp[0] == "ok":
        if got[0] != "ok":
            pytest.fail(f"orjson returned {exp[1][:200]!r} but dumpb raised "
                        f"{type(got[1]).__name__}: {got[1]}{label}")
        if got[1] != exp[1]:
            a, b = got[1], exp[1]
            i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            pytest.fail(f"bytes differ at {i}{label}: dumpb {a[max(0, i - 40):i + 40]!r} vs "
                        f"orjson {b[max(0, i - 40):i + 40]!r}")
        assert type(got[1]) is bytes
        return
    if got[0] != "raised":
        pytest.fail(f"orjson raised {type(exp[1]).__name__}: {exp[1]} but dumpb returned "
                    f"{got[1][:200]!r}{label}")
    g, e = got[1], exp[1]
    if isinstance(e, orjson.JSONEncodeError) and "argument" not in str(e):
        assert isinstance(g, jetjson.JSONEncodeError), f"{type(g).__name__}: {g}{label}"
    else:
        assert type(g) is type(e) or isinstance(g, type(e)), f"{type(g)} vs {type(e)}{label}"
    assert str(g) == _our_message(str(e)), f"message {str(g)!r} vs orjson {str(e)!r}{label}"


def same(obj, *args, **kw):
    exp = outcome(orjson.dumps, obj, *args, **kw)
    got = outcome(jetjson.dumpb, obj, *args, **kw)
    check_same(got, exp, kw.get("what", ""))
    return got
