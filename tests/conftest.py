"""Shared helpers for the jetjson.loads / load / load_file test suites.

The standard library's ``json`` module is the oracle: every test parses the same input
with both and requires the same outcome (same value with the same types, or the same
exception).

Test modules import the helpers below with ``from conftest import ...`` (pytest's default
"prepend" import mode puts this directory on ``sys.path``).
"""

import json
import math
import os
import re
import struct

import pytest

try:  # hypothesis is a test dependency; keep the helpers importable without it.
    from hypothesis import HealthCheck, settings
except ImportError:  # pragma: no cover
    HealthCheck = settings = None

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_DIR = os.path.dirname(TESTS_DIR)


# --------------------------------------------------------------------------------------
# Test data directory
# --------------------------------------------------------------------------------------
def find_data_dir():
    """The test data folder: $JETJSON_DATA, else <repo>/data (carried in the repository);
    None if absent."""
    env = os.environ.get("JETJSON_DATA")
    if env:
        path = env if os.path.isabs(env) else os.path.join(TESTS_DIR, env)
        return path if os.path.isdir(path) else None
    path = os.path.join(REPO_DIR, "data")
    return path if os.path.isdir(path) else None


DATA_DIR = find_data_dir()


def data_path(*parts):
    """Path of a folder/file in the data dir, or None when the data dir is absent."""
    if DATA_DIR is None:
        return None
    return os.path.join(DATA_DIR, *parts)


def list_data_files(subdir, prefixes=None, suffix=".json"):
    """Sorted file names in <data>/<subdir> (empty when missing)."""
    folder = data_path(subdir)
    if folder is None or not os.path.isdir(folder):
        return []
    names = sorted(
        n for n in os.listdir(folder)
        if n.endswith(suffix) and os.path.isfile(os.path.join(folder, n))
    )
    if prefixes:
        names = [n for n in names if n.startswith(tuple(prefixes))]
    return names


# Under the sanitizers (JETJSON_SANITIZED: CI's run against the ASan+UBSan extension) the
# per-file tests skip the data files above this size: each costs minutes there, and the
# sanitized C tests have already run every corpus file through the engine.
SANITIZED_MAX_BYTES = 2_000_000


def too_big_for_this_run(path):
    return bool(os.environ.get("JETJSON_SANITIZED")) and os.path.getsize(path) > SANITIZED_MAX_BYTES


def data_params(subdir, prefixes=None, suffix=".json"):
    """pytest params (one per file, id = file name); a single skipped param without data."""
    names = list_data_files(subdir, prefixes, suffix)
    if not names:
        return [pytest.param(None, marks=pytest.mark.skip(
            reason=f"test data not found ({subdir}): <repo>/data or $JETJSON_DATA"))]
    params = []
    for n in names:
        path = os.path.join(data_path(subdir), n)
        marks = [pytest.mark.skip(reason="large file, skipped under the sanitizers")] \
            if too_big_for_this_run(path) else []
        params.append(pytest.param(path, id=n, marks=marks))
    return params


_BYTES_CACHE = {}


def read_bytes(path):
    """File content as bytes (cached; the data files are read-only)."""
    data = _BYTES_CACHE.get(path)
    if data is None:
        with open(path, "rb") as f:
            data = f.read()
        _BYTES_CACHE[path] = data
    return data


@pytest.fixture(scope="session")
def data_dir():
    """The test data dir; skips the test when it is absent."""
    if DATA_DIR is None:
        pytest.skip("test data not found: <repo>/data or $JETJSON_DATA")
    return DATA_DIR


def corpus_files():
    paths = [os.path.join(data_path("corpus"), n) for n in list_data_files("corpus")]
    return [p for p in paths if not too_big_for_this_run(p)]


# --------------------------------------------------------------------------------------
# Typed deep equality
# --------------------------------------------------------------------------------------
def _float_bits(x):
    return struct.pack("<d", x)


