"""Module surface used by loads: JSONDecodeError, release(), features() and the
JETJSON_FORCE_ISA kernel override (checked in subprocesses for every ISA)."""

import json
import os
import subprocess
import sys
import textwrap
import threading

import pytest

import jetjson

try:
    from conftest import DATA_DIR, assert_same_value, corpus_files, read_bytes
except ImportError:  # tests/ turned into a package
    from .conftest import DATA_DIR, assert_same_value, corpus_files, read_bytes


def test_json_decode_error_is_exported():
    assert hasattr(jetjson, "JSONDecodeError")
    assert issubclass(jetjson.JSONDecodeError, json.JSONDecodeError)
    assert issubclass(jetjson.JSONDecodeError, ValueError)
    assert jetjson.JSONDecodeError is not json.JSONDecodeError


def test_json_decode_error_is_raised_and_catchable():
    with pytest.raises(json.JSONDecodeError) as info:
        jetjson.loads("[1, 2")
    assert type(info.value) is jetjson.JSONDecodeError
    try:
        jetjson.loads("{")
    except ValueError as e:
        assert isinstance(e, jetjson.JSONDecodeError)
    else:
        pytest.fail("no exception")


def test_entry_points_exist():
    for name in ("loads", "load", "load_file", "release", "features", "JSONDecodeError"):
        assert callable(getattr(jetjson, name)), name


# --------------------------------------------------------------------------------------
# release()
# --------------------------------------------------------------------------------------
def test_release_then_loads_still_works():
    big = json.dumps([{"k": i, "s": "x" * 50, "f": i / 7} for i in range(20000)])
    expected = json.loads(big)
    assert_same_value(jetjson.loads(big), expected)
    jetjson.release()
    assert_same_value(jetjson.loads(big), expected, "after release()")
    jetjson.release()
    jetjson.release()  # twice in a row is fine
    assert jetjson.loads(b"[1, 2.5]") == [1, 2.5]
    jetjson.release()
    with pytest.raises(json.JSONDecodeError):
        jetjson.loads("[1,")
    jetjson.release()
    assert jetjson.loads("{}") == {}


def test_release_before_any_loads_in_a_new_thread():
    results = []

    def work():
        try:
            jetjson.release()
            results.append(jetjson.loads('{"t": [1]}'))
            jetjson.release()
            results.append(jetjson.loads('"again"'))
        except BaseException as e:  # noqa: BLE001
            results.append(e)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert results == [{"t": [1]}, "again"]


def test_release_between_corpus_files():
    files = corpus_files()
    if not files:
        pytest.skip("test data not found: <repo>/data or $JETJSON_DATA")
    for path in files[:8]:
        data = read_bytes(path)
        assert_same_value(jetjson.loads(data), json.loads(data), path)
        jetjson.release()


# --------------------------------------------------------------------------------------
# features() and JETJSON_FORCE_ISA
# --------------------------------------------------------------------------------------
def test_features():
    feats = jetjson.features()
    assert isinstance(feats, dict)
    assert isinstance(feats["isa"], str) and feats["isa"]
    forced = os.environ.get("JETJSON_FORCE_ISA")
    if forced:
        assert feats["isa"] == forced
    available = feats.get("available_isas", [])
    assert isinstance(available, (list, tuple))
    assert all(isinstance(x, str) and x for x in available)
    if available:
        assert feats["isa"] in available


ISA_SCRIPT = textwrap.dedent(r"""
    import io, json, os, pickle, sys
    import jetjson

    def fp(v):
        buf = io.BytesIO()
        p = pickle.Pickler(buf, protocol=4)
        p.fast = True
        p.dump(v)
        return buf.getvalue()

    def outcome(fn, data):
        try:
            return ("ok", fp(fn(data)))
        except json.JSONDecodeError as e:
            return ("decode", e.msg, e.pos, e.lineno, e.colno)
        except RecursionError:
            return ("RecursionError",)  # which container hit the limit depends on the stack
        except Exception as e:
            return (type(e).__name__, str(e))

    problems = []
    isa = jetjson.features()["isa"]
    if isa != os.environ["JETJSON_FORCE_ISA"]:
        problems.append(f"features()['isa'] is {isa!r}")
    docs = [
        '{"a": [1, 2.5, -0.0, 1e400, NaN, "\u00e9\U0001f600", null, true, false]}',
        '["' + "x" * 100 + '\\n' + "y" * 100 + '\\u00e9\\ud83d\\ude00"]',
        "[" + ",".join(str(i * 7919) for i in range(2000)) + "]",
        '{"' + "k" * 63 + '": "' + "\\\\" * 64 + '"}',
        "[1, 2,]", '{"a" 1}', '["\\x"]', "[" * 100000, "", " " * 200 + "[]" + " " * 200,
    ]
    docs = [d.encode() for d in docs] + [b'["\xff"]', b'["\xc3\xa9' + b"a" * 70 + b'\xe2"]']
    data_dir = sys.argv[1] if len(sys.argv) > 1 else ""
    if data_dir:
        folder = os.path.join(data_dir, "corpus")
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json"):
                with open(os.path.join(folder, name), "rb") as f:
                    docs.append(f.read())
        folder = os.path.join(data_dir, "JSONTestSuite", "test_parsing")
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), "rb") as f:
                docs.append(f.read())
    for i, d in enumerate(docs):
        forms = [d, bytearray(d), memoryview(d)]
        try:
            forms.append(d.decode("utf-8", "surrogatepass"))
        except UnicodeDecodeError:
            pass
        for form in forms:
            exp = outcome(json.loads, bytes(form) if isinstance(form, memoryview) else form)
            got = outcome(jetjson.loads, form)
            if got != exp:
                problems.append(f"doc {i} ({type(form).__name__}): {got[:2]!r:.200} != {exp[:2]!r:.200}")
    print("CHECKED", len(docs), "ISA", isa, "FILE", jetjson.__file__)
    for p in problems[:20]:
        print("PROBLEM", p)
    sys.exit(1 if problems else 0)
""")


def isas_to_check():
    isas = ["scalar"]
    for isa in jetjson.features().get("available_isas", []) or []:
        if isa not in isas:
            isas.append(isa)
    return isas


def run_with_isa(isa):
    env = dict(os.environ)
    env["JETJSON_FORCE_ISA"] = isa
    # the child must import the same jetjson as this process
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    args = [sys.executable, "-c", ISA_SCRIPT]
    try:
        ok = DATA_DIR is not None and os.path.isdir(os.path.join(DATA_DIR, "corpus")) \
            and os.path.isdir(os.path.join(DATA_DIR, "JSONTestSuite", "test_parsing"))
    except TypeError:
        ok = False
    if ok:
        args.append(DATA_DIR)
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("isa", isas_to_check())
def test_forced_isa_in_subprocess(isa):
    proc = run_with_isa(isa)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"JETJSON_FORCE_ISA={isa}: exit {proc.returncode}\n{out[-3000:]}"
    assert f"ISA {isa} " in proc.stdout, out[-2000:]
    assert f"FILE {jetjson.__file__}" in proc.stdout, out[-2000:]
