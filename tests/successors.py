"""What an encoding allows after one move, read by enumerating its models: the check that
an encoding has exactly the rules' transitions (conformance suite and cross-checks)."""
from puzzleplan.encodings import encoder_for
from puzzleplan.encodings.model import BoolModel
from puzzleplan.planner.backends import make_backend


def freeze(x):
    """A hashable, order-free copy of a replay entry (dicts, sets, lists, tuples)."""
    if isinstance(x, dict):
        return tuple(sorted((freeze(k), freeze(v)) for k, v in x.items()))
    if isinstance(x, (set, frozenset)):
        return tuple(sorted(freeze(v) for v in x))
    if isinstance(x, (list, tuple)):
        return tuple(freeze(v) for v in x)
    return x


def successors_by_sat(rules, metric):
    """The replayed positions after each distinct next state the encoding allows after one move."""
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
