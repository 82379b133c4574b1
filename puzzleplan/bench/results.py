"""The bench's results files: a CSV under the bench's own header (:data:`FIELDS`), or JSON
lines; rows appended one at a time (:class:`Sink`), read back latest row per key
(:func:`read_results`), with rows cut short (a bench killed while it wrote) left out.
"""
from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Iterable

from ..outputs import append_to
from ..puzzle import PuzzleError

FIELDS = ["instance", "level", "metric", "method", "constraints", "status", "length", "bound", "seconds",
          "cpu_seconds", "peak_rss_mb", "horizons", "vars", "clauses", "conflicts", "expanded", "time_limit",
          "memory_mb", "message", "horizon_figures", "machine", "versions"]
KEY = ("instance", "level", "metric", "method", "constraints")

def is_meta(path: Path) -> bool:
    """Whether ``path`` is a bench's meta file: JSON lines, each with the command and its start."""
    try:
        with open(path) as fh:
            rows = [json.loads(line) for line in fh if line.strip()]
    except (OSError, ValueError, UnicodeDecodeError):
        return False
    return all(isinstance(r, dict) and {"command", "started"} <= set(r) for r in rows)


def resolved(instance: str) -> str:
    """An instance as a rerun recognises it: the file it names, however the path was typed
    (relative or absolute, through a link); a name that is no file stays as written."""
    return os.path.realpath(instance) if instance and os.path.exists(instance) else instance


def done_keys(out: Path) -> set[tuple[str, ...]]:
    """Keys whose latest row is an outcome (not ``error``): a rerun skips them.  A row cut
    short is no outcome: that run is made again."""
    if not out.exists():
        return set()
    try:
        if out.suffix == ".jsonl":
            rows = [json.loads(line) for line in open(out) if line.strip()]
        else:
            header, whole, cut = csv_rows(out)
            check_columns(out, header or [], whole, cut)
            rows = [dict(zip(header, r)) for _, r in whole]
    except (UnicodeDecodeError, csv.Error, json.JSONDecodeError) as err:
        raise PuzzleError(f"not a results file ({type(err).__name__})", str(out)) from None
    if not all(isinstance(r, dict) for r in rows):
        raise PuzzleError("not a results file (a line is not a JSON object)", str(out))
    if out.stat().st_size and not all({"instance", "method", "status"} <= set(r) for r in rows):
        raise PuzzleError(f"not a results file (no column {', '.join(KEY)}); give a new file or an earlier "
                          "bench's", str(out))
    latest = {}
    for r in rows:
        key = tuple("" if r.get(k) is None else str(r.get(k)) for k in KEY)
        latest[(resolved(key[0]),) + key[1:]] = r.get("status")
    return {key for key, status in latest.items() if status != "error"}


def check_columns(out: Path, header: list[str], whole: list, cut: list[int]) -> None:
    """A CSV the bench may append to: an empty one, or one under the bench's own header
    (rows written under another would be read back under the wrong names, and the file
    refused) whose last row is whole (a new row would be glued to one cut short)."""
    if not header:
        if out.stat().st_size:
            raise PuzzleError("not a results file (no header)", str(out))
        return
    if not set(KEY) <= set(header):
        raise PuzzleError(f"not a results file (no column {', '.join(KEY)}); give a new file or an earlier "
                          "bench's", str(out))
    if header != FIELDS:
        extra = [h for h in header if h not in FIELDS]
        missing = [f for f in FIELDS if f not in header]

        def some(names):
            return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        why = "; ".join(([f"column {some(extra)} not a bench's"] if extra else []) +
                        ([f"no column {some(missing)}"] if missing else [])) or "the bench's columns in another order"
        raise PuzzleError(f"not this bench's header ({why}); give a new file (nothing was appended to it)", str(out))
    if cut and (not whole or cut[-1] > whole[-1][0]) and not ends_a_line(out):
        raise PuzzleError(f"its last row (line {cut[-1]}) is cut short: remove that line and the same command "
                          "resumes (nothing was appended to it)", str(out))


