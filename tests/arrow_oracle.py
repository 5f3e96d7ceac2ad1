"""The oracle of the loads_arrow tests that infer types: pyarrow.json.read_json over the
whole input in one block (so that it infers over all of it), or the exception it raises.
Import it after pytest.importorskip("pyarrow")."""

import io

import pyarrow as pa
import pyarrow.json as pj


def oracle(data):
    read = pj.ReadOptions(block_size=len(data) + 1, use_threads=False)
    try:
        return pj.read_json(io.BytesIO(data), read_options=read)
    except (pa.ArrowInvalid, OverflowError) as exc:
        return exc
