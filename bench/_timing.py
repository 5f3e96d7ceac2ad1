"""Shared helpers for jetjson's benchmarks (loads now; dumps, minify... later).

Nothing here knows about JSON libraries: a benchmark script builds a list of
``Contender`` objects and a way to make a fresh input, and this module times
them fairly, checks results, and prints tables.

How a measurement is taken (see ``alternate``):

* All contenders run in one process, interleaved: in each round every
  contender runs one batch, round-robin, in an order that is reversed on
  every round and rotated by one every two rounds.  No contender always runs
  first, last, or right after the same neighbour (whose leftovers in the
  caches and the allocator could help or hurt it), and slow drifts of the
  machine (frequency, other tenants) hit everybody alike.
* Each call gets a freshly made input (``make_input()``), built just before
  the call and outside the timed region, so no library can profit from
  something cached on the input object (a UTF-8 cache of a ``str``, a hash, a
  reused buffer) across calls.  The copy was just written, so its bytes sit in
  the CPU cache for every contender alike, as they would right after reading
  a socket or a file.
* Each call is timed on its own with ``time.perf_counter_ns``.  The cost of
  reading the clock, measured once (``timer_overhead_ns``), is subtracted.
* The value a call returns is dropped *inside* the timed region: freeing the
  result is part of the price of producing it, for every contender equally.
  (CPython frees it as soon as the call's statement ends, before the second
  clock read.)
* A round's batch has enough calls to last at least ``target_ns`` (about
  2 ms by default), calibrated per contender and per input.  The figure kept
  per round is the mean time per call in that batch; over the rounds we
  report the minimum (the least disturbed run, used for speeds and ratios)
  and the median.
* The cyclic garbage collector stays enabled by default, as users have it,
  with its default thresholds, but ``gc_prepared`` makes it treat every
  contender alike: the objects alive before timing (the harness, imported
  modules) are frozen with ``gc.freeze()``, and each batch starts with a
  ``gc.collect()`` outside the timed region, which returns all generation
  counters to zero.  Without that reset, when the collector's passes fall
  depends on what ran before, and the same parser registered under two
  names was measured 5-13% apart on GC-heavy documents.  Freezing keeps the
  reset cheap; collections during a call then scan only objects made since
  the reset (chiefly the result being built), as in a program with a small
  heap.  ``gc_prepared(disable=True)`` turns the collector off instead.
"""

from __future__ import annotations

import contextlib
import gc
import io
import math
import os
import pickle
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, List, Optional, Sequence

REPO = Path(__file__).resolve().parent.parent


def data_dir(arg: Optional[str] = None) -> Path:
    """The data folder (holding corpus/, JSONTestSuite/...): ``arg`` when given, else
    $JETJSON_DATA, else the repository's own data/."""
    if arg:
        return Path(arg)
    env = os.environ.get("JETJSON_DATA")
    return Path(env) if env else REPO / "data"


def corpus_arguments(ap: Any, rounds: int) -> None:
    """The options of a benchmark over the corpus files: --data, --files, --rounds,
    --target-ms."""
    ap.add_argument("--data", type=Path, default=data_dir() / "corpus",
                    help="folder of *.json files (default: <repo>/data/corpus or $JETJSON_DATA/corpus)")
    ap.add_argument("--files", default=None, help="comma-separated name fragments")
    ap.add_argument("--rounds", type=int, default=rounds)
    ap.add_argument("--target-ms", type=float, default=2.0)


def corpus_files(args: Any) -> List[Path]:
    """The *.json files of args.data whose names hold one of the --files fragments."""
    files = sorted(Path(args.data).glob("*.json"))
    if args.files:
        keys = args.files.split(",")
        files = [p for p in files if any(k in p.name for k in keys)]
    return files

__all__ = [
    "Contender",
    "Sample",
    "alternate",
    "calibrate",
    "timer_overhead_ns",
    "gc_prepared",
    "diff",
    "geomean",
    "render_table",
    "fmt_num",
    "fmt_ratio",
    "describe_environment",
]

Clock = Callable[[], int]


# --------------------------------------------------------------------------
# Timing
# --------------------------------------------------------------------------

@dataclass
class Contender:
    """One function under test.

    ``func`` is called with a single argument, the fresh input.  If
    ``make_input`` is given it overrides the benchmark-wide input factory for
    this contender only (for example to hand it a ``str`` instead of
    ``bytes``); that conversion is then outside the timed region.
    """

    name: str
    func: Callable[[Any], Any]
    make_input: Optional[Callable[[], Any]] = None


