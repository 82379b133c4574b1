"""What the robustness tests share: the instances they run on, the command line run in this
process (with or without a check for tracebacks), the checks of a one-line error, and the
bench's results read back."""
import csv
import json
import sys
from pathlib import Path

from click.testing import CliRunner

from conftest import INSTANCES
from puzzleplan import methods
from puzzleplan.cli import main

GUARINI = str(INSTANCES / "knights/guarini.knights")
KLOTSKI = str(INSTANCES / "seeds/klotski_seed000.slide")
CARD40 = str(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh")
RUSH = CARD40
CARDS = str(INSTANCES / "rushhour/thinkfun40.rh")
MICROBAN = str(INSTANCES / "sokoban/Microban.txt")

# every per-horizon backend of the registry, and the options that change how a solve is stopped
BACKENDS = methods.backends() + ["pysat:cadical195", "pysat-de:glucose42+cadical195", "external:cadical"]
PUZZLEPLAN = [sys.executable, "-m", "puzzleplan.cli"]
BENCH = PUZZLEPLAN + ["bench"]

TWO = """\
board:
AB.
...
goal:
...
..B
"""


def run(*args):
    """``puzzleplan ARGS`` in this process; whatever it answers, no traceback."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output + (result.stderr or ""), result.output
    return result


def run_unchecked(*args):
    """``puzzleplan ARGS`` in this process, the result as it is (the caller checks it)."""
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error(result, *words):
    """Exit 2 and one line ``puzzleplan: error: ...`` naming ``words``."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("puzzleplan: error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]


def one_line_error(out, problem):
    assert out.exit_code == 2, out.output
    assert out.stderr.startswith("puzzleplan: error: ") and out.stderr.count("\n") == 1, out.stderr
    assert problem in out.stderr, out.stderr
    assert out.exception is None or isinstance(out.exception, SystemExit)


def json_error(out, problem):
    assert out.exit_code == 2, out.output
    doc = json.loads(out.stdout)
    assert doc["status"] == "error" and problem in doc["message"]
    assert out.exception is None or isinstance(out.exception, SystemExit)


def rows(path):
    return list(csv.DictReader(open(path))) if Path(path).exists() else []
