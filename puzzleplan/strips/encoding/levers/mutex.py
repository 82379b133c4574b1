"""The ``mutex`` lever: the h^2 mutexes (:mod:`puzzleplan.strips.analyses.mutex`) not said
already (by a variable's one-hot or a translator group), at every step of either end of the
unrolling, in CP-SAT and in the exports: a binary clause per pair of facts that no reachable
state holds together, a unit per fact none holds, and one clause "f implies w = y" where f's
pairs leave one value of w, in place of those pairs
(:func:`~puzzleplan.strips.analyses.mutex.implications`)."""
from __future__ import annotations

from ...analyses.mutex import WORK, implications
from .base import Lever


class Mutex(Lever):
    name = "mutex"

    def __init__(self, enc, on: bool):
        super().__init__(enc, on)
        p = enc.rules
        found = p.mutexes() if on else None
        self.unreachable: tuple = ()
        self.pairs: list = []
        self.implied: list = []
        self.clauses = 0
        if on and found is None:
            self.note = "not computed (over its budget)"
        if found is None:
            return
        self.unreachable = tuple(f for f in found.unreachable if f not in p.avoided)
        imply = implications(found, enc.values, p.avoided)
        two = [len(names) == 2 for names in enc.values]
        self.implied = _implied(imply, two)
        in_group: dict = {}
        for i, g in enumerate(set(g) for g in p.task.mutexes if len(g) > 1):
            for f in g:
                in_group.setdefault(f, set()).add(i)
        self.pairs = [(a, b) for a, b in found.pairs
                      if a not in p.avoided and b not in p.avoided
                      and not in_group.get(a, set()) & in_group.get(b, set()) and not _said(imply, two, a, b)]
        self.seconds = found.seconds

    def notes(self) -> list[str]:
        if self.note.startswith("not computed"):
            return [f"h^2 mutexes not used: their fixpoint was not reached within its work budget "
                    f"({WORK:,} units); the encoding goes on without them"]
        return []

    def state(self, m, t, lit) -> None:
        for v, x in self.unreachable:
            m.add([-lit[v][x]])
        for (v, x), (w, y) in self.pairs:
            m.add([-lit[v][x], -lit[w][y]])
        for (v, x), (w, y) in self.implied:
            m.add([-lit[v][x], lit[w][y]])
        self.clauses += len(self.pairs) + len(self.unreachable) + len(self.implied)

    def figures(self) -> dict:
        if self.note:
            return {"mutexes": self.note}
        return dict(mutex_pairs=len(self.pairs), unreachable_facts=len(self.unreachable),
                    implications=len(self.implied), invariant_clauses=self.clauses, mutex_seconds=self.seconds)


def _said(imply: dict, two: list, a, b, base: bool = False) -> bool:
    """a says b's variable has another value, or b says a's, or they say two values of one
    (base: only through what a or b says of a variable of more than two values)."""
    (v, x), (w, y) = a, b
    of_a, of_b = imply.get(a, {}), imply.get(b, {})
    return (not (base and two[w]) and of_a.get(w, y) != y) or (not (base and two[v]) and of_b.get(v, x) != x) \
        or any(of_b.get(u, z) != z for u, z in of_a.items() if not (base and two[u]))


def _implied(imply: dict, two: list) -> list:
    """The implications stated: f -> (w = y) for a w of two values is the pair f, (w = the
    other): not stated when what f or that other says of variables of more values does (the
    player on one cell says each box-free cell but its own clear); those of more values are all
    stated."""
    def key(f, g):          # the clause "not f or g", the same whichever way it is read
        (v, x), (w, y) = f, g
        return frozenset({(v, 1 - x, True) if two[v] else (v, x, False), (w, y, True)})

    out, seen = [], set()
    for f, said in sorted(imply.items()):
        for w, y in sorted(said.items()):
            if key(f, (w, y)) not in seen and not (two[w] and _said(imply, two, f, (w, 1 - y), base=True)):
                seen.add(key(f, (w, y)))
                out.append((f, (w, y)))
    return out
