"""Typed outcomes: a result says whether it answered, failed a check, stands unverified or was
interrupted, and the CLI's exit code comes from one table of those outcomes."""
import pytest

from puzzleplan.cli.outcomes import EXIT_CODES, exit_code
from puzzleplan.puzzle import Check, Outcome, Result, Status

pytestmark = pytest.mark.smoke       # in the quick loop: pytest -m smoke

EXPECTED = {Status.INTERRUPTED: 130, Status.UNVERIFIED: 4, Status.MEMOUT: 5}


@pytest.mark.parametrize("status", list(Status))
def test_each_status_without_a_check_has_its_exit_code(status):
    result = Result(status, "steps", "m")
    assert exit_code(result) == EXPECTED.get(status, 0)
    assert result.outcome is {130: Outcome.INTERRUPTED, 4: Outcome.UNVERIFIED, 5: Outcome.MEMOUT, 0: Outcome.ANSWER}[exit_code(result)]


@pytest.mark.parametrize("status", list(Status))
@pytest.mark.parametrize("check,code", [(Check.PASSED, None), (Check.TIMED_OUT, None), (Check.FAILED, 3),
                                        (Check.INTERRUPTED, 130)])
def test_a_check_decides_over_the_status_but_never_over_an_interrupt(status, check, code):
    result = Result(status, "steps", "m", check=check)
    if status is Status.INTERRUPTED:
        assert exit_code(result) == 130
    else:
        assert exit_code(result) == (EXPECTED.get(status, 0) if code is None else code)


def test_one_code_per_outcome_and_no_stats_key_decides():
    assert set(EXIT_CODES) == set(Outcome) and len(set(EXIT_CODES.values())) == len(Outcome)
    # figures are figures: a stats key (or a misspelt one) does not change the exit code
    for key in ("certified", "proof_checked", "invariant_checked", "certify_interrupted", "certifed"):
        assert exit_code(Result(Status.OPTIMAL, "steps", "m", stats={key: False})) == 0
        assert exit_code(Result(Status.OPTIMAL, "steps", "m", stats={key: True})) == 0


def test_certification_sets_the_check(tmp_path):
    from conftest import INSTANCES
    from puzzleplan.formats.load import load
    from puzzleplan.planner import solve
    inst = load(INSTANCES / "rushhour/thinkfun40.rh", 1)
    result = solve(inst, "slides", certify=True)
    assert result.status is Status.OPTIMAL and result.length == 8
    assert result.check is Check.PASSED and result.stats["certified"] is True and exit_code(result) == 0
