"""Summaries and plots of a results file (``puzzleplan report``).

Tables (Markdown): per method the runs and their statuses, total and median
seconds; per method the median time ratio to a baseline over the instances both
solved optimally; and any disagreement between optimal lengths (which would be
a bug).  Plots (PNG, matplotlib): a cactus plot (instances solved -- optimal or proven
unsolvable; runs that only found a plan are drawn apart, dashed -- against time),
time against optimal length, and the cost of each SAT horizon; on generated instance series
(:mod:`.crossover`), SAT against search per series and a map of who wins where.
"""
from __future__ import annotations

from pathlib import Path

from ..puzzle import PuzzleError
from . import crossover

PROVEN = ("optimal", "unsolvable")     # an answer with a proof: these count as solved


def status_table(df) -> list[str]:
    statuses = [s for s in ("optimal", "feasible", "no_plan_within", "unsolvable", "timeout", "memout", "error",
                                "refused")
                if s in set(df["status"])]
    lines = ["| method | runs | " + " | ".join(statuses) + " | total s | median s (optimal) |",
             "|---|---|" + "---|" * len(statuses) + "---|---|"]
    for method, g in df.groupby("method", sort=True):
        counts = [int((g["status"] == s).sum()) for s in statuses]
        solved = g.loc[g["status"] == "optimal", "seconds"]
        median = f"{solved.median():.2f}" if len(solved) else "-"
        lines.append(f"| {method} | {len(g)} | " + " | ".join(map(str, counts)) +
                     f" | {g['seconds'].sum():.1f} | {median} |")
    return lines


def ratio_table(df, baseline: str | None = None) -> list[str]:
    opt = df[df["status"] == "optimal"]
    methods = sorted(set(df["method"]))
    if not methods:
        return []
    baseline = baseline or ("bfs" if "bfs" in methods else methods[0])
    base = opt[opt["method"] == baseline].set_index(["label", "metric"])["seconds"]
    lines = [f"| method | both optimal | median time / {baseline} | fastest on |", "|---|---|---|---|"]
    pivot = opt.pivot_table(index=["label", "metric"], columns="method", values="seconds", aggfunc="min")
    for m in methods:
        mine = opt[opt["method"] == m].set_index(["label", "metric"])["seconds"]
        both = mine.index.intersection(base.index)
        ratio = (mine.loc[both] / base.loc[both].clip(lower=1e-4)).median() if len(both) else float("nan")
        fastest = int((pivot.idxmin(axis=1) == m).sum()) if m in pivot else 0
        lines.append(f"| {m} | {len(both)} | {ratio:.2f} | {fastest} |")
    return lines


def disagreements(df) -> list[str]:
    """Instances where methods report different optimal lengths."""
    opt = df[df["status"] == "optimal"]
    out = []
    for (label, metric), g in opt.groupby(["label", "metric"]):
        if g["length"].nunique() > 1:
            out.append(f"{label} {metric}: " + ", ".join(f"{m}={int(n)}" for m, n in zip(g["method"], g["length"])))
    return out


def cactus(df) -> dict[str, tuple[int, list[float], list[float]]]:
    """Per method: its runs, the sorted seconds of the solved ones (optimal or proven
    unsolvable), and the same with the runs that found a plan without proving it optimal."""
    out = {}
    for method, g in df.groupby("method"):
        out[method] = (len(g), sorted(g.loc[g["status"].isin(PROVEN), "seconds"]),
                       sorted(g.loc[g["status"].isin(PROVEN + ("feasible",)), "seconds"]))
    return out


PLOTS = ("cactus.png", "time_vs_length.png", "horizon_growth.png",     # what :func:`plots` may write
         "crossover.png", "who_wins.png")


def _subplots(*grid, figsize, **kw):
    # figures made without pyplot: no backend to choose, no global state (a notebook keeps its own)
    from matplotlib.figure import Figure
    fig = Figure(figsize=figsize)
    return fig, fig.subplots(*grid, **kw)