@dataclass
class Sample:
    """Timings of one contender on one input."""

    name: str
    calls_per_round: int
    per_call_ns: list = field(default_factory=list)  # one mean per round

    @property
    def best_ns(self) -> float:
        return min(self.per_call_ns)

    @property
    def median_ns(self) -> float:
        return statistics.median(self.per_call_ns)

    def to_dict(self) -> dict:
        return {
            "calls_per_round": self.calls_per_round,
            "per_call_ns": [round(x, 1) for x in self.per_call_ns],
            "best_ns": round(self.best_ns, 1),
            "median_ns": round(self.median_ns, 1),
        }


def _noop() -> None:
    return None


def _batch(func: Callable[[Any], Any], make_input: Callable[[], Any], n: int,
           clock: Clock = time.perf_counter_ns, reset: Callable[[], None] = _noop) -> int:
    """Total nanoseconds spent inside ``func`` over ``n`` calls.

    The input of each call is made right before it, outside the timed span;
    the previous input is released when ``x`` is rebound, also outside.  The
    result of ``func`` is discarded (and so freed) before the second clock
    read, i.e. inside the timed span.  ``reset`` runs first, untimed.
    """
    reset()
    total = 0
    for _ in range(n):
        x = make_input()
        t0 = clock()
        func(x)
        total += clock() - t0
    return total


def timer_overhead_ns(samples: int = 20000, clock: Clock = time.perf_counter_ns) -> float:
    """Smallest observed cost of the two clock reads around a timed call."""
    best = math.inf
    for _ in range(samples):
        t0 = clock()
        d = clock() - t0
        if d < best:
            best = d
    return float(best)


def calibrate(func: Callable[[Any], Any], make_input: Callable[[], Any], target_ns: float,
              *, max_calls: int = 1_000_000, clock: Clock = time.perf_counter_ns,
              reset: Callable[[], None] = _noop) -> int:
    """Number of calls that makes one batch last at least ``target_ns``.

    Also serves as the warm-up: the first call is made and thrown away.
    Each trial batch is run three times and the fastest kept, so that one
    disturbed run does not make the batches too short.
    """
    _batch(func, make_input, 1, clock, reset)
    n = 1
    while True:
        spent = min(_batch(func, make_input, n, clock, reset) for _ in range(3))
        if spent >= target_ns / 4 or n >= max_calls:
            break
        n = min(max_calls, n * 4)
    per_call = max(spent / n, 1.0)
    return max(1, min(max_calls, math.ceil(target_ns / per_call)))


def alternate(contenders: Sequence[Contender], make_input: Callable[[], Any], *,
              rounds: int, target_ns: float = 2e6, overhead_ns: float = 0.0,
              clock: Clock = time.perf_counter_ns,
              reset: Callable[[], None] = _noop,
              progress: Optional[Callable[[int, int], None]] = None) -> dict:
    """Time ``contenders`` in alternating rounds; return ``{name: Sample}``.

    Round ``r`` runs the contenders in list order when ``r`` is even and in
    reverse order when it is odd; every two rounds the list is also rotated
    by one, so each contender gets every position and every neighbour.
    Each contender runs its own calibrated number of calls per round (see
    ``calibrate``).  ``overhead_ns`` (from ``timer_overhead_ns``) is
    subtracted from every timed call.  ``reset`` (e.g. from ``gc_prepared``)
    runs, untimed, before every batch.
    """
    if rounds < 1:
        raise ValueError("rounds must be >= 1")
    inputs = {c.name: (c.make_input or make_input) for c in contenders}
    samples = {}
    for c in contenders:
        n = calibrate(c.func, inputs[c.name], target_ns, clock=clock, reset=reset)
        samples[c.name] = Sample(c.name, n)
    base = list(contenders)
    for r in range(rounds):
        k = (r // 2) % len(base)
        order = base[k:] + base[:k]
        if r % 2:
            order.reverse()
        for c in order:
            s = samples[c.name]
            spent = _batch(c.func, inputs[c.name], s.calls_per_round, clock, reset)
            s.per_call_ns.append(max(spent / s.calls_per_round - overhead_ns, 1.0))
        if progress is not None:
            progress(r + 1, rounds)
    return samples


@contextlib.contextmanager
def gc_prepared(disable: bool = False) -> Iterator[Callable[[], None]]:
    """Set up the cyclic GC for a timing block; yield the per-batch reset.

    ``disable=False`` (the default, as users have it): the collector stays
    enabled with its thresholds; what is alive now is collected and frozen
    (``gc.freeze``), and the reset is ``gc.collect()``, which is then cheap
    and puts every batch in the same GC state.  Unfrozen on exit.
    ``disable=True``: ``gc.disable()`` for the block; the reset does nothing.
    """
    was_enabled = gc.isenabled()
    gc.collect()
    if disable:
        gc.disable()
        try:
            yield _noop
        finally:
            if was_enabled:
                gc.enable()
        return
    can_freeze = hasattr(gc, "freeze")
    if can_freeze:
        gc.freeze()
    try:
        yield gc.collect
    finally:
        if can_freeze:
            gc.unfreeze()


# --------------------------------------------------------------------------
# Checking results
# --------------------------------------------------------------------------

def _kind(x: Any) -> str:
    """JSON kind of a Python value; order matters (bool is an int)."""
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, int):
        return "int"
    if isinstance(x, float):
        return "float"
    if isinstance(x, str):
        return "str"
    if isinstance(x, list):
        return "list"
    if isinstance(x, dict):
        return "dict"
    return type(x).__name__


