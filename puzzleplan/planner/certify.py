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

from ..export import build
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


def certify(domain, metric: str, length: int, card_encoding: str = "seqcounter",
            proof_file: str | Path | None = None, solver: str = "cadical195") -> dict:
    """Prove and check that no plan of at most ``length - 1`` moves exists.

    Returns figures: ``certified`` (bool), ``horizon``, ``vars``, ``clauses``,
    ``proof_lines``, ``solve_seconds``, ``check_seconds``, ``engine``.
    """
    from dratify import check_proof, parse_dimacs
    from pysat.solvers import Solver
    horizon = length - 1
    if horizon < 0:
        return {"certified": True, "horizon": horizon, "note": "a plan of length 0 is trivially optimal"}
    f = build(domain, metric, horizon, card_encoding)
    t0 = time.perf_counter()
    s = Solver(name=solver, bootstrap_with=f.clauses, with_proof=True)
    try:
        answer = s.solve()
        proof = s.get_proof() if answer is False else None
    finally:
        s.delete()
    solve_seconds = time.perf_counter() - t0
    if answer is not False:
        raise PuzzleError(f"cannot certify: horizon {horizon} is satisfiable, so {length} is not optimal")
    text = "\n".join(proof)
    if proof_file is not None:
        Path(proof_file).write_text(text + "\n")
    dimacs = f"p cnf {f.nvars} {len(f.clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in f.clauses)
    engine = checker_engine()
    t1 = time.perf_counter()
    result = check_proof(parse_dimacs(dimacs), text, engine=engine)
    return {"certified": bool(result.ok and result.reached_empty), "horizon": horizon, "vars": f.nvars,
            "clauses": len(f.clauses), "proof_lines": len(proof), "solve_seconds": round(solve_seconds, 3),
            "check_seconds": round(time.perf_counter() - t1, 3), "engine": engine,
            "proof_file": None if proof_file is None else str(proof_file)}
