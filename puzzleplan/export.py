"""Export one horizon's encoding for outside solvers, and read their answers back.

DIMACS CNF (``.cnf``, or compressed: ``.cnf.gz``, ``.cnf.bz2``, ``.cnf.xz``)
---------------------------------------------------------------------------
The formula says "a plan of at most T moves exists" (the goal at T is a unit
clause).  Comment lines before the ``p cnf`` header carry the provenance and the
symbol table, one line per variable::

    c puzzleplan instance <path> | level <n or -> | metric <m> | horizon <T>
    c puzzleplan constraints <text> ...          (only when there are any)
    c puzzleplan card-encoding <name>
    c var <number> <key as JSON>                 e.g. c var 17 ["at", 3, [4, 2], 5]

A key is the variable's meaning: a JSON array whose first item names the kind
(``at``/``empty``/``mv`` for sliding, ``player``/``box``/``push``/``mv`` for
Sokoban, ``at``/``mv`` for knights, ``moved``/``act``/``goal``/``alt`` shared,
``aux`` for auxiliaries of the cardinality encodings); inner arrays are tuples
(cells ``[x, y]``).  A JSON sidecar (``OUT.json``) holds the same map
(``symbols``: number -> key) with the instance, metric, horizon, and counts.

WCNF (``.wcnf``): the same hard clauses (``h ...``) and one soft clause
``1 -act_t 0`` per step, so a MaxSAT solver finds the fewest moves within T
(the format of the MaxSAT Evaluations since 2022).

CP-SAT (``.pb`` binary or ``.pbtxt`` text): OR-Tools' own CpModelProto of the
same formula, cardinalities native.

Answers (:func:`read_answer`): SAT competition output (``s SATISFIABLE`` and
``v ... 0`` lines, any number of them), or minisat's result file (``SAT`` then
the literals, ``UNSAT``, ``INDET``).
"""
from __future__ import annotations

import bz2
import gzip
import json
import lzma
from pathlib import Path

from .encodings.lower import Answer, Formula, build, read_answer  # noqa: F401  (the export API)
from .puzzle import PuzzleError, Verdict

OPENERS = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}


def open_text(path: str | Path, mode: str = "rt"):
    opener = OPENERS.get(Path(path).suffix, open)
    return opener(path, mode) if opener is open else opener(path, mode, encoding="utf-8")


def key_text(key) -> str:
    return json.dumps(key, separators=(", ", ": "))


def parse_key(text: str):
    def tup(x):
        return tuple(tup(i) for i in x) if isinstance(x, list) else x
    return tup(json.loads(text))


def header_lines(f: Formula) -> list[str]:
    h = f.header
    lines = [f"c puzzleplan instance {h.get('instance', '-')} | level {h.get('level') or '-'} | "
             f"metric {f.metric} | horizon {f.horizon}"]
    if h.get("constraints"):
        lines.append("c puzzleplan constraints " + " ".join(h["constraints"]))
    lines.append(f"c puzzleplan card-encoding {f.card_encoding}")
    lines += [f"c var {v} {key_text(k)}" for v, k in f.symbols().items()]
    return lines


def write_dimacs(f: Formula, path: str | Path) -> None:
    with open_text(path, "wt") as fh:
        fh.write("\n".join(header_lines(f)) + "\n")
        fh.write(f"p cnf {f.nvars} {len(f.clauses)}\n")
        for c in f.clauses:
            fh.write(" ".join(map(str, c)) + " 0\n")


def write_wcnf(f: Formula, path: str | Path) -> None:
    with open_text(path, "wt") as fh:
        fh.write("\n".join(header_lines(f)) + "\n")
        fh.write("c hard clauses: h ... 0; soft: weight ... 0 (one per step: no move at t)\n")
        for c in f.clauses:
            fh.write("h " + " ".join(map(str, c)) + " 0\n")
        for lit in f.soft():
            fh.write(f"1 {lit} 0\n")


def write_cpsat(f: Formula, path: str | Path) -> None:
    from .encodings.lower import to_cpsat
    cp, _ = to_cpsat(f.model, [f.goal()])
    if not cp.export_to_file(str(path)):
        raise PuzzleError(f"OR-Tools could not write {path}")


