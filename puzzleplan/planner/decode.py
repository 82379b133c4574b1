"""An outside SAT solver's answer on an exported CNF, turned back into what it means: a
model becomes a plan replayed by the rules (``feasible``: the solver searched one horizon
only); an UNSAT answer is a claim (``unverified``) unless its DRAT proof checks
(``no_plan_within`` the horizon).  ``puzzleplan decode`` is this, with its printing."""
from __future__ import annotations

from pathlib import Path

from .. import limits
from ..export import build, check_symbols, decode_answer, read_answer, read_header
from ..formats.common import MAX_ANSWER_BYTES, MiB, Unreadable, read_bytes, read_lines, read_text
from ..formats.load import load
from ..puzzle import Check, PuzzleError, Result, Status, Verdict
from ..validate import check_plan


ANSWER_SLACK = 16 * MiB      # comments and statistics a solver prints beside its model


def decode(file: str | Path, cnf_file: str | Path, answer_file: str | Path, margin: int = 2,
           proof_file: str | Path | None = None) -> Result:
    """The meaning of ``answer_file`` (the solver's s/v lines or minisat's result) on
    ``cnf_file`` (exported from ``file``); PuzzleError on any mismatch or bad input."""
    with limits.preemptive():       # reading, building and replaying stop at the deadline
        info = read_header(cnf_file)
        inst = load(file, info["level"], margin=margin, constraints=info["constraints"])
        formula = build(inst.problem, info["metric"], info["horizon"], info.get("card_encoding", "seqcounter"))
        check_symbols(formula, info["symbols"], cnf_file)
        # a model holds a value per variable: its size is capped by the formula's, not only by
        # the bytes an answer file may have (a 300 MB file of zeros filled gigabytes)
        top = formula.model.top
        cap = min(MAX_ANSWER_BYTES, ANSWER_SLACK + (top + 1) * (len(str(top)) + 2))
        answer = read_answer(read_text(answer_file, cap), answer_file, max_values=top + 1)
    if answer.status is Verdict.UNSAT:
        return unsat_claim(formula, inst.problem, info["horizon"], proof_file)
    if proof_file:
        raise PuzzleError("--proof is for an UNSAT answer; this answer is a model, checked against the formula")
    with limits.preemptive():
        steps = decode_answer(formula, answer, answer_file)
        report = check_plan(inst.problem, steps, formula.metric)
    if not report["solved"]:
        raise PuzzleError(f"the decoded plan does not solve the puzzle: {report['problem']}")
    return Result(Status.FEASIBLE, formula.metric, "external answer", report["length"], steps,
                  board=inst.rules.board(),
                  message=f"replayed; a plan within horizon {info['horizon']} (optimality not proven here)")


def unsat_claim(formula, problem, horizon: int, proof_file) -> Result:
    """An outside solver's UNSAT: a claim, unless a DRAT proof of it checks."""
    if proof_file is None:
        return Result(Status.UNVERIFIED, formula.metric, "external answer", board=problem.rules.board(),
                      message=f"the solver claims no plan of at most {horizon} {formula.metric} exists; unverified "
                              "(give --proof FILE with its DRAT proof to check the claim)")
    from .certify import check_drat, read_proof
    data = read_bytes(proof_file, MAX_ANSWER_BYTES)     # text or binary DRAT, as the solver wrote it
    try:
        checked, why = check_drat(formula, read_proof(data, str(proof_file))), ""
    except PuzzleError as err:      # a malformed proof is a failed check, like one that does not follow
        checked, why = {"ok": False, "check_seconds": 0.0}, f" ({err.problem})"
    stats = {"proof_checked": checked["ok"], "check_seconds": checked["check_seconds"]}
    if checked["ok"]:
        return Result(Status.NO_PLAN_WITHIN, formula.metric, "external answer", bound=horizon, board=problem.rules.board(),
                      proof=f"the solver's DRAT proof, checked by dratify ({checked['engine']})", stats=stats,
                      check=Check.PASSED)
    return Result(Status.UNVERIFIED, formula.metric, "external answer", board=problem.rules.board(), stats=stats,
                  check=Check.FAILED, message=f"the DRAT proof in {proof_file} does NOT check{why}: the UNSAT claim stands unproven")


class Refused(PuzzleError):
    """A witness that does not match the model or does not replay (exit code 3)."""


def decode_witness(file: str | Path, aiger_file: str | Path, witness_file: str | Path, margin: int = 2) -> Result:
    """A model checker's witness (AIGER/HWMCC format, or ABC's ``write_cex -a``) on an AIGER
    file exported from ``file``: a plan replayed by the rules (``feasible``), or Refused."""
    with limits.preemptive():       # no solver here: reading, building and replaying stop at the deadline
        return _decode_witness(file, aiger_file, witness_file, margin)


WITNESS_SLACK = 4096        # a witness's line: its values, or a comment


def within(frames, longest: int | None, bound: int | None, source: str):
    """A witness's steps, refused at the first beyond ``longest`` (the AIGER file's bound allows no more)."""
    for k, frame in enumerate(frames):
        if longest is not None and k == longest:
            raise PuzzleError(f"the witness has more than {longest} steps; the AIGER file allows plans of at most "
                              f"{bound}", source)
        yield frame


def _decode_witness(file, aiger_file, witness_file, margin: int) -> Result:
    from ..encodings.aiger import check_trace, read_witness, to_aig
    from ..encodings.transition import build_system, plan_moves
    from ..export import aiger_comments, read_aiger_header
    info = read_aiger_header(aiger_file)
    inst = load(file, info["level"], margin=margin, constraints=info["constraints"])
    s = build_system(inst.problem, info["metric"], (), info["backward"], info["bound"])
    aig = to_aig(s, fold=False, comments=aiger_comments({}, s.metric, info["bound"], info["backward"]))
    mine = {k: info["fields"][k] for k in ("inputs", "latches", "gates", "bad", "constraints")}
    if mine != {"inputs": aig.ninputs, "latches": aig.nlatches, "gates": len(aig.gates), "bad": 1, "constraints": 1} \
            or info["symbols"] != aig.symbols:
        raise Refused("the AIGER file does not match this puzzle (its symbol table differs); export it again "
                      "or give the puzzle it was made from", str(aiger_file))
    # a witness holds a line per step: no longer than the bound allows (with one), and never
    # longer than the answer files we read; it is read a line at a time, each step checked as
    # it comes, and no further than the first step refused
    longest = None if info["bound"] is None else info["bound"] + 4
    cap = MAX_ANSWER_BYTES if longest is None else min(MAX_ANSWER_BYTES,
                                                       (longest + 4) * (aig.ninputs + aig.nlatches + 8) + 4096)
    lines = read_lines(witness_file, cap, max(aig.ninputs, aig.nlatches) + WITNESS_SLACK)
    try:
        init, frames = read_witness(lines, aig.ninputs, aig.nlatches, str(witness_file))
        frames = check_trace(aig, init, within(frames, longest, info["bound"], str(witness_file)),
                             str(witness_file))
        steps = inst.rules.render_steps(plan_moves(s, frames))
    except Unreadable:
        raise
    except PuzzleError as err:
        raise Refused(err.problem, str(witness_file)) from None
    report = check_plan(inst.problem, steps, s.metric)
    if not report["solved"]:
        raise Refused(f"the witness's plan does not solve the puzzle: {report['problem']}", str(witness_file))
    return Result(Status.FEASIBLE, s.metric, "model checker's witness", report["length"], steps,
                  board=inst.rules.board(),
                  message="replayed; the model checker's plan (optimality not proven here)")
