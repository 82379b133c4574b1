"""What the strips family adds to a grounded task, checked against enumeration on generated
tasks (:mod:`puzzleplan.families.strips.generate`) and on PDDL exports:

- lower bounds: h^max, LM-cut and the counting bound never exceed the true distance of any
  reachable state; h^max and the counting bound are consistent (A* needs no reopening); A* = BFS;
- h^2 mutexes: no reachable state holds an unreachable fact or a mutex pair;
- inverse actions: every barred pair really gives back the state it started from;
- one order for commuting actions: every pair the rule bars can be swapped, from every
  reachable state, into the same end state through a state of facts the two ends hold;
- SAT = BFS with every lever on, both unrollings, on every family's PDDL export;
- side conditions that reward moves switch the barring off; the stats say what each lever added.
"""
from __future__ import annotations

import heapq
import random

import pytest

from puzzleplan import registry
from puzzleplan.registry import problem as problem_of
from puzzleplan.families.strips.generate import generate
from puzzleplan.strips.analyses.inverse import inverse_pairs, known
from puzzleplan.strips.analyses.mutex import mutexes
from puzzleplan.strips.analyses.order import interfering_above, schema_ranks
from puzzleplan.strips.analyses.relaxed import DEAD_END
from puzzleplan.families.strips.rules import StripsTask
from puzzleplan.formats.load import load
from puzzleplan.pddl import export
from puzzleplan.planner import solve
from puzzleplan.puzzle import MoveCount, PuzzleError, Status
from puzzleplan.search import astar_search, breadth_first_search
from puzzleplan.validate import check_plan

SEEDS = range(150)


def reachable(rules) -> set:
    states, todo = {rules.initial}, [rules.initial]
    while todo:
        s = todo.pop()
        for _, nxt in rules.successors(s):
            if nxt not in states:
                states.add(nxt)
                todo.append(nxt)
    return states


def goal_distances(rules, metric: str) -> dict:
    """Every reachable state from which a goal is reachable -> its true distance (cost)."""
    back: dict = {}
    states = reachable(rules)
    for s in states:
        for move, nxt in rules.successors(s, metric):
            back.setdefault(nxt, []).append((s, rules.move_cost(move, metric)))
    dist = {s: 0 for s in states if rules.is_goal(s)}
    heap = [(0, i, s) for i, s in enumerate(dist)]
    tie = len(heap)
    while heap:
        d, _, s = heapq.heappop(heap)
        if d > dist[s]:
            continue
        for p, c in back.get(s, ()):
            if d + c < dist.get(p, float("inf")):
                dist[p] = d + c
                tie += 1
                heapq.heappush(heap, (d + c, tie, p))
    return dist


def tasks(n=len(SEEDS)):
    return [generate(random.Random(seed)) for seed in SEEDS[:n]]


def a_fact_to_avoid(rules, seed):
    """A fact not in the initial state that ``avoid`` can name (an atom: not ``not p`` nor
    ``<none of those>``), drawn by ``seed``."""
    return random.Random(seed).choice([(v, x) for v, names in enumerate(rules.task.values)
                                       for x, name in enumerate(names) if rules.initial[v] != x
                                       and not name.startswith(("not ", "<"))])


# -- lower bounds ------------------------------------------------------------------------------
@pytest.mark.parametrize("metric", ["steps", "cost"])
def test_hmax_and_lmcut_are_admissible_and_hmax_is_consistent(metric):
    compared = stronger = dead = 0
    for rules in tasks():
        relaxed = rules.relaxed(metric == "cost")
        dist = goal_distances(rules, metric)
        for s in reachable(rules):
            hmax, lmcut = relaxed.hmax(s), relaxed.lmcut(s)
            assert lmcut >= hmax
            if s not in dist:
                dead += hmax == DEAD_END
                continue
            assert hmax <= dist[s] and lmcut <= dist[s], (s, hmax, lmcut, dist[s])
            compared += 1
            stronger += lmcut > hmax
            for move, nxt in rules.successors(s, metric):
                assert hmax <= rules.move_cost(move, metric) + relaxed.hmax(nxt)
    assert compared > 300 and stronger > 10 and dead > 10


def test_the_bound_is_lmcut_at_the_start_and_hmax_or_counting_elsewhere_and_off_when_switched_off():
    """At the start: the most of h^max, the counting bound, the transition graphs' distances and
    LM-cut (a dead end where h^max or the distances say so)."""
    from puzzleplan.strips.analyses.dtg import INF
    seen = 0
    for rules in tasks(60) + [eight_puzzle_export()]:
        relaxed = rules.relaxed()
        start = rules.heuristic(rules.initial, "steps")
        hmax = relaxed.hmax(rules.initial)
        counting = rules.counting()(rules.initial)
        apart = rules.distances()(rules.initial)
        assert start == (DEAD_END if hmax == DEAD_END or apart == INF else
                         max(hmax, counting, apart, relaxed.lmcut(rules.initial)))
        seen += start > hmax
        rules.levers = frozenset()
        assert rules.heuristic(rules.initial, "steps") == 0
    assert seen > 0
    assert start == 21 > max(hmax, counting, relaxed.lmcut(rules.initial))     # the 8-puzzle's Manhattan distance


