"""Keyword arguments of loads: object_hook, object_pairs_hook, parse_float, parse_int,
parse_constant, strict and cls behave as in json.loads (same results, same calls to the
hooks with the same arguments in the same order, same exceptions)."""

import collections
import decimal
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

try:
    from conftest import (Raised, assert_same_outcome, assert_same_value, capture,
                          hyp_settings, json_oracle)
except ImportError:  # tests/ turned into a package
    from .conftest import (Raised, assert_same_outcome, assert_same_value, capture,
                           hyp_settings, json_oracle)

DOCS = [
    '{"a": 1, "b": [1.5, {"c": null}], "d": {"e": {}}}',
    '[{}, {"x": {"y": {"z": 1}}}, [], [{}]]',
    '{"a": 1, "a": 2, "b": 3, "a": 4}',
    "{}", "[]", "1.5", "1", "-0", "NaN", '"s"', "null",
    "[NaN, Infinity, -Infinity, 1e400, -0.0, 0.1, 1E5, 2e-5, 0e0]",
    "[1, -0, 12345678901234567890, -1.0e-5, 9223372036854775808, -9223372036854775809]",
    '{"k\u00e9y": {"\U0001f600": [1, 2.50, {"n": NaN}]}, "z": -Infinity}',
    '[' + ", ".join(f'{{"i": {i}, "f": {i}.5}}' for i in range(50)) + "]",
    '[1.000000000000000000000001, 3.14159265358979323846264338327950288, 1' + "0" * 30 + "]",
]


def recorder():
    """Hooks that log each call (kind and argument) and return a tagged value."""
    log = []

    def object_hook(d):
        log.append(("object_hook", dict(d)))
        return ("O", d)

    def object_pairs_hook(pairs):
        log.append(("object_pairs_hook", list(pairs), type(pairs).__name__))
        return ("P", pairs)

    def parse_float(s):
        log.append(("parse_float", s, type(s).__name__))
        return ("F", s)

    def parse_int(s):
        log.append(("parse_int", s, type(s).__name__))
        return ("I", s)

    def parse_constant(s):
        log.append(("parse_constant", s, type(s).__name__))
        return ("C", s)

    hooks = {"object_hook": object_hook, "object_pairs_hook": object_pairs_hook,
             "parse_float": parse_float, "parse_int": parse_int,
             "parse_constant": parse_constant}
    return log, hooks


HOOK_SETS = [
    ("object_hook",),
    ("object_pairs_hook",),
    ("object_hook", "object_pairs_hook"),
    ("parse_float",),
    ("parse_int",),
    ("parse_constant",),
    ("object_hook", "parse_float", "parse_int", "parse_constant"),
    ("object_pairs_hook", "parse_float", "parse_int", "parse_constant", "object_hook"),
]


def compare_with_hooks(data, names, what=""):
    json_log, json_hooks = recorder()
    jet_log, jet_hooks = recorder()
    oracle_input = data.tobytes() if isinstance(data, memoryview) else data
    exp = capture(json.loads, oracle_input, **{n: json_hooks[n] for n in names})
    got = capture(jetjson.loads, data, **{n: jet_hooks[n] for n in names})
    assert_same_outcome(got, exp, f"{what} with {names}", jetjson)
    assert_same_value(jet_log, json_log, f"hook calls {what} with {names}")
    return json_log


@pytest.mark.parametrize("names", HOOK_SETS, ids=["+".join(n) for n in HOOK_SETS])
def test_recorded_hooks(names):
    any_calls = False
    for doc in DOCS:
        for data in (doc, doc.encode(), memoryview(doc.encode())):
            log = compare_with_hooks(data, names, repr(doc[:40]))
            any_calls = any_calls or bool(log)
    assert any_calls  # the documents exercise these hooks


