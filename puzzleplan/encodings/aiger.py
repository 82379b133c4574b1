"""A transition system (:mod:`.transition`) as an and-inverter graph, written in the
AIGER format (ASCII ``.aag`` or binary ``.aig``), and AIGER witnesses read and
simulated on it.

Written here rather than through a library: the format is a header, one line per
latch and output, and the gates (binary: two variable-length deltas each); what a
library would add (a circuit algebra) is not needed, and the writer is ~100 lines.

Two forms of one system:

- AIGER 1.9 (``fold=False``, the export): the step's CNF is one invariant constraint
  (``C``), bad is "a goal state" (``B``);
- folded (``fold=True``, what ABC is given: its ``pdr`` treats constraints as
  outputs): a latch ``broken`` remembers a violated step and the one output is
  ``not broken and step holds and bad``.

In both every latch starts at 0, as ABC's invariants and witnesses assume: a latch whose
fact starts true holds its negation (its symbol starts with ``!``).

Symbols (``i<n>``/``l<n>`` lines) name each input and latch by its key as JSON, as
the CNF export does; comment lines after ``c`` carry the provenance.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterator

from ..limits import checkpoint
from ..puzzle import PuzzleError

FALSE, TRUE = 0, 1


@dataclass
class Aig:
    """Variables 1..I are inputs, I+1..I+L latches, then gates; literal = 2*var (+1 negated)."""

    ninputs: int
    nlatches: int
    gates: list[tuple[int, int, int]] = field(default_factory=list)     # (lhs, rhs0, rhs1) literals
    nexts: list[int] = field(default_factory=list)
    inits: list[int] = field(default_factory=list)
    outputs: list[int] = field(default_factory=list)       # folded form: the one output
    bad: list[int] = field(default_factory=list)
    constraints: list[int] = field(default_factory=list)
    flipped: list[bool] = field(default_factory=list)      # latch holds the negation of its fact
    symbols: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    strash: dict = field(default_factory=dict)

    @property
    def maxvar(self) -> int:
        return self.ninputs + self.nlatches + len(self.gates)

    def input_lit(self, i: int) -> int:
        return 2 * (i + 1)

    def latch_lit(self, j: int) -> int:
        return 2 * (self.ninputs + j + 1)

    def and_(self, a: int, b: int) -> int:
        if a == FALSE or b == FALSE or a == b ^ 1:
            return FALSE
        if a == TRUE:
            return b
        if b == TRUE or a == b:
            return a
        key = (max(a, b), min(a, b))
        lit = self.strash.get(key)
        if lit is None:
            lit = 2 * (self.maxvar + 1)
            self.gates.append((lit, *key))
            self.strash[key] = lit
        return lit

    def all_(self, lits) -> int:
        lits = list(lits)
        while len(lits) > 1:        # balanced: shallow gates
            checkpoint()
            lits = [self.and_(lits[i], lits[i + 1]) if i + 1 < len(lits) else lits[i] for i in range(0, len(lits), 2)]
        return lits[0] if lits else TRUE

    def any_(self, lits) -> int:
        return self.all_([x ^ 1 for x in lits]) ^ 1


def to_aig(s, fold: bool, comments=()) -> Aig:
    """The AIG of system ``s`` (see the module doc for the two forms)."""
    index = {v: i for i, v in enumerate(s.inputs)}
    latch_index = {v: j for j, v in enumerate(s.latches)}
    extra = 1 if fold else 0
    aig = Aig(len(s.inputs), len(s.latches) + extra)
    aig.flipped = [s.init[v] for v in s.latches] + [False] * extra

    def lit(x: int) -> int:
        v = abs(x)
        if v in index:
            out = aig.input_lit(index[v])
        else:
            j = latch_index[v]
            out = aig.latch_lit(j) ^ int(aig.flipped[j])
        return out ^ int(x < 0)

    step = aig.all_(aig.any_([lit(x) for x in clause]) for clause in s.step)
    bad = aig.all_([lit(x) for x in s.bad] + ([at_most(aig, [lit(b) for b in s.counter], s.bound)]
                                              if s.bound is not None else []))
    carry = aig.and_(lit(s.act), at_most(aig, [lit(b) for b in s.counter], s.bound)) if s.counter else FALSE
    for j, v in enumerate(s.latches):
        nxt = s.nxt[v]
        if nxt == "not-first":
            value = FALSE
        elif isinstance(nxt, tuple):        # counter bit i: + carry, stopped past the bound
            here = lit(v)
            value = aig.and_(aig.any_([here, carry]), aig.and_(here, carry) ^ 1)
            carry = aig.and_(here, carry)
        else:
            value = lit(nxt)
        aig.nexts.append(value ^ int(aig.flipped[j]))
        aig.inits.append(int(s.init[v]) ^ int(aig.flipped[j]))
    if fold:
        broken = aig.latch_lit(len(s.latches))
        aig.nexts.append(aig.any_([broken, step ^ 1]))
        aig.inits.append(0)
        aig.outputs = [aig.all_([broken ^ 1, step, bad])]
    else:
        aig.bad, aig.constraints = [bad], [step]
    names_in, names_latch = s.names()
    aig.symbols = ([f"i{i} {key_json(k)}" for i, k in enumerate(names_in)]
                   + [f"l{j} {'!' if aig.flipped[j] else ''}{key_json(k)}" for j, k in enumerate(names_latch)]
                   + (["l%d broken" % len(names_latch)] if fold else [])
                   + (["b0 goal" if not s.backward else "b0 start"] if not fold else ["o0 bad"])
                   + ([] if fold else ["c0 step"]))
    aig.comments = list(comments)
    return aig


def at_most(aig: Aig, bits: list[int], bound: int) -> int:
    """The literal "the binary number ``bits`` (least significant first) is at most ``bound``"."""
    result = TRUE
    for i, b in enumerate(bits):        # from the least significant bit up
        if bound >> i & 1:
            result = aig.any_([b ^ 1, result])
        else:
            result = aig.and_(b ^ 1, result)
    if bound >> len(bits):
        return TRUE
    return result


def key_json(key) -> str:
    return json.dumps(key, separators=(",", ":"))


def header(aig: Aig) -> str:
    head = f"{aig.maxvar} {aig.ninputs} {aig.nlatches} {len(aig.outputs)} {len(aig.gates)}"
    if aig.bad or aig.constraints:
        head += f" {len(aig.bad)} {len(aig.constraints)}"
    return head


def latch_line(aig: Aig, j: int, lit: int) -> str:
    return f"{lit} {aig.nexts[j]}" + (f" {aig.inits[j]}" if aig.inits[j] else "")


def tail(aig: Aig) -> str:
    text = "".join(s + "\n" for s in aig.symbols)
    if aig.comments:
        text += "c\n" + "".join(c + "\n" for c in aig.comments)
    return text


def write_aag(aig: Aig, path) -> None:
    with open(path, "w") as fh:
        fh.write(f"aag {header(aig)}\n")
        fh.writelines(f"{aig.input_lit(i)}\n" for i in range(aig.ninputs))
        fh.writelines(latch_line(aig, j, aig.latch_lit(j)) + "\n" for j in range(aig.nlatches))
        fh.writelines(f"{x}\n" for x in aig.outputs + aig.bad + aig.constraints)
        fh.writelines(f"{g[0]} {g[1]} {g[2]}\n" for g in aig.gates)
        fh.write(tail(aig))


def varint(x: int) -> bytes:
    out = bytearray()
    while x & ~0x7F:
        out.append(x & 0x7F | 0x80)
        x >>= 7
    out.append(x)
    return bytes(out)


def write_aig(aig: Aig, path) -> None:
    with open(path, "wb") as fh:
        fh.write(f"aig {header(aig)}\n".encode())
        fh.write("".join(latch_line(aig, j, aig.latch_lit(j)).split(" ", 1)[1] + "\n"
                         for j in range(aig.nlatches)).encode())
        fh.write("".join(f"{x}\n" for x in aig.outputs + aig.bad + aig.constraints).encode())
        for lhs, a, b in aig.gates:     # a >= b, lhs > a (gates are made in order)
            fh.write(varint(lhs - a) + varint(a - b))
        fh.write(tail(aig).encode())


# -- reading back what a written file says about itself, and witnesses --------------------

AIGER_BYTES = 1 << 28       # an AIGER file this module wrote for a puzzle
HEADER_BYTES = 256          # 'aig M I L O A B C': seven numbers
HIGH = bytes(range(0x80, 0x100))       # a varint's bytes that do not end it


def read_symbols(path) -> tuple[dict, list[str], list[str]]:
    """(header fields, symbol lines, comment lines) of an AIGER file this module wrote, read as
    it goes: a file that does not start with an AIGER header (``/dev/zero``, a binary file) is
    refused at its first line, and the time limit is checked at every line."""
    import os
    import stat
    source = str(path)
    try:
        if stat.S_ISCHR(os.stat(path).st_mode) or stat.S_ISBLK(os.stat(path).st_mode):
            raise PuzzleError("is a device, not an AIGER file", source)
        with open(path, "rb") as fh:
            return _read_symbols(fh, source)
    except OSError as err:
        raise PuzzleError(f"cannot read the AIGER file: {err.strerror}", source) from None


def _read_symbols(fh, source: str) -> tuple[dict, list[str], list[str]]:
    first = fh.readline(HEADER_BYTES)
    words = first.decode("ascii", "replace").split()
    if len(words) < 6 or words[0] not in ("aag", "aig") or not all(w.isdigit() for w in words[1:]) \
            or not first.endswith(b"\n"):
        raise PuzzleError("not an AIGER file (no 'aag'/'aig' header)", source)
    nums = [int(w) for w in words[1:]] + [0, 0]
    m, i, l, o, a, b, c = nums[:7]
    fields = {"kind": words[0], "maxvar": m, "inputs": i, "latches": l, "outputs": o, "gates": a, "bad": b,
              "constraints": c}
    lines_before = (i if words[0] == "aag" else 0) + l + o + b + c + (a if words[0] == "aag" else 0)
    for _ in range(lines_before):       # numbers only: a line of three literals at most
        checkpoint()
        line = fh.readline(HEADER_BYTES)
        if not line.endswith(b"\n"):
            raise PuzzleError("the AIGER file ends early" if len(line) < HEADER_BYTES else
                              "not an AIGER file (a line of its body is not numbers)", source)
    if words[0] == "aig":       # skip the gates' deltas: 2 per gate, each ends at a byte below 0x80
        left = 2 * a
        while left:
            checkpoint()
            chunk = fh.read(1 << 16)
            if not chunk:
                raise PuzzleError("the AIGER file ends early", source)
            ends = len(chunk.translate(None, HIGH))
            if ends < left:
                left -= ends
                continue
            for pos, byte in enumerate(chunk):
                if byte < 0x80:
                    left -= 1
                    if not left:
                        fh.seek(pos + 1 - len(chunk), 1)
                        break
    rest = fh.read(max(0, AIGER_BYTES + 1 - fh.tell()))
    if fh.tell() > AIGER_BYTES:
        raise PuzzleError(f"larger than {AIGER_BYTES >> 20} MiB: not an AIGER file written for a puzzle", source)
    symbols, comments = [], []
    target = symbols
    for raw in rest.decode("utf-8", "replace").splitlines():
        if raw == "c" and target is symbols:
            target = comments
            continue
        target.append(raw)
    return fields, symbols, comments


BITS = bytes.maketrans(b"01x", b"\x00\x01\x00")      # a witness's characters -> input values ('x': 0)
NOT_A_WITNESS = "not an AIGER witness: expected '1', 'b0', the latches, the inputs per step, '.'"


def read_witness(text, ninputs: int, nlatches: int, source: str) -> tuple[list[int], Iterator[bytes]]:
    """An AIGER witness: the HWMCC form (``1``, ``b0``, the initial latch values, one
    line of input values per step, ``.``) or ABC's ``write_cex -a`` (the initial latch
    values, then the inputs per step, ``# DONE``).  ``text`` is the witness or its lines,
    read one at a time: the initial latches are returned at once (a witness that does not
    start like one is refused before more is read), the steps as an iterator that refuses
    a malformed step when it comes to it."""
    import io

    def meaningful():           # a line at a time: a witness of millions of lines is not listed first
        for ln in (io.StringIO(text) if isinstance(text, str) else text):
            ln = ln.split("#", 1)[0].strip()
            if ln and not ln.startswith("c"):
                yield ln

    lines = meaningful()
    first = next(lines, None)
    if first in ("0", "2"):
        raise PuzzleError("the witness reports no reached bad state", source)
    hwmcc = first == "1"
    if hwmcc:
        second = next(lines, None)
        if second is None or not second.startswith("b"):
            raise PuzzleError(NOT_A_WITNESS, source)
        init = next(lines, None)
    elif first is not None and first != "." and first.strip("01x"):
        raise PuzzleError("not an AIGER witness: its first line is neither '1' (a reached bad state) nor the "
                          "initial latch values", source)
    else:
        init = first
    if init is None or init == ".":
        raise PuzzleError("not an AIGER witness: no initial state and steps", source)
    init = init[:nlatches]      # a checker's own latches (ABC's fold adds one) come last: not ours
    if len(init) != nlatches or any(ch not in "01x" for ch in init):
        raise PuzzleError(f"the witness's initial state has {len(init)} values; the model has {nlatches} latches",
                          source)

    def steps():
        count, ended = 0, False
        for row in lines:
            if ended:
                raise PuzzleError("not an AIGER witness: lines after its final '.'", source)
            if row == ".":
                ended = True
                continue
            if len(row) != ninputs or any(ch not in "01x" for ch in row):
                raise PuzzleError(f"the witness's step {count} has {len(row)} input values; the model has {ninputs} "
                                  "inputs", source)
            count += 1
            yield row.encode("ascii").translate(BITS)     # one byte per input: a long witness stays small
        if hwmcc and not ended:
            raise PuzzleError(NOT_A_WITNESS, source)
        if not count:
            raise PuzzleError("not an AIGER witness: no initial state and steps", source)

    return [int(ch == "1") for ch in init], steps()


class Simulation:
    """The AIG run step by step from ``init`` (latch values as the AIG holds them): per step,
    under the step's inputs, the bad (or output) value and the constraints' value."""

    def __init__(self, aig: Aig, init: list[int]):
        self.aig, self.latches = aig, list(init)

    def step(self, inputs) -> tuple[int, int]:
        checkpoint()
        aig = self.aig
        val = [0] * (aig.maxvar + 1)
        for i, x in enumerate(inputs):
            val[i + 1] = x
        for j, x in enumerate(self.latches):
            val[aig.ninputs + j + 1] = x
        for lhs, a, b in aig.gates:
            val[lhs >> 1] = (val[a >> 1] ^ (a & 1)) & (val[b >> 1] ^ (b & 1))

        def lit(x):
            return val[x >> 1] ^ (x & 1)
        target = (aig.outputs or aig.bad)[0]
        self.latches = [lit(n) for n in aig.nexts]
        return lit(target), int(all(lit(c) for c in aig.constraints))


def simulate(aig: Aig, init: list[int], frames) -> list[tuple[int, int]]:
    """Per step, (bad or output value, constraint value) under the given inputs, from
    ``init`` (latch values as the AIG holds them)."""
    run = Simulation(aig, init)
    return [run.step(inputs) for inputs in frames]


def check_trace(aig: Aig, init: list[int], frames, source: str) -> list[bytes]:
    """A witness must start in the AIG's initial state, keep its constraints at every
    step and reach bad (the output) at its last step; PuzzleError otherwise.  The steps
    are checked as they are read (``frames`` may be :func:`read_witness`'s iterator): the
    first that breaks the constraints ends the reading.  Returns the steps."""
    if init != aig.inits:
        raise PuzzleError("the witness does not start in the model's initial state", source)
    run, out, reached = Simulation(aig, init), [], 0
    for inputs in frames:
        reached, ok = run.step(inputs)
        if not ok:
            raise PuzzleError(f"the witness breaks the model's step constraint at step {len(out)}", source)
        out.append(inputs)
    if not out or not reached:
        raise PuzzleError("the witness does not reach a bad state at its last step", source)
    return out