@pytest.mark.parametrize("metric", ["steps", "cost"])
def test_the_counting_bound_is_admissible_and_consistent(metric):
    """On generated tasks and on peg solitaire's exports, where every jump clears one hole
    more (the bound is the pegs to remove, which h^max does not see)."""
    compared = stronger = 0
    pegs = [load(export_of("pegsol", "steps", seed)).rules for seed in range(1, 4)]
    for rules in tasks() + pegs:
        relaxed, count = rules.relaxed(metric == "cost"), rules.counting(metric == "cost")
        dist = goal_distances(rules, metric)
        for s in reachable(rules):
            h = count(s)
            if s in dist:
                assert h <= dist[s], (s, h, dist[s])
                compared += 1
                stronger += h > relaxed.hmax(s)
            for move, nxt in rules.successors(s, metric):
                assert h <= rules.move_cost(move, metric) + count(nxt)
    assert compared > 300 and stronger > 10


@pytest.mark.parametrize("metric", ["steps", "cost"])
def test_the_transition_graph_distances_are_admissible_and_consistent(metric):
    """The sum over variables no action changes two of (:mod:`.dtg`) never exceeds a reachable
    state's true distance, drops by at most an action's cost, is infinite only where no goal
    is reachable.  Generated tasks (a third with a fact to avoid)
    and the exports of a generated sliding board and of a 2 x 3 tile puzzle, where the tiles'
    distances add up (its Manhattan distance)."""
    from puzzleplan.strips.analyses.dtg import INF
    compared = stronger = summed = dead = 0
    exports = [load(export_of("sliding", "steps", 1)).rules,
               export_text("six.slide", "board:\nEC.\nBDA\n\ngoal:\nABC\nDE.\n", "steps")]
    for seed, rules in enumerate(tasks() + exports):
        if seed % 3 == 0 and seed < len(SEEDS):     # with a fact to avoid: its actions are left out
            fact = a_fact_to_avoid(rules, seed)
            rules = StripsTask(rules.task, avoid={"*": [rules.fact(*fact)]})
        apart, relaxed = rules.distances(metric == "cost"), rules.relaxed(metric == "cost")
        dist = goal_distances(rules, metric)
        summed += max(len(x) for x in apart.summed) > 1
        for s in reachable(rules):
            h = apart(s)
            if s not in dist:
                dead += h == INF
            else:
                assert h <= dist[s], (s, h, dist[s])
                compared += 1
                stronger += h > relaxed.hmax(s)
            for move, nxt in rules.successors(s, metric):
                assert h <= rules.move_cost(move, metric) + apart(nxt)
    assert compared > 300 and stronger > 10 and summed > 10 and dead > 0, (compared, stronger, summed, dead)


def strips_satisfies(rules, state, side, t, moves) -> bool:
    """Whether the bound on ``side`` (goal_bound or start_bound) at step ``t`` with ``moves``
    left (made) admits ``state`` of a grounded task, every value fixed (an encoder of its own:
    an encoder keeps its steps' literals for its one model)."""
    from pysat.solvers import Solver
    from puzzleplan.encodings import encoder_for
    from puzzleplan.encodings.lower import clauses_of
    from puzzleplan.encodings.model import BoolModel
    enc, m = encoder_for(rules, "steps"), BoolModel()
    enc.lever("bound").sum_pays = True      # the goal side's sum stated whatever it is at the start
    enc.state_vars(m, t)
    getattr(enc, side)(m, t, moves)
    lit = enc.lits(m, t)
    with Solver(name="glucose42", bootstrap_with=list(clauses_of(m))) as s:
        return s.solve(assumptions=[lit[v][x] for v, x in enumerate(state)])


def test_the_strips_bounds_admit_every_state_at_its_distance_and_bind():
    """Goal side: a state d steps from the goal satisfies the bound with d moves left and one
    whose distances add up to h fails it with h - 1; start side: a state d steps from the start
    satisfies it with d made and fails it with one under its variables' distances from the
    start.  Generated tasks and a sliding board's export."""
    binding = {"goal_bound": 0, "start_bound": 0}
    for rules in tasks(40) + [load(export_of("sliding", "steps", 1)).rules]:
        apart = rules.distances()
        from_start, summed = apart.from_start()
        to_goal = goal_distances(rules, "steps")
        depth = {rules.initial: 0}
        todo = [rules.initial]
        for s in todo:
            for _, nxt in rules.successors(s):
                if nxt not in depth:
                    depth[nxt] = depth[s] + 1
                    todo.append(nxt)
        # the states of plans: those that reach a goal (the others may hold a dead value)
        depth = {s: d for s, d in depth.items() if s in to_goal}
        for side, dist in (("goal_bound", to_goal), ("start_bound", depth)):
            for state, d in sorted(dist.items())[:30]:
                assert strips_satisfies(rules, state, side, 1, d), (side, state, d)
                if side == "goal_bound":
                    h = apart(state)
                else:
                    h = sum(from_start[v][state[v]] for v in summed)
                assert h <= d
                if h >= 1:
                    assert not strips_satisfies(rules, state, side, 1, h - 1), (side, state, h)
                    binding[side] += 1
    assert min(binding.values()) > 50, binding


