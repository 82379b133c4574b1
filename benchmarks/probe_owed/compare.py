"""before.csv against after.csv (latest row of each run): per instance, and in sums per
group (the crossover's series, the ThinkFun cards, the seeds).  From the checkout:
    python benchmarks/probe_owed/compare.py > benchmarks/probe_owed/compare.md"""
from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent


def latest(name: str) -> pd.DataFrame:
    df = pd.read_csv(HERE / name)
    df["level"] = df["level"].fillna(0).astype(int)
    df["name"] = df["instance"].map(lambda p: Path(p).stem) + df["level"].map(lambda n: f" #{n}" if n else "")
    return df.groupby("name").tail(1).set_index("name")


def group(name: str) -> str:
    m = re.match(r"([a-z]+-[a-z]+)-", name)
    return m.group(1).replace("-", "/") if m else "thinkfun40" if name.startswith("thinkfun40") else "seeds"


def cell(row) -> str:
    return f"{row.status} {'' if pd.isna(row.length) else int(row.length)}".strip()


def main() -> None:
    b, a = latest("before.csv"), latest("after.csv")
    names = [n for n in a.index if n in b.index]
    print("| instance | before | after | s before | s after | before / after |")
    print("|---|---|---|---|---|---|")
    for n in names:
        x, y = b.loc[n], a.loc[n]
        ratio = x.seconds / y.seconds if y.seconds > 0 else float("nan")
        print(f"| {n} | {cell(x)} | {cell(y)} | {x.seconds:.2f} | {y.seconds:.2f} | {ratio:.2f} |")
    print()
    print("| group | runs | optimal before | optimal after | s before | s after | differing optima |")
    print("|---|---|---|---|---|---|---|")
    for g in sorted({group(n) for n in names}):
        ns = [n for n in names if group(n) == g]
        ob = sum(b.loc[n].status == "optimal" for n in ns)
        oa = sum(a.loc[n].status == "optimal" for n in ns)
        differ = sum(1 for n in ns if b.loc[n].status == a.loc[n].status == "optimal"
                     and b.loc[n].length != a.loc[n].length)
        print(f"| {g} | {len(ns)} | {ob} | {oa} | {sum(b.loc[n].seconds for n in ns):.1f} | "
              f"{sum(a.loc[n].seconds for n in ns):.1f} | {differ} |")


if __name__ == "__main__":
    main()