def write_sidecar(f: Formula, path: str | Path) -> None:
    data = {**f.header, "metric": f.metric, "horizon": f.horizon, "card_encoding": f.card_encoding,
            "vars": f.nvars, "clauses": len(f.clauses),
            "symbols": {str(v): k for v, k in f.symbols().items()}}
    Path(path).write_text(json.dumps(data, indent=1))


def export(f: Formula, out: str | Path) -> list[Path]:
    """Write ``out`` by its extension, plus the JSON sidecar; returns the files written."""
    out = Path(out)
    suffixes = [s.lower() for s in out.suffixes]
    kind = suffixes[-2] if suffixes and suffixes[-1] in OPENERS and len(suffixes) > 1 else (suffixes or [""])[-1]
    writers = {".cnf": write_dimacs, ".dimacs": write_dimacs, ".wcnf": write_wcnf, ".pb": write_cpsat,
               ".pbtxt": write_cpsat}
    if kind not in writers:
        raise PuzzleError(f"{out}: unknown export type; use .cnf (.gz/.bz2/.xz), .wcnf, .pb or .pbtxt")
    if kind in (".pb", ".pbtxt") and suffixes[-1] in OPENERS:
        raise PuzzleError(f"{out}: CP-SAT models are written uncompressed")
    writers[kind](f, out)
    sidecar = Path(str(out) + ".json")
    write_sidecar(f, sidecar)
    return [out, sidecar]


def read_header(path: str | Path) -> dict:
    """Provenance and symbol table from an exported CNF's comment lines."""
    info: dict = {"symbols": {}, "constraints": []}
    try:
        if not Path(path).is_file():     # /dev/zero would be one endless line
            raise PuzzleError("not a regular file", str(path))
        with open_text(path) as fh:
            for line in iter(lambda: fh.readline(1 << 20), ""):
                if not line.endswith("\n") and len(line) >= 1 << 20:
                    raise PuzzleError("a header line longer than 1 MiB: not a formula exported by puzzleplan",
                                      str(path))
                if line.startswith("c var "):
                    _, _, num, text = line.rstrip("\n").split(" ", 3)
                    info["symbols"][int(num)] = parse_key(text)
                elif line.startswith("c puzzleplan instance "):
                    for part in line[len("c puzzleplan "):].strip().split(" | "):
                        name, _, value = part.partition(" ")
                        info[name] = value
                elif line.startswith("c puzzleplan constraints "):
                    info["constraints"] = line.split()[3:]
                elif line.startswith("c puzzleplan card-encoding "):
                    info["card_encoding"] = line.split()[3]
                elif line.startswith("p "):
                    fields = line.split()
                    info["vars"], info["clauses"] = int(fields[2]), int(fields[3])
                    break
                elif not line.startswith("c"):
                    break
    except PuzzleError:
        raise
    except (OSError, EOFError, lzma.LZMAError, ValueError, UnicodeDecodeError) as err:
        raise PuzzleError(f"cannot read the exported formula: {err}", str(path)) from None
    if "horizon" not in info or "metric" not in info:
        raise PuzzleError("not a formula exported by puzzleplan (no 'c puzzleplan' header)", str(path))
    info["horizon"] = int(info["horizon"])
    info["level"] = None if info.get("level") in (None, "-") else int(info["level"])
    return info


def decode_answer(formula: Formula, answer: Answer, source: str = "answer"):
    """Plan steps from a satisfying assignment (checked against every clause first)."""
    if answer.status is not Verdict.SAT:
        raise PuzzleError({Verdict.UNSAT: f"the solver proved no plan of at most {formula.horizon} {formula.metric} exists",
                           Verdict.UNKNOWN: "the solver gave no answer (UNKNOWN)"}[answer.status], source)
    true = answer.true_vars
    for c in formula.clauses:
        if not any((lit > 0) == (abs(lit) in true) for lit in c):
            raise PuzzleError("the assignment violates a clause of the formula: not a model of it", source)
    moves = formula.encoder.decode(formula.model, true)
    return formula.encoder.rules.render_steps(moves)