@pytest.mark.heavy
def test_the_goal_sides_sum_is_stated_where_it_is_more_than_lmcut_at_the_start():
    """The 8-puzzle's tiles add up to 21 at the start, LM-cut 18: stated; a knight swap's
    squares to 12, LM-cut 12: not (it cost more conflicts than it saved)."""
    tiles = eight_puzzle_export()
    got = solve(tiles, "steps", max_horizon=22)
    assert got.lower_bound == 21 and got.status is Status.NO_PLAN_WITHIN and got.stats["distance_sum"] == "stated"
    swap = load(export_of("knights", "steps", 3)).rules
    apart = swap.distances()(swap.initial)
    got = solve(swap, "steps", max_horizon=40)
    stated = apart > max(swap.relaxed().hmax(swap.initial), swap.lmcut_at_start())
    assert got.status is Status.OPTIMAL and got.length == breadth_first_search(swap, "steps").length
    assert got.stats["distance_sum"] == ("stated" if stated else "not stated (no more than LM-cut at the start)")


@pytest.mark.parametrize("metric", ["steps", "cost"])
def test_astar_equals_bfs_on_generated_tasks(metric):
    solved = 0
    for rules in tasks(80):
        bfs, astar = breadth_first_search(rules, metric), astar_search(rules, metric)
        assert astar.status is bfs.status and astar.length == bfs.length
        solved += bfs.status is Status.OPTIMAL
    assert solved > 30


def test_the_sat_deepening_starts_at_the_bound():
    rules = load(export_of("sliding", "steps")).rules
    bound = rules.heuristic(rules.initial, "steps")
    got = solve(rules, "steps", max_horizon=bound + 2)
    assert got.status is Status.NO_PLAN_WITHIN and got.lower_bound == bound > 0
    assert [h["horizon"] for h in got.horizons] == [bound, bound + 1, bound + 2]


# -- 2-literal invariants ------------------------------------------------------------------------
def test_no_reachable_state_breaks_an_h2_mutex():
    pairs = unreachable = 0
    for seed, rules in enumerate(tasks()):
        if seed % 3 == 0:       # with facts to avoid too: their actions are never used
            fact = a_fact_to_avoid(rules, seed)
            rules = StripsTask(rules.task, avoid={"*": [rules.fact(*fact)]})
        found = mutexes(rules)
        for s in reachable(rules):
            assert not any(s[v] == x for v, x in found.unreachable)
            assert not any(s[v] == x and s[w] == y for (v, x), (w, y) in found.pairs)
        pairs += len(found.pairs)
        unreachable += len(found.unreachable)
    assert pairs > 50 and unreachable > 100


def test_every_reachable_state_holds_what_each_fact_implies():
    """What a fact implies of another variable (h^2's pairs and that variable's one-hot), and
    the encoder's clauses in its place: every reachable state holds them, and the pairs the
    encoder leaves out are said by what it states (checked on each state reached)."""
    from puzzleplan.encodings import encoder_for
    from puzzleplan.strips.analyses.mutex import implications
    said = left_out = 0
    for seed, rules in enumerate(tasks(60) + [sokoban_export()]):
        if seed % 3 == 0:
            fact = a_fact_to_avoid(rules, seed)
            rules = StripsTask(rules.task, avoid={"*": [rules.fact(*fact)]})
        found = mutexes(rules)
        imply = implications(found, rules.task.values, rules.avoided)
        enc = encoder_for(rules, "steps")
        states = reachable(rules)
        for s in states:
            assert all(s[w] == y for (v, x), of in imply.items() if s[v] == x for w, y in of.items())
            assert all(s[w] == y for (v, x), (w, y) in enc.lever("mutex").implied if s[v] == x)
        # a pair left out is said by what is stated: a state holding both breaks a stated clause
        stated, groups = set(enc.lever("mutex").pairs), [g for g in rules.task.mutexes if len(g) > 1]
        for (v, x), (w, y) in found.pairs:
            if ((v, x), (w, y)) in stated or (v, x) in rules.avoided or (w, y) in rules.avoided:
                continue
            left_out += 1
            for s in list(states)[:50]:
                broken = list(s)
                broken[v], broken[w] = x, y
                assert any(broken[a] == b and broken[c] != d for (a, b), (c, d) in enc.lever("mutex").implied) or \
                    any(sum(broken[a] == b for a, b in g) > 1 for g in groups), (seed, (v, x), (w, y))
        said += len(enc.lever("mutex").implied)
    assert said > 30 and left_out > 20


def test_mutexes_over_their_budget_are_not_claimed():
    rules = tasks(1)[0]
    assert mutexes(rules, work=0) is None
    rules._mutexes = None       # as if over budget: the encoder says so and adds nothing
    from puzzleplan.encodings import encoder_for
    encoder = encoder_for(rules, "steps")
    assert encoder.figures()["mutexes"].startswith("not computed")
    assert len(encoder.notes()) == 1 and "work budget" in encoder.notes()[0]     # said to the user


