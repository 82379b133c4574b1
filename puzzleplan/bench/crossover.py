"""Who wins where: SAT against search on generated instance series (``puzzleplan report``).

A results file's rows whose instance is a generated point (``FAMILY-SERIES-PARAMVALUE-sSEED``,
see :mod:`puzzleplan.series`) are read as series.  For each point: the best time among the
SAT methods and among the search methods (BFS, A*, the PDDL planners), counting only proven
answers (optimal, or proven unsolvable); their ratio, and whether it is censored (one side
proved nothing within the time limit: the ratio is then a bound, "at least").  From those:
a table per series (points each side wins by 10x or more, where the winner changes) and two
figures: the time of every method along each series (``crossover.png``) and a map per family
(``who_wins.png``: x the optimal length, y the states BFS expanded, colour the log ratio).
"""
from __future__ import annotations

import math
import textwrap
from pathlib import Path

from ..puzzle import PuzzleError
from ..series import point_of

PROVEN = ("optimal", "unsolvable")
WIN = 10.0          # "wins by 10x or more"


def side_of(method: str) -> str | None:
    """``"sat"`` or ``"search"`` (a search or a PDDL planner), None for a method not known here."""
    from ..plugins import PLANNER, SAT, SEARCH, parse
    try:
        kind = parse(method)[0].kind
    except PuzzleError:
        return None
    return "sat" if kind == SAT else "search" if kind in (SEARCH, PLANNER) else None


def series_rows(df):
    """The rows of generated points, with family, series, parameter and value columns."""
    import pandas as pd
    found = [point_of(label.split(":")[0]) for label in df["label"]]
    keep = [p is not None for p in found]
    out = df[keep].copy()
    if not len(out):
        return out
    for key in ("family", "series", "parameter", "value", "seed"):
        out[key] = [p[key] for p in found if p is not None]
    out["side"] = [side_of(m) for m in out["method"]]
    out["time_limit"] = pd.to_numeric(out.get("time_limit", float("nan")), errors="coerce")
    return out[out["side"].notna()]


def winners(rows):
    """One row per generated point: best proven time per side, the ratio SAT / search (below
    1: SAT faster), whether it is a bound, the optimum and BFS's states."""
    import pandas as pd
    out = []
    for label, g in rows.groupby("label", sort=False):
        first = g.iloc[0]
        limit = g["time_limit"].max()
        best = {}
        for side in ("sat", "search"):
            mine = g[(g["side"] == side) & g["status"].isin(PROVEN)]
            ran = g[g["side"] == side]
            best[side] = (mine.loc[mine["seconds"].idxmin()] if len(mine) else None, len(ran))
        (sat, n_sat), (search, n_search) = best["sat"], best["search"]
        if not n_sat or not n_search:
            continue
        if sat is not None and search is not None:
            ratio, censored = sat["seconds"] / max(search["seconds"], 1e-3), ""
        elif sat is not None:           # no search method proved it within the limit
            ratio, censored = sat["seconds"] / limit if limit == limit else float("nan"), "sat"
        elif search is not None:
            ratio, censored = limit / max(search["seconds"], 1e-3) if limit == limit else float("nan"), "search"
        else:
            ratio, censored = float("nan"), "none"
        optimal = g.loc[g["status"] == "optimal", "length"]
        bfs = g[g["method"] == "bfs"]
        states = bfs["expanded"].max() if len(bfs) and "expanded" in bfs else float("nan")
        out.append({"label": label, "family": first["family"], "series": first["series"],
                    "parameter": first["parameter"], "value": first["value"], "seed": first["seed"],
                    "optimum": optimal.min() if len(optimal) else float("nan"),
                    "states": states, "states_complete": bool(len(bfs) and bfs["status"].isin(PROVEN).any()),
                    "sat_method": sat["method"] if sat is not None else "", "sat_seconds":
                    sat["seconds"] if sat is not None else float("nan"),
                    "search_method": search["method"] if search is not None else "",
                    "search_seconds": search["seconds"] if search is not None else float("nan"),
                    "ratio": ratio, "censored": censored, "limit": limit})
    return pd.DataFrame(out)


