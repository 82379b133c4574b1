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

from ..encodings.lower import build, dimacs
from ..outputs import put
from ..puzzle import PuzzleError


def checker_engine() -> str:
    import dratify
    if not dratify.native_available():
        try:
            import cdclkit_native
            dratify.register_native(cdclkit_native)
        except (ImportError, AttributeError):
            pass
    return "native" if dratify.native_available() else "python"


def check_drat(formula, proof_text: str) -> dict:
    """Check a DRAT proof that ``formula`` (a :class:`~puzzleplan.encodings.lower.Formula`,
    goal as a unit clause) is unsatisfiable: ``{"ok", "engine", "check_seconds"}``."""
    from dratify import check_proof, parse_dimacs
    engine = checker_engine()
    t0 = time.perf_counter()
    try:
        result = check_proof(parse_dimacs(dimacs(formula.nvars, formula.clauses)), proof_text, engine=engine)
        ok = bool(result.ok and result.reached_empty)
    except (ValueError, IndexError) as err:    # a malformed proof is a failed check
        ok, engine = False, f"{engine} ({err.__class__.__name__}: {str(err)[:80]})"
    return {"ok": ok, "engine": engine, "check_seconds": round(time.perf_counter() - t0, 3)}


def certify(domain, metric: str, length: int, card_encoding: str = "seqcounter",
            proof_file: str | Path | None = None, solver: str = "cadical195", say=None) -> dict:
    """Prove and check that no plan of at most ``length - 1`` moves exists.

    ``say(text)`` is told what is being done (it takes a while: proof and check).
    Returns figures: ``certified`` (bool), ``horizon``, ``vars``, ``clauses``,
    ``proof_lines``, ``solve_seconds``, ``check_seconds``, ``engine``.
    """
    from pysat.solvers import Solver

    from .backends.pysat_backend import sliced
    say = say or (lambda text: None)
    horizon = length - 1
    if horizon < 0:
        return {"certified": True, "horizon": horizon, "note": "a plan of length 0 is trivially optimal"}
    f = build(domain, metric, horizon, card_encoding)
    say(f"certify: proving horizon {horizon} unsatisfiable with DRAT logging ({solver}; "
        f"{f.nvars:,} vars, {len(f.clauses):,} clauses)")
    t0 = time.perf_counter()
    s = Solver(name=solver, bootstrap_with=f.clauses, with_proof=True)
    try:
        answer = sliced(s)          # in slices: Ctrl-C stops it (see the pysat backend)
        proof = s.get_proof() if answer is False else None
    finally:
        s.delete()
    solve_seconds = time.perf_counter() - t0
    if answer is None:
        raise PuzzleError(f"cannot certify: the time limit ran out while proving horizon {horizon} unsatisfiable")
    if answer is not False:
        raise PuzzleError(f"cannot certify: horizon {horizon} is satisfiable, so {length} is not optimal")
    text = "\n".join(proof)
    if proof_file is not None:
        put(proof_file, text + "\n")      # a new file only: a link or a file that appeared is kept
    say(f"certify: checking the proof ({len(proof):,} lines) with dratify, {solve_seconds:.1f} s spent so far")
    checked = check_drat(f, text)
    return {"certified": checked["ok"], "horizon": horizon, "vars": f.nvars,
            "clauses": len(f.clauses), "proof_lines": len(proof), "solve_seconds": round(solve_seconds, 3),
            "check_seconds": checked["check_seconds"], "engine": checked["engine"],
            "proof_file": None if proof_file is None else str(proof_file)}
