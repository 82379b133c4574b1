"""Fuzzing the command line: mutated puzzle files and odd option values must give a result or
one line ``puzzleplan: error: ...`` with exit 2 (a JSON error object with --json), never a
traceback, never a hang.

The files are the small instances of instances/ and generated boards, mutated by byte flips,
truncation, deleted, duplicated and swapped lines, Unicode digits, huge numbers, wrong or
broken sections, undecodable bytes and broken gzip; the options are valid and invalid values
of every option of show, search, solve, validate, export and explore.  Everything is drawn
from fixed seeds, so a failure repeats; the runs are short (time limits of a fraction of a
second, small horizons), and each is stopped by an alarm if it hangs.
"""
import gzip
import json
import random
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

from conftest import INSTANCES
import families_gen as generate
from puzzleplan.cli import main
from puzzleplan.families.knights import fileformat as knights_format
from puzzleplan.families.sliding import slide as slide_format
from puzzleplan.families.sokoban import xsb

SEED = 20261123
HANG = 30            # seconds after which a run counts as hung
CASES_PER_FILE = 12  # mutated files made from each base (18 bases)


def first_lines(path, n, keep=lambda line: True):
    lines = [line for line in path.read_text().splitlines()]
    head = [line for line in lines if line.startswith((";", "set\t"))][:3]
    body = [line for line in lines if not line.startswith((";", "set\t")) and keep(line)][:n]
    return "\n".join(head + body) + "\n"


def bases() -> list[tuple[str, str, bool]]:
    """``(suffix, text, small)``: small ones are cheap to explore."""
    out = [(".slide", (INSTANCES / "seeds/klotski_seed000.slide").read_text(), False),
           (".rh", (INSTANCES / "seeds/rushhour_card40_bmodel_v1.rh").read_text(), False),
           (".rh", (INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").read_text(), True),
           (".knights", (INSTANCES / "seeds/knights_seed003.knights").read_text(), True),
           (".knights", (INSTANCES / "knights/guarini.knights").read_text(), True),
           (".knights", (INSTANCES / "knights/swap_3x4.knights").read_text(), True),
           (".rh", first_lines(INSTANCES / "rushhour/thinkfun40.rh", 3), True),
           (".tsv", first_lines(INSTANCES / "sliding/huarongdao_simonhung.tsv", 2), False),
           (".txt", "\n\n".join((INSTANCES / "sokoban/Microban.txt").read_text().split("\n\n")[:4]) + "\n", True)]
    rng = random.Random(SEED)
    for _ in range(3):
        out.append((".slide", slide_format.write(generate.sliding(rng, 3, 3, 3).spec)
                    + "constraints: A.moves>=1\n", True))
        out.append((".knights", knights_format.write(generate.knights(rng, 3, 3, 2, counted=True).spec), True))
        out.append((".xsb", xsb.write(generate.sokoban(rng, 4, 3, 1).level), True))
    return out


ODD_CHARS = ["\u00b2", "\u00b3", "\u0663", "\u2077", "\x00", "\t", "\u00e9", "#", ".", "@", "$", "*", "+", "9",
             "-", ":", "=", "\ufeff", "\u202e", " "]
ODD_LINES = ["axes: A=q", "axes: Z=h", "foo: bar", "goal:", "target:", "board:", "name:", "labelled: yes",
             "constraints: A.moves>=x", "constraints: A.moves>=\u00b2", "constraints: B.avoid=a\u00b2",
             "constraints: A.ends=z99", "constraints: A+.moves<=2", "constraints: *.avoid=a1",
             "constraints: A.moves=" + "9" * 40, "goal: A@" + "z" + "9" * 30, "goal: Q@a1 A.moves=1",
             "goal: A@a1 A+Z.moves<=3", "Title: x", "; 99", "=" * 200, "\u00b2" * 10, "A" * 300]


def mutate(rng: random.Random, text: str) -> bytes:
    """One to three random mutations of ``text``; the result may not even be UTF-8."""
    for _ in range(rng.randint(1, 3)):
        lines = text.splitlines()
        kind = rng.randrange(9)
        if kind == 0 and text:              # a character replaced
            i = rng.randrange(len(text))
            text = text[:i] + rng.choice(ODD_CHARS) + text[i + 1:]
        elif kind == 1:                     # truncated
            text = text[:rng.randrange(len(text) + 1)]
        elif kind == 2 and lines:           # a line deleted
            del lines[rng.randrange(len(lines))]
            text = "\n".join(lines) + "\n"
        elif kind == 3 and lines:           # a line duplicated
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            text = "\n".join(lines) + "\n"
        elif kind == 4 and len(lines) > 1:  # two lines swapped
            i, j = rng.sample(range(len(lines)), 2)
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines) + "\n"
        elif kind == 5:                     # a Unicode digit for an ASCII one
            digits = [i for i, ch in enumerate(text) if ch.isascii() and ch.isdigit()]
            if digits:
                i = rng.choice(digits)
                text = text[:i] + rng.choice(["\u00b2", "\u00b3", "\u0663", "\u2077"]) + text[i + 1:]
        elif kind == 6:                     # a huge number for a digit
            digits = [i for i, ch in enumerate(text) if ch.isascii() and ch.isdigit()]
            if digits:
                i = rng.choice(digits)
                text = text[:i] + "9" * rng.choice([12, 40, 5000]) + text[i + 1:]
        elif kind == 7:                     # a wrong or broken section
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(ODD_LINES))
            text = "\n".join(lines) + "\n"
        else:                               # one long row, or a board widened by a column
            if lines:
                i = rng.randrange(len(lines))
                lines[i] = lines[i] + rng.choice([".", "#", "A", "." * 60])
            text = "\n".join(lines) + "\n"
    data = text.encode("utf-8")
    if rng.random() < 0.05:                 # undecodable bytes
        i = rng.randrange(len(data) + 1)
        data = data[:i] + bytes([0xff, 0xfe, 0x80]) + data[i:]
    return data


