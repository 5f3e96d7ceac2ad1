"""Lifetime of parse's documents and views: views outlive the call, their root, other
parses, release() and the garbage collector; threads share them; no leaks (refcounts and
tracemalloc) on success and error paths; match statements."""

import gc
import sys
import threading

import pytest

import jetjson

try:
    from conftest import corpus_files, read_bytes, traced_growth
    from parse_check import check_view, oracle, plain
except ImportError:  # tests/ turned into a package
    from .conftest import corpus_files, read_bytes, traced_growth
    from .parse_check import check_view, oracle, plain

DOC = '{"users": [{"id": 1, "name": "ann", "tags": ["a", "b"]}, {"id": 2, "name": "bob", "tags": []}],' \
      ' "meta": {"count": 2, "ok": true, "ratio": 0.5, "note": "caf\u00e9"}}'


def test_children_outlive_root_and_other_parses():
    root = jetjson.parse(DOC.encode())
    users, meta = root["users"], root["meta"]
    del root
    gc.collect()
    for _ in range(50):  # the thread parser's buffers are reused meanwhile
        jetjson.parse(b'[' + b'"xxxxxxxx\\n", ' * 100 + b'1]')
        jetjson.loads(DOC)
    jetjson.release()
    gc.collect()
    exp = oracle(DOC)
    check_view(users, exp[0][1])
    check_view(meta, exp[1][1])
    it = iter(users[1].items())
    del users
    gc.collect()
    assert list(it) == [("id", 2), ("name", "bob"), ("tags", [])]


@pytest.mark.parametrize("kind", [bytes, bytearray, str, memoryview])
def test_input_kinds_outlive_their_object(kind):
    data = DOC if kind is str else kind(DOC.encode())
    root = jetjson.parse(data)
    del data
    gc.collect()
    jetjson.parse("[" + '"\u20ac\u20ac\u20ac\u20ac", ' * 50 + "0]")  # non-ASCII str scratch reused
    assert root == jetjson.loads(DOC)


def test_refcounts():
    data = DOC.encode()
    before = sys.getrefcount(data)
    root = jetjson.parse(data)
    assert sys.getrefcount(data) == before + 1  # the document keeps the bytes
    users = root["users"]
    del root
    assert sys.getrefcount(data) == before + 1
    del users
    assert sys.getrefcount(data) == before
    text = DOC.replace("\u00e9", "\\u00e9")
    assert text.isascii()
    before = sys.getrefcount(text)
    root = jetjson.parse(text)
    assert sys.getrefcount(text) == before + 1
    del root
    assert sys.getrefcount(text) == before
    bad = b'{"a": [1, }'
    before = sys.getrefcount(bad)
    for _ in range(10):
        with pytest.raises(jetjson.JSONDecodeError):
            jetjson.parse(bad)
    assert sys.getrefcount(bad) == before
    key = "name"
    before = sys.getrefcount(key)
    root = jetjson.parse(DOC)
    for _ in range(10):
        root["users"][0][key], root["users"][0].get(key), key in root["meta"]
        with pytest.raises(KeyError):
            root["meta"][key]
    assert sys.getrefcount(key) == before


def walk(view):
    """Reads everything through the views (every accessor that builds something)."""
    stack = [view]
    while stack:
        v = stack.pop()
        if isinstance(v, jetjson.Object):
            list(v.items()), list(v.keys()), v.as_dict(), v == {}, "x" in v, v.get("x")
            for k in v:
                stack.append(v[k])
        elif isinstance(v, jetjson.Array):
            v.as_list(), v[::-1], v[:3], v == []
            stack.extend(v)
            if len(v):
                v[-1], v.at_pointer("/0")


def test_no_leaks_corpus():
    files = [p for p in corpus_files() if not p.endswith(("canada.json", "mesh.json", "numbers.json",
                                                         "mesh.pretty.json", "marine_ik.json"))][:8]
    datas = [read_bytes(p) for p in files]
    if not datas:
        pytest.skip("no corpus")

    def run():
        for d in datas:
            walk(jetjson.parse(d))
    assert traced_growth(run, 3) < 64 * 1024


def test_no_leaks_errors():
    def run():
        for bad in (b'{"a": [1, }', "[\u20ac, 1", bytearray(b'{"x"'), b"\xff", "{}x"):
            try:
                jetjson.parse(bad)
            except ValueError:
                pass
        root = jetjson.parse(DOC)
        for ptr in ("/nope", "/users/9", "/users/0/id/x", "~"):
            try:
                root.at_pointer(ptr)
            except (KeyError, IndexError, TypeError, ValueError):
                pass
        try:
            root["users"][5]
        except IndexError:
            pass
    assert traced_growth(lambda: [run() for _ in range(50)], 4) < 16 * 1024


