"""`import jetjson` stays cheap: json, re, enum, collections, typing (and the rest of
what a call may need) are imported when a call first needs them, not at import.

Each check runs in a fresh interpreter started with -S (no site: nothing but the
interpreter's own start-up modules is loaded before jetjson), so the modules that
`import jetjson` adds are exactly the difference of sys.modules. json itself is the
oracle for what the lazily made JSONDecodeError must be.
"""

import json
import os
import subprocess
import sys
import textwrap
import tracemalloc

import pytest

import jetjson

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(jetjson.__file__)))

# costly at import, and needed only by some calls (json: fallbacks and errors; enum:
# members reach dumpb only once enum is imported; typing: annotations only)
DEFERRED = ["json", "json.decoder", "json.encoder", "json.scanner", "re", "enum", "collections",
            "collections.abc", "typing", "datetime", "decimal", "uuid", "dataclasses", "mmap",
            "functools", "inspect", "numpy", "typing_extensions", "dask", "distributed", "pandas",
            "pyarrow"]


def run_fresh(code):
    """Run code in a fresh `python -S` that can import this jetjson; the `result` it sets
    (json is imported only after the code has run)."""
    prelude = f"import sys\nsys.path.insert(0, {PACKAGE_PARENT!r})\nbefore = set(sys.modules)\n"
    epilogue = "\nimport json\nprint(json.dumps(result))\n"
    r = subprocess.run([sys.executable, "-S", "-c", prelude + textwrap.dedent(code) + epilogue],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.splitlines()[-1])


def test_import_loads_nothing_deferred():
    added = run_fresh("""
        import jetjson
        result = sorted(set(sys.modules) - before)
    """)
    assert "jetjson" in added
    assert not set(added) & set(DEFERRED), added


def test_fast_paths_load_nothing_deferred():
    # the common calls, on valid input and plain types, still need none of them
    added = run_fresh("""
        import jetjson
        doc = b'{"a": [1, 2.5, "x", null, true], "b": {"c": "\\\\u00e9"}}'
        v = jetjson.loads(doc)
        assert jetjson.loads(doc.decode()) == v
        assert jetjson.loads(jetjson.dumps(v)) == v and jetjson.loads(jetjson.dumpb(v)) == v
        assert jetjson.dumps(v, indent=2, sort_keys=True).startswith("{")
        jetjson.parse(doc)["a"]; jetjson.get(doc, "/a/0"); jetjson.valid(doc); jetjson.minify(doc)
        list(jetjson.loads_many(doc + b"\\n" + doc))
        result = sorted(set(sys.modules) - before)
    """)
    assert not set(added) & set(DEFERRED), added


def test_decode_error_made_on_first_error():
    # in a process where json was never imported, the first error makes the class; it is
    # json's subclass, the same object the module gives, with json's message and fields
    result = run_fresh("""
        import jetjson
        had_json = "json" in sys.modules
        try:
            jetjson.loads(b'[1, 2')
        except jetjson.JSONDecodeError as e:
            import json
            raised = e
        out = [had_json, type(raised) is jetjson.JSONDecodeError,
               issubclass(jetjson.JSONDecodeError, json.JSONDecodeError),
               jetjson.JSONDecodeError.__module__, raised.msg, raised.pos, raised.lineno, raised.colno,
               "JSONDecodeError" in dir(jetjson), "JSONDecodeError" in jetjson.__all__]
        from jetjson import JSONDecodeError
        out.append(JSONDecodeError is type(raised))
        result = out
    """)
    try:
        json.loads(b"[1, 2")
    except json.JSONDecodeError as e:
        expected = [e.msg, e.pos, e.lineno, e.colno]
    assert result == [False, True, True, "jetjson", *expected, True, True, True]


def test_decode_error_first_touched_by_name():
    # the other order: the class is asked for before any error, then raised
    result = run_fresh("""
        import jetjson
        cls = jetjson.JSONDecodeError
        try:
            jetjson.loads("{")
        except cls as e:
            same = type(e) is cls
        result = same and "json" in sys.modules
    """)
    assert result is True


def test_decode_error_first_made_by_threads_at_once():
    # threads meeting their first error together (json's import lets them interleave)
    # all raise the one class the module gives
    result = run_fresh("""
        import threading
        import jetjson
        start = threading.Barrier(8)
        seen = []
        def fail():
            start.wait()
            try:
                jetjson.loads(b"[1,")
            except ValueError as e:
                seen.append(type(e))
        threads = [threading.Thread(target=fail) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        result = [len(seen), all(t is jetjson.JSONDecodeError for t in seen)]
    """)
    assert result == [8, True]


def test_json_fallbacks_after_lazy_import():
    # calls that are json's to do (keywords the engine leaves to json, a cls) import it
    result = run_fresh("""
        import jetjson
        a = jetjson.loads(b'{"a": 1.5}', parse_float=str)
        import json
        class Enc(json.JSONEncoder):
            def default(self, o):
                return sorted(o)
        b = jetjson.dumps({3, 1}, cls=Enc)
        try:
            jetjson.dumps(object())
            c = None
        except TypeError as e:
            c = str(e)
        result = [a, b, c]
    """)
    try:
        json.dumps(object())
    except TypeError as e:
        message = str(e)
    assert result == [{"a": "1.5"}, "[1, 3]", message]


def test_enum_members_after_lazy_enum():
    # enum is not imported by jetjson; members made afterwards still serialize as orjson does
    orjson = pytest.importorskip("orjson")
    result = run_fresh("""
        import jetjson
        no_enum = "enum" not in sys.modules
        out = jetjson.dumpb({1: 2}, option=jetjson.OPT_NON_STR_KEYS)
        import enum, json
        class Color(enum.Enum):
            RED = "red"
        class Size(enum.IntEnum):
            BIG = 9
        docs = [jetjson.dumpb([Color.RED, Size.BIG]), jetjson.dumpb({Color.RED: 1}, option=jetjson.OPT_NON_STR_KEYS),
                jetjson.canonical({"c": Color.RED}), jetjson.dumps([Size.BIG])]
        result = [no_enum, out.decode()] + [d if isinstance(d, str) else d.decode() for d in docs]
    """)
    import enum

    class Color(enum.Enum):
        RED = "red"

    class Size(enum.IntEnum):
        BIG = 9

    assert result == [True, orjson.dumps({1: 2}, option=orjson.OPT_NON_STR_KEYS).decode(),
                      orjson.dumps([Color.RED, Size.BIG]).decode(),
                      orjson.dumps({Color.RED: 1}, option=orjson.OPT_NON_STR_KEYS).decode(),
                      '{"c":"red"}', json.dumps([Size.BIG])]


def test_missing_attribute():
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        jetjson.nope  # noqa: B018


def test_decode_error_type_refcounts():
    from jetjson._jetjson import _decode_error_type

    cls = _decode_error_type()
    assert cls is jetjson.JSONDecodeError
    before = sys.getrefcount(cls)
    tracemalloc.start()
    for _ in range(200):
        assert _decode_error_type() is cls
    grown = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert sys.getrefcount(cls) == before
    assert grown < 10_000