def _same_float(a: float, b: float) -> bool:
    if a != a or b != b:  # NaN: equal to NaN only
        return a != a and b != b
    # 0.0 == -0.0 in Python; the sign bit is part of the value here.
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def _canonical_bytes(obj: Any) -> bytes:
    """Pickle with the memo off: depends on values, exact types and key order
    only, never on which objects happen to be shared."""
    buf = io.BytesIO()
    p = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    p.fast = True  # no memo: shared and unshared equal strings pickle alike
    p.dump(obj)
    return buf.getvalue()


def _short(x: Any, limit: int = 60) -> str:
    r = repr(x)
    return r if len(r) <= limit else r[: limit - 3] + "..."


def _path(node: Optional[tuple]) -> str:
    parts = []
    while node is not None:
        node, key = node
        parts.append(f"[{key!r}]")
    return "$" + "".join(reversed(parts))


def diff(expected: Any, actual: Any, *, exact: bool = True) -> Optional[str]:
    """Describe the first difference between two JSON-like values, or None.

    Both modes: NaN equals NaN, 0.0 differs from -0.0, ``True`` differs from
    ``1`` and ``1`` from ``1.0`` (unlike ``==``).

    ``exact=True``: types must be identical (``type(a) is type(b)``, so a
    dict subclass or a lazy proxy is a difference) and dict keys must come
    in the same order.
    ``exact=False``: values must have the same JSON kind (subclasses of
    dict/list/str/... are accepted) and dict key order is ignored.
    """
    # Fast path: identical canonical pickles mean identical values and types.
    try:
        if _canonical_bytes(expected) == _canonical_bytes(actual):
            return None
    except Exception:  # unpicklable proxy, too deep, ...: walk instead
        pass

    # Iterative walk; a node's path is kept as a linked (parent, key) pair
    # and only spelled out when a difference is found.
    stack = [(expected, actual, None)]
    while stack:
        e, a, where = stack.pop()
        if exact:
            if type(e) is not type(a):
                return (f"{_path(where)}: expected {type(e).__name__} {_short(e)}, "
                        f"got {type(a).__name__} {_short(a)}")
            kind = _kind(e)
        else:
            kind, akind = _kind(e), _kind(a)
            if kind != akind:
                return f"{_path(where)}: expected {kind} {_short(e)}, got {akind} {_short(a)}"
        if kind == "float":
            if not _same_float(e, a):
                return f"{_path(where)}: expected {e!r}, got {a!r}"
        elif kind == "list":
            if len(e) != len(a):
                return f"{_path(where)}: expected {len(e)} items, got {len(a)}"
            for i in range(len(e) - 1, -1, -1):
                stack.append((e[i], a[i], (where, i)))
        elif kind == "dict":
            ekeys, akeys = list(e.keys()), list(a.keys())
            if ekeys != akeys:
                if exact or set(ekeys) != set(akeys):
                    missing = [k for k in ekeys if k not in a][:3]
                    extra = [k for k in akeys if k not in e][:3]
                    if missing or extra:
                        return (f"{_path(where)}: keys differ (missing {missing}, "
                                f"unexpected {extra})")
                    if len(ekeys) != len(akeys):
                        return f"{_path(where)}: {len(ekeys)} keys expected, got {len(akeys)}"
                    first = next(i for i, (x, y) in enumerate(zip(ekeys, akeys)) if x != y)
                    return (f"{_path(where)}: key order differs at position {first} "
                            f"(expected {ekeys[first]!r}, got {akeys[first]!r})")
            for k in reversed(ekeys):
                stack.append((e[k], a[k], (where, k)))
        elif kind in ("int", "bool", "str", "null"):
            if e != a:
                return f"{_path(where)}: expected {_short(e)}, got {_short(a)}"
        elif e != a:
            return f"{_path(where)}: expected {_short(e)}, got {_short(a)}"
    return None


