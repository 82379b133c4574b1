"""How big and how fast are the animations of Klotski's 116-step solution?

Finds the plan by breadth-first search (not timed), writes it to a plan file, then times
the command ``puzzleplan show instances/seeds/klotski_seed000.slide --plan PLAN --gif OUT``
(the whole process: start-up, replay, drawing, writing) and the same for ``--html`` and
``--mp4``.  Appends one CSV row per file to benchmarks/animation/animation.csv.

    python benchmarks/animation/animation.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import puzzleplan as pp
from puzzleplan.bench.run import machine, versions
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
KLOTSKI = "instances/seeds/klotski_seed000.slide"
FIELDS = ["case", "format", "frames", "bytes", "seconds", "command", "machine", "versions"]


def timed(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - t0


def frames(path: Path, kind: str) -> int:
    if kind == "gif":
        return Image.open(path).n_frames
    if kind == "html":
        text = path.read_text()
        start = text.index('type="application/json">') + len('type="application/json">')
        return len(json.loads(text[start:text.index("</script>", start)])["frames"])
    import imageio_ffmpeg           # video frames: the positions, with the first and last held
    reader = imageio_ffmpeg.read_frames(str(path))
    next(reader)
    return sum(1 for _ in reader)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3, help="Runs per format; the fastest is kept.")
    args = ap.parse_args()
    inst = pp.load(ROOT / KLOTSKI)
    plan = pp.breadth_first_search(inst.problem, "steps")
    assert plan.length == 116, plan.length
    exe = str(Path(sys.executable).with_name("puzzleplan"))
    out_csv = ROOT / "benchmarks/animation/animation.csv"
    new = not out_csv.exists()
    with tempfile.TemporaryDirectory() as tmp, open(out_csv, "a", newline="") as f:
        writer = csv.DictWriter(f, FIELDS)
        if new:
            writer.writeheader()
        plan_file = Path(tmp) / "klotski116.json"
        plan_file.write_text(json.dumps({"steps": plan.steps}))
        for kind in ("gif", "html", "mp4"):
            out = Path(tmp) / f"klotski116.{kind}"
            shown = f"puzzleplan show {KLOTSKI} --plan klotski116.json --{kind} klotski116.{kind} --force"
            cmd = [exe, "show", KLOTSKI, "--plan", str(plan_file), f"--{kind}", str(out), "--force"]
            seconds = min(timed(cmd) for _ in range(args.repeat))
            row = {"case": "Klotski 116 steps", "format": kind, "frames": frames(out, kind),
                   "bytes": out.stat().st_size, "seconds": round(seconds, 2), "command": shown,
                   "machine": machine(), "versions": versions()}
            writer.writerow(row)
            print(row["format"], row["frames"], row["bytes"], row["seconds"])


if __name__ == "__main__":
    main()