# -- inverse actions --------------------------------------------------------------------------
def test_every_barred_pair_gives_back_the_state_it_started_from():
    found = 0
    for rules in tasks():
        for ops in (rules.ops, known(rules.ops, rules.task.values, mutexes(rules))):
            pairs = inverse_pairs(ops)
            found += len(pairs)
            for s in reachable(rules):
                for i, j in pairs:
                    if all(s[v] == x for v, x in rules.ops[i].pre):
                        s1 = rules.apply(s, i)
                        if all(s1[v] == x for v, x in rules.ops[j].pre):
                            assert rules.apply(s1, j) == s
    assert found > 100


# -- one order for actions that commute ------------------------------------------------------------
@pytest.mark.parametrize("by", ["action", "schema", "random"])
def test_every_pair_the_order_bars_can_be_swapped_to_the_same_end(by):
    """b straight after a, b's rank below a's (an action's own index, its schema's, or a rank
    drawn at random) and a not among b's interfering actions: from every reachable state where
    a then b apply, b then a apply too, end in the same state, and the state between holds only
    facts of the states before and after."""
    swapped = 0
    for i, rules in enumerate(tasks()):
        draw = random.Random(i)
        ranks = {"action": None, "schema": schema_ranks(rules.ops),
                 "random": [draw.randrange(4) for _ in rules.ops]}[by]
        above = interfering_above(rules.ops, ranks=ranks)
        assert above is not None
        rank = ranks or range(len(rules.ops))
        for s in reachable(rules):
            for a, op in enumerate(rules.ops):
                if not all(s[v] == x for v, x in op.pre):
                    continue
                s1 = rules.apply(s, a)
                for b in range(len(rules.ops)):
                    if rank[b] >= rank[a] or a in above[b] or not all(s1[v] == x for v, x in rules.ops[b].pre):
                        continue
                    assert all(s[v] == x for v, x in rules.ops[b].pre), (a, b)
                    mid = rules.apply(s, b)
                    assert all(mid[v] == x for v, x in op.pre), (a, b)
                    end = rules.apply(s1, b)
                    assert rules.apply(mid, a) == end
                    assert all(mid[v] in (s[v], end[v]) for v in range(len(s)))
                    swapped += 1
    assert swapped > 500


@pytest.mark.heavy
def test_an_action_said_never_to_follow_another_never_does():
    """The pairs the order leaves out of its clauses (b cannot apply straight after a: a
    precondition of b cannot hold with what a leaves) never stand straight one after the other
    from a reachable state; and the actions that need no clause have no independent action above."""
    from puzzleplan.strips.analyses.order import _never_after
    checked = unfree = 0
    exports = [load(export_of(name, "steps")).rules for name in ("sliding", "pegsol")]
    for rules in tasks(60) + exports:
        use = mutexes(rules)
        ops = known(rules.ops, rules.task.values, use)
        never = _never_after(ops, rules.task.values, use)
        pairs = {(a, b) for b in range(len(rules.ops)) for a in never(b)}
        for s in reachable(rules) if len(rules.ops) < 300 else []:
            for a, op in enumerate(rules.ops):
                if all(s[v] == x for v, x in op.pre):
                    s1 = rules.apply(s, a)
                    for b in range(len(rules.ops)):
                        if (a, b) in pairs:
                            assert not all(s1[v] == x for v, x in rules.ops[b].pre), (a, b)
                            checked += 1
        for rank in (range(len(rules.ops)), schema_ranks(rules.ops)):
            found = interfering_above(rules.ops, ops, rules.task.values, use, list(rank))
            for b in range(len(rules.ops)):
                higher = [a for a in range(len(rules.ops)) if rank[a] > rank[b]]
                assert set(found[b]) <= set(higher)
                if not found.free[b]:
                    assert all(a in found[b] or (a, b) in pairs for a in higher)
                    unfree += 1
    assert checked > 1000 and unfree > 100


def test_interference_over_its_budget_switches_the_order_off(monkeypatch):
    from puzzleplan.encodings import encoder_for
    from puzzleplan.strips.analyses import order
    rules = load(export_of("sliding", "steps")).rules
    rules.levers = rules.levers | {"order"}
    assert encoder_for(rules, "steps").figures()["order"] == "not needed (an easy run)"     # not yet
    monkeypatch.setattr(order, "PAIR_BUDGET", 10)
    assert interfering_above(rules.ops) is None
    from puzzleplan.encodings.model import BoolModel
    encoder = encoder_for(rules, "steps")
    encoder.escalate(BoolModel(), 1)        # the pairs are sought once a run proves hard
    assert encoder.figures()["order"] == "off (too many interfering pairs)"


def test_mutexes_make_more_inverse_pairs_known_on_rush_hour():
    rules = load(export_of("sliding", "steps")).rules
    plain = inverse_pairs(rules.ops)
    better = inverse_pairs(known(rules.ops, rules.task.values, rules.mutexes()))
    assert set(plain) <= set(better) and len(better) > len(plain)


def test_move_counts_that_reward_moves_switch_the_barring_off():
    from puzzleplan.encodings import encoder_for
    rules = load(export_of("sliding", "steps")).rules
    schema = rules.schemas[0]
    for counts, off in (((), False), ((MoveCount(schema, "<=", 3),), False), ((MoveCount(schema, ">=", 3),), True),
                        ((MoveCount(schema, "==", 2),), True), ((MoveCount(schema, "==", 0),), False)):
        figures = encoder_for(rules, "steps", counts).figures()
        assert ("inverse" in figures) is off, counts
        if not off:
            assert figures["inverse_pairs"] > 0