def winner(w) -> str:
    """``"sat"`` or ``"search"``: the side alone to prove a point (even when its proof came a
    little after the time limit, its ratio then just above 1), else the faster."""
    if w["censored"] in ("sat", "search"):
        return w["censored"]
    return "sat" if w["ratio"] < 1 else "search"


def verdict(w) -> str:
    """Who wins a point: ``SAT 12x``, ``tie`` (within 2x), ``neither``; a point only one side
    proved within the limit is that side's, however near the limit: ``search >=30x (alone)``,
    ``SAT >=1.5x (alone)`` (the ratio a bound: the time limit over the proof's time)."""
    if w["censored"] == "none" or w["ratio"] != w["ratio"]:
        return "neither"
    side, times = ("SAT", 1 / w["ratio"]) if winner(w) == "sat" else ("search", w["ratio"])
    if w["censored"]:
        return f"{side} >={times:.0f}x (alone)" if times >= 2 else f"{side} >={times:.1f}x (alone)"
    return f"{side} {times:.0f}x" if times >= 2 else "tie"


def crossover_of(g) -> str:
    """Where the winner changes along a series (sorted by value): ``n=4`` (the first value
    of the new winner), several if it changes back, or ``none``."""
    seq = [(row["value"], winner(row)) for _, row in g.sort_values("value").iterrows()
           if row["censored"] != "none" and row["ratio"] == row["ratio"]]
    changes = [f"{g['parameter'].iloc[0]}={v} ({side})" for (_, a), (v, side) in zip(seq, seq[1:]) if a != side]
    return ", ".join(changes) or "none"


def table(w) -> list[str]:
    """Per series: points, where each side wins by 10x or more or alone proves the optimum, the
    crossover."""
    if not len(w):
        return []
    lines = ["| series | points | SAT wins >=10x or alone | search wins >=10x or alone | winner changes at | largest point |",
             "|---|---|---|---|---|---|"]
    for (family, series), g in w.groupby(["family", "series"], sort=True):
        def at(mask, side):
            vals = sorted(set(g.loc[mask, "value"]))
            alone = set(g.loc[mask & (g["censored"] == side), "value"])
            return ", ".join(f"{g['parameter'].iloc[0]}={v}" + (" (alone)" if v in alone else "")
                             for v in vals) or "-"
        sat_wins = (g["ratio"] <= 1 / WIN) | (g["censored"] == "sat")
        search_wins = (g["ratio"] >= WIN) | (g["censored"] == "search")
        last = g.sort_values("value").iloc[-1]
        lines.append(f"| {family}/{series} | {len(g)} | {at(sat_wins, 'sat')} | {at(search_wins, 'search')} | {crossover_of(g)} | "
                     f"{last['parameter']}={last['value']}: {verdict(last)} |")
    return lines


def detail(w) -> list[str]:
    """Every point: best SAT and best search method and time."""
    lines = ["| point | optimum | BFS states | best SAT | best search | verdict |", "|---|---|---|---|---|---|"]

    def fmt(method, secs):
        return f"{method} {secs:.2f} s" if method else "none"
    for _, r in w.sort_values(["family", "series", "value", "seed"]).iterrows():
        states = "-" if r["states"] != r["states"] else f"{int(r['states']):,}" + ("" if r["states_complete"] else "+")
        opt = "-" if r["optimum"] != r["optimum"] else str(int(r["optimum"]))
        lines.append(f"| {r['label']} | {opt} | {states} | {fmt(r['sat_method'], r['sat_seconds'])} | "
                     f"{fmt(r['search_method'], r['search_seconds'])} | {verdict(r)} |")
    return lines