def ends_a_line(path: Path) -> bool:
    """Whether a file is empty or its last line is ended (a row appended starts a line of its own)."""
    with open(path, "rb") as fh:
        fh.seek(0, os.SEEK_END)
        if fh.tell() == 0:
            return True
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) in (b"\n", b"\r")


def csv_rows(path: Path) -> tuple[list[str] | None, list[tuple[int, list[str]]], list[int]]:
    """A results CSV's header, its whole rows (each with the line it starts on) and the lines of
    its rows cut short: fewer fields than the header, or the last row ending inside a quoted
    field (the file cut, a bench killed while it wrote the row).  A row with more fields than
    the header is not a results file's (PuzzleError)."""
    with open(path, newline="", encoding="utf-8") as fh:
        text = fh.read()
    lines = list(io.StringIO(text, newline=""))
    reader = csv.reader(lines)
    header, whole, cut = None, [], []
    start = 1
    for record in reader:
        line, start = start, reader.line_num + 1
        if len(record) <= 1 and not "".join(record).strip():      # a blank line
            continue
        if header is None:
            header = record
        elif len(record) > len(header):
            raise PuzzleError(f"not a results file: line {line} has {len(record)} fields, its header "
                              f"{len(header)}", str(path))
        elif len(record) < len(header) or (start > len(lines) and not text.endswith(("\n", "\r"))
                                           and open_quote("".join(lines[line - 1:]))):
            cut.append(line)
        else:
            whole.append((line, record))
    return header, whole, cut


def open_quote(text: str) -> bool:
    """Whether CSV text ends inside a quoted field."""
    try:
        for _ in csv.reader(io.StringIO(text, newline=""), strict=True):
            pass
    except csv.Error as err:
        return "end of data" in str(err)
    return False


class Sink:
    """Appends rows to a CSV or JSON-lines file, flushing each one."""

    def __init__(self, out: Path):
        self.out, self.jsonl = out, out.suffix == ".jsonl"
        new = not out.exists() or out.stat().st_size == 0
        ended = new or ends_a_line(out)
        self.fh = append_to(out)
        if not ended:       # a whole last row without its line end (a file written by hand)
            self.fh.write("\r\n" if not self.jsonl else "\n")
        if not self.jsonl:
            self.writer = csv.DictWriter(self.fh, FIELDS, extrasaction="ignore")
            if new:
                self.writer.writeheader()

    def write(self, row: dict) -> None:
        if self.jsonl:
            self.fh.write(json.dumps(row) + "\n")
        else:
            self.writer.writerow({**row, "horizon_figures": json.dumps(row.get("horizon_figures") or [])})
        self.fh.flush()
        os.fsync(self.fh.fileno())

    def close(self) -> None:
        self.fh.close()


NUMERIC = ("level", "length", "bound", "seconds", "cpu_seconds", "peak_rss_mb", "horizons", "vars", "clauses",
           "conflicts", "expanded", "time_limit", "memory_mb")


def numeric_column(values, column: str, path: Path):
    """A column of numbers (empty cells stay NaN); a cell that is not a number is bad input."""
    import pandas as pd
    numbers = pd.to_numeric(values, errors="coerce")
    bad = numbers.isna() & values.notna() & (values.astype(str).str.strip() != "")
    if bad.any():
        row = int(bad.to_numpy().nonzero()[0][0])
        raise PuzzleError(f"not a results file: column {column!r}, row {row + 1} holds "
                          f"{str(values.iloc[row])[:40]!r}, not a number", str(path))
    if column == "level" and (numbers.dropna() % 1 != 0).any():
        raise PuzzleError("not a results file: a level is not a whole number", str(path))
    return numbers