# -- SAT = BFS with every lever on ----------------------------------------------------------------
EXPORTS = [f for f in registry.all_families() if f.pddl and f.name != "strips"]
_exports: dict = {}


def export_of(family_name: str, metric: str, seed: int = 0):
    """A small generated instance of a family exported as PDDL (made once per session)."""
    key = (family_name, metric, seed)
    if key not in _exports:
        import tempfile
        family = registry.get(family_name)
        rng = random.Random(f"levers-{family_name}-{seed}")
        folder = tempfile.mkdtemp(prefix="levers-")
        if family_name == "sliding" and seed == 0:
            rules = load_native("instances/seeds/rushhour_card40_bmodel_v2.rh")
        else:
            rules = family.part("generate")(rng)
        _, _, problem = export(problem_of(rules), metric, folder + "/task")
        _exports[key] = problem
    return _exports[key]


def export_text(name: str, text: str, metric: str):
    """A puzzle written as ``name`` (its suffix picks the family), exported as PDDL and read back."""
    import tempfile
    from pathlib import Path
    folder = Path(tempfile.mkdtemp(prefix="levers-"))
    (folder / name).write_text(text)
    _, _, problem = export(load(folder / name).problem, metric, str(folder / "task"))
    return load(problem).rules


def sokoban_export():
    """A small Sokoban room as PDDL: the translator makes a variable per cell (a box, clear, or
    the player there) beside the player's position, which h^2 ties together."""
    return export_text("room.xsb", "#######\n#  .  #\n# $@$ #\n#  .  #\n#######\n", "moves")


def twins_export():
    """A 3 x 3 board whose goal names one piece: the two other 1x1 pieces are one kind of two."""
    return export_text("twins.slide", "board:\nA.B\n.CC\nD..\n\ngoal:\n...\n...\n..A\n", "steps")


def eight_puzzle_export():
    """A 3 x 3 sliding puzzle of eight tiles as PDDL: each tile a variable of nine cells."""
    return export_text("eight.slide", "board:\nHFG\nBED\nC.A\n\ngoal:\nABC\nDEF\nGH.\n", "steps")


def pennant_export():
    """The Pennant puzzle (instances/sliding) as PDDL in slides: two empty cells, Booleans."""
    import tempfile
    _, _, problem = export(load_native("instances/sliding/pennant.slide"), "slides", tempfile.mkdtemp(prefix="levers-"))
    return load(problem).rules


def load_native(path):
    from conftest import ROOT
    return load(ROOT / path).rules


@pytest.mark.heavy
@pytest.mark.parametrize("levers", ["default", "all"])
@pytest.mark.parametrize("backend", ["pysat", "pysat-de", "cpsat"])
@pytest.mark.parametrize("family", EXPORTS, ids=[f.name for f in EXPORTS])
def test_sat_equals_bfs_on_pddl_exports_with_every_lever_on(family, backend, levers, monkeypatch):
    """The default levers, and every lever (those off by default too) with every run counted as
    hard from its first horizon on, so that the double-ended unrolling adds the counting
    invariants (the generated tasks are easy runs)."""
    from puzzleplan.strips.encoding.levers import LEVERS
    from puzzleplan.planner import deepening
    if levers == "all":
        monkeypatch.setattr(deepening, "HARD_RUN", 0)
    compared = 0
    for seed in range(1, 5):
        rules = family.part("generate")(random.Random(f"sat-bfs-{family.name}-{seed}"))
        metric = rules.metrics[0]
        try:
            problem = export_of(family.name, metric, seed)
        except PuzzleError:
            continue
        read = load(problem).rules
        if levers == "all":
            read.levers = frozenset(LEVERS)
        if read.task.costs:
            continue            # steps only: the export's actions are the metric's moves
        bfs = breadth_first_search(read, "steps", 30)
        if bfs.status is not Status.OPTIMAL or bfs.length > 16:
            continue
        sat = solve(read, "steps", backend, max_horizon=30)
        assert sat.status is Status.OPTIMAL and sat.length == bfs.length, (family.name, seed, sat, bfs)
        assert check_plan(read, sat.steps, "steps")["solved"]
        compared += 1
    assert compared >= 1


def test_the_stats_say_what_each_lever_added():
    rules = load(export_of("sliding", "steps")).rules
    got = solve(rules, "steps", max_horizon=20)
    s = got.stats
    assert s["mutex_pairs"] + s["implications"] > 0 and s["inverse_pairs"] > 0
    assert s["invariant_clauses"] >= s["mutex_pairs"] + s["implications"]
    assert s["barred_pairs"] > 0 and got.lower_bound > 0
    rules.levers = frozenset()
    got = solve(rules, "steps", max_horizon=20)
    assert got.stats["mutexes"] == "off" and got.stats["inverse"] == "off" and got.lower_bound == 0


