"""The ``factor`` lever: actions that are a product (a move times its counter's step, as our
exports count moves) said by a literal for the move and one for the counter's step
(:mod:`puzzleplan.strips.analyses.factor`): its group's ``("fj", g, t)`` and its transition's
``("fx", s, t)``.  It changes what an action's literal is, so the encoder reads it throughout
(:class:`~..actions.Actions`, the frame axioms, decoding); its own clauses are
:meth:`Factor.clauses`, each step's groups and transitions."""
from __future__ import annotations

from ...analyses.factor import factor
from .base import Lever


class Factor(Lever):
    name = "factor"

    def __init__(self, enc, on: bool):
        super().__init__(enc, on)
        p = enc.rules
        self.found = factor(p.ops, p.mover, [op.cost if enc.costed else 1 for op in p.ops]) if on else None

    def clauses(self, m, t, now, nxt) -> list:
        """Step t's factored actions: a group's literal implies its conditions and one of its
        transitions, a transition's its condition on its variable and one of its groups.
        Returns the groups' literals with their movers."""
        fac = self.found
        out = []
        for g, takes in enumerate(fac.takes):
            j = m.var(("fj", g, t))
            for v, x in fac.pre[g]:
                m.implies(j, [now[v][x]])
            for v, x in fac.eff[g]:
                m.implies(j, [nxt[v][x]])
            m.add([-j, *(m.var(("fx", s, t)) for s in takes)])
            out.append((j, fac.mover[g]))
        for s, (c, x, y) in enumerate(fac.parts):
            lit = m.var(("fx", s, t))
            m.implies(lit, [now[c][x]])
            m.implies(lit, [nxt[c][y]])
            m.add([-lit, *(m.var(("fj", g, t)) for g in fac.groups_of[s])])
        return out

    def figures(self) -> dict:
        if not self.on:
            return {"factor": "off"}
        if self.found is None:
            return {"factor": "no actions that are a product"}
        return dict(factored_actions=len(self.found.of_op), factor_literals=len(self.found.var) + len(self.found.parts))