def test_threads_share_views():
    raw = read_bytes(corpus_files()[0]) if corpus_files() else DOC.encode()
    root = jetjson.parse(raw)
    expected = jetjson.loads(raw)
    errors = []
    start = threading.Barrier(8)

    def reader(n):
        try:
            start.wait()
            for _ in range(20):
                assert root == expected
                walk(root)
                jetjson.parse(DOC)  # each thread parses too, with its own parser
                if n % 2:
                    jetjson.release()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=reader, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_threads_share_lookup_tables():
    n = 3000
    obj = jetjson.parse("{" + ",".join(f'"k{i}": {i}' for i in range(n)) + "}")
    arr = jetjson.parse("[" + ",".join(str(i) for i in range(n)) + "]")
    errors = []

    def reader(offset):
        try:
            for i in range(n):
                j = (i * 7 + offset) % n
                assert obj[f"k{j}"] == j and arr[j] == j and arr[j - n] == j
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=reader, args=(i * 101,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_match_statements():
    root = jetjson.parse(DOC)
    match root:
        case {"users": [{"id": first_id, "name": str(name)}, *rest], "meta": {"ok": True, **others}}:
            pass
        case _:
            pytest.fail("mapping pattern did not match")
    assert first_id == 1 and name == "ann" and len(rest) == 1 and rest[0] == plain(oracle(DOC))["users"][1]
    assert others == {"count": 2, "ratio": 0.5, "note": "caf\u00e9"}
    match root["users"][0]["tags"]:
        case [a, b]:
            assert (a, b) == ("a", "b")
        case _:
            pytest.fail("sequence pattern did not match")
    match root["meta"]:
        case [*_]:
            pytest.fail("an Object is not a sequence")
        case {"missing": _}:
            pytest.fail("no such key")
        case {"count": 2}:
            pass
        case _:
            pytest.fail("no match")


class Reparser:
    """A finalizer that parses on this thread: run by a collection in the middle of
    another parse, it must not disturb that parse's tape."""

    def __del__(self):
        jetjson.loads(b'["other", {"doc": [1, 2, 3]}, "' + b"y" * 200 + b'"]')
        jetjson.parse('{"third": ["\u20ac", 7]}')
        jetjson.release()


def test_collections_during_parse():
    """Documents freed by the GC while another parse is under way (buffers given back to
    the thread's parser only when it has none)."""
    old = gc.get_threshold()
    gc.set_threshold(1, 1, 1)
    try:
        keep = []
        for i in range(300):
            root = jetjson.parse(DOC if i % 3 else DOC.encode())
            cycle = [root, Reparser()]
            cycle.append(cycle)  # only the GC frees this one, at some later allocation
            keep.append(root["users"][i % 2])
            if len(keep) > 5:
                keep.pop(0)
            for k in keep:
                assert k["id"] in (1, 2) and k == plain(oracle(DOC))["users"][k["id"] - 1]
    finally:
        gc.set_threshold(*old)


def test_parse_file_errors(tmp_path):
    missing = tmp_path / "missing.json"
    for fn in (jetjson.parse_file, jetjson.load_file):
        with pytest.raises(FileNotFoundError):
            fn(missing)
        with pytest.raises(IsADirectoryError):
            fn(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"a": [1, }')
    with pytest.raises(jetjson.JSONDecodeError) as a:
        jetjson.parse_file(bad)
    with pytest.raises(jetjson.JSONDecodeError) as b:
        jetjson.load_file(bad)
    assert (a.value.msg, a.value.pos) == (b.value.msg, b.value.pos)
    good = tmp_path / "good.json"
    good.write_text(DOC, encoding="utf-8")
    root = jetjson.parse_file(str(good))
    good.unlink()
    assert root == jetjson.loads(DOC)


def test_finalizer_parsing_during_parse():
    """The first GC allocation inside parse() runs a collection whose finalizer parses on
    this thread: the threshold is set to the current count, so the next tracked object
    made (the document) crosses it."""
    old = gc.get_threshold()
    data = DOC.encode()
    expected = jetjson.loads(data)
    try:
        for form in (data, DOC, bytearray(data)):
            gc.collect()
            cycle = [Reparser()]
            cycle.append(cycle)
            del cycle
            n = gc.get_count()[0]
            gc.set_threshold(n, 1, 1)
            root = jetjson.parse(form)
            gc.set_threshold(*old)
            assert root == expected
    finally:
        gc.set_threshold(*old)
