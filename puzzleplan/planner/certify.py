"""Certified optimality: a checked DRAT proof that no shorter plan exists.

For a plan of length L, the encoding with horizon L-1 and the goal as a unit
clause (not an assumption: a proof must refute the formula itself) is solved by
CaDiCaL with proof logging; the DRAT proof is then checked by ``dratify``, an
independent checker (with its Rust engine from ``cdclkit-native`` when
installed, else in pure Python).  Since every encoding allows no-ops at the end,
refuting L-1 refutes every shorter horizon.
"""
from __future__ import annotations

import time
from pathlib import Path

from .. import limits
from ..encodings.lower import build, dimacs
from ..outputs import put
from ..puzzle import PuzzleError


PROOF_SLICE = 2_000      # conflicts per slice while proving (the time limit waits at most one slice)


class FixedSlices:
    """Slices of ``size`` conflicts whatever they take (see :func:`sliced`'s ``slicing``)."""

    def __init__(self, size: int):
        self.size = size

    def adapt(self, propagations: int) -> None:
        pass


def checker_engine() -> str:
    import dratify
    if not dratify.native_available():
        try:
            import cdclkit_native
            dratify.register_native(cdclkit_native)
        except (ImportError, AttributeError):
            pass
    return "native" if dratify.native_available() else "python"


def read_proof(data: bytes, source: str = "the proof"):
    """A DRAT proof file as dratify takes it: text DRAT as text, binary DRAT (CaDiCaL's and
    kissat's default when writing to a file) decoded into dratify's steps.

    Binary DRAT: each step is ``a`` (0x61) or ``d`` (0x64), then literals as variable-length
    unsigned numbers (7 bits a byte, low bits first, high bit = more bytes follow) with
    literal ``v`` written ``2v`` and ``-v`` written ``2v+1``, then a 0 byte.  Text DRAT never
    holds a 0 byte, so one is the sign of a binary proof.  LRAT (clause ids and hints) is not
    read: dratify checks DRAT only; a solver writes DRAT unless asked for LRAT.
    """
    if b"\x00" not in data:
        try:
            return data.decode("ascii")
        except UnicodeDecodeError:
            raise PuzzleError(f"{source} is neither text nor binary DRAT") from None
    np = limits.library("numpy")
    raw = np.frombuffer(data, dtype=np.uint8)
    last = (raw & 0x80) == 0                    # the last byte of each number
    if not last[-1]:
        raise PuzzleError(f"{source}: binary DRAT cut short (a number has no last byte)")
    ends = np.flatnonzero(last)
    starts = np.concatenate(([0], ends[:-1] + 1))
    if (ends - starts).max(initial=0) > 4:     # more than 35 bits: no variable is that large
        raise PuzzleError(f"{source}: binary DRAT with a literal beyond 2^35: not a proof")
    # each number: its bytes' low 7 bits, shifted by 7 per position in the number
    position = np.arange(len(raw)) - np.repeat(starts, ends - starts + 1)
    values = np.zeros(len(ends), dtype=np.int64)
    np.add.at(values, np.repeat(np.arange(len(ends)), ends - starts + 1),
              (raw & 0x7F).astype(np.int64) << (7 * position))
    zeros = np.flatnonzero(values == 0)         # clause ends; the number after each is a's or d's byte
    if not len(zeros) or zeros[-1] != len(values) - 1:
        raise PuzzleError(f"{source}: binary DRAT cut short (the last step has no 0)")
    heads = np.concatenate(([0], zeros[:-1] + 1))
    kinds = values[heads]
    if not np.isin(kinds, (0x61, 0x64)).all():
        raise PuzzleError(f"{source}: binary DRAT step {int(np.flatnonzero(~np.isin(kinds, (0x61, 0x64)))[0]) + 1} "
                          "does not start with 'a' or 'd'")
    inside = np.ones(len(values), dtype=bool)
    inside[heads] = False
    if (values[inside] == 1).any():             # 1 would be "-0"
        raise PuzzleError(f"{source}: binary DRAT with a literal of variable 0")
    listed = (values - 2).tolist()              # dratify's literals: 2(v-1) + sign
    return [("a" if k == 0x61 else "d", tuple(listed[h + 1:z])) for k, h, z in zip(kinds.tolist(), heads.tolist(),
                                                                                 zeros.tolist())]


