"""The command line: ``python -m jetjson``.

Without a command it is ``python -m json.tool`` (same arguments, same output byte for
byte, same error text and exit status), only faster and lighter; the commands below add
what json.tool lacks.  Only the standard library is used besides jetjson itself.

Exactness notes (why the code is shaped as it is):

* json.tool reads its input as UTF-8 *text* (universal newlines), so a UTF-8 BOM, UTF-16
  or an encoded surrogate is an error there although ``json.loads(bytes)`` would accept
  them; ``_decode_text`` reproduces that read.
* json.tool re-serializes what ``json.load`` built: numbers as Python spells them (1E5 ->
  100000.0), escapes normalized, the last of duplicate keys kept at the place of the
  first, non-ASCII escaped by default.  The engine's text tools keep the source spelling,
  so they are used only where the check in ``jetjson._tool_format`` says the bytes come out
  the same; otherwise the document goes through jetjson.loads + jetjson.dumps (drop-in
  json, the same result).
"""

from __future__ import annotations

import argparse
import errno
import io
import mmap
import os
import re
import signal
import stat
import sys
import time
from types import ModuleType
from typing import IO, Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

#: What the commands read: bytes, or a view of a mapped file (every jetjson function
#: takes a memoryview; an mmap object itself is not passed around).
Buffer = Union[bytes, bytearray, memoryview]

PROG = "python -m jetjson"
#: Inputs at least this big are mapped rather than read (when they are regular files).
MAP_MIN_BYTES = 1 << 20
#: Mapped inputs at least this big are formatted a window at a time when they hold an
#: array (src/cpython/text/tool_windows.c): peak memory stays near the window's size.
FORMAT_WINDOWS_MIN_BYTES = 16 << 20
FORMAT_WINDOW = 4 << 20
#: Inputs at least this big get a progress line on stderr, when stderr is a terminal.
PROGRESS_MIN_BYTES = 64 << 20
_BOM = b"\xef\xbb\xbf"
_SURROGATE = re.compile(rb"\xed[\xa0-\xbf]")


def _native() -> ModuleType:
    """The extension module's private helpers (_tool_format, _tool_validate_lines)."""
    import importlib

    return importlib.import_module("jetjson._jetjson")


