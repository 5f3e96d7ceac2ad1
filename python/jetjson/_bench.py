"""``python -m jetjson bench``: a self-contained speed check.

It needs nothing but jetjson and the standard library, so it runs right after
``pip install``.  Run from a clone of the repository, it times three files of
the corpus the repository carries (``data/corpus``: ``twitter.json``,
``citm_catalog.json``, ``canada.json``; another data folder with ``--data DIR``
or ``$JETJSON_DATA``).  Elsewhere, or with ``--generated``, the documents are
generated in memory, deterministically (``random.Random(1)``), to look like
common real-world JSON:

* ``twitter-like``: an array of status records with nested user objects,
  text in many scripts (Latin with accents, Cyrillic, Greek, Japanese,
  Chinese, Korean, Arabic, Devanagari, emoji), 64-bit ids, floats, bools and
  nulls; compact.
* ``geojson-like``: a FeatureCollection of polygons, mostly ``[lon, lat]``
  float pairs, half of them with full 17-digit precision; compact.
* ``catalog-like``: a wide, pretty-printed catalog object whose keys are
  numeric strings, with many small integers, nulls and accented names.

For each document the result of jetjson is first checked against ``json``
(deeply, Python types and key order included), then every contender is
timed: the contenders take turns, in an order reversed on every round; each
call gets a fresh copy of the input, made outside the timed region; the
result is freed inside it; the garbage collector is on and is reset before
each batch so that all contenders pay for the same collections.  The best of
N rounds is kept.  If ``orjson`` is
installed it is shown as an extra column.

Adding a contender or an operation is one line in ``CONTENDERS`` or
``OPERATIONS`` below.
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import io
import json
import math
import os
import pickle
import platform
import random
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

SUBJECT = "jetjson"
QUICK_ROUNDS, DEFAULT_ROUNDS = 10, 25
QUICK_TARGET_MS, DEFAULT_TARGET_MS = 3.0, 10.0


# --------------------------------------------------------------------------
# Documents
# --------------------------------------------------------------------------

@dataclass
class Document:
    name: str
    raw: bytes   # the JSON text, UTF-8
    value: Any   # json.loads(raw): the reference value


_WORDS = {
    "en": ("release build stream coffee night train city music window river open small "
           "fast quiet garden market update team weekend morning").split(),
    "fr": "été café déjà naïve élève forêt château crème où garçon fenêtre rêve".split(),
    "de": "Straße Grüße Mädchen über schön Käse Bahnhof Frühstück Brücke".split(),
    "es": "mañana niño año corazón canción señal está pequeño".split(),
    "ru": "привет мир данные поезд город музыка быстро окно река утро".split(),
    "el": "καλημέρα κόσμος δεδομένα πόλη μουσική γρήγορα θάλασσα".split(),
    "ja": ["こんにちは", "東京", "ありがとう", "コーヒー", "電車", "今日は", "天気", "データ", "速い", "駅"],
    "zh": ["你好", "世界", "数据", "城市", "音乐", "快速", "窗口", "早上"],
    "ko": ["안녕하세요", "서울", "데이터", "음악", "빠른", "아침"],
    "ar": "مرحبا عالم بيانات مدينة موسيقى سريع صباح".split(),
    "hi": "नमस्ते दुनिया डेटा शहर संगीत तेज़ सुबह".split(),
}
_LANGS = list(_WORDS)
_EMOJI = ["\U0001F600", "\U0001F680", "\U0001F389", "\U0001F44D\U0001F3FD", "\u2764\ufe0f",
          "\U0001F525", "\U0001F30D", "\u2615"]
_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def _text(rng: random.Random, lang: str, lo: int = 4, hi: int = 16) -> str:
    words = _WORDS[lang]
    sep = "" if lang in ("ja", "zh") else " "
    parts = [rng.choice(words) for _ in range(rng.randrange(lo, hi))]
    r = rng.random()
    if r < 0.3:
        parts.append(rng.choice(_EMOJI))
    elif r < 0.45:
        parts.insert(rng.randrange(len(parts)), "#" + rng.choice(_WORDS["en"]))
    elif r < 0.55:
        parts.append("https://t.example/%08x" % rng.getrandbits(32))
    text = sep.join(parts)
    r = rng.random()
    if r < 0.05:
        text = '"' + text + '"'           # escaped quotes
    elif r < 0.1:
        text += "\n\n" + rng.choice(words)  # escaped newlines
    elif r < 0.12:
        text += " C:\\temp\\" + rng.choice(_WORDS["en"])  # escaped backslashes
    return text


def _date(rng: random.Random) -> str:
    return "%s %s %02d %02d:%02d:%02d +0000 20%02d" % (
        rng.choice(_DAYS), rng.choice(_MONTHS), rng.randrange(1, 29), rng.randrange(24),
        rng.randrange(60), rng.randrange(60), rng.randrange(10, 25))


def _id64(rng: random.Random) -> int:
    return (1 << 59) | rng.getrandbits(59)  # above 2**53: not exact as a double


def _user(rng: random.Random) -> dict[str, Any]:
    uid = _id64(rng) if rng.random() < 0.5 else rng.randrange(1, 1 << 31)
    lang = rng.choice(_LANGS)
    name = _text(rng, lang, 1, 3)
    return {
        "id": uid,
        "id_str": str(uid),
        "name": name,
        "screen_name": "user_%x" % rng.getrandbits(28),
        "location": _text(rng, rng.choice(_LANGS), 1, 3) if rng.random() < 0.7 else "",
        "description": _text(rng, lang, 3, 20),
        "url": ("https://example.%s/%x" % (rng.choice(["com", "org", "jp"]), rng.getrandbits(24))
                if rng.random() < 0.4 else None),
        "protected": rng.random() < 0.05,
        "followers_count": rng.randrange(0, 2_000_000),
        "friends_count": rng.randrange(0, 5000),
        "listed_count": rng.randrange(0, 300),
        "created_at": _date(rng),
        "favourites_count": rng.randrange(0, 100_000),
        "utc_offset": rng.choice([None, 32400, -18000, 3600, 0, 19800]),
        "time_zone": rng.choice([None, "Tokyo", "Paris", "Moscow", "New Delhi", "Athens"]),
        "geo_enabled": rng.random() < 0.5,
        "verified": rng.random() < 0.02,
        "statuses_count": rng.randrange(0, 500_000),
        "lang": lang,
        "profile_background_color": "%06X" % rng.getrandbits(24),
        "profile_image_url_https": "https://pbs.example.com/profile_images/%d/%x_normal.jpeg"
                                   % (rng.getrandbits(40), rng.getrandbits(48)),
        "default_profile": rng.random() < 0.3,
        "following": None,
        "notifications": None,
    }


def _status(rng: random.Random, users: list[dict[str, Any]]) -> dict[str, Any]:
    sid = _id64(rng)
    lang = rng.choice(_LANGS)
    text = _text(rng, lang)
    hashtags = [{"text": rng.choice(_WORDS[lang]), "indices": sorted(rng.sample(range(140), 2))}
                for _ in range(rng.randrange(0, 3))]
    mentions = [{"screen_name": u["screen_name"], "name": u["name"], "id": u["id"],
                 "id_str": u["id_str"], "indices": [0, len(u["screen_name"]) + 1]}
                for u in (rng.choice(users) for _ in range(rng.randrange(0, 3)))]
    reply = rng.random() < 0.3
    return {
        "metadata": {"result_type": "recent", "iso_language_code": lang},
        "created_at": _date(rng),
        "id": sid,
        "id_str": str(sid),
        "text": text,
        "source": '<a href="https://example.com/app" rel="nofollow">App %d</a>' % rng.randrange(9),
        "truncated": False,
        "in_reply_to_status_id": _id64(rng) if reply else None,
        "in_reply_to_user_id": rng.randrange(1, 1 << 31) if reply else None,
        "user": dict(rng.choice(users)),
        "geo": None,
        "coordinates": ({"type": "Point", "coordinates": [rng.uniform(-180, 180), rng.uniform(-90, 90)]}
                        if rng.random() < 0.1 else None),
        "retweet_count": rng.randrange(0, 5000),
        "favorite_count": rng.randrange(0, 20000),
        "entities": {"hashtags": hashtags, "symbols": [], "urls": [], "user_mentions": mentions},
        "favorited": rng.random() < 0.1,
        "retweeted": rng.random() < 0.1,
        "possibly_sensitive": rng.choice([None, False, True]),
        "score": rng.random() * 100,
        "lang": lang,
    }


def twitter_like(rng: random.Random) -> Any:
    users = [_user(rng) for _ in range(200)]
    statuses = [_status(rng, users) for _ in range(700)]
    return {"statuses": statuses,
            "search_metadata": {"completed_in": 0.087, "max_id": statuses[0]["id"],
                                "max_id_str": statuses[0]["id_str"], "query": "%E6%9D%B1%E4%BA%AC",
                                "count": len(statuses), "since_id": 0, "since_id_str": "0"}}


def geojson_like(rng: random.Random) -> Any:
    features = []
    for i in range(100):
        lon, lat = rng.uniform(-170, 170), rng.uniform(-70, 70)
        precise = i % 2 == 0
        ring = []
        for _ in range(rng.randrange(200, 400)):
            lon += rng.uniform(-0.02, 0.02)
            lat += rng.uniform(-0.02, 0.02)
            ring.append([lon, lat] if precise else [round(lon, 6), round(lat, 6)])
        ring.append(list(ring[0]))
        features.append({
            "type": "Feature",
            "id": i,
            "properties": {"name": _text(rng, rng.choice(_LANGS), 1, 3),
                           "admin_level": rng.randrange(2, 10),
                           "area_km2": round(rng.uniform(1, 1e6), 3),
                           "population": rng.choice([None, rng.randrange(100, 40_000_000)])},
            "geometry": {"type": "Polygon", "coordinates": [ring]},
        })
    return {"type": "FeatureCollection", "features": features}


def catalog_like(rng: random.Random) -> Any:
    def ids(start: int, n: int) -> list[int]:
        out, x = [], start
        for _ in range(n):
            x += rng.randrange(1, 40)
            out.append(x)
        return out

    area_ids = ids(205705000, 500)
    topic_ids = ids(107888600, 60)
    seat_cat_ids = ids(338937200, 200)
    event_ids = ids(138586300, 800)
    names = _WORDS["fr"] + _WORDS["de"] + _WORDS["en"]

    def label() -> str:
        return " ".join(rng.choice(names) for _ in range(rng.randrange(1, 4))).capitalize()

    events = {}
    for eid in event_ids:
        events[str(eid)] = {
            "description": None,
            "id": eid,
            "logo": "/images/UE%010X" % rng.getrandbits(40) if rng.random() < 0.6 else None,
            "name": label(),
            "subTopicIds": rng.sample(topic_ids, rng.randrange(1, 5)),
            "subjectCode": None,
            "subtitle": None,
            "topicIds": rng.sample(topic_ids, rng.randrange(1, 3)),
        }
    performances = []
    for k in range(1100):
        cats = rng.sample(seat_cat_ids, rng.randrange(1, 5))
        performances.append({
            "eventId": rng.choice(event_ids),
            "id": 339887500 + k * 7,
            "logo": None,
            "name": None,
            "prices": [{"amount": rng.randrange(5, 400) * 50, "audienceSubCategoryId": 337100890,
                        "seatCategoryId": c} for c in cats],
            "seatCategories": [{"areas": [{"areaId": a, "blockIds": []}
                                          for a in rng.sample(area_ids, rng.randrange(1, 4))],
                                "seatCategoryId": c} for c in cats],
            "seatMapImage": None,
            "start": 1372701600000 + rng.randrange(0, 400) * 86_400_000,
            "venueCode": rng.choice(["PLEYEL_PLEYEL", "SALLE_GAVEAU", "OPERA_BASTILLE"]),
        })
    return {
        "areaNames": {str(a): label() for a in area_ids},
        "events": events,
        "performances": performances,
        "seatCategoryNames": {str(c): label() for c in seat_cat_ids},
        "topicNames": {str(t): label() for t in topic_ids},
    }


# (name, builder, json.dumps keyword arguments)
DOCUMENTS: list[tuple[str, Callable[[random.Random], Any], dict[str, Any]]] = [
    ("twitter-like", twitter_like, {"ensure_ascii": False, "separators": (",", ":")}),
    ("geojson-like", geojson_like, {"separators": (",", ":")}),
    ("catalog-like", catalog_like, {"ensure_ascii": False, "indent": 2}),
]


# the corpus files timed when a data folder is found: strings and ids, many small
# objects, floats
CORPUS_FILES = ("twitter.json", "citm_catalog.json", "canada.json")


def find_corpus(arg: Optional[str]) -> Optional[str]:
    """The folder of the corpus files: ``arg`` (a data folder or its corpus/), else
    $JETJSON_DATA, else ./data (a clone of the repository); None when none has them."""
    candidates = [arg] if arg else [os.environ.get("JETJSON_DATA"), "data"]
    for base in candidates:
        if not base:
            continue
        for folder in (os.path.join(base, "corpus"), base):
            if all(os.path.isfile(os.path.join(folder, n)) for n in CORPUS_FILES):
                return folder
    return None


def load_documents(folder: str) -> list[Document]:
    docs = []
    for name in CORPUS_FILES:
        with open(os.path.join(folder, name), "rb") as f:
            raw = f.read()
        docs.append(Document(name, raw, json.loads(raw)))
    return docs


def make_documents() -> list[Document]:
    rng = random.Random(1)
    docs = []
    for name, build, dump_kw in DOCUMENTS:
        raw = json.dumps(build(rng), **dump_kw).encode("utf-8")
        docs.append(Document(name, raw, json.loads(raw)))
    return docs


# --------------------------------------------------------------------------
# Checking
# --------------------------------------------------------------------------

def _canonical(obj: Any) -> bytes:
    buf = io.BytesIO()
    p = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    p.fast = True  # no memo: the bytes depend on values, types and order only
    p.dump(obj)
    return buf.getvalue()


def first_difference(expected: Any, actual: Any) -> Optional[str]:
    """None if equal with identical types and key order (NaN equals NaN,
    0.0 differs from -0.0), else where and how they differ."""
    try:
        if _canonical(expected) == _canonical(actual):
            return None
    except Exception:
        pass
    stack = [(expected, actual, "$")]
    while stack:
        e, a, path = stack.pop()
        if type(e) is not type(a):
            return f"{path}: expected {type(e).__name__}, got {type(a).__name__}"
        if isinstance(e, float):
            if (e != e) != (a != a) or (e == e and (e != a or math.copysign(1, e) != math.copysign(1, a))):
                return f"{path}: expected {e!r}, got {a!r}"
        elif isinstance(e, list):
            if len(e) != len(a):
                return f"{path}: expected {len(e)} items, got {len(a)}"
            stack.extend((e[i], a[i], f"{path}[{i}]") for i in range(len(e) - 1, -1, -1))
        elif isinstance(e, dict):
            if list(e) != list(a):
                return f"{path}: keys differ or are in another order"
            stack.extend((e[k], a[k], f"{path}[{k!r}]") for k in reversed(list(e)))
        elif e != a:
            return f"{path}: expected {e!r:.60}, got {a!r:.60}"
    return None


# --------------------------------------------------------------------------
# Operations and contenders
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Operation:
    fresh_input: Callable[[Document], Any]   # made before each call, not timed
    check: Callable[[Any, Document], Optional[str]]  # result -> None or a difference
    baseline: str = "json"
    checked: str = ""  # what the check compares, printed with its outcome


def _same_text_as_json(result: Any, doc: Document) -> Optional[str]:
    expected = json.dumps(doc.value)
    if result == expected:
        return None
    at = next((i for i, (a, b) in enumerate(zip(expected, result)) if a != b), min(len(expected), len(result)))
    return f"text differs from json.dumps at character {at}"


OPERATIONS = {
    "loads": Operation(lambda doc: bytes(bytearray(doc.raw)),
                       lambda result, doc: first_difference(doc.value, result),
                       checked="the value equals json.loads's: same types, values, float bits, "
                               "key order, compared deeply"),
    # a fresh object graph for every call, so no encoder meets objects another one warmed
    "dumps": Operation(lambda doc: pickle.loads(pickle.dumps(doc.value)), _same_text_as_json,
                       checked="the text equals json.dumps's, character for character"),
}


def _attr(module: str, name: str) -> Callable[[], Any]:
    return lambda: getattr(importlib.import_module(module), name)


# (operation, contender, factory of the function to time, required?).
# Optional contenders are left out quietly when they cannot be imported.
CONTENDERS = [
    ("loads", "json", _attr("json", "loads"), True),
    ("loads", SUBJECT, _attr("jetjson", "loads"), True),
    ("loads", "orjson", _attr("orjson", "loads"), False),
    ("dumps", "json", _attr("json", "dumps"), True),
    ("dumps", SUBJECT, _attr("jetjson", "dumps"), True),
]


# --------------------------------------------------------------------------
# Timing
# --------------------------------------------------------------------------

def _timed(func: Callable[[Any], Any], make: Callable[[], Any], n: int) -> int:
    """ns spent in ``n`` calls; inputs made outside the clock, results
    dropped (freed) inside it.  Starts from a fresh GC state, untimed."""
    gc.collect()
    clock = time.perf_counter_ns
    total = 0
    for _ in range(n):
        x = make()
        t0 = clock()
        func(x)
        total += clock() - t0
    return total


def _clock_overhead() -> int:
    clock = time.perf_counter_ns
    best = 1 << 62
    for _ in range(5000):
        t0 = clock()
        best = min(best, clock() - t0)
    return best


def _calls_for(func: Callable[[Any], Any], make: Callable[[], Any], target_ns: float) -> int:
    _timed(func, make, 1)  # warm-up
    n = 1
    while True:
        spent = min(_timed(func, make, n) for _ in range(3))  # robust to one bad run
        if spent >= target_ns / 4 or n >= 100_000:
            return max(1, math.ceil(target_ns * n / max(spent, 1)))
        n *= 4


def best_times(funcs: dict[str, Callable[[Any], Any]], make: Callable[[], Any], rounds: int, target_ns: float,
               overhead: int) -> dict[str, float]:
    """Best mean ns per call of each function over ``rounds`` rounds.

    The functions take turns, in an order reversed on every round and
    rotated every two rounds.  The garbage collector stays on, but what is
    alive now is frozen and each batch starts with a (cheap) gc.collect(),
    so every contender pays for the same collections.
    """
    gc.collect()
    freeze = getattr(gc, "freeze", None)
    if freeze is not None:
        freeze()
    try:
        calls = {name: _calls_for(f, make, target_ns) for name, f in funcs.items()}
        best = {name: math.inf for name in funcs}
        names = list(funcs)
        for r in range(rounds):
            k = (r // 2) % len(names)
            order = names[k:] + names[:k]
            for name in (order if r % 2 == 0 else order[::-1]):
                ns = _timed(funcs[name], make, calls[name]) / calls[name] - overhead
                best[name] = min(best[name], max(ns, 1.0))
        return best
    finally:
        if freeze is not None:
            gc.unfreeze()


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------

def _geomean(xs: list[float]) -> Optional[float]:
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def _table(headers: list[str], rows: list[list[str]]) -> str:
    cells = [headers] + rows
    widths = [max(len(str(r[i])) for r in cells) for i in range(len(headers))]
    lines = []
    for k, row in enumerate(cells):
        lines.append("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                               for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _mbps(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def run_operation(op_name: str, docs: list[Document], rounds: int, target_ns: float,
                  overhead: int) -> tuple[bool, dict[str, Optional[float]]]:
    """Print one operation's table; return (ok, {contender: geomean speedup})."""
    op = OPERATIONS[op_name]
    funcs, missing = {}, []
    for op_for, name, factory, required in CONTENDERS:
        if op_for != op_name:
            continue
        try:
            funcs[name] = factory()
        except (ImportError, AttributeError):
            if required:
                raise
            missing.append(name)
    others = [n for n in funcs if n != SUBJECT]
    ok = True
    checks = 0  # jetjson results compared with the baseline's
    rows: list[list[str]] = []
    notes: list[str] = []
    speeds: dict[str, list[float]] = {n: [] for n in funcs}
    ratios: dict[str, list[float]] = {n: [] for n in others}
    for doc in docs:
        marks, failed = {}, set()
        for name, f in funcs.items():
            if name == op.baseline:
                continue
            try:
                problem = op.check(f(op.fresh_input(doc)), doc)
                checks += name == SUBJECT
            except Exception as e:  # noqa: BLE001 - reported, not hidden
                problem = f"raised {type(e).__name__}: {e}"
                failed.add(name)
            if problem:
                marks[name] = "!" if name == SUBJECT else "*"
                notes.append(f"{marks[name]} {name}.{op_name} differs from "
                             f"{op.baseline}.{op_name} on {doc.name}: {problem}")
                ok = ok and name != SUBJECT
        runnable = {n: f for n, f in funcs.items() if n not in failed}
        best = best_times(runnable, functools.partial(op.fresh_input, doc), rounds, target_ns, overhead)
        size = len(doc.raw)
        row = [doc.name, f"{size / 1e6:.2f} MB"]
        for name in funcs:
            if name in failed:
                row.append("error")
                continue
            mbps = size / best[name] * 1e3  # bytes/ns -> MB/s
            speeds[name].append(mbps)
            row.append(_mbps(mbps) + marks.get(name, ""))
        for name in others:
            if name in failed or SUBJECT in failed:
                row.append("-")
                continue
            ratio = best[name] / best[SUBJECT]  # = speed of jetjson / speed of the other
            ratios[name].append(ratio)
            row.append(f"{ratio:.2f}x")
        rows.append(row)
    geo = {n: _geomean(r) for n, r in ratios.items()}
    rows.append(["geomean", ""] + [_mbps(_geomean(speeds[n])) for n in funcs]
                + [("-" if geo[n] is None else f"{geo[n]:.2f}x") for n in others])
    headers = ["document", "size"] + [f"{n} MB/s" for n in funcs] + [f"{SUBJECT}/{n}" for n in others]
    print(f"\n{op_name}: best of {rounds} rounds, MB/s of JSON (higher is better)")
    print(_table(headers, rows))
    for note in notes:
        print(note)
    same = checks - sum(1 for n in notes if n.startswith("!"))
    print(f"checked before timing: {SUBJECT}.{op_name} on each of the {len(docs)} documents: "
          f"{op.checked} -> {same} of {len(docs)} the same"
          + ("" if same == len(docs) else " (see the ! lines)"))
    if missing:
        print(f"(not installed, so not shown: {', '.join(missing)})")
    return ok, geo


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true",
                        help=f"a short run (a few seconds): {QUICK_ROUNDS} rounds")
    parser.add_argument("--rounds", type=int, default=None,
                        help=f"timed rounds per document (default {DEFAULT_ROUNDS})")
    parser.add_argument("--op", action="append", choices=sorted(OPERATIONS), default=None,
                        help="operation to time (repeatable; default: all)")
    parser.add_argument("--data", default=None, metavar="DIR",
                        help="data folder holding corpus/ (default: $JETJSON_DATA, else ./data "
                             "when run from a clone of the repository)")
    parser.add_argument("--generated", action="store_true",
                        help="time documents generated in memory, not the corpus files")