@pytest.mark.parametrize("kw", [
    {"object_pairs_hook": collections.OrderedDict},
    {"object_hook": collections.OrderedDict},
    {"object_pairs_hook": list},
    {"object_pairs_hook": tuple},
    {"object_hook": lambda d: sorted(d.items())},
    {"object_hook": lambda d: None},
    {"parse_float": decimal.Decimal},
    {"parse_float": str},
    {"parse_float": float},
    {"parse_int": str},
    {"parse_int": float},
    {"parse_int": decimal.Decimal},
    {"parse_int": int},
    {"parse_constant": str},
    {"parse_constant": decimal.Decimal},
    {"parse_constant": lambda c: {"NaN": 0, "Infinity": 1, "-Infinity": -1}[c]},
    {"parse_float": decimal.Decimal, "parse_int": str, "object_pairs_hook": collections.OrderedDict},
    {"object_hook": None, "object_pairs_hook": None, "parse_float": None, "parse_int": None,
     "parse_constant": None, "cls": None},
    {"strict": True},
    {"strict": False},
], ids=lambda kw: ",".join(f"{k}={getattr(v, '__name__', v)}" for k, v in kw.items()))
def test_common_hook_values(kw):
    for doc in DOCS:
        for data in (doc, doc.encode(), bytearray(doc.encode()), memoryview(doc.encode())):
            assert_same_outcome(capture(jetjson.loads, data, **kw), json_oracle(data, **kw),
                                repr(doc[:40]), jetjson)


def test_decimal_keeps_exact_text():
    text = "[1.10, 1.100, -0.0, 1E400, 1e-400, 0.30000000000000000000001, 2.5e+3]"
    got = jetjson.loads(text, parse_float=decimal.Decimal)
    assert_same_value(got, json.loads(text, parse_float=decimal.Decimal))
    assert [str(x) for x in got] == ["1.10", "1.100", "-0.0", "1E+400", "1E-400",
                                     "0.30000000000000000000001", "2.5E+3"]


def test_parse_int_gets_exact_text():
    text = "[-0, 0, 007]"
    assert_same_outcome(capture(jetjson.loads, text, parse_int=str),
                        json_oracle(text, parse_int=str), text, jetjson)
    text = "[-0, 0, 18446744073709551616, -9223372036854775808]"
    assert jetjson.loads(text, parse_int=str) == ["-0", "0", "18446744073709551616",
                                                  "-9223372036854775808"]


def test_object_pairs_hook_sees_duplicates_and_order():
    text = '{"b": 1, "a": 2, "b": 3, "": 4}'
    got = jetjson.loads(text, object_pairs_hook=lambda pairs: pairs)
    assert_same_value(got, json.loads(text, object_pairs_hook=lambda pairs: pairs))
    assert got == [("b", 1), ("a", 2), ("b", 3), ("", 4)]


def test_empty_object_calls_hooks():
    for kw in ({"object_hook": lambda d: ("hooked", d)},
               {"object_pairs_hook": lambda p: ("paired", p)}):
        assert_same_value(jetjson.loads("[{}, {}]", **kw), json.loads("[{}, {}]", **kw))


STRICT_DOCS = ['"a\tb"', '"\x00"', '["\x1f", "\n", "\r"]', '{"k\x01": "v\x7f"}',
               '"' + "".join(chr(c) for c in range(32)) + '"', '"\\u0000\x00"',
               '[1,\x00 2]', '\x0b1', '"' + "x" * 70 + "\x01" + "y" * 70 + '"']


@pytest.mark.parametrize("strict", [False, True, None])
def test_strict_control_characters(strict):
    kw = {} if strict is None else {"strict": strict}
    for doc in STRICT_DOCS:
        for data in (doc, doc.encode(), memoryview(doc.encode())):
            assert_same_outcome(capture(jetjson.loads, data, **kw), json_oracle(data, **kw),
                                repr(doc), jetjson)
    # with strict=False the control characters really come through
    if strict is False:
        assert jetjson.loads('"a\x00\x1fb"', strict=False) == "a\x00\x1fb"


# --------------------------------------------------------------------------------------
# Hooks that raise, and hooks that return odd values
# --------------------------------------------------------------------------------------
class Boom(Exception):
    pass


def raising(kind):
    def hook(*args):
        raise Boom(f"{kind} refused {args[0]!r}")
    return hook


@pytest.mark.parametrize("name", ["object_hook", "object_pairs_hook", "parse_float",
                                  "parse_int", "parse_constant"])