def plot_crossover(rows, path: Path, subplots) -> bool:
    """Seconds of every method along each series; runs without a proof at the limit, as x."""
    groups = list(rows.groupby(["family", "series"], sort=True))
    if not groups:
        return False
    cols = min(3, len(groups))
    nrows = math.ceil(len(groups) / cols)
    fig, axes = subplots(nrows, cols, figsize=(4.6 * cols, 3.4 * nrows), squeeze=False)
    for ax in axes.flat[len(groups):]:
        ax.set_visible(False)
    for ax, ((family, series), g) in zip(axes.flat, groups):
        for method, m in g.groupby("method", sort=True):
            m = m.sort_values("value")
            ok = m[m["status"].isin(PROVEN)].groupby("value")["seconds"].median()
            style = "-" if m["side"].iloc[0] == "sat" else "--"
            line, = ax.plot(ok.index, ok.values, style, marker="o", ms=3, label=method)
            lost = m[~m["status"].isin(PROVEN)]
            if len(lost):
                ax.scatter(lost["value"], lost["time_limit"], marker="x", color=line.get_color(), s=25)
        ax.set_yscale("log")
        ax.set_title(f"{family}/{series}", fontsize=9)
        ax.set_xlabel(g["parameter"].iloc[0], fontsize=8)
        ax.set_ylabel("seconds", fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=6)
    width = max(40, int(4.6 * cols * 14))       # characters a line of the title holds at this size
    fig.suptitle(textwrap.fill("Time along each series (solid: SAT, dashed: search; x: no proof within the limit)",
                               width), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")
    return True


#: who wins a point, by the ratio of the best SAT time to the best search time: (name, colour)
WINNERS = (("SAT faster (ratio < 1/1.5)", "#2166ac"), ("within 1.5x", "#bdbdbd"),
           ("search faster (ratio > 1.5)", "#b2182b"))


def winner_class(ratio: float) -> int:
    """0: SAT faster, 1: within 1.5x either way, 2: search faster."""
    return 0 if ratio < 1 / 1.5 else 2 if ratio > 1.5 else 1


def ratio_label(ratio: float) -> str:
    """How many times faster the winner was (its colour says which): ``12x``."""
    ratio = min(max(ratio, 1e-9), 1e9)
    times = max(ratio, 1 / ratio)
    return f"{times:.2g}x" if times < 100 else f"{times:,.0f}x"


def plot_map(w, path: Path, subplots) -> bool:
    """Per family: x the optimal length, y the states BFS expanded (hollow: a lower bound, BFS
    timed out); the colour names the winner (a legend of words), and each point carries how many
    times faster it was (``12x``); triangles: only SAT proved it, squares: only search did."""
    from matplotlib.lines import Line2D
    w = w[w["censored"] != "none"]
    w = w[w["optimum"] == w["optimum"]]
    families = sorted(set(w["family"]))
    if not families:
        return False
    fig, axes = subplots(1, len(families), figsize=(4.8 * len(families) + 0.8, 4.2), squeeze=False)
    for ax, family in zip(axes.flat, families):
        g = w[w["family"] == family]
        for censored, marker in (("", "o"), ("sat", "^"), ("search", "s")):
            for complete in (True, False):
                p = g[(g["censored"] == censored) & (g["states_complete"] == complete)]
                if not len(p):
                    continue
                colours = [WINNERS[winner_class(r)][1] for r in p["ratio"]]
                ax.scatter(p["optimum"], p["states"].clip(lower=1), c=colours, marker=marker, s=46, edgecolors="k",
                           linewidths=0.6 if complete else 1.6, alpha=1 if complete else 0.75)
                for x, y, r in zip(p["optimum"], p["states"].clip(lower=1), p["ratio"]):
                    ax.annotate(ratio_label(r), (x, y), xytext=(4, 3), textcoords="offset points", fontsize=6)
        ax.set_yscale("log")
        ax.set_title(family, fontsize=10)
        ax.set_xlabel("optimal length", fontsize=8)
        if family == families[0]:
            ax.set_ylabel("states BFS expanded\n(thick ring: BFS timed out there)", fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
    handles = [Line2D([], [], marker="o", linestyle="", markerfacecolor=c, markeredgecolor="k", label=name)
               for name, c in WINNERS]
    handles += [Line2D([], [], marker=m, linestyle="", markerfacecolor="white", markeredgecolor="k", label=name)
                for m, name in (("o", "both proved the optimum"), ("^", "only SAT proved it"),
                                ("s", "only search proved it"))]
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=7, frameon=False, bbox_to_anchor=(0.5, -0.08))
    fig.suptitle("SAT against search: who wins where (points: how many times faster the winner was)", fontsize=10)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    return True
