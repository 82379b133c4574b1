"""The ``symmetry`` lever: interchangeable objects (:mod:`puzzleplan.strips.analyses.symmetry`)
touched in one order on the start side.  Not where a side condition names actions or facts (the
swap may not keep it), nor with actions of cost 0 (a walk's transition has no action literals)."""
from __future__ import annotations

from .base import Lever


class Symmetry(Lever):
    name = "symmetry"

    def __init__(self, enc, on: bool):
        super().__init__(enc, on)
        p = enc.rules
        self.sym = None
        self.clauses = 0
        if on and (enc.counted or enc.still or p.avoided):
            self.note = "off (move counts, frozen pieces or avoided facts)"
        elif on and enc.costed and any(op.cost < 1 for op in p.ops):
            self.note = "off (actions of cost 0)"
        if self.note:
            return
        found = p.symmetry()
        if found is None:
            self.note = "off (an action name stands for several actions)"
        elif not found.pairs:
            self.note = "no interchangeable objects" + ("" if found.complete else " (the search stopped at its budget)")
        else:
            self.sym = found

    def step(self, m, t, mvs) -> None:
        """Step t of the start side: ``("sym", a, t)``, object a touched at t or before; for a
        pair (a, b), b touched means a touched.  Steps built before their step t - 1 (the goal
        side's) get nothing."""
        if self.sym is None:
            return
        first = self.sym.pairs[0][0]
        if t > 0 and not m.has(("sym", first, t - 1)):
            return
        for a, ops in self.sym.touches.items():
            now = m.var(("sym", a, t))
            before = [m.var(("sym", a, t - 1))] if t > 0 else []
            for o in ops:
                m.add([-mvs[o], now])
            if before:
                m.add([-before[0], now])
            m.add([-now, *before, *(mvs[o] for o in ops)])
            self.clauses += len(ops) + 1 + len(before)
        for a, b in self.sym.pairs:
            m.add([-m.var(("sym", b, t)), m.var(("sym", a, t))])
        self.clauses += len(self.sym.pairs)

    def figures(self) -> dict:
        if self.note:
            return {"symmetry": self.note}
        sym = self.sym
        out = dict(interchangeable=" ".join("=".join(c) for c in sym.classes), symmetry_pairs=len(sym.pairs),
                   symmetry_clauses=self.clauses, symmetry_seconds=sym.seconds)
        if not sym.complete:
            out["symmetry_search"] = "stopped at its budget"
        return out