def test_hook_exceptions_propagate(name):
    doc = '[1, 2.5, {"a": NaN}, {"b": [3]}]'
    for data in (doc, doc.encode()):
        exp = capture(json.loads, data, **{name: raising(name)})
        got = capture(jetjson.loads, data, **{name: raising(name)})
        assert isinstance(exp, Raised) and type(exp.exc) is Boom
        assert_same_outcome(got, exp, name, jetjson)
    # and the module still works afterwards
    assert_same_value(jetjson.loads(doc), json.loads(doc))


def test_hook_raising_value_error_is_not_wrapped():
    def bad(_):
        raise ValueError("hook says no")
    for kw in ({"object_hook": bad}, {"parse_float": bad}, {"parse_int": bad}):
        exp = capture(json.loads, '[{"a": 1.5, "b": 2}]', **kw)
        got = capture(jetjson.loads, '[{"a": 1.5, "b": 2}]', **kw)
        assert_same_outcome(got, exp, str(kw), jetjson)
        assert type(got.exc) is ValueError  # not turned into a JSONDecodeError


# --------------------------------------------------------------------------------------
# cls
# --------------------------------------------------------------------------------------
class WrappingDecoder(json.JSONDecoder):
    def __init__(self, **kw):
        kw.setdefault("object_hook", lambda d: {"wrapped": d})
        super().__init__(**kw)


class DecodeOverride(json.JSONDecoder):
    seen = []

    def decode(self, s, *args, **kwargs):
        type(self).seen.append((type(s).__name__, s))
        return ["decoded", super().decode(s, *args, **kwargs)]


class KwargsRecorder(json.JSONDecoder):
    def __init__(self, **kw):
        self.seen_kw = sorted(kw)
        kw.pop("extra", None)
        super().__init__(**kw)

    def decode(self, s, *args, **kwargs):
        return {"kw": self.seen_kw, "value": super().decode(s, *args, **kwargs)}


CLS_DOCS = ['{"a": [1, 2.5, {"b": null}]}', "[NaN, 1e400]", '"\u00e9"', "[1, 2,]", "",
            '{"a" 1}', "\ufeff[1]"]


@pytest.mark.parametrize("cls", [json.JSONDecoder, WrappingDecoder, DecodeOverride,
                                 KwargsRecorder])
@pytest.mark.parametrize("extra_kw", [{}, {"parse_float": decimal.Decimal},
                                      {"object_pairs_hook": list, "strict": False}])
def test_cls(cls, extra_kw):
    kw = dict(extra_kw, cls=cls)
    if cls is KwargsRecorder:
        kw["extra"] = 1
    for doc in CLS_DOCS:
        datas = [doc] + ([doc.encode(), bytearray(doc.encode())] if doc[:1] != "\ufeff" else [])
        for data in datas:
            DecodeOverride.seen.clear()
            exp = capture(json.loads, data, **kw)
            json_seen = list(DecodeOverride.seen)
            DecodeOverride.seen.clear()
            got = capture(jetjson.loads, data, **kw)
            # errors come from the user's decoder class here, so their type is json's own
            assert_same_outcome(got, exp, f"{doc!r} cls={cls.__name__}", jetjson,
                                exact_decode_type=False)
            assert DecodeOverride.seen == json_seen  # decode() got the same decoded str


def test_cls_gets_memoryview_as_decoded_str():
    DecodeOverride.seen.clear()
    got = jetjson.loads(memoryview(b'{"x": "\xc3\xa9"}'), cls=DecodeOverride)
    assert got == ["decoded", {"x": "\u00e9"}]
    assert DecodeOverride.seen == [("str", '{"x": "\u00e9"}')]


# --------------------------------------------------------------------------------------
# Generated documents with every hook
# --------------------------------------------------------------------------------------
leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5))
docs = st.recursive(leaf, lambda c: st.one_of(st.lists(c, max_size=4),
                                              st.dictionaries(st.text(max_size=3), c,
                                                              max_size=4)),
                    max_leaves=15)


@hyp_settings(300)
@given(doc=docs, names=st.sampled_from(HOOK_SETS), as_bytes=st.booleans())
def test_generated_documents_with_hooks(doc, names, as_bytes):
    text = json.dumps(doc)
    compare_with_hooks(text.encode() if as_bytes else text, names, "generated")