def file_cases():
    rng = random.Random(SEED + 1)
    cases = []
    for n, (suffix, text, small) in enumerate(bases()):
        for k in range(CASES_PER_FILE):
            data = mutate(rng, text)
            name = f"f{n}_{k}{suffix}"
            roll = rng.random()
            if roll < 0.06:                 # gzipped, or broken gzip
                data = gzip.compress(data)
                if rng.random() < 0.5:
                    data = data[:rng.randrange(len(data))]
                name += ".gz"
            elif roll < 0.08:
                data = b""
            cases.append((name, data, small, rng.randrange(1 << 30)))
    return cases


def file_args(rng, path, small, tmp_path) -> list[str]:
    """A command on ``path``, with mostly sensible options."""
    command = rng.choice(["show", "search", "solve", "validate", "export"] + (["explore"] if small else []))
    if command == "show":
        return ["show", path]
    if command == "search":
        return ["search", path, "--time-limit", "0.5", "-a", rng.choice(["bfs", "astar"])]
    if command == "solve":
        return ["solve", path, "--time-limit", "0.5", "--max-horizon", "12",
                "-b", rng.choice(["pysat", "pysat", "cpsat", "pysat-plain"])]
    if command == "validate":
        plan = tmp_path / f"plan{rng.randrange(1 << 30)}.txt"
        plan.write_text(rng.choice(["AR AL", "AD,BU", "b1-c3 c3-b1", "rrUL", '{"steps": ["AR"]}', "", "b1-c\u00b3"]))
        return ["validate", path, str(plan)]
    if command == "export":
        return ["export", path, "-t", str(rng.choice([0, 2, 3])), "-o", str(tmp_path / f"x{rng.randrange(1 << 30)}.cnf")]
    return ["explore", path]


