"""python -m jetjson as a real process, against python -m json.tool where both have the
command: stdin and stdout (and `-` for each), files, exit statuses, broken pipes, Ctrl-C,
and the progress line shown only on a terminal. The in-process runs are test_cli.py's."""

import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from jetjson import _cli
from test_cli import _env

def _proc(args, stdin=b"", module="jetjson", **kw):
    return subprocess.run([sys.executable, "-m", module] + args, input=stdin, capture_output=True,
                          env=_env(), timeout=60, **kw)


@pytest.mark.parametrize("doc", [b'{"b": [1, 1E5, "\xc3\xa9"], "a": {}}', b"[1,,2]", b"\xef\xbb\xbf1"],
                         ids=["valid", "invalid", "bom"])
def test_process_stdin_stdout(doc, tmp_path):
    """The real thing: stdin to stdout, `-` for both, and a file to a file."""
    for args in ([], ["-"], ["-", "-"], ["--sort-keys", "--tab"]):
        # json.tool takes an outfile "-" for a file of that name: ours writes stdout
        ours, theirs = _proc(args, doc), _proc(["-"] if args == ["-", "-"] else args, doc, module="json.tool")
        assert (ours.returncode, ours.stdout, ours.stderr) == (theirs.returncode, theirs.stdout, theirs.stderr)
    src = tmp_path / "in.json"
    src.write_bytes(doc)
    ours = _proc([str(src), str(tmp_path / "a.out")])
    theirs = _proc([str(src), str(tmp_path / "b.out")], module="json.tool")
    assert (ours.returncode, ours.stderr) == (theirs.returncode, theirs.stderr)
    if theirs.returncode == 0:
        assert (tmp_path / "a.out").read_bytes() == (tmp_path / "b.out").read_bytes()


def test_process_file_errors(tmp_path):
    missing = _proc([str(tmp_path / "missing.json")])
    assert missing.returncode != 0 and b"no such file" in missing.stderr and b"Traceback" not in missing.stderr
    folder = _proc([str(tmp_path)])
    assert folder.returncode != 0 and b"is a directory" in folder.stderr and b"Traceback" not in folder.stderr
    if os.geteuid() != 0:  # root reads anything
        locked = tmp_path / "locked.json"
        locked.write_bytes(b"[]")
        locked.chmod(0)
        denied = _proc([str(locked)])
        assert denied.returncode != 0 and b"permission denied" in denied.stderr


def test_process_broken_pipe(tmp_path):
    """`python -m jetjson big.json | head -1` ends quietly."""
    path = tmp_path / "big.json"
    path.write_text(json.dumps([{"i": i, "s": "x" * 40} for i in range(100000)]))
    cmd = f"{sys.executable} -m jetjson {path} | head -c 10"
    done = subprocess.run(["sh", "-c", cmd], capture_output=True, env=_env(), timeout=60)
    assert done.stdout == b"[\n    {\n  "
    assert done.stderr == b""


@pytest.mark.parametrize("args", [[], ["--compact"], ["convert", "--to", "ndjson"], ["minify"]],
                         ids=lambda a: " ".join(a) or "format")
def test_process_broken_pipe_status(tmp_path, args):
    """`| head` ends quietly with json.tool's status: it exits with errno.EPIPE (32)."""
    path = tmp_path / "big.json"
    path.write_text(json.dumps([{"i": i, "s": "x" * 40} for i in range(200000)]))

    def status_of(module, argv):
        cmd = f"{sys.executable} -m {module} {' '.join(argv)} {path} | head -c 10 >/dev/null; " \
              "echo ${PIPESTATUS[0]} >&2"
        done = subprocess.run(["bash", "-c", cmd], capture_output=True, env=_env(), timeout=60)
        lines = done.stderr.splitlines()
        return int(lines[-1]), b"\n".join(lines[:-1])

    theirs, _ = status_of("json.tool", [])
    ours, err = status_of("jetjson", args)
    assert ours == theirs == 32
    assert err.strip() == b""  # nothing but the echoed status on stderr


def test_process_ctrl_c():
    """Ctrl-C while waiting for stdin: exit 130, no traceback."""
    child = subprocess.Popen([sys.executable, "-m", "jetjson"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
    time.sleep(1.0)  # let it import and block on stdin
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    child.stdin.close()
    assert child.returncode == 130
    assert b"Traceback" not in err and err.strip().endswith(b"interrupted")


def _pty_run(args):
    """(exit status, stderr text) of a process whose stderr is a terminal (a pty)."""
    import pty

    primary, secondary = pty.openpty()
    try:
        child = subprocess.Popen([sys.executable, "-m", "jetjson"] + args, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=secondary, env=_env())
        os.close(secondary)
        chunks = []
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # EIO: the child closed its end
                break
            if not chunk:
                break
            chunks.append(chunk)
        status = child.wait(timeout=120)
    finally:
        os.close(primary)
    return status, b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_process_progress_on_a_terminal(tmp_path):
    """Over PROGRESS_MIN_BYTES: a progress line on a terminal, cleared at the end; nothing
    when stderr is a pipe."""
    row = json.dumps({"id": 1, "name": "x" * 200, "tags": ["a", "b"], "v": 1.5}).encode() + b"\n"
    path = tmp_path / "big.ndjson"
    with open(path, "wb") as f:
        block = row * 4096
        for _ in range(_cli.PROGRESS_MIN_BYTES // len(block) + 1):
            f.write(block)
    status, err = _pty_run(["validate", "--ndjson", str(path)])
    assert status == 0
    assert f"jetjson: validating {path}" in err and err.endswith("\r\x1b[K")
    piped = _proc(["validate", "--ndjson", str(path)])
    assert (piped.returncode, piped.stderr) == (0, b"")
    small = tmp_path / "small.ndjson"
    small.write_bytes(row * 10)
    assert _pty_run(["validate", "--ndjson", str(small)]) == (0, "")


def test_process_help_and_commands():
    helped = _proc(["--help"])
    assert helped.returncode == 0 and b"json.tool" in helped.stdout and b"validate" in helped.stdout
    for cmd in _cli.COMMANDS:
        assert _proc([cmd, "--help"]).returncode == 0
    assert _proc(["--version"]).stdout.startswith(b"jetjson ")


def test_progress_line_only_on_a_terminal(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    p = _cli.Progress("x.json", _cli.PROGRESS_MIN_BYTES)
    p.show("formatting")
    assert err.getvalue() == ""  # not a terminal
    err.isatty = lambda: True
    small = _cli.Progress("x.json", 1000)
    small.show("formatting")
    assert err.getvalue() == ""  # too small to bother
    big = _cli.Progress("x.json", _cli.PROGRESS_MIN_BYTES)
    big.show("formatting")
    big.clear()
    assert "formatting x.json" in err.getvalue() and err.getvalue().endswith("\r\x1b[K")
