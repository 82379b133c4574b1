"""The sliding makespan metric against an oracle written from its definition alone
(``benchmarks/makespan_fuzz/fuzz.py``): boards with walls, 1x1 to 2x2 and L pieces,
interchangeable unnamed pieces, h/v axes, Rush Hour cards, avoided cells and end cells; BFS,
A*, pysat, pysat-de and cpsat each give the oracle's optimum (or no plan), and every plan
replays, validates and is counted as long as the oracle counts it.  The quick oracle test
(test_oracle.py) has none of the interchangeable pieces, Rush Hour cards, avoid or ends."""
import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

FUZZ = Path(__file__).resolve().parents[2] / "benchmarks" / "makespan_fuzz" / "fuzz.py"


def fuzz_module():
    spec = importlib.util.spec_from_file_location("makespan_fuzz", FUZZ)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("seed", [7, 11])
def test_makespan_fuzz_agrees_with_the_oracle(seed, capsys):
    fuzz_module().main(150, seed)
    out = capsys.readouterr().out
    assert "mismatches 0;" in out, out
    assert "MISMATCH" not in out, out
    assert "('slide 3+'," in out and "('rh 3+'," in out and "('slide none'," in out, out   # it covers ground
