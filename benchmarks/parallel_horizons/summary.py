"""The table of the README from results.jsonl: per point and configuration, the answer, the
conflicts (the same in every round), the wall and CPU seconds (the least and the most of the
rounds), the 1-minute load average seen around those runs, and the run's critical path: the
conflicts (and the solver's CPU seconds) of the slowest horizon of each batch, summed (for the
serial run: all of them) -- what the wall time would follow with a free core per worker.

    python benchmarks/parallel_horizons/summary.py benchmarks/parallel_horizons/results.jsonl
"""
import json
import sys
from collections import defaultdict

CONFIGS = ["serial", "serial-no-first-plan", "jobs2"]


def critical(result: dict) -> tuple[int, float]:
    rows = result.get("horizons", [])
    jobs = result.get("jobs", 1)
    if jobs == 1:
        return sum(r.get("conflicts") or 0 for r in rows), None
    batches = [rows[i:i + jobs] for i in range(0, len(rows), jobs)]
    return (sum(max(r.get("conflicts") or 0 for r in b) for b in batches),
            sum(max(r.get("cpu") or 0 for r in b) for b in batches))


def span(v, fmt="{:.1f}"):
    v = sorted(v)
    return fmt.format(v[0]) if fmt.format(v[0]) == fmt.format(v[-1]) else f"{fmt.format(v[0])}-{fmt.format(v[-1])}"


def main(path: str) -> None:
    runs = defaultdict(list)
    with open(path) as fh:
        for line in fh:
            row = json.loads(line)
            runs[(row["point"], row["config"])].append(row)
    points = list(dict.fromkeys(p for p, _ in runs))
    print("| point | run | answer | conflicts | critical path: conflicts (solver CPU s) | wall s | CPU s | load (1 min) |")
    print("|---|---|---|---|---|---|---|---|")
    for point, config in sorted(runs, key=lambda k: (points.index(k[0]), CONFIGS.index(k[1]))):
        rows = runs[(point, config)]
        answers = {f"{r['status']} {r['length'] or ''}".strip() + (f" (bound {r['bound']})" if r["bound"] else "")
                   for r in rows}
        paths = [critical(r["result"]) for r in rows]
        path_text = span([p[0] for p in paths], "{:,}")
        if paths[0][1] is not None:
            path_text += f" ({span([p[1] for p in paths])})"
        print(f"| {point} | {config} | {' / '.join(sorted(answers))} | "
              f"{span([r['conflicts'] or 0 for r in rows], '{:,}')} | {path_text} | "
              f"{span([r['wall_s'] for r in rows])} | {span([r['cpu_s'] for r in rows])} | "
              f"{span([x for r in rows for x in (r['load1_before'], r['load1_after'])])} |")


if __name__ == "__main__":
    main(sys.argv[1])
