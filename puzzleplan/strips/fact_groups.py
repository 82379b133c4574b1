"""Stage 5 of our own grounder (:mod:`.grounder`): the translator's ``fact_groups.py`` -- which
groups become the finite-domain variables.  The largest groups first, each fact in one variable
(the translator's partial encoding); the facts no group covers are variables of their own
(binary: ``p``, ``not p``, :mod:`.finite_domain`)."""
from __future__ import annotations

from collections import defaultdict


def choose(groups: list, facts: list) -> list[list]:
    """The translator's cover of ``facts`` by ``groups`` (:mod:`.invariants`): the largest group
    first, its facts taken from the others; every fact no group keeps a variable of its own."""
    by_size: dict = defaultdict(list)
    by_fact: dict = defaultdict(list)
    for g in groups:
        g = set(g)
        by_size[len(g)].append(g)
        for f in g:
            by_fact[f].append(g)
    size = max(by_size, default=0)
    chosen = []
    while size > 1:
        lst = by_size[size]
        if not lst:
            size -= 1
            continue
        g = lst.pop()
        if len(g) != size:
            by_size[len(g)].append(g)
            continue
        pick = sorted(g)
        for f in pick:
            for other in by_fact[f]:
                other.discard(f)
        chosen.append(pick)
    covered = {f for g in chosen for f in g}
    chosen += [[f] for f in facts if f not in covered]
    return sorted(sorted(g) for g in chosen)