class CliError(Exception):
    """A message for the user (no traceback) and an exit status."""

    def __init__(self, message: str, status: int = 1, bare: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.bare = bare  # json.tool's own words: printed without the program's name


# --------------------------------------------------------------------------
# Input and output
# --------------------------------------------------------------------------

def _os_message(exc: OSError, path: str) -> str:
    if isinstance(exc, FileNotFoundError):
        return f"{path}: no such file or directory"
    if isinstance(exc, IsADirectoryError):
        return f"{path}: is a directory, not a file"
    if isinstance(exc, PermissionError):
        return f"{path}: permission denied"
    return f"{path}: {exc.strerror or exc}"


class Input:
    """The bytes of a file (mapped when large and regular) or of stdin (``-``)."""

    def __init__(self, path: Optional[str]) -> None:
        self.path = path if path not in (None, "-") else None
        self.name = self.path or "<stdin>"
        self._map: Optional[mmap.mmap] = None
        self.data: Buffer
        if self.path is None:
            self.data = sys.stdin.buffer.read()
            return
        try:
            f = open(self.path, "rb")
        except OSError as exc:
            raise CliError(_os_message(exc, self.path)) from None
        with f:
            try:
                st = os.fstat(f.fileno())
                if stat.S_ISDIR(st.st_mode):
                    raise IsADirectoryError(errno.EISDIR, "Is a directory")
                if stat.S_ISREG(st.st_mode) and st.st_size >= MAP_MIN_BYTES:
                    self._map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                    if hasattr(self._map, "madvise") and hasattr(mmap, "MADV_SEQUENTIAL"):
                        self._map.madvise(mmap.MADV_SEQUENTIAL)
                    # a memoryview: what every jetjson function takes (an mmap is not)
                    self.data = memoryview(self._map)
                else:
                    self.data = f.read()
            except OSError as exc:
                raise CliError(_os_message(exc, self.path)) from None

    def __len__(self) -> int:
        return len(self.data)

    def mapped(self) -> Optional[mmap.mmap]:
        """The map, when the input is a mapped file."""
        return self._map

    def drop_pages(self, start: int, stop: int) -> None:
        """Tell the kernel the mapped bytes [start, stop) are done with: their pages leave
        this process's resident set (the file's data stays in the page cache)."""
        if self._map is None or not hasattr(mmap, "MADV_DONTNEED"):
            return
        first = start - start % mmap.PAGESIZE
        if stop < len(self._map):
            stop -= stop % mmap.PAGESIZE  # the page holding `stop` is still needed
        if stop > first:
            try:
                self._map.madvise(mmap.MADV_DONTNEED, first, stop - first)
            except (OSError, ValueError):
                pass

    def close(self) -> None:
        if isinstance(self.data, memoryview):
            try:
                self.data.release()
            except BufferError:  # a slice of it is still alive: the process ends soon
                pass
        self.data = b""
        if self._map is not None:
            try:
                self._map.close()
            except BufferError:  # a view of it is still alive: the process ends soon
                pass
            self._map = None

    def same_file(self, out_path: Optional[str]) -> bool:
        if self.path is None or out_path is None or out_path == "-":
            return False
        try:
            return os.path.samefile(self.path, out_path)
        except OSError:
            return False


class Output:
    """Where results go: a file opened (truncated) on first write, or stdout (``-``)."""

    def __init__(self, path: Optional[str]) -> None:
        self.path = path if path not in (None, "-") else None
        self._file: Optional[IO[bytes]] = None

    def open(self) -> IO[bytes]:
        if self._file is None:
            if self.path is None:
                sys.stdout.flush()
                self._file = sys.stdout.buffer
            else:
                try:
                    self._file = open(self.path, "wb")
                except OSError as exc:
                    raise CliError(_os_message(exc, self.path)) from None
        return self._file

    def text_encoding(self) -> str:
        """The encoding text written here must have: files are UTF-8 (as json.tool
        opens them); stdout is whatever Python chose for it."""
        if self.path is None:
            return sys.stdout.encoding or "utf-8"
        return "utf-8"

    def write(self, data: Union[bytes, bytearray, memoryview]) -> None:
        self.open().write(data)

    def write_text(self, text: str) -> None:
        self.open().write(text.encode(self.text_encoding()))

    def close(self) -> None:
        if self._file is not None:
            if self.path is None:
                self._file.flush()
            else:
                self._file.close()
            self._file = None


class Progress:
    """One line on stderr, rewritten in place, for large inputs when stderr is a terminal."""

    def __init__(self, name: str, size: int) -> None:
        try:
            tty = sys.stderr.isatty()
        except (AttributeError, ValueError):
            tty = False
        self.enabled = tty and size >= PROGRESS_MIN_BYTES
        self.name, self.size = name, size
        self._last = 0.0
        self._shown = False

    def show(self, what: str, done: Optional[int] = None) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done is not None and now - self._last < 0.2:
            return
        self._last = now
        mb = self.size / 1e6
        pct = f" {100.0 * done / self.size:5.1f}%" if done is not None and self.size else ""
        sys.stderr.write(f"\r\x1b[Kjetjson: {what} {self.name} ({mb:,.0f} MB){pct}")
        sys.stderr.flush()
        self._shown = True

    def clear(self) -> None:
        if self._shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self._shown = False


def _decode_text(data: Buffer) -> str:
    """The str json.tool reads from these bytes: strict UTF-8 (a BOM is kept, and then
    refused by the parser, as json.tool does), universal newlines."""
    text = bytes(data).decode("utf-8") if not isinstance(data, bytes) else data.decode("utf-8")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _utf8_text_ok(data: Buffer) -> bool:
    """Whether json.tool's strict UTF-8 read takes these bytes as they are, for bytes the
    engine found valid (it reads UTF-8 as json.loads does, 'surrogatepass'): no BOM and
    no encoded surrogate (ED A0..BF). A regex search: no copy of a mapped file."""
    if data[:3] == _BOM:
        return False
    return _SURROGATE.search(data) is None


# --------------------------------------------------------------------------
# format: json.tool
# --------------------------------------------------------------------------

def _dump_kwargs(args: argparse.Namespace) -> Dict[str, Any]:
    kw: Dict[str, Any] = {"sort_keys": args.sort_keys, "indent": args.indent, "ensure_ascii": args.ensure_ascii}
    if args.compact:
        kw["indent"] = None
        kw["separators"] = (",", ":")
    return kw


def _format_fast(data: Buffer, args: argparse.Namespace, out: Output,
                 release: Optional[Callable[[int, int], None]] = None) -> bool:
    """The engine's own formatter, when the checks say its bytes are json.tool's: writes
    the result and returns True; False (nothing written) when the document needs the
    object path. With `release`, a top-level array is read FORMAT_WINDOW bytes at a time
    and release(start, stop) is told which input is done (memory: a window, not the
    whole file and its index)."""
    tool = getattr(_native(), "_tool_format", None)
    if tool is None:
        return False
    kw = _dump_kwargs(args)
    indent = kw["indent"]
    if isinstance(indent, int) and indent < 0:
        indent = 0  # json: " " * -1 == ""
    mode = "compact" if args.compact else ("line" if indent is None else "indent")
    if not args.ensure_ascii and out.text_encoding().replace("-", "").lower() != "utf8":
        return False  # the text layer encodes it (and words any error)
    call = (data, out.write, mode, indent if mode == "indent" else 0, bool(args.ensure_ascii), bool(args.sort_keys))
    if release is not None:
        done = tool(*call, release=release, window=FORMAT_WINDOW)  # checks the UTF-8 itself
        if done is not None:  # None: not an array, the whole-document path below
            return bool(done)
    if not _utf8_text_ok(data):
        return False
    return bool(tool(*call))


def _write_value(value: Any, kw: Dict[str, Any], out: Output) -> None:
    import jetjson

    text = jetjson.dumps(value, **kw)
    out.write_text(text + "\n")


def _window_done(inp: Input, progress: Progress) -> Callable[[int, int], None]:
    """The window path's release(start, stop): the input's pages go back to the kernel,
    and the progress line moves (the path reads the input twice: check, then write)."""
    passes = [1, 0]  # the pass, the last stop seen

    def release(start: int, stop: int) -> None:
        inp.drop_pages(start, stop)
        if stop < passes[1]:
            passes[0] = 2
        passes[1] = stop
        progress.show("formatting", (len(inp) * (passes[0] - 1) + stop) // 2)

    return release


def _format_document(inp: Input, args: argparse.Namespace, out: Output, progress: Progress) -> None:
    import jetjson

    progress.show("formatting")
    windows = inp.mapped() is not None and len(inp) >= FORMAT_WINDOWS_MIN_BYTES
    if _format_fast(inp.data, args, out, _window_done(inp, progress) if windows else None):
        return
    # The object path: exactly what json.tool does, with jetjson's loads and dumps.
    value = jetjson.loads(_decode_text(inp.data))
    inp.close()  # the value is all that is needed now: unmap before the output grows
    _write_value(value, _dump_kwargs(args), out)


def _text_lines(data: Buffer) -> Iterator[str]:
    """The lines json.tool's ``for line in infile`` gives (UTF-8, universal newlines)."""
    stream = io.TextIOWrapper(io.BufferedReader(io.BytesIO(data)), encoding="utf-8")
    return iter(stream)


def _format_lines(inp: Input, args: argparse.Namespace, out: Output, progress: Progress) -> None:
    import jetjson

    kw = _dump_kwargs(args)
    out.open()  # json.tool opens the output before reading the first line
    done = 0
    for line in _text_lines(inp.data):
        done += len(line)
        progress.show("formatting", done)
        _write_value(jetjson.loads(line), kw, out)


def _cmd_format(args: argparse.Namespace) -> int:
    inp = Input(args.infile)
    out = Output(args.outfile)
    progress = Progress(inp.name, len(inp))
    try:
        if inp.same_file(args.outfile):
            inp.data = bytes(inp.data)  # the output truncates the file: keep a copy of it
        if args.json_lines:
            _format_lines(inp, args, out, progress)
        else:
            _format_document(inp, args, out, progress)
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, int too long: json.tool's words
        progress.clear()
        out.close()
        raise CliError(str(exc), bare=True) from None
    finally:
        progress.clear()
        inp.close()
    out.close()
    return 0


# --------------------------------------------------------------------------
# validate
# --------------------------------------------------------------------------

def _why_invalid(data: Buffer) -> Tuple[int, int, str]:
    """(line, column, message) of the first error json.tool would report."""
    import json

    import jetjson

    try:
        text = _decode_text(data)
    except UnicodeDecodeError as exc:
        head = bytes(data[: exc.start])
        line = head.count(b"\n") + 1
        col = len(head) - (head.rfind(b"\n") + 1) + 1
        return line, col, str(exc)
    try:
        jetjson.loads(text)
    except json.JSONDecodeError as exc:
        return exc.lineno, exc.colno, exc.msg
    except (ValueError, RecursionError) as exc:
        return 1, 1, str(exc) or type(exc).__name__
    return 0, 0, ""


def _valid_document(data: Buffer) -> bool:
    import jetjson

    return bool(jetjson.valid(data)) and _utf8_text_ok(data)


#: validate --ndjson works on a mapped file in windows this big, and lets the kernel take
#: back each one's pages when done: resident memory stays small on files of any size.
LINES_WINDOW = 64 << 20


def _validate_lines(inp: Input, progress: Progress) -> List[str]:
    """Each line a document (an empty line is an error, as in json.tool --json-lines)."""
    native = _native()
    data, n = inp.data, len(inp.data)
    mapped = inp.mapped()
    problems: List[str] = []
    start, first_line = 0, 1
    while start < n:
        stop = n
        if mapped is not None and n - start > LINES_WINDOW:
            cut = mapped.find(b"\n", start + LINES_WINDOW)
            stop = n if cut < 0 else cut + 1
        progress.show("validating", start)
        window = data[start:stop]
        lines, suspects = native._tool_validate_lines(window)  # the lines to look at, in one call
        for lineno, a, b in suspects:
            line = bytes(window[a:b]).rstrip(b"\r\n")  # the column is on this line
            if line and _valid_document(line):
                continue  # deep or long-int lines the engine leaves to json: json took them
            _, col, msg = _why_invalid(line)
            problems.append(f"{inp.name}:{first_line + lineno - 1}:{col}: {msg}")
        first_line += lines
        if isinstance(window, memoryview):
            window.release()
        if mapped is not None:
            inp.drop_pages(start, stop)
        start = stop
    return problems


def _cmd_validate(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        try:
            inp = Input(path)
        except CliError as exc:
            print(f"{PROG}: {exc}", file=sys.stderr)
            status = max(status, 2)
            continue
        progress = Progress(inp.name, len(inp))
        try:
            if args.json_lines:
                problems = _validate_lines(inp, progress)
            elif _valid_document(inp.data):
                problems = []
            else:
                line, col, msg = _why_invalid(inp.data)
                problems = [f"{inp.name}:{line}:{col}: {msg}"]
        finally:
            progress.clear()
            inp.close()
        for p in problems:
            print(p)
        if problems:
            status = max(status, 1)
        elif args.verbose:
            print(f"{inp.name}: ok")
    return status


# --------------------------------------------------------------------------
# minify, get (convert: _cli_convert.py)
# --------------------------------------------------------------------------

def _cmd_minify(args: argparse.Namespace) -> int:
    import jetjson

    inp = Input(args.infile)
    out = Output(args.outfile)
    try:
        if not _valid_document(inp.data):
            _, _, msg = _why_invalid(inp.data)
            raise CliError(f"{inp.name}: {msg}")
        if inp.same_file(args.outfile):
            inp.data = bytes(inp.data)
        result = jetjson.minify(inp.data)
        inp.close()
        out.write(result)
        out.write(b"\n")
    finally:
        inp.close()
        out.close()
    return 0


def _cmd_get(args: argparse.Namespace) -> int:
    import jetjson

    inp = Input(args.file)
    out = Output(None)
    kw = {"ensure_ascii": args.ensure_ascii, "indent": args.indent, "sort_keys": args.sort_keys}
    try:
        if not _valid_document(inp.data):
            _, _, msg = _why_invalid(inp.data)
            raise CliError(f"{inp.name}: {msg}")
        try:
            values = jetjson.get_many(inp.data, args.pointers)
        except KeyError as exc:
            raise CliError(f"{inp.name}: {exc.args[0] if exc.args else exc}") from None
        except (IndexError, ValueError, TypeError) as exc:
            raise CliError(f"{inp.name}: {exc}") from None
        for value in values:
            out.write_text(jetjson.dumps(value, **kw) + "\n")
    finally:
        inp.close()
        out.close()
    return 0


# --------------------------------------------------------------------------
# bench, features, version
# --------------------------------------------------------------------------

def _version() -> str:
    try:
        from . import __version__
        return str(__version__)
    except ImportError:
        try:
            from importlib import metadata
            return metadata.version("jetjson")
        except Exception:  # noqa: BLE001 - a version string is all we need
            return "unknown"


def _cmd_features(args: argparse.Namespace) -> int:
    import json

    import jetjson

    print(json.dumps(jetjson.features(), indent=2, sort_keys=True, default=str))
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import _bench

    return int(_bench.run(args))


# --------------------------------------------------------------------------
# Parsers
# --------------------------------------------------------------------------

_FORMAT_EPILOG = f"""\
commands (run "{PROG} COMMAND --help" for each):
  format     this same json.tool behaviour, under a name
  validate   check files, print file:line:col: message for each invalid one
  minify     remove the whitespace between tokens
  get        print the values at JSON Pointers (/key/0/...)
  convert    JSON array <-> NDJSON, JSON <-> MessagePack, JSON -> Arrow
  bench      time jetjson against the json module
  features   print what this build of jetjson uses

examples:
  {PROG} data.json                   pretty-print with 4 spaces
  curl -s URL | {PROG} --sort-keys   read stdin, write stdout
  {PROG} --compact in.json out.json  smallest form, to a file
  {PROG} validate --ndjson *.jsonl   check every line of every file
"""


def add_format_arguments(parser: argparse.ArgumentParser) -> None:
    """json.tool's arguments, with its defaults and meaning."""
    parser.add_argument("infile", nargs="?", default="-",
                        help="the JSON file to read (default, or -, is stdin)")
    parser.add_argument("outfile", nargs="?", default=None,
                        help="the file to write (default, or -, is stdout)")
    parser.add_argument("--sort-keys", action="store_true", default=False,
                        help="sort the keys of every object")
    parser.add_argument("--no-ensure-ascii", dest="ensure_ascii", action="store_false",
                        help="write non-ASCII characters as they are instead of \\uXXXX escapes")
    parser.add_argument("--json-lines", "--ndjson", dest="json_lines", action="store_true", default=False,
                        help="read one document per line (JSON Lines); add --no-indent or "
                             "--compact to write one per line as well")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--indent", default=4, type=int, metavar="N",
                       help="indent by N spaces, one item per line (default 4)")
    group.add_argument("--tab", action="store_const", dest="indent", const="\t",
                       help="indent with a tab, one item per line")
    group.add_argument("--no-indent", action="store_const", dest="indent", const=None,
                       help="everything on one line, items separated by ', '")
    group.add_argument("--compact", action="store_true",
                       help="everything on one line, no spaces at all (smallest output)")


def _format_parser(prog: str, top: bool) -> argparse.ArgumentParser:
    if top:
        desc = ("Pretty-print or check JSON: a drop-in for 'python -m json.tool' (same options,\n"
                "same output, much faster on big files), plus the commands listed below.")
        parser = argparse.ArgumentParser(prog=prog, description=desc, epilog=_FORMAT_EPILOG,
                                         formatter_class=argparse.RawDescriptionHelpFormatter)
        parser.add_argument("--version", action="version", version=f"jetjson {_version()}")
    else:
        parser = argparse.ArgumentParser(
            prog=prog, description="Pretty-print JSON exactly as 'python -m json.tool' does "
                                   "(same options and output), fast.")
    add_format_arguments(parser)
    parser.set_defaults(func=_cmd_format)
    return parser


def _new_parser(name: str, description: str, func: Callable[[argparse.Namespace], int],
                epilog: Optional[str] = None) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=f"{PROG} {name}", description=description, epilog=epilog,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(func=func)
    return p


def _io_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("infile", nargs="?", default="-", help="file to read (default, or -, is stdin)")
    p.add_argument("outfile", nargs="?", default=None, help="file to write (default, or -, is stdout)")


def _command_parser(name: str) -> argparse.ArgumentParser:
    """The parser of one command (only that one is built: the others cost startup time)."""
    if name == "format":
        return _format_parser(f"{PROG} format", top=False)
    if name == "validate":
        p = _new_parser(name, "Check that each FILE holds valid JSON (what json.tool accepts).\n"
                              "Prints FILE:LINE:COL: MESSAGE for each invalid file, nothing for valid ones.",
                        _cmd_validate,
                        epilog="exit status: 0 all valid, 1 some invalid, 2 a file could not be read")
        p.add_argument("files", nargs="+", metavar="FILE", help="files to check (- for stdin)")
        p.add_argument("--json-lines", "--ndjson", dest="json_lines", action="store_true",
                       help="each line is a document of its own (JSON Lines / NDJSON); an empty "
                            "line is an error, as in json.tool --json-lines")
        p.add_argument("-v", "--verbose", action="store_true", help="also print FILE: ok for valid files")
    elif name == "minify":
        p = _new_parser(name, "Write the document without any whitespace between tokens. Numbers and\n"
                              "strings keep their spelling (no re-encoding). The input is validated first.",
                        _cmd_minify)
        _io_arguments(p)
    elif name == "get":
        p = _new_parser(name, "Print the value at each JSON Pointer (RFC 6901), one JSON value per line.\n"
                              "Only the values asked for are built, so this is fast on big files.",
                        _cmd_get,
                        epilog=f"example: {PROG} get data.json /users/0/name /count\n"
                               "  (\"\" is the whole document; in keys ~1 stands for / and ~0 for ~)")
        p.add_argument("file", metavar="FILE", help="the JSON file (- for stdin)")
        p.add_argument("pointers", nargs="+", metavar="POINTER", help="a JSON Pointer such as /a/0/b")
        p.add_argument("--indent", type=int, default=None, metavar="N", help="pretty-print each value")
        p.add_argument("--sort-keys", action="store_true", help="sort the keys of objects")
        p.add_argument("--ensure-ascii", action="store_true", help="escape non-ASCII characters")
    elif name == "convert":
        from ._cli_convert import CONVERTERS, cmd_convert

        lines = "\n".join(f"  {k:8} {v[1]}" for k, v in CONVERTERS.items())
        p = _new_parser(name, "Convert between JSON and other layouts.", cmd_convert,
                        epilog="formats:\n" + lines + f"\n\nexamples:\n  {PROG} convert --to ndjson list.json rows.ndjson\n"
                               f"  {PROG} convert --to msgpack --ndjson rows.ndjson rows.msgpack\n"
                               f"  {PROG} convert --from msgpack --to ndjson rows.msgpack")
        p.add_argument("--to", required=True, choices=list(CONVERTERS), metavar="FORMAT",
                       help="what to write: " + ", ".join(CONVERTERS))
        p.add_argument("--from", dest="source", choices=["json", "msgpack"], default="json",
                       help="what the input is (default json; msgpack: --to json or ndjson)")
        p.add_argument("--ndjson", "--json-lines", dest="json_lines", action="store_true",
                       help="with --to msgpack: the input is one document per line")
        _io_arguments(p)
        p.add_argument("--indent", type=int, default=None, metavar="N",
                       help="with --to json: pretty-print with N spaces")
        p.add_argument("--compact", action="store_true", help="with --to json: no spaces at all")
        p.add_argument("--no-ensure-ascii", dest="ensure_ascii", action="store_false",
                       help="write non-ASCII characters as they are")
    elif name == "bench":
        from . import _bench

        p = _new_parser(name, "Time jetjson against the standard json module (and orjson, if installed)\n"
                              "on three files of the corpus in data/ (run from a clone of the repository,\n"
                              "or --data DIR), else on documents generated in memory. Before timing, each\n"
                              "result of jetjson is checked equal to json's (and the check is reported).",
                        _cmd_bench)
        _bench.add_arguments(p)
    elif name == "features":
        p = _new_parser(name, "Print what this build of jetjson detected and uses, as JSON.", _cmd_features)
    else:
        raise KeyError(name)
    return p


COMMANDS = ("format", "validate", "minify", "get", "convert", "bench", "features")


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``python -m jetjson`` without a command (json.tool's)."""
    return _format_parser(PROG, top=True)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    argv = list(argv)
    if argv and argv[0] in COMMANDS:
        return _command_parser(argv[0]).parse_args(argv[1:])
    if argv and argv[0] == "--":  # a file named like a command: python -m jetjson -- format
        argv = argv[1:]
    return build_parser().parse_args(argv)


def _quiet_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so that the interpreter's final
    flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _interrupted() -> None:
    """Ctrl-C: one line on stderr (on a line of its own), no traceback; the caller exits
    with 130 as shells do for SIGINT."""
    _quiet_stdout()
    try:
        sys.stderr.write(f"\r\x1b[K{PROG}: interrupted\n" if sys.stderr.isatty() else f"{PROG}: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return int(args.func(args))
    except CliError as exc:
        sys.stdout.flush()
        print(f"{exc}" if exc.bare else f"{PROG}: {exc}", file=sys.stderr)
        return exc.status
    except BrokenPipeError as exc:  # `| head`: the reader has all it wants
        _quiet_stdout()
        return exc.errno or 1
    except KeyboardInterrupt:
        _interrupted()
        return 128 + signal.SIGINT


def run() -> None:
    """Entry point: ``sys.exit(main())`` with Ctrl-C and broken pipes ending quietly."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        status = errno.EPIPE
    except KeyboardInterrupt:
        _interrupted()
        status = 128 + signal.SIGINT
    sys.exit(status)