# --------------------------------------------------------------------------
# Numbers and tables
# --------------------------------------------------------------------------

def geomean(values: Iterable[Optional[float]]) -> Optional[float]:
    """Geometric mean of the positive values; None if there are none."""
    logs = [math.log(v) for v in values if v is not None and v > 0]
    if not logs:
        return None
    return math.exp(sum(logs) / len(logs))


def fmt_num(x: Optional[float], digits: int = 3) -> str:
    """A speed with ``digits`` significant digits (at least 2 decimals)."""
    if x is None:
        return "-"
    if x == 0:
        return "0"
    decimals = max(0, digits - 1 - int(math.floor(math.log10(abs(x)))))
    return f"{x:,.{min(decimals, 6)}f}"


def fmt_ratio(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:.2f}x"


def render_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], *,
                 align: Optional[str] = None, markdown: bool = False) -> str:
    """Format rows as an aligned text table or a Markdown table.

    ``align`` has one letter per column, ``l`` or ``r``; by default the first
    column is left-aligned and the others right-aligned.
    """
    ncol = len(headers)
    if align is None:
        align = "l" + "r" * (ncol - 1)
    cells = [[str(h) for h in headers]] + [
        [("" if v is None else str(v)) for v in row] + [""] * (ncol - len(row)) for row in rows
    ]
    if markdown:
        def esc(s: str) -> str:
            return s.replace("|", "\\|")
        out = ["| " + " | ".join(esc(c) for c in cells[0]) + " |",
               "|" + "|".join(("---:" if a == "r" else ":---") for a in align) + "|"]
        out += ["| " + " | ".join(esc(c) for c in row) + " |" for row in cells[1:]]
        return "\n".join(out)
    widths = [max(len(row[i]) for row in cells) for i in range(ncol)]

    def line(row: Sequence[str]) -> str:
        parts = [(c.ljust(w) if a == "l" else c.rjust(w)) for c, w, a in zip(row, widths, align)]
        return "  ".join(parts).rstrip()

    out = [line(cells[0]), "  ".join("-" * w for w in widths)]
    out += [line(row) for row in cells[1:]]
    return "\n".join(out)


# --------------------------------------------------------------------------
# Environment
# --------------------------------------------------------------------------

def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.lower().startswith(("model name", "hardware", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# The kernel names of the simdjson-based peers (pysimdjson, cysimdjson, fastsimdjson) for
# each of jetjson's ISAs: simdjson picks its widest kernel at run time, as jetjson does, so
# "jetjson on AVX2" is only a fair figure against simdjson on AVX2 too.
SIMDJSON_KERNELS = {"scalar": "fallback", "sse42": "westmere", "avx2": "haswell", "avx512": "icelake"}


def force_isa(isa: str) -> None:
    """Runs jetjson and the simdjson-based peers on the kernels of one ISA, as on a machine
    whose widest vectors are that ISA's. Both libraries read their variable
    (JETJSON_FORCE_ISA, SIMDJSON_FORCE_IMPLEMENTATION) once, when they first choose a
    kernel, so this must run before either is imported."""
    if isa not in SIMDJSON_KERNELS:
        raise ValueError(f"unknown ISA {isa!r}; one of {', '.join(SIMDJSON_KERNELS)}")
    loaded = [m for m in ("jetjson", "simdjson", "cysimdjson", "fastsimdjson") if m in sys.modules]
    if loaded:
        raise RuntimeError(f"force_isa() after {', '.join(loaded)} was imported")
    os.environ["JETJSON_FORCE_ISA"] = isa
    os.environ["SIMDJSON_FORCE_IMPLEMENTATION"] = SIMDJSON_KERNELS[isa]


def active_kernels() -> str:
    """Which kernels jetjson and pysimdjson run (what they report), for the output."""
    parts = []
    try:
        import jetjson
        parts.append(f"jetjson {jetjson.features().get('isa')}")
    except Exception as e:  # the report must not stop a benchmark
        parts.append(f"jetjson ? ({e!r})")
    try:
        import simdjson
        parts.append(f"simdjson {simdjson.Parser().implementation[0]}")
    except Exception:
        pass
    return ", ".join(parts)


def describe_environment() -> dict:
    """Facts about the machine and interpreter worth keeping with results."""
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "executable": sys.executable,
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "gc_enabled": gc.isenabled(),
        "gc_threshold": list(gc.get_threshold()),
        "clock_resolution_s": time.get_clock_info("perf_counter").resolution,
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