OPTION_VALUES = {
    "--time-limit": ["0.5", "0", "-5", "nan", "inf", "1e999", "abc", "\u00b2", "0.2", ""],
    "--max-horizon": ["-1", "0", "5", "\u00b2", "99999999999999999999", "x"],
    "--margin": ["0", "1", "-1", "\u00b3", "99999999999"],
    "--level": ["0", "-1", "1", "2", "999", "x", "\u00b2"],
    "--moves": ["A>=3", "A>=\u00b2", "A", "Z<=1", "A+B<=99999999999", "A>=-1", "A=>3", ">=3", "A+<=2",
                "A=" + "9" * 5000, "W>=1", "B=8", "player>=2"],
    "--avoid": ["B:a\u00b2", "B:z9", "*:a1", "A:", "player:b5", ":a1", "A:a1,,", "A:a0", "boxes:c3", "B:a1-b2"],
    "--ends": ["A:e3,f3", "A:a\u00b2", "A:z9", "player:b2", "W:a1", "A:", "B:d8"],
    "--frozen": ["A", "Z", "*", "", "B"],
    "-c": ["A.moves>=3", "B.frozen", "A.avoid=", "junk", "A.ends=a1", "A.moves=99999999999999", "A.moves>=\u00b2",
           "A+B.moves<=4", ".moves=1"],
    "--metric": ["steps", "slides", "moves", "pushes", "x", ""],
    "--backend": ["pysat", "cpsat", "pysat-plain", "nope", "pysat:nosuch", "cpsat:0", "cpsat:x", "cpsat-horizons",
                  "pysat:cadical195", "external:"],
    "--algorithm": ["bfs", "astar", "dfs"],
    "--start-horizon": ["-1", "0", "3", "x", "1000000"],
    "--card-encoding": ["seqcounter", "nope", "totalizer"],
    "--horizon": ["-1", "0", "3", "\u00b2", "x"],
}
TAKES = {
    "search": ["--time-limit", "--level", "--margin", "--moves", "--avoid", "--ends", "--frozen", "-c", "--metric",
               "--algorithm"],
    "solve": ["--time-limit", "--max-horizon", "--level", "--margin", "--moves", "--avoid", "--ends", "--frozen", "-c",
              "--metric", "--backend", "--start-horizon", "--card-encoding"],
    "validate": ["--level", "--moves", "--avoid", "--ends", "--frozen", "-c", "--metric"],
    "explore": ["--level", "--metric"],
    "show": ["--level"],
    "export": ["--horizon", "--level", "--margin", "--moves", "--avoid", "--frozen", "-c", "--metric"],
}
VALID = {   # instances on which odd options are tried (cheap ones)
    "rh": INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh",
    "knights": INSTANCES / "knights/guarini.knights",
    "seed knights": INSTANCES / "seeds/knights_seed003.knights",
    "sokoban": INSTANCES / "sokoban/Microban.txt",
}


def option_cases(count: int):
    rng = random.Random(SEED + 2)
    cases = []
    for _ in range(count):
        command = rng.choice(list(TAKES))
        path = str(rng.choice(list(VALID.values())))
        args = [command, path]
        chosen = rng.sample(TAKES[command], min(len(TAKES[command]), rng.randint(1, 3)))
        for option in chosen:
            args += [option, rng.choice(OPTION_VALUES[option])]
        # every run stays short: a sane limit unless the option itself is being tried
        if command in ("search", "solve") and "--time-limit" not in chosen:
            args += ["--time-limit", "0.5"]
        if command == "solve" and "--max-horizon" not in chosen:
            args += ["--max-horizon", "20"]
        if command == "export":
            if "--horizon" not in chosen:
                args += ["--horizon", "2"]
            args += ["-o", "OUT"]
        if command == "validate":
            args.insert(2, "PLAN")
        cases.append(args)
    return cases


class Hung(Exception):
    pass


def alarm(*_):
    raise Hung(f"no answer within {HANG} s")


