"""The family kit, shipped with the package: what an author of a puzzle family needs beyond
the contract (:mod:`puzzleplan.contract`) and the ``TEMPLATE`` family.

- :mod:`puzzleplan.kit.test_conformance`: the conformance suite every family passes, run on
  any installed family (a package of your own with an entry point included) with no source
  checkout::

      python -m pytest --pyargs puzzleplan.kit.test_conformance -k mypuzzle

  It needs pytest (``pip install pytest``, or ``puzzleplan[test]``).
- :func:`instances`: generated instances of any family, as problems
  (:class:`~puzzleplan.contract.Problem`, the family with them), as :func:`puzzleplan.load`
  makes a file's.
- :func:`successors_by_sat`: what an encoding allows after one move, by enumerating its
  models: the check that an encoding has exactly the rules' transitions.
- :func:`goal_distances`: each state's fewest moves to a goal, by backward search.
"""
from __future__ import annotations

import random

from ..contract import Problem


def instances(family, n: int, seed: int = 0, wrapped: bool = True) -> list:
    """``n`` generated instances of ``family`` (reproducible from ``seed``): problems
    (:class:`~puzzleplan.contract.Problem`) with the family, or with ``wrapped=False`` the bare
    rules objects."""
    rng = random.Random(f"{family.name}-{seed}")
    make = family.part("generate")
    rules = [make(rng) for _ in range(n)]
    return [Problem(r, family) for r in rules] if wrapped else rules


def goal_distances(space, parents: dict, states) -> dict:
    """Each of ``states``' fewest moves to a goal of ``space`` (rules, or a problem's
    :meth:`~puzzleplan.contract.Problem.space`) (absent: none), by breadth-first search
    backward over ``parents`` (state -> the states one move before it)."""
    from collections import deque
    dist = {s: 0 for s in states if space.is_goal(s)}
    queue = deque(dist)
    while queue:
        state = queue.popleft()
        for prev in parents.get(state, ()):
            if prev not in dist:
                dist[prev] = dist[state] + 1
                queue.append(prev)
    return dist


def freeze(x):
    """A hashable, order-free copy of a replay entry (dicts, sets, lists, tuples)."""
    if isinstance(x, dict):
        return tuple(sorted((freeze(k), freeze(v)) for k, v in x.items()))
    if isinstance(x, (set, frozenset)):
        return tuple(sorted(freeze(v) for v in x))
    if isinstance(x, (list, tuple)):
        return tuple(freeze(v) for v in x)
    return x


def successors_by_sat(rules, metric: str) -> tuple[set, set]:
    """``(states, positions)``: each distinct next state the encoding of ``rules`` in
    ``metric`` allows after one move, and the replayed position of each."""
    from ..encodings import encoder_for
    from ..encodings.model import BoolModel
    from ..planner.backends import make_backend
    enc = encoder_for(rules, metric)
    m = BoolModel()
    enc.start(m)
    enc.extend(m, 1)
    backend = make_backend("pysat", m)
    facts = sorted(set(enc.facts(m, 1).values()))
    seen, positions = set(), set()
    try:
        while backend.solve_assuming([m.var(("act", 0))]):
            values = set(backend.values())
            state = frozenset(v for v in facts if v in values)
            assert state not in seen
            seen.add(state)
            steps = rules.render_steps(enc.decode(m, values))
            positions.add(freeze(rules.replay(steps).history[-1]))
            backend.solver.add_clause([-v if v in values else v for v in facts])
    finally:
        backend.close()
    return seen, positions


# -- tests that need a program or a package ---------------------------------------------------
def in_ci() -> bool:
    """Whether the tests run in CI (``CI`` set, as CI services set it: ``CI=true``)."""
    import os
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing(*needs) -> list[str]:
    """Why each of ``needs`` is not here: a :class:`~puzzleplan.plugins.Program` or
    :class:`~puzzleplan.plugins.Package`, a method of the registry (``"fd-lmcut"``,
    ``"abc:pdr"``: what its row's class declares), or the name of a program."""
    from .. import plugins
    out = []
    for need in needs:
        if isinstance(need, str):
            name = need.partition(":")[0]
            if name in plugins.table():
                method, option, impl = plugins.code(need)
                why = impl.unavailable(method.name, option)
                out += [f"{need}: {why}"] if why else []
                continue
            need = plugins.Program(need)
        why = need.missing()
        out += [why] if why else []
    return out


def need(*needs, module: bool = False) -> None:
    """Inside a test (or at a test module's top, ``module=True``): skip it when one of ``needs``
    (see :func:`missing`) is not here; in CI a missing need is a failure, not a skip (CI
    installs everything: ``sh setup.sh test``)."""
    import pytest
    why = "; ".join(missing(*needs))
    if not why:
        return
    if in_ci():
        pytest.fail(f"needed here in CI: {why} (sh setup.sh test installs it)", pytrace=False)
    pytest.skip(why, allow_module_level=module)


def requires(*needs):
    """Decorator: the test runs only where ``needs`` are here (:func:`need`: skipped elsewhere,
    a failure in CI).  Asked when the test runs, not when it is collected."""
    import functools

    def mark(test):
        @functools.wraps(test)
        def checked(*args, **kwargs):
            need(*needs)
            return test(*args, **kwargs)
        return checked
    return mark