def test_the_exports_carry_the_invariants_and_the_barred_pairs():
    """A horizon's CNF has each step's mutex clauses, dead values and barred pairs, and the
    counts of one or two (cardinality constraints); the AIGER transition system has the
    mutexes over its latches and the barred pairs across its step."""
    from puzzleplan.encodings.lower import build
    from puzzleplan.encodings.transition import build_system
    on = load(export_of("sliding", "steps")).rules
    off = StripsTask(on.task)
    off.levers = frozenset()
    no_counts = StripsTask(on.task)
    no_counts.levers = on.levers - {"tallies"}
    cnf_on, cnf_off, cnf_no_counts = build(on, "steps", 4), build(off, "steps", 4), build(no_counts, "steps", 4)
    figures = cnf_no_counts.encoder.figures()
    assert len(cnf_no_counts.clauses) - len(cnf_off.clauses) == figures["invariant_clauses"] + figures["barred_pairs"]
    stated = figures["mutex_pairs"] + figures["unreachable_facts"] + figures["implications"]
    assert stated > 0 and figures["invariant_clauses"] == 5 * stated
    figures = cnf_on.encoder.figures()
    pennant = pennant_export()
    few = StripsTask(pennant.task)
    few.levers = pennant.levers - {"tallies"}
    cnf_pennant, cnf_few = build(pennant, "steps", 4), build(few, "steps", 4)
    scarce = cnf_pennant.encoder.figures()["scarce_constraints"]
    assert scarce == 5 * cnf_pennant.encoder.figures()["scarce_counts"] > 0
    assert len(cnf_pennant.clauses) >= len(cnf_few.clauses) + scarce
    sys_on, sys_off = build_system(on, "steps"), build_system(off, "steps")
    assert len(sys_on.step) > len(sys_off.step) + figures["mutex_pairs"] + figures["implications"]
    assert len(sys_on.latches) > len(sys_off.latches)       # the previous step's moves, for the barring


# -- counting invariants ------------------------------------------------------------------------
def test_every_reachable_state_holds_exactly_k_of_each_counting_invariant():
    from puzzleplan.strips.analyses.counts import count_invariants
    found = ones = 0
    for rules in tasks():
        for use in (None, mutexes(rules)):
            sets = count_invariants(rules, known(rules.ops, rules.task.values, use), use)
            for s in reachable(rules):
                for c in sets:
                    assert sum(s[v] == x for v, x in c.facts) == c.k
                    assert all(any((v, y) not in c.facts for y in range(len(rules.task.values[v]))) for v, _ in c.facts)
            found += len(sets)
            ones += sum(c.k == 1 for c in sets)
    assert found > 100 and ones > 50


def test_the_counting_search_skips_sets_the_one_hots_say_up_to_facts_that_hold_together():
    """On a Sokoban room's export a cell's "none of those" holds exactly when the player stands
    there: {box, clear, player there} is the cell's one-hot again, not a set to look for (the
    search spent its whole budget on such sets and found nothing the encoding lacked). Rush
    Hour's covers are found as before."""
    from puzzleplan.strips.analyses.counts import CONFLICTS, count_invariants
    room = sokoban_export()
    use = mutexes(room)
    sets = count_invariants(room, room.known_ops(), use)
    # the search ends before its budget: twice the budget finds nothing more
    assert count_invariants(room, room.known_ops(), use, conflicts=2 * CONFLICTS) == sets
    names = room.task.values
    for c in sets:      # none is a cell's three values with the player's cell for "none of those"
        cells = {names[v][x].split("(")[-1] for v, x in c.facts}
        assert len(cells) > 1, [names[v][x] for v, x in c.facts]
    for s in reachable(room):
        assert all(sum(s[v] == x for v, x in c.facts) == 1 for c in sets)
    rush = load(export_of("sliding", "steps")).rules
    assert len(count_invariants(rush, rush.known_ops(), rush.mutexes())) > 50


def test_every_reachable_state_holds_each_tally_of_facts():
    """The groups whose number no action changes (a kind's pieces: two interchangeable 1x1
    pieces): every reachable state holds that number of them."""
    groups = 0
    exports = [load(export_of(name, "steps")).rules for name in ("sliding", "pegsol")] + [twins_export()]
    for rules in tasks(60) + exports:
        constant = rules.counting().constant
        for s in reachable(rules):
            for _, facts, k in constant:
                assert sum(1 for v, x in facts if s[v] == x) == k
        groups += len(constant)
    assert groups > 20
    twins = exports[-1]
    assert any("(" in g and k > 1 for g, _, k in twins.counting().constant)     # a kind of two pieces
    twins.levers = twins.levers | {"tallies"}
    got = solve(twins, "steps", max_horizon=20)
    bfs = breadth_first_search(twins, "steps")
    assert got.status is Status.OPTIMAL and got.length == bfs.length == 7
    assert got.stats["tallies"] > 0 and got.stats["tally_constraints"] >= got.stats["tallies"]


