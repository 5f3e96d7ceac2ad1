"""The oracle of the loads_arrow tests that infer types: pyarrow.json.read_json over the
whole input in one block (so that it infers over all of it), or the exception it raises;
and the check of loads_arrow(threads=n) against it. Import it after
pytest.importorskip("pyarrow")."""

import io

import pyarrow as pa
import pyarrow.json as pj

import jetjson


def oracle(data):
    read = pj.ReadOptions(block_size=len(data) + 1, use_threads=False)
    try:
        return pj.read_json(io.BytesIO(data), read_options=read)
    except (pa.ArrowInvalid, OverflowError) as exc:
        return exc


def ours(data, **kw):
    """loads_arrow's table, or the ValueError it raises."""
    try:
        return pa.table(jetjson.loads_arrow(data, **kw))
    except ValueError as exc:
        return exc


def check_threads(data, threads):
    """loads_arrow(data, threads=n) for each n: pyarrow's table (schema and values), or
    an error where pyarrow refuses the input."""
    exp = oracle(data)
    for n in threads:
        got = ours(data, threads=n)
        if isinstance(exp, Exception):
            assert isinstance(got, Exception), f"threads={n}: pyarrow refused ({exp}), loads_arrow gave a table"
            continue
        assert not isinstance(got, Exception), f"threads={n}: {got!r}"
        assert got.schema == exp.schema, f"threads={n}\nours:    {got.schema}\npyarrow: {exp.schema}"
        assert got.equals(exp), f"threads={n}: values differ"
