"""Commands on files: ``show`` a position (and a plan), ``export`` an encoding (CNF, CP-SAT,
AIGER, PDDL), ``decode`` an outside solver's answer or a model checker's witness."""
from __future__ import annotations

import json
from pathlib import Path

import click

from .. import limits
from ..plans import read_plan
from ..puzzle import Contradiction, Outcome, PuzzleError, Result, Status
from .common import (AT_LEAST_0, SECONDS, animation_option, counts_option, domain_option, fail, json_option, level_option,
                     memory_option, metric_option)
from .outcomes import end_with
from .report import load_instance, print_result, write_animations


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@level_option
@click.option("--plan", "plan_file", type=click.Path(dir_okay=False), help="Also draw each position of this plan.")
@metric_option
@counts_option
@domain_option
@animation_option
def show(file, level, plan_file, metric, constraints, options, animations):
    """Draw the position in FILE (and a plan, frame by frame)."""
    from ..puzzle import check_metric
    try:
        if animations[0] and not plan_file:
            raise PuzzleError("--gif, --html and --mp4 need --plan")
        try:
            inst = load_instance(file, level, constraints=constraints, options=options)
        except Contradiction as err:    # still a board to show
            inst = load_instance(file, level, options=options, stated=False)
            click.echo(f"unsolvable: no plan can meet the conditions: {err.problem}", err=True)
        problem = inst.problem
        drawn = problem.rules.drawn
        click.echo("\n".join(drawn(problem.rules.board())))
        if plan_file:
            steps = read_plan(plan_file)
            frames = problem.rules.replay(steps).frames()
            metric = check_metric(problem, metric)
            for name, done, group in _drawn_moves(problem.rules, steps, metric):
                click.echo(f"\n{name}: {' '.join(group)}")
                click.echo("\n".join(drawn(frames[done])))
            write_animations(animations, problem, steps, metric)
    except PuzzleError as err:
        fail(err)


def _drawn_moves(rules, steps, metric):
    """``(name, steps done, the move's steps)`` for each frame ``show`` draws: one per move of
    ``metric`` where its moves cut the plan into consecutive runs (one per time step where they
    are moves made together), else one per unit step."""
    moves = [group for _, group in rules.moves_of(steps, metric)]
    if metric == rules.metrics[0] or [s for group in moves for s in group] != list(steps):
        return [(f"step {i}", i, [step]) for i, step in enumerate(steps, 1)]
    # a metric whose moves are the walk metric's moves made together counts time steps
    word = "time step" if rules.walk_metric(metric) != metric else f"move ({metric})"
    done, out = 0, []
    for i, group in enumerate(moves, 1):
        done += len(group)
        out.append((f"{word} {i}", done, list(group)))
    return out


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--horizon", "-t", type=AT_LEAST_0, default=None,
              help="Moves allowed (the goal must hold after them); not for PDDL.")
@metric_option
@level_option
@counts_option
@click.option("--card-encoding", default="seqcounter", show_default=True, help="pysat.card encoding for move counts.")
@click.option("--margin", type=AT_LEAST_0, default=2, show_default=True, help="Free cells around an open Sokoban level.")
@click.option("--out", "-o", default=None, type=click.Path(dir_okay=False),
              help="OUT.cnf (.gz/.bz2/.xz), OUT.wcnf or OUT.pb/.pbtxt (CP-SAT); a sidecar OUT.json is written too. "
                   "OUT.pddl: a PDDL problem, with domain.pddl beside it.")
@click.option("--pddl", "pddl_dir", default=None, type=click.Path(file_okay=False),
              help="Write the puzzle as PDDL: OUTDIR/domain.pddl and OUTDIR/problem.pddl (no horizon).")
@click.option("--force", is_flag=True, help="Overwrite OUT and its sidecar if they exist.")
@click.option("--backward", is_flag=True,
              help="AIGER: the backward system (from the goal states; bad is the start position).")
@domain_option
@click.option("--time-limit", type=SECONDS, default=None, help="Seconds to build the export (nothing is written "
                                                               "if it passes).")
@memory_option
def export(file, horizon, metric, level, constraints, card_encoding, margin, out, pddl_dir, force, backward, options,
           time_limit):
    """Write the encoding of FILE at one horizon for outside solvers, with its symbol table (or the puzzle as
    PDDL, or as a transition system for model checkers: OUT.aag, OUT.aig)."""
    try:
        with limits.time_limit(time_limit):
            export_to(file, horizon, metric, level, constraints, card_encoding, margin, out, pddl_dir, force,
                      backward, options)
    except limits.TimeUp:
        click.echo("timeout: the time limit passed before the export was built; nothing written")