def test_the_tallies_stated_are_those_the_one_hots_and_the_kinds_do_not_say():
    """A count every state holds by its variables' one-hots (the 8-puzzle's tiles: each tile
    somewhere; Rush Hour's cars, each a kind of its own in the export), that a predicate's
    first arguments add up to (the cars' count) or of more than two facts that are Booleans
    beside their negations (Rush Hour's empty cells) is left out; a predicate's count of one
    or two is stated at every step (a small room's two boxes, Pennant's two empty cells:
    Booleans too), the others on the goal side (each kind's pieces: two interchangeable 1x1
    pieces, Pennant's kinds; a Sokoban room's boxes); each stated count is one no action
    changes."""
    from puzzleplan.strips.encoding.levers.tallies import MAX_SCARCE, tallies

    def stated(rules):
        constant = rules.counting().constant
        kept, scarce = tallies(constant, rules.task.values)
        counts = {(tuple(f), k) for _, f, k in constant}
        names = {tuple(f): g for g, f, _ in constant}
        assert all(k > 1 and (tuple(f), k) in counts for f, k in kept)
        assert all(k <= MAX_SCARCE and len(f) > k and (tuple(f), k) in counts for f, k in scarce)
        assert all("(" not in names[tuple(f)] for f, _ in scarce)
        return sorted(names[tuple(f)] for f, _ in kept), sorted(names[tuple(f)] for f, _ in scarce)

    rush = load(export_of("sliding", "steps")).rules
    assert "at" in {g for g, _, k in rush.counting().constant if k > 1}
    assert stated(rush) == ([], []) and "clear" in {g for g, _, _ in rush.counting().constant}
    assert stated(twins_export()) == (["at(k1"], [])
    assert stated(sokoban_export()) == ([], ["box"])
    assert stated(pennant_export()) == (["at(k1", "at(k2", "at(k3"], ["clear"])
    tiles = eight_puzzle_export()
    assert "at" in {g for g, _, _ in tiles.counting().constant} and stated(tiles) == ([], [])


def test_the_covers_of_rush_hour_are_found_and_stated_on_the_goal_side_of_a_hard_run(monkeypatch):
    from puzzleplan.planner import deepening
    rules = load(export_of("sliding", "steps")).rules
    cells = {f for c in rules.counts() if c.k == 1 for f in c.facts if rules.fact(*f).startswith("clear(")}
    assert len(cells) == 36         # every cell of the 6x6 board: empty or covered by one car
    assert "counts" not in rules.levers     # off by default: asked for here
    rules.levers = rules.levers | {"counts"}
    easy = solve(rules, "steps", max_horizon=16)
    assert easy.stats["exactly_one_sets"] == "not sought (an easy run)"
    assert (easy.conflicts if hasattr(easy, "conflicts") else easy.stats["conflicts"]) < deepening.HARD_RUN
    monkeypatch.setattr(deepening, "HARD_RUN", 1)
    got = solve(rules, "steps", max_horizon=16)
    first = got.horizons[0]["horizon"]
    assert got.stats["counts_from_horizon"] == first + 1 and got.stats["exactly_one_sets"] >= 36
    # every goal-side state gets them, those built before the run proved hard too: the goal's
    # own step and one a horizon's second layer (16 horizons of 0..16 refuted, a 17th tried)
    goal_side = 1 + got.stats["horizons_tried"] // 2 + first // 2
    assert got.stats["count_clauses"] == got.stats["exactly_one_sets"] * goal_side
    assert got.status is easy.status and got.bound == easy.bound
    forward = solve(rules, "steps", "pysat", max_horizon=16)
    assert "exactly_one_sets" not in forward.stats       # the forward unrolling has no goal side


@pytest.mark.heavy
def test_sat_equals_bfs_on_pddl_exports_when_the_counting_invariants_come_in_mid_run(monkeypatch, tmp_path):
    """Sets added to goal-side states built before, and the order of commuting actions between
    steps built before: the optimum stays BFS's, wherever the run turns hard (after its first
    horizon, or some horizons later), in both unrollings (the sets asked for: off by default)."""
    from puzzleplan.planner import deepening
    compared = added = 0
    for family in EXPORTS:
        for seed in range(1, 5):
            rules = family.part("generate")(random.Random(f"sat-bfs-{family.name}-{seed}"))
            try:
                read = load(export_of(family.name, rules.metrics[0], seed)).problem
            except PuzzleError:
                continue
            read.rules.levers = read.rules.levers | {"counts"}
            bfs = breadth_first_search(read, "steps", 30)
            if read.rules.task.costs or bfs.status is not Status.OPTIMAL or bfs.length > 16:
                continue
            for hard in (0, 40, 200):
                monkeypatch.setattr(deepening, "HARD_RUN", hard)
                sat = solve(read, "steps", max_horizon=30)
                assert sat.status is Status.OPTIMAL and sat.length == bfs.length, (family.name, seed, hard, sat)
                added += isinstance(sat.stats.get("counts_from_horizon"), int)
                compared += 1
    # Rush Hour cards 1, 3 and 11 in slides (8, 14 and 25): many goal-side states, some built before
    monkeypatch.setattr(deepening, "HARD_RUN", 0)
    from conftest import ROOT
    for level in (1, 3, 11):
        native = load(ROOT / "instances/rushhour/thinkfun40.rh", level).problem
        read = load(export(native, "slides", str(tmp_path / f"card{level}"))[2]).rules
        read.levers = read.levers | {"counts"}
        bfs = breadth_first_search(read, "steps", 30)
        sat = solve(read, "steps", max_horizon=30)
        assert sat.status is Status.OPTIMAL and sat.length == bfs.length, (level, sat, bfs)
        assert sat.stats["counts_from_horizon"] <= bfs.length and sat.stats["exactly_one_sets"] > 30
        assert sat.stats["order_from_horizon"] == sat.stats["counts_from_horizon"] and sat.stats["order_clauses"] > 0
        assert sat.stats["order_by"].endswith(" ranks")          # a rank per schema: a car, a direction
        forward = solve(read, "steps", "pysat", max_horizon=30)        # the order between steps built forward
        assert forward.status is Status.OPTIMAL and forward.length == bfs.length, (level, forward)
        assert forward.stats["order_clauses"] > 0 and "exactly_one_sets" not in forward.stats
        added += 1
    assert compared >= 12 and added >= 7


