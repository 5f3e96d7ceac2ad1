"""jetjson in own-GIL sub-interpreters (PEP 684, Python 3.12+): the module declares
Py_MOD_PER_INTERPRETER_GIL_SUPPORTED, so importing it in an isolated interpreter must
work without any override, and each interpreter gets its own state (exception type,
key cache, looked-up types). Skipped where the interpreter lacks the API (3.11), but
for the last test: what import jetjson imports.

orjson cannot be imported in an isolated interpreter: its outputs are computed here, in
the main interpreter, and written into the scripts the sub-interpreters run."""

import json
import os
import random
import subprocess
import sys
import textwrap
import threading

import pytest

try:
    if sys.version_info >= (3, 13):
        import _interpreters
    else:
        import _xxsubinterpreters as _interpreters
except ImportError:
    _interpreters = None

needs_interpreters = pytest.mark.skipif(
    sys.version_info < (3, 12) or _interpreters is None, reason="own-GIL interpreters need 3.12+"
)


def create_isolated():
    if sys.version_info >= (3, 13):
        return _interpreters.create("isolated")
    return _interpreters.create(isolated=True)


def exec_in(interp, script):
    """Runs script in interp; raises if it failed."""
    if sys.version_info >= (3, 13):
        failure = _interpreters.exec(interp, script)
        if failure is not None:
            raise AssertionError(f"sub-interpreter failed: {failure.formatted}")
    else:
        _interpreters.run_string(interp, script)


def run_isolated(script):
    """Runs script in a new interpreter with its own GIL, then destroys it."""
    interp = create_isolated()
    try:
        exec_in(interp, script)
    finally:
        _interpreters.destroy(interp)


def sample(seed):
    """A document of every JSON kind, different for each seed."""
    rng = random.Random(seed)

    def value(depth):
        kind = rng.randrange(9 if depth < 4 else 6)
        if kind == 0:
            return rng.randrange(-(10**12), 10**12)
        if kind == 1:
            return rng.random() * 10 ** rng.randrange(-5, 15)
        if kind == 2:
            return "".join(rng.choice("ab\u00e9\u4e2d\U0001f600\n\"\\ ") for _ in range(rng.randrange(12)))
        if kind in (3, 4, 5):
            return [None, True, False][kind - 3]
        if kind in (6, 7):
            return {f"k{rng.randrange(50)}": value(depth + 1) for _ in range(rng.randrange(6))}
        return [value(depth + 1) for _ in range(rng.randrange(6))]

    return {"seed": seed, "items": [value(0) for _ in range(30)], "big": 12345678901234567890}


def worker_script(seed, rounds):
    """Parses and serializes in a sub-interpreter, checked there against json and against
    orjson's bytes (computed here)."""
    import orjson

    obj = sample(seed)
    text = json.dumps(obj)
    return textwrap.dedent(
        f"""
        import json, uuid, jetjson
        text = {text!r}
        expected_orjson = {orjson.dumps(obj)!r}
        u = uuid.UUID(int={seed * 7919 + 1})
        expected_uuid = {orjson.dumps(__import__("uuid").UUID(int=seed * 7919 + 1))!r}
        for _ in range({rounds}):
            value = jetjson.loads(text)
            assert value == json.loads(text)
            assert jetjson.loads(text.encode()) == value
            assert jetjson.dumpb(value) == expected_orjson
            assert jetjson.dumps(value) == json.dumps(value)
            assert jetjson.dumpb(u) == expected_uuid
            doc = jetjson.parse(text)
            assert doc["items"][0] == value["items"][0]
            for bad in ("[1,]", '{{"a" 1}}', "[1, 2"):
                try:
                    json.loads(bad)
                except json.JSONDecodeError as e:
                    want = (e.msg, e.pos, e.lineno, e.colno)
                try:
                    jetjson.loads(bad)
                except jetjson.JSONDecodeError as e:
                    assert isinstance(e, json.JSONDecodeError)
                    assert (e.msg, e.pos, e.lineno, e.colno) == want, (bad, e)
                else:
                    raise AssertionError("no error for " + bad)
        """
    )


@needs_interpreters
def test_loads_in_an_isolated_interpreter():
    run_isolated(worker_script(1, 50))