def check(args, exit_code, stdout, stderr, exception=None):
    """A result (0; validate: 1 for a legal plan that does not solve), or one error line and 2."""
    shown = f"puzzleplan {' '.join(map(str, args))!r}\nexit {exit_code}\nstdout {stdout[-800:]!r}\nstderr {stderr[-800:]!r}"
    assert exception is None or isinstance(exception, SystemExit), f"{shown}\n{exception!r}"
    assert "Traceback" not in stdout + stderr, shown
    as_json = "--json" in args
    if exit_code == 2:
        if as_json:
            lines = stdout.strip().splitlines()
            assert len(lines) == 1, shown
            doc = json.loads(lines[0])
            assert doc["status"] == "error" and doc["message"], shown
        else:
            lines = stderr.splitlines()
            assert len(lines) >= 1 and lines[-1].startswith("puzzleplan: error: "), shown
            # progress lines may come before, but only one error line, on one line
            assert sum(line.startswith("puzzleplan: error: ") for line in lines) == 1, shown
            assert all(not line.startswith(" ") for line in lines), shown
    elif exit_code == 1:
        assert args[0] == "validate", shown
        # a plan that fails, or conditions no plan can meet (the file's or the options')
        assert (json.loads(stdout)["solved"] is False) if as_json else \
            stdout.startswith(("legal but not solved", "not solved: no plan can meet the conditions")), shown
    else:
        assert exit_code == 0, shown


def invoke(args):
    runner = CliRunner()
    signal.signal(signal.SIGALRM, alarm)
    signal.alarm(HANG)
    try:
        result = runner.invoke(main, [str(a) for a in args])
    finally:
        signal.alarm(0)
    assert not isinstance(result.exception, Hung), f"hung: {args}"
    check(args, result.exit_code, result.stdout, result.stderr, result.exception)
    return result.exit_code


@pytest.mark.heavy
def test_mutated_files(tmp_path):
    cases = file_cases()
    assert len(cases) >= 200
    exits = []
    for name, data, small, seed in cases:
        path = tmp_path / name
        path.write_bytes(data)
        rng = random.Random(seed)
        args = file_args(rng, str(path), small, tmp_path)
        if args[0] in ("search", "solve", "validate", "explore") and rng.random() < 0.3:
            args.append("--json")
        exits.append(invoke(args))
        # and the same file through a second command
        exits.append(invoke(file_args(rng, str(path), small, tmp_path)))
    # the mutations are not all fatal: many files still load and are solved, searched, exported
    assert exits.count(2) > 100 and exits.count(0) > 50, {code: exits.count(code) for code in set(exits)}


@pytest.mark.heavy
def test_odd_option_values(tmp_path):
    cases = option_cases(160)
    plan = tmp_path / "plan.txt"
    plan.write_text("AR AL")
    exits = []
    for args in cases:
        args = [str(tmp_path / f"x{i}.cnf") if a == "OUT" else str(plan) if a == "PLAN" else a
                for i, a in enumerate(args)]
        if args[0] in ("search", "solve", "validate", "explore") and len(exits) % 3 == 0:
            args.append("--json")
        exits.append(invoke(args))
    assert exits.count(2) > 40 and exits.count(0) > 10, {code: exits.count(code) for code in set(exits)}