def test_every_shortcut_is_one_action_doing_two_at_no_more_cost():
    from puzzleplan.strips.analyses.shortcut import shortcuts
    found = 0
    for rules in tasks():
        for use in (None, mutexes(rules)):
            ops = rules.ops
            triples = shortcuts(known(ops, rules.task.values, use), [op.cost for op in ops])
            found += len(triples)
            for s in reachable(rules):
                for i, j, k in triples:
                    assert ops[k].cost <= ops[i].cost + ops[j].cost
                    if all(s[v] == x for v, x in ops[i].pre):
                        s1 = rules.apply(s, i)
                        if all(s1[v] == x for v, x in ops[j].pre):
                            assert all(s[v] == x for v, x in ops[k].pre)
                            assert rules.apply(s, k) == rules.apply(s1, j)
    assert found > 100


def test_rush_hour_slides_along_one_line_are_shortcuts_and_counts_switch_them_off():
    from puzzleplan.encodings import encoder_for
    rules = load(export_of("sliding", "slides")).rules
    rules.levers = rules.levers | {"shortcut"}
    figures = encoder_for(rules, "steps").figures()
    assert figures["shortcut_pairs"] > 100
    schema = rules.schemas[0]
    for counts in ((MoveCount(schema, "<=", 3),), (MoveCount(schema, "==", 0),)):
        figures = encoder_for(rules, "steps", counts).figures()
        assert figures["shortcut"].startswith("off") and "inverse_pairs" in figures


def test_levers_changed_between_runs_take_effect():
    rules = load(export_of("sliding", "steps")).rules
    with_mutexes = len(inverse_pairs(rules.known_ops()))
    rules.levers = frozenset({"inverse"})
    assert len(inverse_pairs(rules.known_ops())) < with_mutexes
    rules.levers = frozenset({"inverse", "mutex"})
    assert len(inverse_pairs(rules.known_ops())) == with_mutexes


@pytest.mark.parametrize("text,want", [("none", ()),
                                       ("default", ("bound", "mutex", "inverse", "tallies", "symmetry", "order",
                                                    "walk", "factor")),
                                       ("mutex, bound", ("mutex", "bound")),
                                       ("+shortcut,-mutex", ("bound", "inverse", "tallies", "symmetry", "order",
                                                             "walk", "factor", "shortcut")),
                                       ("-bound,-bound", ("mutex", "inverse", "tallies", "symmetry", "order",
                                                          "walk", "factor"))])
def test_levers_are_chosen_by_name_or_by_change(text, want):
    from puzzleplan.strips.encoding.levers import parse_levers
    assert parse_levers(text) == want


@pytest.mark.parametrize("text,says", [("nosuch", "no lever 'nosuch'"), ("+shortcut,mutex", "give names"),
                                       ("", "give names"), ("+", "no lever ''")])
def test_a_lever_that_does_not_exist_is_refused_naming_those_that_do(text, says):
    from puzzleplan.strips.encoding.levers import parse_levers
    with pytest.raises(PuzzleError, match=says):
        parse_levers(text)


def test_levers_from_the_command_line_change_the_encoding_not_the_optimum(tmp_path):
    from click.testing import CliRunner
    from puzzleplan.cli import main
    from puzzleplan.series import generate as write_series
    (problem,) = write_series(registry.get("strips"), "ferry", tmp_path, values=[3])
    got = {}
    for levers in (None, "none", "+shortcut,-mutex"):
        inst = load(str(problem), options={"levers": levers})
        r = solve(inst, "steps", "pysat-de")
        assert r.status is Status.OPTIMAL
        got[levers] = (r.length, r.stats.get("mutexes"), r.stats.get("inverse"))
    assert got[None][0] == got["none"][0] == got["+shortcut,-mutex"][0]
    assert got[None][1:] == (None, None) and got["none"][1:] == ("off", "off") and got["+shortcut,-mutex"][1] == "off"
    out = CliRunner().invoke(main, ["solve", str(problem), "--levers", "none", "--json"])
    assert out.exit_code == 0 and '"mutexes": "off"' in out.output
    bad = CliRunner().invoke(main, ["solve", str(problem), "--levers", "mutexes"])
    assert bad.exit_code != 0 and "no lever 'mutexes'" in bad.output and "Traceback" not in bad.output