@needs_interpreters
def test_eight_isolated_interpreters_on_threads_at_once():
    errors = []
    start = threading.Barrier(8)

    def work(seed):
        try:
            interp = create_isolated()
            try:
                exec_in(interp, "import jetjson")
                start.wait(timeout=60)  # all eight import first, then work at once
                exec_in(interp, worker_script(seed, 40))
            finally:
                _interpreters.destroy(interp)
        except BaseException as e:  # reported below
            errors.append(e)
            start.abort()

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def malloc_bytes():
    """Bytes the C allocator has handed out (glibc's mallinfo2), or None."""
    import ctypes

    class Mallinfo2(ctypes.Structure):
        _fields_ = [(n, ctypes.c_size_t) for n in "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]

    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return None
    mallinfo2.restype = Mallinfo2
    info = mallinfo2()
    return info.uordblks + info.hblkhd


LEAK_CHECK = """
import gc, sys
def leak_check(work, calls):
    for _ in range(50):  # caches and free lists settle first
        work()
    gc.collect()
    before = sys.getallocatedblocks()
    for _ in range(calls):
        work()
    gc.collect()
    grown = sys.getallocatedblocks() - before
    assert grown < calls // 4, grown  # one block kept per call would be `calls`
"""


@needs_interpreters
def test_work_in_an_isolated_interpreter_keeps_nothing():
    run_isolated(LEAK_CHECK + worker_script(5, 1).replace("for _ in range(1):", "def work():") + "leak_check(work, 1000)\n")


@needs_interpreters
@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc (Linux)")
def test_create_destroy_cycles_do_not_grow():
    """200 interpreters that import jetjson and use it, one after the other, grow the
    process no more than 200 interpreters that do the same without jetjson (the bare
    cost, measured here: CPython 3.12/3.13.0 keep about 1.5 MB of every isolated
    interpreter, and the object arenas of one that leaves any block allocated).
    Measured as the C allocator's bytes in use (jetjson's module state and buffers
    live there) and, more loosely, as the resident size (the arenas holding jetjson's
    objects stay with CPython's). The test above checks that calls keep nothing."""
    with_jetjson = worker_script(3, 1)
    bare = textwrap.dedent(
        """
        import json, uuid, collections.abc
        text = %r
        def work():
            value = json.loads(text)
            assert json.loads(json.dumps(value)) == value
        work()
        """
        % json.dumps(sample(3))
    )

    def cycles(n, code):
        for _ in range(n):
            run_isolated(code)

    cycles(5, bare)  # the first interpreters allocate lasting things
    cycles(5, with_jetjson)
    grown = {bare: [0, 0], with_jetjson: [0, 0]}
    for _ in range(4):  # interleaved, so that the allocator's moods hit both alike
        for code in (bare, with_jetjson):
            rss, heap = rss_bytes(), malloc_bytes() or 0
            cycles(50, code)
            grown[code][0] += rss_bytes() - rss
            grown[code][1] += (malloc_bytes() or 0) - heap
    (bare_rss, bare_heap), (jj_rss, jj_heap) = grown[bare], grown[with_jetjson]
    heap = malloc_bytes()
    report = f"200 cycles: heap +{jj_heap} vs bare +{bare_heap}; resident +{jj_rss >> 10} KiB vs bare +{bare_rss >> 10} KiB"
    if heap is not None:
        assert jj_heap <= bare_heap + (1 << 20), report
    assert jj_rss <= bare_rss + 200 * (256 << 10), report


CRASH_SEQUENCE = """
import sys
sys.path[:0] = {path!r}
{module_import}
a = create(); b = create()
for i in (a, b):
    run(i, "import jetjson; assert jetjson.loads(b'[1]') == [1]")
    run(i, "import sys; assert 'datetime' not in sys.modules and 'zoneinfo' not in sys.modules")
destroy(a)
destroy(b)
print("ok")
"""


@needs_interpreters
def test_two_isolated_interpreters_destroyed_in_order():
    """Issue 16 point 7: two isolated interpreters that import jetjson, the first
    destroyed first, aborted the process (CPython's _datetime, which jetjson imported
    at load). In a subprocess: it must exit 0."""
    if sys.version_info >= (3, 13):
        module_import = (
            "import _interpreters\n"
            "create = lambda: _interpreters.create('isolated')\n"
            "def run(i, code):\n"
            "    r = _interpreters.exec(i, code)\n"
            "    assert r is None, r\n"
            "destroy = _interpreters.destroy"
        )
    else:
        module_import = (
            "import _xxsubinterpreters as I\n"
            "create = lambda: I.create(isolated=True)\n"
            "run = I.run_string\n"
            "destroy = I.destroy"
        )
    script = CRASH_SEQUENCE.format(path=[p for p in sys.path if p], module_import=module_import)
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0 and out.stdout.strip() == "ok", (out.returncode, out.stderr[-2000:])


def test_import_loads_neither_datetime_nor_its_kin():
    """import jetjson imports none of datetime, zoneinfo, decimal, uuid, numpy; dumpb
    still writes their values once the user imported them (checked against orjson)."""
    script = textwrap.dedent(
        """
        import sys
        sys.path[:0] = {path!r}
        import jetjson
        loaded = [m for m in ("datetime", "_datetime", "zoneinfo", "decimal", "uuid", "numpy") if m in sys.modules]
        assert not loaded, loaded
        import datetime, uuid, zoneinfo, orjson
        values = [datetime.datetime(2020, 1, 2, 3, 4, 5, 6, tzinfo=zoneinfo.ZoneInfo("Europe/Paris")),
                  datetime.date(1999, 12, 31), datetime.time(1, 2, 3),
                  datetime.datetime(2020, 1, 2, tzinfo=datetime.timezone.utc),
                  uuid.UUID(int=12345)]
        for v in values:
            assert jetjson.dumpb(v) == orjson.dumps(v), v
            assert jetjson.dumpb({{v: 1}}, option=jetjson.OPT_NON_STR_KEYS) == orjson.dumps({{v: 1}}, option=orjson.OPT_NON_STR_KEYS)
        print("ok")
        """
    ).format(path=[p for p in sys.path if p])
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
