"""Seeded generator of the large inputs bench_cli.py times (never committed: written to a
temporary folder by the bench, or wherever ``--out`` says).

    python bench/gen_cli_data.py --json big.json --mb 100
    python bench/gen_cli_data.py --ndjson big.ndjson --mb 1000

The documents look like an API dump: records with ids, names (mostly ASCII, some
accented or CJK text), timestamps, floats with full precision, booleans, nulls, tags and
a nested object. They are written by ``json.dumps`` so that every number is spelled as
Python spells it (the same text ``json.tool`` would write back).
"""

from __future__ import annotations

import argparse
import json
import random

_WORDS = ("alpha beta gamma delta river stone cloud market train window garden music "
          "quiet fast small open north south update build").split()
_INTL = ["café", "naïve", "Straße", "привет", "東京", "데이터", "καλημέρα"]


def _record(rng: random.Random, i: int) -> dict:
    name = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 4)))
    if rng.random() < 0.1:
        name += " " + rng.choice(_INTL)
    return {
        "id": 10_000_000_000 + i,
        "name": name,
        "active": rng.random() < 0.7,
        "score": rng.random() * 1000,
        "count": rng.randint(-5000, 500000),
        "ratio": round(rng.random(), 3),
        "created": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T12:00:00Z",
        "tags": [rng.choice(_WORDS) for _ in range(rng.randint(0, 5))],
        "owner": {"login": rng.choice(_WORDS) + str(rng.randint(1, 9999)),
                  "site_admin": False, "manager": None},
        "location": [round(rng.uniform(-180, 180), 6), round(rng.uniform(-90, 90), 6)],
    }


def records(seed: int, target_bytes: int):
    """Compact JSON texts of records, in order, until about target_bytes."""
    rng = random.Random(seed)
    total = i = 0
    while total < target_bytes:
        text = json.dumps(_record(rng, i), ensure_ascii=False, separators=(",", ":"))
        total += len(text.encode()) + 1
        i += 1
        yield text


def write_json(path: str, mb: float, seed: int = 1) -> None:
    """One JSON array of records, compact, about `mb` megabytes (10^6 bytes)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write("[")
        for k, text in enumerate(records(seed, int(mb * 1e6))):
            f.write(("," if k else "") + text)
        f.write("]\n")


def write_ndjson(path: str, mb: float, seed: int = 2) -> None:
    """NDJSON: one record a line, about `mb` megabytes."""
    with open(path, "w", encoding="utf-8") as f:
        batch = []
        for text in records(seed, int(mb * 1e6)):
            batch.append(text)
            if len(batch) == 4096:
                f.write("\n".join(batch) + "\n")
                batch.clear()
        if batch:
            f.write("\n".join(batch) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", metavar="PATH", help="write one JSON array here")
    ap.add_argument("--ndjson", metavar="PATH", help="write NDJSON here")
    ap.add_argument("--mb", type=float, default=100.0, help="size in MB (default 100)")
    args = ap.parse_args()
    if args.json:
        write_json(args.json, args.mb)
    if args.ndjson:
        write_ndjson(args.ndjson, args.mb)


if __name__ == "__main__":
    main()