def check_drat(formula, proof, seconds: float | None = None) -> dict:
    """Check a DRAT proof that ``formula`` (a :class:`~puzzleplan.encodings.lower.Formula`,
    goal as a unit clause) is unsatisfiable: ``{"ok", "engine", "check_seconds"}``.
    ``proof``: text DRAT, or steps from :func:`read_proof`.  The check runs in a process of its
    own: dratify's engine cannot be stopped inside this one (with ``seconds`` it is killed when
    they pass: then ``ok`` is None), and its native engine aborts the process it runs in when an
    allocation fails under ``--memory`` (a child that dies so is a MemoryError here: memout)."""
    import multiprocessing
    engine = checker_engine()
    t0 = time.perf_counter()
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_check_into, args=(send, dimacs(formula.nvars, formula.clauses), proof, engine),
                        daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(None if seconds is None else max(seconds, 0.01)):
            ok = None       # the time passed: the checker is killed below
        else:
            try:
                ok, engine = receive.recv()
            except EOFError:        # it died before it answered
                child.join()
                if limits.memory_in_force() is not None:
                    raise MemoryError("the proof checker ran out of memory") from None
                raise PuzzleError(f"the proof checker died (exit code {child.exitcode})") from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    return {"ok": ok, "engine": engine, "check_seconds": round(time.perf_counter() - t0, 3)}


def _check_into(conn, formula_text: str, proof, engine: str) -> None:
    """:func:`_check` in the checker's process, its answer sent through ``conn`` (what the
    native engine prints as it aborts, a Rust backtrace, is not the user's to read)."""
    import os
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 2)
    conn.send(_check(formula_text, proof, engine))
    conn.close()


def _check(formula_text: str, proof, engine: str) -> tuple[bool, str]:
    from dratify import check_proof, parse_dimacs
    if engine == "native":
        checker_engine()        # registered in this process too
    try:
        result = check_proof(parse_dimacs(formula_text), proof, engine=engine)
        return bool(result.ok and result.reached_empty), engine
    except (ValueError, IndexError) as err:    # a malformed proof is a failed check
        return False, f"{engine} ({err.__class__.__name__}: {str(err)[:80]})"


def certify(problem, metric: str, length: int, card_encoding: str = "seqcounter",
            proof_file: str | Path | None = None, solver: str = "cadical195", say=None) -> dict:
    """Prove and check that no plan of at most ``length - 1`` moves exists.

    ``say(text)`` is told what is being done (it takes a while: proof and check).
    Returns figures: ``certified`` (bool), ``horizon``, ``vars``, ``clauses``,
    ``proof_lines``, ``solve_seconds``, ``check_seconds``, ``engine``.
    """
    from pysat.solvers import Solver

    from .backends.pysat_solvers import sliced
    say = say or (lambda text: None)
    horizon = length - 1
    if horizon < 0:
        return {"certified": True, "horizon": horizon, "note": "a plan of length 0 is trivially optimal"}
    f = build(problem, metric, horizon, card_encoding)
    say(f"certify: proving horizon {horizon} unsatisfiable with DRAT logging ({solver}; "
        f"{f.nvars:,} vars, {len(f.clauses):,} clauses)")
    t0 = time.perf_counter()
    s = Solver(name=solver, bootstrap_with=f.clauses, with_proof=True)
    try:
        # in slices (Ctrl-C and the time limit stop it, see the pysat backend) of a fixed number
        # of conflicts: slices sized by the clock would stop the solver at different points on
        # each run, and the proof (its length too) would differ from run to run
        answer = sliced(s, slicing=FixedSlices(PROOF_SLICE))
        proof = s.get_proof() if answer is False else None
    finally:
        s.delete()
    solve_seconds = time.perf_counter() - t0
    if answer is None:
        raise limits.TimeUp()
    if answer is not False:
        raise PuzzleError(f"cannot certify: horizon {horizon} is satisfiable, so {length} is not optimal")
    text = "\n".join(proof)
    if proof_file is not None:
        put(proof_file, text + "\n")      # a new file only: a link or a file that appeared is kept
    say(f"certify: checking the proof ({len(proof):,} lines) with dratify, {solve_seconds:.1f} s spent so far")
    left = limits.left()
    checked = check_drat(f, text) if left is None else check_drat(f, text, left)
    if checked["ok"] is None:
        raise limits.TimeUp()
    return {"certified": checked["ok"], "horizon": horizon, "vars": f.nvars,
            "clauses": len(f.clauses), "proof_lines": len(proof), "solve_seconds": round(solve_seconds, 3),
            "check_seconds": checked["check_seconds"], "engine": checked["engine"],
            "proof_file": None if proof_file is None else str(proof_file)}