def _save(fig, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path


def _finish(fig, ax, xlabel, ylabel, title, path: Path) -> Path:
    """A log-scale one-axis figure with its labels and legend, saved to ``path``."""
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    return _save(fig, path)


def cactus_plot(df, path: Path) -> Path:
    """Instances solved within a time, one line per method."""
    fig, ax = _subplots(figsize=(6.4, 4.2))
    for method, (runs, times, plans) in cactus(df).items():
        if times:
            line, = ax.step(range(1, len(times) + 1), times, where="post", label=f"{method} ({len(times)}/{runs})")
        # a plan without a proof of optimality is not "solved": drawn apart, dashed, if there is any
        if len(plans) > len(times):
            ax.step(range(1, len(plans) + 1), plans, where="post", linestyle="--", alpha=0.6,
                    color=line.get_color() if times else None, label=f"{method} with feasible ({len(plans)}/{runs})")
    return _finish(fig, ax, "instances solved (optimal or proven unsolvable)", "seconds per instance (sorted)",
                   "Cactus plot: instances solved within a time", path)


def length_plot(df, path: Path) -> Path:
    """Seconds against the optimal length, a point per optimal run."""
    fig, ax = _subplots(figsize=(6.4, 4.2))
    opt = df[df["status"] == "optimal"]
    metrics = sorted(set(opt["metric"]))
    markers = dict(zip(metrics, "o^sDvP*X"))
    for (method, metric), g in opt.groupby(["method", "metric"]):
        label = method if len(metrics) == 1 else f"{method}, {metric}"
        ax.scatter(g["length"], g["seconds"], s=14, label=label, alpha=0.8, marker=markers.get(metric, "o"))
    unit = metrics[0] if len(metrics) == 1 else "each run's metric: " + ", ".join(metrics)
    return _finish(fig, ax, f"optimal length ({unit})", "seconds", "Time against optimal length", path)


def horizon_growth_plot(df, path: Path) -> Path | None:
    """Solver seconds and formula size per horizon of the 8 runs with most horizons; None
    when no run has per-horizon figures."""
    sat = df[df["horizon_figures"].map(len) > 0] if "horizon_figures" in df else df.iloc[0:0]
    if not len(sat):
        return None
    fig, (a1, a2) = _subplots(1, 2, figsize=(10, 4))
    longest = sat.assign(n=sat["horizon_figures"].map(len)).sort_values("n", ascending=False)
    for _, row in longest.head(8).iterrows():
        hs = row["horizon_figures"]
        label = f"{row['label']} {row['method']}"
        a1.plot([h["horizon"] for h in hs], [h["seconds"] for h in hs], marker=".", label=label)
        a2.plot([h["horizon"] for h in hs], [h["clauses"] for h in hs], marker=".", label=label)
    a1.set_yscale("log")
    a1.set_xlabel("horizon")
    a1.set_ylabel("solver seconds at this horizon")
    a2.set_xlabel("horizon")
    a2.set_ylabel("clauses (or constraints)")
    a1.set_title("Cost of each horizon")
    a2.set_title("Formula size")
    for a in (a1, a2):
        a.grid(True, alpha=0.3)
    a1.legend(fontsize=7)
    return _save(fig, path)


def series_plots(df, outdir: Path) -> list[Path]:
    """Generated series (puzzleplan generate): time along each series, and who wins where."""
    rows = crossover.series_rows(df)
    made = []
    if len(rows):
        if crossover.plot_crossover(rows, outdir / "crossover.png", _subplots):
            made.append(outdir / "crossover.png")
        if crossover.plot_map(crossover.winners(rows), outdir / "who_wins.png", _subplots):
            made.append(outdir / "who_wins.png")
    return made


def plots(df, outdir: str | Path) -> list[Path]:
    """Every figure of ``df``'s rows, written to ``outdir`` (made, one level); the paths written."""
    outdir = Path(outdir)
    outdir.mkdir(exist_ok=True)         # one level: the caller checked its parent
    made = [cactus_plot(df, outdir / "cactus.png"), length_plot(df, outdir / "time_vs_length.png")]
    growth = horizon_growth_plot(df, outdir / "horizon_growth.png")
    return made + ([growth] if growth else []) + series_plots(df, outdir)


def report(path, outdir: str | Path | None = None, baseline: str | None = None,
           skipped: dict | None = None) -> tuple[str, list[Path]]:
    """The Markdown text of the summary of one results file or several (``path``: a path or a
    list of them, their rows taken together), and the plots written to ``outdir``; the lines
    of rows cut short, left out, go to ``skipped[path]`` (without it they are an error)."""
    from ..limits import library
    from .results import read_results
    paths = [path] if isinstance(path, (str, Path)) else list(path)
    frames = []
    for one in paths:
        lines = None if skipped is None else skipped.setdefault(str(one), [])
        frames.append(read_results(one, skipped=lines))
    df = frames[0] if len(frames) == 1 else library("pandas").concat(frames, ignore_index=True)
    bases = [b.strip() for b in baseline.split(",")] if baseline else [None]
    known = sorted(df["method"].unique())
    for base in bases:
        if base is not None and base not in known:
            raise PuzzleError(f"--baseline {base}: no run of it in {', '.join(map(str, paths))}; "
                              f"its methods: {', '.join(known)}")
    text = ["## Statuses and times", "", *status_table(df)]
    # several baselines (``fd-lmcut,symk``): one ratio table against each
    for base in bases:
        text += ["", "## Time ratios" + (f" against {base}" if base else ""), "", *ratio_table(df, base)]
    bad = disagreements(df)
    text += ["", "## Optimal lengths", ""]
    text += ([f"DISAGREEMENT: {line}" for line in bad] if bad else
             [f"All methods agree on every optimal length ({df[df['status'] == 'optimal'].groupby(['label', 'metric']).ngroups} instances)."])
    rows = crossover.series_rows(df)
    if len(rows):
        w = crossover.winners(rows)
        text += ["", "## SAT against search, per series", "",
                 "Best proven time of the SAT methods against the best of the search methods (BFS, A*, "
                 "PDDL planners) on each generated point; `>=` and `(alone)`: the other side proved nothing "
                 "within the time limit, so the ratio is a bound (the limit over the proof's time); a "
                 "verdict `tie` is within 2x.", "", *crossover.table(w),
                 "", "### Every point", "", *crossover.detail(w)]
    made = plots(df, outdir) if outdir is not None else []
    return "\n".join(text) + "\n", made
