"""jetjson in own-GIL sub-interpreters (PEP 684, Python 3.12+): the module declares
Py_MOD_PER_INTERPRETER_GIL_SUPPORTED, so importing it in an isolated interpreter must
work without any override, and each interpreter gets its own state (exception type,
key cache). Skipped on Python 3.11."""

import sys
import textwrap
import threading

import pytest

pytestmark = pytest.mark.skipif(sys.version_info < (3, 12), reason="own-GIL interpreters need 3.12+")

SCRIPT = textwrap.dedent(
    """
    import json, jetjson
    doc = b'{"a": [1, 2.5, "x\\\\u00e9", true, null], "b": {"c": 12345678901234567890}}'
    for _ in range(200):
        assert jetjson.loads(doc) == json.loads(doc)
    try:
        jetjson.loads(b"[1,]")
    except jetjson.JSONDecodeError as e:
        assert isinstance(e, json.JSONDecodeError) and e.pos == 3
    else:
        raise AssertionError("no error")
    """
)


def run_isolated(script):
    """Runs script in a new interpreter with its own GIL; raises if the script failed."""
    if sys.version_info >= (3, 14):
        from concurrent import interpreters

        interp = interpreters.create()
        try:
            interp.exec(script)
        finally:
            interp.close()
    elif sys.version_info >= (3, 13):
        import _interpreters

        interp = _interpreters.create("isolated")
        try:
            failure = _interpreters.exec(interp, script)
            if failure is not None:
                raise AssertionError(f"sub-interpreter failed: {failure}")
        finally:
            _interpreters.destroy(interp)
    else:
        import _xxsubinterpreters

        interp = _xxsubinterpreters.create(isolated=True)
        try:
            _xxsubinterpreters.run_string(interp, script)
        finally:
            _xxsubinterpreters.destroy(interp)


def test_loads_in_an_isolated_interpreter():
    run_isolated(SCRIPT)


def test_isolated_interpreters_on_threads_at_once():
    errors = []

    def work():
        try:
            run_isolated(SCRIPT)
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
