"""An installed SAT solver binary, run once per horizon: ``external:CMD``.

``CMD`` is a program name or path with its options (``external:cadical``,
``external:kissat -q``, ``external:/opt/bin/minisat``).  Each solve writes the
whole formula as DIMACS (the goal literal as a unit clause) to a temporary file,
runs the program on it with the time limit enforced (the process is killed when
it passes), and parses its answer: SAT competition output on stdout, or for
minisat the result file it is given as a second argument.  Exit codes 10 and 20
are cross-checked against the ``s`` line.

Known programs are also looked up where their Python wheels put them (the
``passagemath-kissat`` wheel ships a kissat binary).
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sysconfig
import tempfile
import threading
import time
from pathlib import Path

from ... import limits
from ...encodings.lower import check_card_encoding, clauses_of, read_answer
from ...plugins import Program
from ...puzzle import PuzzleError
from ...puzzle import Verdict
from .base import Answer, Backend

CONFLICTS = re.compile(r"^c?\s*conflicts\s*:\s*(\d+)", re.MULTILINE | re.IGNORECASE)


def find_solver(name: str) -> str | None:
    """Path of a solver program: on PATH, or inside an installed wheel."""
    found = shutil.which(name)
    if found:
        return found
    for base in {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}:
        candidate = Path(base) / "sage_wheels" / "bin" / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


class SolverProgram(Program):
    """The program of ``external:CMD``: on PATH or inside an installed wheel (kissat's)."""

    def path(self) -> str | None:
        return find_solver(self.name)

    def missing(self) -> str | None:
        return None if self.path() else f"solver program {self.name!r} not found (install it, or give its path)"


def words_of(command: str) -> list[str]:
    """The program and its options; PuzzleError for an unclosed quote or an empty command."""
    try:
        words = shlex.split(command)
    except ValueError as err:       # an unclosed quote
        raise PuzzleError(f"external:{command}: {str(err).lower()}; quote the whole backend, "
                          "like \"external:kissat -q\"") from None
    if not words:
        raise PuzzleError("external: name a solver program, like external:cadical or external:kissat")
    return words


OUTPUT_SLACK = 16 << 20       # bytes a solver may print beyond its model (comments, statistics)


def run_capped(argv, timeout: float | None, cap: int) -> subprocess.CompletedProcess:
    """``subprocess.run(argv, capture_output=True, text=True, timeout=timeout)``, except that a
    program printing more than ``cap`` bytes on either stream is killed at once and refused
    (PuzzleError): its output is not gathered in memory past the limit (a program that prints
    without end filled a gigabyte in seconds, and was still being read after the deadline)."""
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    bufs, over = [bytearray(), bytearray()], threading.Event()

    def drain(stream, buf):
        while True:
            chunk = stream.read1(1 << 16)
            if not chunk:
                return
            if len(buf) + len(chunk) > cap:
                over.set()
                proc.kill()
                return
            buf += chunk

    threads = [threading.Thread(target=drain, args=(stream, buf), daemon=True)
               for stream, buf in zip((proc.stdout, proc.stderr), bufs)]
    for t in threads:
        t.start()
    try:
        proc.wait(timeout=timeout)
    except BaseException:           # the deadline or Ctrl-C: the program is stopped, not waited for
        proc.kill()
        proc.wait()
        raise
    finally:
        for t in threads:
            t.join(timeout=1)       # a grandchild may hold the pipes open: not waited for
        for stream in (proc.stdout, proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
    if over.is_set():
        raise PuzzleError(f"{Path(argv[0]).name} printed more than {cap >> 20} MiB, more than a model of this "
                          "formula takes; stopped")
    out, err = (b.decode("utf-8", "replace") for b in bufs)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


class ExternalBackend(Backend):
    """``external:CMD``: the program ``CMD`` (with its options) once per horizon."""

    @classmethod
    def check_option(cls, name: str, option: str) -> None:
        words_of(option)

    @classmethod
    def needs(cls, option: str) -> tuple:
        # without a command the method exists; which programs are here, puzzleplan solvers lists
        return (SolverProgram(words_of(option)[0]),) if option else ()

    def __init__(self, name: str, command: str, model, card_encoding: str = "seqcounter"):
        words = words_of(command)
        path = find_solver(words[0])
        if path is None:
            raise PuzzleError(self.unavailable(name, command))
        check_card_encoding(card_encoding)
        self.method = f"{name}:{command}"
        self.model, self.argv, self.card_encoding = model, [path] + words[1:], card_encoding
        self.minisat = Path(words[0]).name.startswith("minisat")
        self.clauses: list[list[int]] = []
        self.synced = 0
        self.solution: set[int] = set()
        self.last: dict = {}
        self.tmp = tempfile.TemporaryDirectory(prefix="puzzleplan-")

    def sync(self) -> None:
        end = len(self.model.items)
        self.clauses += clauses_of(self.model, self.synced, self.card_encoding)
        self.synced = end

    def solve(self, goal: int, horizon: int | None = None, minimise: bool = False) -> Answer:
        return Answer.of(self.solve_assuming([goal]))

    def solve_assuming(self, assumptions) -> bool | None:
        self.sync()
        time_limit = limits.left()
        if time_limit is not None and time_limit <= 0:
            return None
        cnf = Path(self.tmp.name) / "horizon.cnf"
        units = [[a] for a in assumptions]
        with open(cnf, "w") as fh:
            fh.write(f"p cnf {self.model.top} {len(self.clauses) + len(units)}\n")
            for c in self.clauses + units:
                fh.write(" ".join(map(str, c)) + " 0\n")
        result_file = Path(self.tmp.name) / "result.txt"
        argv = self.argv + [str(cnf)] + ([str(result_file)] if self.minisat else [])
        t0 = time.perf_counter()
        limits.raise_if_interrupted()       # a Ctrl-C Python dropped (see limits.interrupts_recorded)
        top = self.model.top        # a model is a value per variable, with the solver's comments beside it
        cap = OUTPUT_SLACK + (top + 1) * (len(str(top)) + 2)
        try:
            proc = run_capped(argv, None if time_limit is None else max(time_limit, 0.01), cap)
        except subprocess.TimeoutExpired:
            self.last = {"vars": self.model.top, "clauses": len(self.clauses), "conflicts": None}
            return None
        except OSError as err:
            raise PuzzleError(f"cannot run {self.argv[0]}: {err.strerror}") from None
        seconds = time.perf_counter() - t0
        text = result_file.read_text() if self.minisat and result_file.exists() else proc.stdout
        found = CONFLICTS.findall(proc.stdout)
        self.last = {"vars": self.model.top, "clauses": len(self.clauses) + len(units),
                     # None: the solver did not say (kissat -q), which is not 0
                     "conflicts": int(found[-1]) if found else None, "solver_seconds": round(seconds, 4)}
        if proc.returncode not in (0, 10, 20):
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [""]
            raise PuzzleError(f"{Path(self.argv[0]).name} failed (exit code {proc.returncode}): {tail[0][:200]}")
        answer = read_answer(text, Path(self.argv[0]).name)
        if proc.returncode in (10, 20) and answer.status is not {10: Verdict.SAT, 20: Verdict.UNSAT}[proc.returncode]:
            raise PuzzleError(f"{Path(self.argv[0]).name}: exit code {proc.returncode} contradicts its answer")
        if answer.status is Verdict.SAT:
            self.solution = answer.true_vars
            return True
        return False if answer.status is Verdict.UNSAT else None

    def values(self) -> set[int]:
        return self.solution

    def figures(self) -> dict:
        return dict(self.last)

    def close(self) -> None:
        self.tmp.cleanup()