def figures_list(value, path: Path) -> list:
    """A row's ``horizon_figures``: a JSON list (in a CSV cell, a string), else nothing."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (json.JSONDecodeError, RecursionError):
            raise PuzzleError("not a results file: a horizon_figures cell is not JSON", str(path)) from None
    if not isinstance(value, list):
        return []
    for h in value:
        if not isinstance(h, dict) or not all(isinstance(h.get(k), (int, float, type(None)))
                                              for k in ("horizon", "seconds", "clauses")):
            raise PuzzleError("not a results file: a horizon_figures entry is not a horizon's figures", str(path))
    return value


MAX_RESULTS_BYTES = 256 << 20     # a bench of 10,000 runs writes about 10 MB


def read_results(path: str | Path, history: bool = False, skipped: list[int] | None = None):
    """The results file as a pandas DataFrame (``horizon_figures`` decoded): the latest
    row of each run, or every row with ``history``.  A CSV's rows cut short (a bench killed
    while it wrote one) are left out and their lines added to ``skipped``; without that list
    they are an error."""
    from ..limits import library
    pd = library("pandas")      # a memout, not the process ended by OpenBLAS, under a shell's ulimit -v
    path = Path(path)
    if not path.exists():
        raise PuzzleError(f"no such results file: {path}")
    if not path.is_file():
        raise PuzzleError(f"{path}: not a results file (not a regular file)")
    if path.stat().st_size > MAX_RESULTS_BYTES:
        raise PuzzleError(f"{path}: larger than {MAX_RESULTS_BYTES >> 20} MiB: not a bench's results file")
    try:
        if path.suffix == ".jsonl":
            df = pd.read_json(path, lines=True)
        else:
            df = pd.read_csv(whole_rows(path, skipped), keep_default_na=True)
    except PuzzleError:
        raise
    except (ValueError, TypeError, csv.Error) as err:     # TypeError: a JSON line that is not an object
        raise PuzzleError(f"{path}: not a results file ({str(err).strip().splitlines()[0]})") from None
    missing = {"instance", "method", "status", "seconds"} - set(df.columns)
    if missing:
        raise PuzzleError(f"{path}: not a results file (no column {', '.join(sorted(missing))})")
    for column, empty in (("metric", ""), ("constraints", ""), ("length", float("nan"))):
        if column not in df.columns:     # optional columns: the tables and plots still need them
            df[column] = empty
    for column in NUMERIC:
        if column in df.columns:
            df[column] = numeric_column(df[column], column, path)
    for column in ("instance", "method", "status", "metric", "constraints"):
        if column in df.columns:
            df[column] = ["" if pd.isna(v) else str(v) for v in df[column]]
    if "horizon_figures" in df.columns:
        df["horizon_figures"] = [figures_list(v, path) for v in df["horizon_figures"]]
    df["level"] = [("" if pd.isna(v) else str(int(v))) for v in df["level"]] if "level" in df else ""
    if not history:     # a rerun's row supersedes an earlier one of the same run (an error retried)
        df = df.drop_duplicates(subset=[k for k in KEY if k in df.columns], keep="last").reset_index(drop=True)
    names = short_names(df["instance"])
    df["label"] = [names[i] + (f":{lv}" if lv else "") for i, lv in zip(df["instance"], df["level"])]
    return df


def whole_rows(path: Path, skipped: list[int] | None) -> io.StringIO:
    """A results CSV without its rows cut short, as CSV text (pandas reads it as it reads the file)."""
    header, whole, cut = csv_rows(path)
    if header is None:
        raise PuzzleError(f"{path}: not a results file (no header)")
    if cut and skipped is None:
        raise PuzzleError(f"line {cut[0]} is a row cut short (a bench killed while it wrote it?)", str(path))
    if skipped is not None:
        skipped.extend(cut)
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(header)
    writer.writerows(record for _, record in whole)
    text.seek(0)
    return text


def short_names(instances: Iterable[str]) -> dict[str, str]:
    """Each instance's name in tables and plots: its file's stem, or, where other instances
    share that stem (``problem.pddl`` in several folders, ``x.pddl`` beside ``x.slide``), the
    shortest end of its path that tells them apart (its file name, then with its folders)."""
    paths = {i: Path(i) for i in dict.fromkeys(instances)}
    by_stem: dict[str, list[str]] = {}
    for i, p in paths.items():
        by_stem.setdefault(p.stem, []).append(i)
    out = {}
    for stem, group in by_stem.items():
        if len(group) == 1:
            out[group[0]] = stem
            continue
        for depth in range(1, max(len(paths[i].parts) for i in group) + 1):
            ends = {i: "/".join(paths[i].parts[-depth:]) for i in group}
            if len(set(ends.values())) == len(group):
                break
        out.update(ends)
    return out
