"""``python -m jetjson convert``: JSON array <-> NDJSON, JSON <-> MessagePack, JSON ->
Arrow IPC. The conversions are the library's own (json_to_msgpack, msgpack_to_json,
loads_arrow); this module reads, writes and words the errors (see _cli.py)."""

from __future__ import annotations

import argparse
from typing import Any, Callable, Dict, Tuple

from ._cli import CliError, Input, Output, _text_lines, _valid_document, _why_invalid


#: A --to converter: reads the input, writes the output.
Converter = Callable[[Input, Output, argparse.Namespace], None]


def _convert_to_ndjson(inp: Input, out: Output, args: argparse.Namespace) -> None:
    import jetjson

    if not _valid_document(inp.data):
        _, _, msg = _why_invalid(inp.data)
        raise CliError(f"{inp.name}: {msg}")
    value = jetjson.loads(inp.data)
    if not isinstance(value, list):
        raise CliError(f"{inp.name}: --to ndjson needs a JSON array at the top, not a {_kind(value)}")
    inp.close()
    for item in value:
        out.write_text(jetjson.dumps(item, ensure_ascii=args.ensure_ascii, separators=(",", ":")) + "\n")


def _convert_to_json(inp: Input, out: Output, args: argparse.Namespace) -> None:
    import jetjson

    items = []
    lineno = 0
    for lineno, line in enumerate(_text_lines(inp.data), 1):
        if not line.strip():
            continue  # blank lines between records are common in NDJSON files
        try:
            items.append(jetjson.loads(line))
        except ValueError as exc:
            raise CliError(f"{inp.name}:{lineno}: {exc}") from None
    inp.close()
    kw = {"ensure_ascii": args.ensure_ascii, "indent": None if args.compact else args.indent}
    if args.compact:
        kw["separators"] = (",", ":")
    out.write_text(jetjson.dumps(items, **kw) + "\n")


def _convert_to_msgpack(inp: Input, out: Output, args: argparse.Namespace) -> None:
    """JSON (or, with --ndjson, one MessagePack value per document) straight from the
    text by the engine: no Python objects."""
    import jetjson

    try:
        packed = jetjson.json_to_msgpack(inp.data, ndjson=bool(args.json_lines))
    except ValueError as exc:
        raise CliError(f"{inp.name}: {exc}") from None
    inp.close()
    out.write(packed)


def _convert_from_msgpack(inp: Input, out: Output, args: argparse.Namespace) -> None:
    """MessagePack -> compact JSON: one value (--to json) or a stream of values, one
    JSON document per line (--to ndjson)."""
    import jetjson

    try:
        text = jetjson.msgpack_to_json(inp.data, stream=args.to == "ndjson")
    except ValueError as exc:
        raise CliError(f"{inp.name}: {exc}") from None
    inp.close()
    out.write(text)
    if args.to == "json" and not text.endswith(b"\n"):
        out.write(b"\n")


def _arrow_available() -> bool:
    """--to arrow needs jetjson.loads_arrow (a build that has it) and pyarrow."""
    import importlib.util

    import jetjson

    return hasattr(jetjson, "loads_arrow") and importlib.util.find_spec("pyarrow") is not None


def _convert_to_arrow(inp: Input, out: Output, args: argparse.Namespace) -> None:
    """An Arrow IPC file (random-access format) of the records: jetjson.loads_arrow
    builds the columns, pyarrow writes them."""
    import importlib

    import jetjson

    pyarrow = importlib.import_module("pyarrow")  # untyped: its names are Any here
    ipc = importlib.import_module("pyarrow.ipc")
    loads_arrow: Callable[..., Any] = getattr(jetjson, "loads_arrow")
    data: Any = inp.data
    if bytes(memoryview(data)[:64]).lstrip(b" \t\r\n").startswith(b"["):
        # a JSON array of records: its elements as NDJSON (loads_arrow reads NDJSON)
        try:
            data = jetjson.dumpb_many(jetjson.loads_many(data, format="array"))
        except ValueError as exc:
            raise CliError(f"{inp.name}: {exc}") from None
    try:
        table = pyarrow.table(loads_arrow(data))
    except ValueError as exc:
        raise CliError(f"{inp.name}: {exc}") from None
    inp.close()
    sink = pyarrow.PythonFile(out.open(), mode="w")
    with ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    sink.flush()


def _kind(value: Any) -> str:
    return {dict: "object", str: "string", bool: "boolean", type(None): "null"}.get(type(value), "number")


#: --to NAME -> (converter, one-line description).
CONVERTERS: Dict[str, Tuple[Converter, str]] = {
    "ndjson": (_convert_to_ndjson, "a JSON array -> one element per line (compact)"),
    "json": (_convert_to_json, "NDJSON lines -> one JSON array"),
    "msgpack": (_convert_to_msgpack, "MessagePack (with --ndjson: one value per line of the input)"),
    "arrow": (_convert_to_arrow, "an Arrow IPC file of the records (needs pyarrow and jetjson.loads_arrow)"),
}


def cmd_convert(args: argparse.Namespace) -> int:
    fn, _ = CONVERTERS[args.to]
    if args.source == "msgpack":
        if args.to not in ("json", "ndjson"):
            raise CliError("convert --from msgpack writes --to json (one value) or --to ndjson "
                           "(a stream of values, one per line)", 2)
        fn = _convert_from_msgpack
    elif args.to == "arrow" and not _arrow_available():
        raise CliError("convert --to arrow is not available in this version of jetjson or without pyarrow "
                       "(it needs jetjson.loads_arrow and 'pip install pyarrow'; available: "
                       f"{', '.join(k for k in CONVERTERS if k != 'arrow')})", 2)
    inp = Input(args.infile)
    out = Output(args.outfile)
    try:
        if inp.same_file(args.outfile):
            inp.data = bytes(inp.data)
        fn(inp, out, args)
    finally:
        inp.close()
        out.close()
    return 0