def first_difference(actual, expected):
    """None when the two values are equal with the same types all the way down, else a
    description of the first difference (with its path).

    Checks: exact types (bool vs int vs float, dict vs OrderedDict, list vs tuple), dict key
    order, floats bit for bit (so -0.0 != 0.0 and NaN == NaN with the same bits), ints
    exactly, strs by content and by their ASCII flag (a non-canonical str compares unequal
    or reports the wrong ``isascii()``).
    """
    stack = [(actual, expected, "$")]
    while stack:
        a, b, path = stack.pop()
        ta, tb = type(a), type(b)
        if ta is not tb:
            return f"{path}: type {ta.__name__} != {tb.__name__} ({a!r:.80} vs {b!r:.80})"
        if a is None or ta is bool:
            if a is not b:
                return f"{path}: {a!r} != {b!r}"
        elif ta is float:
            if _float_bits(a) != _float_bits(b):
                return (f"{path}: float {a!r} != {b!r} (bits {_float_bits(a).hex()} vs "
                        f"{_float_bits(b).hex()}, sign {math.copysign(1.0, a)} vs "
                        f"{math.copysign(1.0, b)})")
        elif ta is int:
            if a != b:
                return f"{path}: int {a!r:.80} != {b!r:.80}"
        elif ta is str:
            if a != b:
                return f"{path}: str {a!r:.200} != {b!r:.200}"
            if a.isascii() is not b.isascii():
                return f"{path}: str {a!r:.80} isascii() {a.isascii()} != {b.isascii()}"
        elif isinstance(a, dict):
            ka, kb = list(a), list(b)
            if len(ka) != len(kb):
                return f"{path}: dict sizes {len(ka)} != {len(kb)} (keys {ka!r:.200} vs {kb!r:.200})"
            for i, (x, y) in enumerate(zip(ka, kb)):
                if type(x) is not type(y) or x != y or (
                        type(x) is str and x.isascii() is not y.isascii()):
                    return (f"{path}: key #{i} differs: {x!r:.80} ({type(x).__name__}) vs "
                            f"{y!r:.80} ({type(y).__name__})")
            for k in reversed(ka):
                stack.append((a[k], b[k], f"{path}[{k!r:.40}]"))
        elif isinstance(a, (list, tuple)):
            if len(a) != len(b):
                return f"{path}: {ta.__name__} lengths {len(a)} != {len(b)}"
            for i in range(len(a) - 1, -1, -1):
                stack.append((a[i], b[i], f"{path}[{i}]"))
        elif ta.__name__ == "Decimal":
            if a.as_tuple() != b.as_tuple():
                return f"{path}: Decimal {a!r} != {b!r}"
        elif isinstance(a, (bytes, bytearray)):
            if a != b:
                return f"{path}: {a!r:.80} != {b!r:.80}"
        else:
            if not (a == b):
                return f"{path}: {a!r:.80} != {b!r:.80}"
    return None


def deep_equal_typed(a, b):
    """True when a and b are equal with identical types recursively (see first_difference)."""
    return first_difference(a, b) is None


def assert_same_value(actual, expected, what=""):
    diff = first_difference(actual, expected)
    if diff is not None:
        pytest.fail(f"jetjson result differs from json{' for ' + what if what else ''}: {diff}")


# --------------------------------------------------------------------------------------
# Outcome comparison: same value, or the same exception
# --------------------------------------------------------------------------------------
class Raised:
    """An exception captured by capture()."""

    def __init__(self, exc):
        self.exc = exc

    def __repr__(self):
        return f"Raised({type(self.exc).__name__}: {str(self.exc)[:200]})"


def capture(fn, *args, **kwargs):
    """Call fn; return its result or a Raised wrapper of the exception it raised."""
    try:
        return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - every exception is part of the outcome
        return Raised(e)


_RECURSION_RE = re.compile(
    r"^maximum recursion depth exceeded while decoding a JSON (array|object) from a unicode string$")


def _recursion_message_key(msg):
    # The depth at which json gives up depends on the interpreter stack depth at the call,
    # so for documents that alternate arrays and objects which kind of container hit the
    # limit is not reproducible between two call sites. Keep the rest of the message.
    if _RECURSION_RE.match(msg):
        return "maximum recursion depth exceeded while decoding a JSON <container> from a unicode string"
    return msg


def json_oracle(data, **kw):
    """What json gives for this input (memoryview is read as bytes, as jetjson does)."""
    if isinstance(data, memoryview):
        data = data.tobytes()
    return capture(json.loads, data, **kw)


