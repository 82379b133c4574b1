"""Which pysat.card encoding should lower move counts by default?

Solves constrained instances with every encoding (CaDiCaL 1.9.5, optimal
deepening) and appends one CSV row per run to benchmarks/card_encodings/card_encodings.csv.

    python benchmarks/card_encodings/card_encodings.py [--repeat N]
"""
from __future__ import annotations

import argparse
import csv
import platform
import time
from pathlib import Path

import puzzleplan as pp
from puzzleplan.encodings.lower import CARD_ENCODINGS as ENCODINGS

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    ("card 40, A>=3", "seeds/rushhour_card40_bmodel_v2.rh", "slides", ["A.moves>=3"]),
    ("card 40, A+B<=12", "seeds/rushhour_card40_bmodel_v2.rh", "slides", ["A+B.moves<=12"]),
    ("card 40, A=9", "seeds/rushhour_card40_bmodel_v2.rh", "slides", ["A.moves=9"]),
    ("seed 003 (B or G =8)", "seeds/knights_seed003.knights", "steps", []),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--out", default=str(ROOT / "benchmarks/card_encodings/card_encodings.csv"))
    args = ap.parse_args()
    new = not Path(args.out).exists()
    with open(args.out, "a", newline="") as fh:
        w = csv.writer(fh)
        if new:
            w.writerow(["case", "encoding", "status", "length", "seconds", "vars", "clauses", "machine"])
        for name, rel, metric, cons in CASES:
            path, _, level = rel.partition(":")
            inst = pp.load(ROOT / "instances" / path, int(level) if level else None, constraints=cons)
            for enc in ENCODINGS:
                for _ in range(args.repeat):
                    t = time.perf_counter()
                    r = pp.solve(inst.problem, metric, "pysat", card_encoding=enc)
                    secs = time.perf_counter() - t
                    last = r.horizons[-1] if r.horizons else {}
                    w.writerow([name, enc, r.status.value, r.length, f"{secs:.2f}", last.get("vars"),
                                last.get("clauses"), f"{platform.machine()} {platform.processor() or ''}".strip()])
                    fh.flush()
                    print(name, enc, r.status.value, r.length, f"{secs:.2f}s", flush=True)


if __name__ == "__main__":
    main()
