"""Helpers for the jetjson.dumps/dump suites: json.dumps/json.dump are the oracle."""

import io
import json
import sys

import jetjson

try:
    from conftest import Raised, capture
except ImportError:  # tests/ turned into a package
    from .conftest import Raised, capture


def str_difference(got, exp):
    """None when the two str are the same text stored the same way, else a description."""
    if type(got) is not str:
        return f"result has type {type(got).__name__}"
    if got != exp:
        n = min(len(got), len(exp))
        i = next((i for i in range(n) if got[i] != exp[i]), n)
        return (f"text differs at {i}: {got[max(0, i - 30):i + 30]!r} vs json "
                f"{exp[max(0, i - 30):i + 30]!r} (lengths {len(got)} vs {len(exp)})")
    if got.isascii() is not exp.isascii() or sys.getsizeof(got) != sys.getsizeof(exp):
        return "same text but not stored as json's str (kind or ASCII flag)"
    return None


def outcome_difference(got, exp, loose_recursion=False):
    if isinstance(exp, Raised):
        if not isinstance(got, Raised):
            return f"json raised {type(exp.exc).__name__}: {exp.exc} but jetjson returned {got!r:.200}"
        if type(got.exc) is not type(exp.exc):
            return (f"json raised {type(exp.exc).__name__}: {exp.exc}, "
                    f"jetjson {type(got.exc).__name__}: {got.exc}")
        if loose_recursion and isinstance(exp.exc, RecursionError):
            return None
        if str(got.exc) != str(exp.exc):
            return f"{type(exp.exc).__name__} message {str(got.exc)!r:.300} != json {str(exp.exc)!r:.300}"
        return None
    if isinstance(got, Raised):
        return f"json returned {exp!r:.200} but jetjson raised {type(got.exc).__name__}: {got.exc}"
    return str_difference(got, exp)


def check_dumps(obj, what="", make=None, loose_recursion=False, **kw):
    """jetjson.dumps(obj, **kw) gives json.dumps's str or exception. `make` rebuilds obj
    for the second call when the first may change it (a mutating default)."""
    exp = capture(json.dumps, obj, **kw)
    got = capture(jetjson.dumps, make() if make else obj, **kw)
    diff = outcome_difference(got, exp, loose_recursion or "indent" in kw)
    assert diff is None, f"dumps {what} {kw}: {diff}"
    return exp


def dump_text(fn, obj, **kw):
    buf = io.StringIO()
    fn(obj, buf, **kw)
    return buf.getvalue()


def check_dump(obj, what="", **kw):
    """jetjson.dump writes json.dump's text (or raises its exception)."""
    exp = capture(dump_text, json.dump, obj, **kw)
    got = capture(dump_text, jetjson.dump, obj, **kw)
    diff = outcome_difference(got, exp, True)
    assert diff is None, f"dump {what} {kw}: {diff}"


# The option sets of the differential tests.
OPTION_SETS = [
    {},
    {"indent": 0},
    {"indent": 2},
    {"indent": 4},
    {"indent": "\t"},
    {"indent": "  "},
    {"indent": ""},
    {"indent": -1},
    {"separators": (",", ":")},
    {"separators": (", ", ": ")},
    {"separators": [";", "="], "indent": 1},
    {"sort_keys": True},
    {"ensure_ascii": False},
    {"allow_nan": False},
    {"skipkeys": True},
    {"check_circular": False},
    {"default": repr},
    {"indent": 2, "sort_keys": True, "ensure_ascii": False},
    {"separators": (",", ":"), "sort_keys": True, "ensure_ascii": False, "allow_nan": False},
    {"indent": "\t", "separators": (",", ": "), "skipkeys": True, "check_circular": False},
    {"ensure_ascii": False, "separators": ("\u3001", "\uff1a")},
    {"ensure_ascii": True, "indent": "\u2192"},
    {"ensure_ascii": False, "indent": "\U0001f600"},
]


def option_id(kw):
    return ",".join(f"{k}={v!r}" for k, v in kw.items()) or "defaults"
