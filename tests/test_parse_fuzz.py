"""Hypothesis documents: parse's views against json.loads, and parse's errors against
loads' on mutated documents."""

import json

from hypothesis import given
from hypothesis import strategies as hs

import jetjson

try:
    from conftest import Raised, assert_same_outcome, capture, hyp_settings, json_oracle
    from parse_check import check_parse
except ImportError:  # tests/ turned into a package
    from .conftest import Raised, assert_same_outcome, capture, hyp_settings, json_oracle
    from .parse_check import check_parse

scalars = (hs.none() | hs.booleans() | hs.integers(-(2 ** 70), 2 ** 70)
           | hs.floats(allow_nan=False) | hs.text(max_size=12))
keys = hs.text(max_size=6) | hs.sampled_from(["a", "b", "id", "\ud800", "é", "k" * 20])


def to_text(tree, draw_space):
    """JSON text of a tree where objects are lists of pairs (so keys may repeat)."""
    sp = draw_space
    if isinstance(tree, tuple):  # an object: a tuple of (key, value) pairs
        body = ",".join(f"{sp()}{json.dumps(k)}{sp()}:{sp()}{to_text(v, sp)}" for k, v in tree)
        return "{" + body + sp() + "}"
    if isinstance(tree, list):
        return "[" + ",".join(sp() + to_text(v, sp) for v in tree) + sp() + "]"
    return json.dumps(tree, ensure_ascii=False)


trees = hs.recursive(
    scalars,
    lambda kids: hs.lists(kids, max_size=20) | hs.lists(hs.tuples(keys, kids), max_size=20).map(tuple),
    max_leaves=60)


@hyp_settings(150)
@given(trees, hs.randoms(use_true_random=False), hs.sampled_from(["str", "bytes", "bytearray"]))
def test_documents(tree, rnd, form):
    text = to_text(tree, lambda: rnd.choice(["", "", " ", "\n", "\t "]))
    if form == "str":
        data = text
    else:
        raw = text.encode("utf-8", "surrogatepass")
        data = raw if form == "bytes" else bytearray(raw)
    if isinstance(jetjson.parse(data), (jetjson.Object, jetjson.Array)):
        check_parse(data)
    else:
        assert_same_outcome(capture(jetjson.parse, data), json_oracle(data), text, jetjson)


@hyp_settings(200)
@given(trees, hs.integers(0, 10 ** 6), hs.sampled_from(list(b'{}[],:"\\ 0a-.e\x00\xff')))
def test_mutated_documents(tree, where, byte):
    raw = bytearray(to_text(tree, lambda: " ").encode("utf-8", "surrogatepass"))
    if raw:
        raw[where % len(raw)] = byte
    data = bytes(raw)
    exp = json_oracle(data)
    got = capture(jetjson.parse, data)
    if isinstance(exp, Raised) or not isinstance(got, (jetjson.Object, jetjson.Array)):
        assert_same_outcome(got, exp, repr(data), jetjson)
    else:
        check_parse(data)