def check_symbols(formula: Formula, symbols: dict[int, object], source: str) -> None:
    """The exported symbol table must name each variable as the rebuilt formula does."""
    mine = formula.symbols()
    if len(symbols) != len(mine) or any(mine.get(v) != k for v, k in symbols.items()):
        raise PuzzleError("the formula does not match this puzzle (its symbol table differs); "
                          "export it again or give the puzzle it was made from", source)


# -- AIGER (model checkers) -------------------------------------------------------------------

AIGER_KINDS = (".aag", ".aig")
AIGER_BYTES_PER_LINE = 100     # an and-gate, latch or input while its file is written (its line and the list holding it)


def aiger_comments(header: dict, metric: str, bound, backward: bool) -> list[str]:
    lines = [f"puzzleplan instance {header.get('instance', '-')} | level {header.get('level') or '-'} | "
             f"metric {metric} | bound {'-' if bound is None else bound} | "
             f"direction {'backward' if backward else 'forward'}"]
    if header.get("constraints"):
        lines.append("puzzleplan constraints " + " ".join(header["constraints"]))
    return lines


def aiger_system(problem, metric, bound: int | None = None, backward: bool = False, header: dict | None = None):
    """The transition system of ``problem`` and its AIG; PuzzleError if the AIGER text would not
    fit in the memory left (an estimate from the gates, before anything is written)."""
    from .encodings.aiger import to_aig
    from .encodings.lower import available_bytes
    from .encodings.transition import build_system
    header = dict(header or {})
    s = build_system(problem, metric, header.get("counts", ()), backward, bound)
    aig = to_aig(s, fold=False, comments=aiger_comments(header, s.metric, bound, backward))
    need = (len(aig.gates) + aig.nlatches + aig.ninputs) * AIGER_BYTES_PER_LINE
    free = available_bytes()
    if free is not None and need > free:
        raise PuzzleError(f"the AIGER file would take about {need / 2**30:.1f} GiB ({len(aig.gates):,} and-gates); "
                          f"{free / 2**30:.1f} GiB are available")
    return s, aig


def export_aiger(s, aig, out: str | Path, bound: int | None = None, backward: bool = False,
                 header: dict | None = None) -> list[Path]:
    """Write the transition system ``s`` (its AIG ``aig``, :func:`aiger_system`) as AIGER 1.9
    (``.aag`` ASCII, ``.aig`` binary) plus the JSON sidecar; returns the files written."""
    from .encodings.aiger import write_aag, write_aig
    header = dict(header or {})
    out = Path(out)
    (write_aag if out.suffix.lower() == ".aag" else write_aig)(aig, out)
    inputs, latches = s.names()
    data = {**{k: v for k, v in header.items() if k != "counts"}, "metric": s.metric, "bound": bound,
            "direction": "backward" if backward else "forward", "inputs": inputs, "latches": latches,
            "latch_negated": aig.flipped, "gates": len(aig.gates), "bad": "start position" if backward else "goal state",
            "constraint": "the step (one move at most, the rules) holds"}
    sidecar = Path(str(out) + ".json")
    sidecar.write_text(json.dumps(data, indent=1))
    return [out, sidecar]


def read_aiger_header(path: str | Path) -> dict:
    """Provenance and symbols of an AIGER file written by :func:`export_aiger`."""
    from .encodings.aiger import read_symbols
    fields, symbols, comments = read_symbols(path)
    info: dict = {"fields": fields, "symbols": symbols, "constraints": []}
    for line in comments:
        if line.startswith("puzzleplan instance "):
            for part in line[len("puzzleplan "):].split(" | "):
                name, _, value = part.partition(" ")
                info[name] = value
        elif line.startswith("puzzleplan constraints "):
            info["constraints"] = line.split()[2:]
    if "metric" not in info or "direction" not in info:
        raise PuzzleError("not an AIGER file exported by puzzleplan (no 'puzzleplan' comment)", str(path))
    info["level"] = None if info.get("level") in (None, "-") else int(info["level"])
    info["bound"] = None if info.get("bound") in (None, "-") else int(info["bound"])
    info["backward"] = info["direction"] == "backward"
    return info