def run(args: argparse.Namespace) -> int:
    import jetjson

    rounds = args.rounds if args.rounds is not None else (QUICK_ROUNDS if args.quick
                                                           else DEFAULT_ROUNDS)
    if rounds < 1:
        print("error: --rounds must be >= 1", file=sys.stderr)
        return 2
    target_ns = (QUICK_TARGET_MS if args.quick else DEFAULT_TARGET_MS) * 1e6
    try:
        found = jetjson.features()
        isa = found.get("isa") if isinstance(found, dict) else None
        feats = f"(isa: {isa})" if isa else ""
    except Exception as e:  # noqa: BLE001 - the bench can still run
        feats = f"(features() failed: {e!r})"
    print(f"jetjson {getattr(jetjson, '__version__', '?')} {feats}".rstrip())
    print(f"Python {platform.python_version()} ({platform.python_implementation()}) on "
          f"{platform.machine()}, {platform.system()}; GC {'on' if gc.isenabled() else 'off'}")
    t0 = time.perf_counter()
    corpus = None if args.generated else find_corpus(args.data)
    if args.data and corpus is None and not args.generated:
        print(f"error: no {', '.join(CORPUS_FILES)} in {args.data} or {args.data}/corpus",
              file=sys.stderr)
        return 2
    docs = load_documents(corpus) if corpus else make_documents()
    where = f"read from {corpus}" if corpus else f"generated in {time.perf_counter() - t0:.1f} s"
    print("documents: " + ", ".join(f"{d.name} {len(d.raw) / 1e6:.2f} MB" for d in docs)
          + f" ({where})")
    overhead = _clock_overhead()
    all_ok = True
    for op_name in (args.op or list(OPERATIONS)):
        ok, geo = run_operation(op_name, docs, rounds, target_ns, overhead)
        all_ok = all_ok and ok
        summary = ", ".join(f"{g:.2f}x vs {n}" for n, g in geo.items() if g)
        print(f"=> jetjson.{op_name} speedup (geometric mean): {summary}")
    print(f"\ntotal {time.perf_counter() - t0:.1f} s")
    if not all_ok:
        print("jetjson gave a different result from json (marked !): please report this.",
              file=sys.stderr)
        return 1
    return 0
