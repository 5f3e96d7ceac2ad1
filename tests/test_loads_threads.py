"""Threads: loads uses per-thread parser buffers; many threads parsing at once (with
errors and release() calls mixed in) must each get json's results."""

import io
import json
import pickle
import sys
import threading

import pytest

import jetjson

try:
    from conftest import (TEST_SCALE, Raised, assert_same_outcome, assert_same_value,
                          capture, corpus_files, json_oracle, read_bytes)
except ImportError:  # tests/ turned into a package
    from .conftest import (TEST_SCALE, Raised, assert_same_outcome, assert_same_value,
                           capture, corpus_files, json_oracle, read_bytes)

N_THREADS = 8
ROUNDS = max(1, int(20 * TEST_SCALE))


def typed_fingerprint(value):
    """Bytes that change with any type, value, float bit or key order difference."""
    buf = io.BytesIO()
    p = pickle.Pickler(buf, protocol=4)
    p.fast = True
    p.dump(value)
    return buf.getvalue()


@pytest.fixture
def fast_switching():
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    yield
    sys.setswitchinterval(old)


def run_threads(target, n=N_THREADS):
    errors = []
    barrier = threading.Barrier(n)

    def wrapper(i):
        try:
            barrier.wait()
            target(i)
        except BaseException as e:  # noqa: BLE001 - reported to the main thread
            errors.append((i, e))

    threads = [threading.Thread(target=wrapper, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        i, e = errors[0]
        raise AssertionError(f"thread {i} failed ({len(errors)} failures): "
                             f"{type(e).__name__}: {e}") from e


def test_threads_load_corpus(fast_switching):
    files = corpus_files()
    if not files:
        pytest.skip("test data not found: <repo>/data or $JETJSON_DATA")
    # Every file in the first round, then the files under 200 KB in each round, so
    # that the whole test stays at a few seconds.
    datas = [read_bytes(p) for p in files]
    oracles = [json.loads(d) for d in datas]
    prints = [typed_fingerprint(o) for o in oracles]
    names = [p.rsplit("/", 1)[-1] for p in files]

    def work(tid):
        order = list(range(len(datas)))
        order = order[tid % len(order):] + order[:tid % len(order)]
        for rnd in range(ROUNDS):
            for i in order:
                data = datas[i]
                if rnd > 0 and len(data) > 200_000:
                    continue
                if (rnd + tid) % 3 == 0:
                    data = bytearray(data)
                elif (rnd + tid) % 3 == 1:
                    data = memoryview(data)
                got = jetjson.loads(data)
                if typed_fingerprint(got) != prints[i]:
                    assert_same_value(got, oracles[i], f"{names[i]} in thread {tid} round {rnd}")
                    raise AssertionError(f"{names[i]} differs in thread {tid} round {rnd}")

    run_threads(work)


MIXED = [
    '{"a": [1, 2.5, "x", null, true], "b": {"c": "\u00e9\U0001f600"}}',
    '[1, 2,]',
    '{"deep": ' + "[" * 200 + "]" * 200 + "}",
    "[" * 5000,
    '["' + "long string with \\n escapes \\u00e9 " * 50 + '"]',
    b'["bad utf-8 \xff"]',
    "[" + ", ".join(str(2**64 + i) for i in range(100)) + "]",
    '{"x": 1} trailing',
]


def test_threads_mixed_success_error_and_release(fast_switching):
    expected = [json_oracle(d) for d in MIXED]

    def work(tid):
        for rnd in range(ROUNDS * 10):
            for j, doc in enumerate(MIXED):
                got = capture(jetjson.loads, doc)
                assert_same_outcome(got, expected[j], f"doc {j} thread {tid} round {rnd}",
                                    jetjson)
                if (rnd + j + tid) % 7 == 0:
                    jetjson.release()

    run_threads(work)


def test_threads_each_see_their_own_errors(fast_switching):
    """An error in one thread must not show up in another thread's result or exception."""
    def work(tid):
        bad = '{"thread": %d, "oops": }' % tid
        good = '{"thread": %d, "ok": [%d]}' % (tid, tid)
        exp_bad = json_oracle(bad)
        for _ in range(ROUNDS * 50):
            got = capture(jetjson.loads, bad)
            assert isinstance(got, Raised)
            assert_same_outcome(got, exp_bad, bad, jetjson)
            assert jetjson.loads(good) == {"thread": tid, "ok": [tid]}

    run_threads(work)