@pytest.mark.parametrize("args", [
    ["search", str(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh"), "--avoid", "B:a\u00b2"],
    ["solve", str(INSTANCES / "knights/guarini.knights"), "--time-limit", "nan", "--json"],
    ["export", str(INSTANCES / "knights/guarini.knights"), "-t", "2", "-o", "nosuchdir/x.cnf"],
    ["explore", str(INSTANCES / "knights/guarini.knights"), "--level", "\u00b2"],
    ["show", "missing.slide"],
])
def test_real_processes(args):
    done = subprocess.run([sys.executable, "-m", "puzzleplan.cli", *args], capture_output=True, text=True,
                          timeout=HANG)
    assert done.returncode == 2
    check(args, done.returncode, done.stdout, done.stderr)


# -- hostile and huge input (each case: an answer or one error line, never a traceback or a hang)
def hostile_cases(tmp_path) -> list[list[str]]:
    """Huge boards with limits, a compressed bomb, special files, duplicate sections, reversed
    and huge level ranges, unrelated output files, outputs through dangling links."""
    slide = (INSTANCES / "seeds/klotski_seed000.slide").read_text()
    (tmp_path / "twice.slide").write_text(slide + "\ngoal:\n....\n....\n....\n....\n.AA.\n")
    (tmp_path / "boards.slide").write_text(slide + "\nboard:\nA.\n")
    (tmp_path / "names.knights").write_text((INSTANCES / "knights/guarini.knights").read_text() + "name: again\n")
    with gzip.open(tmp_path / "bomb.slide.gz", "wb", compresslevel=1) as fh:
        for _ in range(80):
            fh.write(bytes(1 << 20))
    (tmp_path / "huge.knights").write_text("board:\nW" + "." * 299 + "\n" + ("." * 300 + "\n") * 299 + "goal: W@b1\n")
    (tmp_path / "strip.slide").write_text("board:\nA" + "." * 100_000 + "\ngoal:\n" + "." * 100_000 + "A\n")
    (tmp_path / "unrelated.csv").write_text("name,score\nann,3\n")
    (tmp_path / "link.drat").symlink_to(tmp_path / "nowhere" / "p.drat")
    zero = tmp_path / "zero.slide"
    zero.symlink_to("/dev/zero")
    t, g, card = str(tmp_path), str(INSTANCES / "knights/guarini.knights"), str(INSTANCES / "rushhour/thinkfun40.rh")
    return [
        ["search", f"{t}/twice.slide"], ["solve", f"{t}/boards.slide"], ["show", f"{t}/names.knights"],
        ["show", f"{t}/bomb.slide.gz"], ["search", str(zero)], ["validate", g, "/dev/urandom"],
        ["validate", g, "/dev/zero", "--json"], ["decode", g, "--cnf", "/dev/zero", "--model", "/dev/zero"],
        ["search", f"{t}/huge.knights", "--time-limit", "0.5"], ["solve", f"{t}/huge.knights", "--time-limit", "0.5"],
        ["explore", f"{t}/huge.knights", "--time-limit", "0.5"],
        ["search", f"{t}/strip.slide", "-m", "slides", "--time-limit", "0.5"],
        ["solve", f"{t}/strip.slide", "-m", "slides", "--time-limit", "0.5", "--json"],
        ["bench", card, "--levels", "5-1", "--methods", "bfs", "-o", f"{t}/r.csv"],
        ["bench", card, "--levels", "1-99999999", "--methods", "bfs", "-o", f"{t}/r.csv"],
        ["bench", g, "--methods", "bfs", "-o", f"{t}/unrelated.csv"],
        ["bench", g, "--methods", "bfs", "-o", f"{t}/a/b/c.csv"],
        ["solve", g, "--certify", "--proof", f"{t}/link.drat"],
        ["solve", g, "--certify", "--proof", f"{t}/missing/p.drat"],
        ["solve", g, "--backend", 'external:"unclosed'], ["bench", g, "--dask", "not-an-address", "-o", f"{t}/d.csv"],
        ["search", card, "-c", "C.ends=c3", "-c", "*.avoid=c3"],
    ]


@pytest.mark.heavy
def test_hostile_and_huge_inputs(tmp_path):
    cases = hostile_cases(tmp_path)
    exits = [invoke(args) for args in cases]
    # bad input: one error line each; huge boards under a limit and contradictory conditions: answers
    assert exits == [2] * 8 + [0] * 5 + [2] * 8 + [0], exits
    assert (tmp_path / "unrelated.csv").read_text() == "name,score\nann,3\n"
    assert not (tmp_path / "a").exists() and not (tmp_path / "nowhere").exists()
