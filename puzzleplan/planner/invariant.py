"""Checking a model checker's inductive invariant with our own SAT calls.

ABC's ``pdr -d`` writes the invariant as cubes over the latches (a PLA file: one line
of ``0``/``1``/``-`` per blocked cube); the invariant is "no cube holds".  It proves
that the AIG's output is never true when, checked here on the AIG we wrote:

1. the initial state (all latches 0) is in no cube;
2. from a state in no cube, one step (any inputs) reaches no cube;
3. no state in no cube makes the output true.

Then, by induction, no reachable state makes the output true.  A PLA for another
number of latches, or any failed check, rejects the invariant.
"""
from __future__ import annotations

import re
import time

from .. import limits
from ..encodings.aiger import Aig
from ..puzzle import PuzzleError

CUBE = re.compile(r"^([01-]+)\s+1$")


def read_cubes(text: str, nlatches: int, source: str = "invariant") -> list[str]:
    cubes = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("."):
            if line.startswith(".i ") and int(line.split()[1]) != nlatches:
                raise PuzzleError(f"the invariant is over {line.split()[1]} latches; the model has {nlatches}", source)
            continue
        found = CUBE.match(line)
        if not found or len(found.group(1)) != nlatches:
            raise PuzzleError(f"not a cube over the model's {nlatches} latches: {line[:60]!r}", source)
        cubes.append(found.group(1))
    return cubes


def check_invariant(aig: Aig, cubes: list[str]) -> dict:
    """``{"ok": bool, "why": text, "cubes": n, "seconds": s}`` (see the module doc)."""
    from pysat.solvers import Solver

    from ..encodings.pysat_sigint import disable
    disable()
    t0 = time.perf_counter()
    const = aig.maxvar + 1

    def d(lit: int) -> int:
        v = lit >> 1
        x = const if v == 0 else v
        return -x if (lit & 1) ^ (v == 0) else x

    def latch(j: int) -> int:
        return aig.ninputs + j + 1

    def done(ok, why):
        return {"ok": ok, "why": why, "cubes": len(cubes), "seconds": round(time.perf_counter() - t0, 3)}

    for c in cubes:
        if all(ch != "1" for ch in c):
            return done(False, "the initial state is in a blocked cube")
    with Solver(name="glucose42") as s:
        s.add_clause([const])
        for lhs, a, b in aig.gates:
            s.add_clause([-d(lhs), d(a)])
            s.add_clause([-d(lhs), d(b)])
            s.add_clause([d(lhs), -d(a), -d(b)])
        for c in cubes:
            s.add_clause([-latch(j) if ch == "1" else latch(j) for j, ch in enumerate(c) if ch != "-"])

        def sat(assumptions) -> bool:
            return limits.solve_stoppable(s, assumptions)

        if sat([d(aig.outputs[0])]):
            return done(False, "a state the invariant allows makes the output true")
        for c in cubes:
            nxt = [d(aig.nexts[j]) if ch == "1" else -d(aig.nexts[j]) for j, ch in enumerate(c) if ch != "-"]
            if sat(nxt):
                return done(False, "the invariant is not closed under a step")
    return done(True, "")
