"""A step's action literals (:class:`Actions`), as the core and the levers read them."""
from __future__ import annotations


class Actions:
    """Step t's action literals by index: ``conj(o)``, the literals whose conjunction is action o
    (its own, or its factored group's and transition's, :mod:`.levers.factor`); ``[o]`` one literal,
    made for a factored action when asked (the symmetry and order levers name every action);
    ``reasons(v, ops)``, the literals for those actions changing variable v."""

    def __init__(self, encoder, m, t: int):
        self.fac, self.m, self.t = encoder.factored, m, t
        self.lits = [None if self.fac is not None and o in self.fac.of_op else m.var(("mv", o, t))
                     for o in range(len(encoder.rules.ops))]

    def conj(self, o: int) -> list[int]:
        if self.lits[o] is not None:
            return [self.lits[o]]
        g, s = self.fac.of_op[o]
        return [self.m.var(("fj", g, self.t)), self.m.var(("fx", s, self.t))]

    def __getitem__(self, o: int) -> int:
        if self.lits[o] is None:
            j, x = self.conj(o)
            lit = self.lits[o] = self.m.var(("mv", o, self.t))
            self.m.equiv_and(lit, [j, x])
        return self.lits[o]

    def reasons(self, v: int, ops) -> list[int]:
        if self.fac is None:
            return [self.lits[o] for o in ops]
        out = {}
        for o in ops:
            lit = self.m.var(self.fac.reason(o, v) + (self.t,)) if o in self.fac.of_op else self.lits[o]
            out[lit] = None
        return list(out)