def exception_difference(got, exp, jetjson_module=None, exact_decode_type=True,
                         exact_recursion_message=False):
    """None when the exceptions match (see assert_same_outcome), else a description."""
    if isinstance(exp, json.JSONDecodeError):
        if not isinstance(got, json.JSONDecodeError):
            return f"expected JSONDecodeError {exp}, got {type(got).__name__}: {got}"
        if exact_decode_type and jetjson_module is not None \
                and type(got) is not jetjson_module.JSONDecodeError:
            return (f"decode error has type {type(got).__module__}.{type(got).__qualname__}, "
                    "expected jetjson.JSONDecodeError")
        for attr in ("msg", "pos", "lineno", "colno"):
            if getattr(got, attr, None) != getattr(exp, attr):
                return (f"JSONDecodeError.{attr}: {getattr(got, attr, None)!r} != "
                        f"{getattr(exp, attr)!r} (got: {got}; expected: {exp})")
        if getattr(got, "doc", None) != exp.doc:
            return (f"JSONDecodeError.doc differs: {getattr(got, 'doc', None)!r:.120} != "
                    f"{exp.doc!r:.120}")
        if str(got) != str(exp):
            return f"str(JSONDecodeError) {str(got)!r} != {str(exp)!r}"
        return None
    if type(got) is not type(exp):
        return (f"expected {type(exp).__name__}: {str(exp)[:200]}, "
                f"got {type(got).__name__}: {str(got)[:200]}")
    gmsg, emsg = str(got), str(exp)
    if isinstance(exp, RecursionError) and not exact_recursion_message:
        gmsg, emsg = _recursion_message_key(gmsg), _recursion_message_key(emsg)
    if gmsg != emsg:
        return f"{type(exp).__name__} message {str(got)[:300]!r} != {str(exp)[:300]!r}"
    return None


def assert_same_outcome(got, exp, what="", jetjson_module=None, exact_decode_type=True,
                        exact_recursion_message=False):
    """got/exp are results of capture(): both values (typed-equal) or both Raised with the
    same exception: for JSONDecodeError the same msg, pos, lineno, colno, doc (and the type
    jetjson.JSONDecodeError unless exact_decode_type is False); otherwise the same type and
    the same str()."""
    label = f" for {what}" if what else ""
    if isinstance(exp, Raised):
        if not isinstance(got, Raised):
            pytest.fail(f"json raised {type(exp.exc).__name__}: {str(exp.exc)[:300]} but jetjson "
                        f"returned {got!r:.300}{label}")
        diff = exception_difference(got.exc, exp.exc, jetjson_module, exact_decode_type,
                                    exact_recursion_message)
        if diff is not None:
            pytest.fail(f"exception mismatch{label}: {diff}")
        return
    if isinstance(got, Raised):
        pytest.fail(f"json returned {exp!r:.300} but jetjson raised "
                    f"{type(got.exc).__name__}: {str(got.exc)[:300]}{label}")
    assert_same_value(got, exp, what)


def input_forms(data):
    """(label, value) pairs: the input as bytes, bytearray, memoryview, memoryview with an
    offset into a larger buffer, and str when the bytes decode as UTF-8 (surrogatepass)."""
    if isinstance(data, str):
        text = data
        raw = data.encode("utf-8", "surrogatepass")
    else:
        raw = bytes(data)
        try:
            text = raw.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            text = None
    forms = [("bytes", raw), ("bytearray", bytearray(raw)), ("memoryview", memoryview(raw)),
             ("memoryview-slice", memoryview(b"[[" + raw + b"]]")[2:2 + len(raw)])]
    if text is not None:
        forms.append(("str", text))
    return forms


# --------------------------------------------------------------------------------------
# Hypothesis settings: moderate example counts, no example database written to the repo.
# JETJSON_TEST_SCALE (float, default 1) scales the example counts for longer local runs.
# --------------------------------------------------------------------------------------
TEST_SCALE = float(os.environ.get("JETJSON_TEST_SCALE", "1") or "1")


def traced_growth(fn, repeat=200):
    """Traced Python memory still allocated after running fn() `repeat` times (after two
    warm-up runs), in bytes."""
    import gc
    import tracemalloc

    fn()
    fn()
    gc.collect()
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(repeat):
            fn()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return after - before


def hyp_settings(max_examples):
    if settings is None:  # pragma: no cover
        return lambda f: f
    return settings(
        max_examples=max(1, int(max_examples * TEST_SCALE)),
        deadline=None,
        database=None,
        derandomize=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                               HealthCheck.filter_too_much],
    )


def pytest_report_header(config):
    try:
        import jetjson
        feats = jetjson.features()
        where = getattr(jetjson, "__file__", "?")
        return [f"jetjson: {where}; features: {feats}; data: {DATA_DIR}"]
    except Exception as e:  # noqa: BLE001 - only informational
        return [f"jetjson: not importable ({type(e).__name__}: {e}); data: {DATA_DIR}"]