def export_to(file, horizon, metric, level, constraints, card_encoding, margin, out, pddl_dir, force, backward,
              options) -> None:
    """The body of ``export``; :class:`limits.TimeUp` when its time limit passes."""
    from ..export import AIGER_KINDS, build, export as write
    try:
        if pddl_dir or (out and out.endswith(".pddl")):
            from ..pddl import export_file
            return click.echo(export_file(file, level, metric, constraints, margin, pddl_dir, out, force, options))
        if out and Path(out).suffix.lower() in AIGER_KINDS:
            return export_aiger(file, horizon, metric, level, constraints, margin, out, force, backward, options)
        if backward:
            raise PuzzleError("--backward is for AIGER exports (OUT.aag, OUT.aig)")
        if horizon is None or out is None:
            raise PuzzleError("give --horizon/-t and --out/-o (or --pddl OUTDIR for PDDL)")
        from ..outputs import check_new
        for path in (out, out + ".json"):      # checked before the encoding is built, which may take long
            check_new(path, force)
        inst = load_instance(file, level, margin, constraints, options)
        header = {"instance": str(file), "level": level, "constraints": list(constraints)}
        with limits.preemptive():       # the encoding is built within the limit; the file written whole after
            formula = build(inst.problem, metric, horizon, card_encoding, header=header)
        made = write(formula, out)
    except Contradiction as err:
        fail(PuzzleError(f"nothing to export: the instance is unsolvable, no plan can meet the conditions: "
                         f"{err.problem}", err.path))
    except PuzzleError as err:
        fail(err)
    click.echo(f"{made[0]}: {formula.nvars:,} variables, {len(formula.clauses):,} clauses, horizon {horizon} "
               f"({formula.metric}); symbols in {made[1]}")


def export_aiger(file, horizon, metric, level, constraints, margin, out, force, backward, options=None) -> None:
    """``export FILE -o OUT.aag|OUT.aig``: the transition system, bounded by ``--horizon`` if given."""
    from ..export import aiger_system, export_aiger as write
    from ..outputs import check_new
    for path in (out, out + ".json"):
        check_new(path, force)
    inst = load_instance(file, level, margin, constraints, options)
    header = {"instance": str(file), "level": level, "constraints": list(constraints)}
    with limits.preemptive():       # the system is built within the limit; the files written whole after
        system, aig = aiger_system(inst.problem, metric, horizon, backward, header)
    try:
        made = write(system, aig, out, horizon, backward, header)
    except OSError as err:
        raise PuzzleError(f"cannot write {out}: {err.strerror}") from None
    click.echo(f"{made[0]}: {aig.ninputs:,} inputs, {aig.nlatches:,} latches, {len(aig.gates):,} and-gates"
               + (f", bad: a plan within {horizon}" if horizon is not None else "")
               + f" ({'backward' if backward else 'forward'}); symbols in {made[1]}")


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--cnf", "cnf_file", default=None, type=click.Path(dir_okay=False), help="The exported CNF.")
@click.option("--model", "answer_file", default=None, type=click.Path(dir_okay=False),
              help="The solver's output (s/v lines) or minisat's result file.")
@click.option("--aiger", "aiger_file", default=None, type=click.Path(dir_okay=False),
              help="The exported AIGER file (instead of --cnf), with --witness.")
@click.option("--witness", "witness_file", default=None, type=click.Path(dir_okay=False),
              help="A model checker's witness on --aiger (AIGER/HWMCC format, or ABC's write_cex -a).")
@click.option("--margin", type=AT_LEAST_0, default=2, show_default=True, help="As given to export.")
@click.option("--proof", "proof_file", default=None, type=click.Path(dir_okay=False, exists=False),
              help="A DRAT proof of the solver's UNSAT answer, checked by dratify; without it an UNSAT answer "
                   "is reported as unverified (exit code 4).")
@click.option("--time-limit", type=SECONDS, default=None, help="Seconds to check the answer.")
@json_option
@memory_option
def decode(file, cnf_file, answer_file, aiger_file, witness_file, margin, proof_file, as_json, time_limit):
    """Turn a SAT solver's answer on an exported CNF of FILE (or a model checker's witness on an
    exported AIGER file) into a replayed plan."""
    from ..planner.decode import Refused, decode as run, decode_witness
    try:
        if aiger_file or witness_file:
            if not (aiger_file and witness_file) or cnf_file or answer_file or proof_file:
                raise PuzzleError("give --aiger with --witness (or --cnf with --model)")
        elif not (cnf_file and answer_file):
            raise PuzzleError("give --cnf with --model (or --aiger with --witness)")
        with limits.time_limit(time_limit):
            result = (decode_witness(file, aiger_file, witness_file, margin) if aiger_file else
                      run(file, cnf_file, answer_file, margin, proof_file))
    except limits.TimeUp:
        result = Result(Status.TIMEOUT, "-", "external answer", message="the time limit passed before the answer "
                                                                         "was checked")
    except Refused as err:
        if as_json:
            click.echo(json.dumps({"status": "refused", "message": str(err)}))
        else:
            click.echo(f"puzzleplan: refused: {err}", err=True)
        end_with(Outcome.CHECK_FAILED)
    except PuzzleError as err:
        fail(err, as_json)
    print_result(result, as_json)
