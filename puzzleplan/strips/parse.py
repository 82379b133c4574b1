"""PDDL text checked before grounding: its syntax (with line numbers), what it is (a
domain or a problem) and what it asks for (``:requirements`` and the constructs used).

The grounder (Fast Downward's translator) reports errors without lines and accepts
more than our encodings handle; this pass says ``file:line: problem`` for a bad
parenthesis and refuses, naming the requirement and the file, what the encodings
cannot say: numeric fluents, durative actions, derived predicates, conditional
effects, processes and events, preferences, state-trajectory constraints.  Nothing
is guessed: a construct is refused where it is used, a requirement where it is declared.

Representation
--------------
sexp   a list of sexps or a token (lower case); every list remembers the line of its ``(``
"""
from __future__ import annotations

import re

from dataclasses import dataclass

from ..puzzle import PuzzleError

# requirement -> what it brings that the encodings cannot say
REFUSED = {
    ":numeric-fluents": "numeric fluents", ":fluents": "numeric fluents", ":object-fluents": "object fluents",
    ":durative-actions": "durative actions", ":duration-inequalities": "durative actions",
    ":continuous-effects": "continuous effects", ":time": "processes and events",
    ":derived-predicates": "derived predicates", ":conditional-effects": "conditional effects",
    ":timed-initial-literals": "timed initial literals", ":preferences": "preferences",
    ":constraints": "state-trajectory constraints",
}
# constructs refused where they are used (whatever the requirements say)
CONSTRUCTS = {
    ":durative-action": ":durative-actions", ":derived": ":derived-predicates", "when": ":conditional-effects",
    ":process": ":time", ":event": ":time", "preference": ":preferences", ":constraints": ":constraints",
}
NUMERIC = ("increase", "decrease", "assign", "scale-up", "scale-down")
MAX_DEPTH = 10_000      # nesting read (real tasks nest a few dozen deep; a bomb of "(" would fill the memory)


TOKEN = re.compile(r"[()]|[^\s()]+")


class Sexp(list):
    """A parenthesised list with the line of its opening parenthesis."""

    line = 0


def parse(text: str, path: str) -> list:
    """The top-level sexps of ``text``; PuzzleError naming ``path`` and the line of a
    parenthesis that does not match."""
    stack: list[Sexp] = [Sexp()]
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split(";", 1)[0]
        # tokens one at a time: a line of 60 million '(' is refused at the depth cap, not first
        # copied and split whole (seconds of C code that no time limit interrupts)
        for match in TOKEN.finditer(line):
            token = match.group()
            if token == "(":
                if len(stack) > MAX_DEPTH:
                    raise PuzzleError(f"parentheses nested deeper than {MAX_DEPTH:,}", path, no)
                s = Sexp()
                s.line = no
                stack[-1].append(s)
                stack.append(s)
            elif token == ")":
                if len(stack) == 1:
                    raise PuzzleError("a ')' closes nothing", path, no)
                stack.pop()
            else:
                stack[-1].append(token.lower())
    if len(stack) > 1:
        raise PuzzleError("this '(' is never closed", path, stack[-1].line)
    return stack[0]


@dataclass(frozen=True)
class Header:
    kind: str            # "domain" or "problem"
    name: str
    domain: str          # the domain a problem names (its own name for a domain)
    requirements: tuple[str, ...]


def header(text: str, path: str) -> tuple[Header, Sexp]:
    """Check ``text`` and say what it defines; refuse what the encodings cannot say."""
    top = parse(text, path)
    if len(top) != 1 or not isinstance(top[0], Sexp) or len(top[0]) < 2 or top[0][0] != "define" \
            or not isinstance(top[0][1], Sexp) or len(top[0][1]) != 2 or top[0][1][0] not in ("domain", "problem"):
        line = top[0].line if top and isinstance(top[0], Sexp) else 1
        raise PuzzleError("not a PDDL domain or problem: expected one (define (domain NAME) ...) or "
                          "(define (problem NAME) ...)", path, line)
    define = top[0]
    kind, name = define[1]
    domain, reqs = name, []
    for part in define[2:]:
        if not isinstance(part, Sexp) or not part:
            raise PuzzleError(f"unexpected {part!r} in the {kind} definition", path, define.line)
        if part[0] == ":domain" and len(part) == 2:
            domain = part[1]
        elif part[0] == ":requirements":
            reqs += [r for r in part[1:] if isinstance(r, str)]
    for r in reqs:
        if r in REFUSED:
            raise PuzzleError(f"unsupported requirement {r} ({REFUSED[r]}): the encodings handle STRIPS "
                              "with negative preconditions, typing, equality, quantifiers and action costs", path)
    refuse_constructs(define, path)
    return Header(kind, name, domain, tuple(reqs)), define


def refuse_constructs(define: Sexp, path: str) -> None:
    """A construct the encodings cannot say, named with its line and requirement."""
    todo = [define]
    while todo:
        s = todo.pop()
        head = s[0] if s and isinstance(s[0], str) else None
        if head in CONSTRUCTS:
            req = CONSTRUCTS[head]
            raise PuzzleError(f"unsupported {head} ({REFUSED[req]}, requirement {req})", path, s.line)
        if head == ":functions":
            names = [f[0] for f in s[1:] if isinstance(f, Sexp) and f]
            other = [n for n in names if n != "total-cost"]
            if other:
                raise PuzzleError(f"unsupported function {other[0]} (numeric fluents, requirement "
                                  ":numeric-fluents; only (total-cost) is read, for :action-costs)", path, s.line)
        if head in NUMERIC:
            target = s[1] if len(s) > 1 else None
            if not (head == "increase" and isinstance(target, Sexp) and list(target) == ["total-cost"]):
                raise PuzzleError(f"unsupported numeric effect ({head} ...) (numeric fluents, requirement "
                                  ":numeric-fluents; only (increase (total-cost) N) is read)", path, s.line)
        todo.extend(x for x in s if isinstance(x, Sexp))


# the translator reads a problem's blocks in this order only; some public collections put
# the goal before the initial state (or the objects after it): such a problem is reordered
PROBLEM_ORDER = ("problem", ":domain", ":requirements", ":objects", ":init", ":goal", ":metric")


def blocks(text: str) -> list[tuple[int, int, str]]:
    """The character spans ``(start, end, head)`` of the parenthesised blocks directly inside
    ``(define ...)`` (comments skipped; the text is known to be balanced: :func:`parse`)."""
    out, depth, i, start = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == ";":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        if ch == "(":
            depth += 1
            if depth == 2:
                start = i
        elif ch == ")":
            if depth == 2:
                head = text[start + 1:i + 1].replace("(", " ").replace(")", " ").split()
                out.append((start, i + 1, head[0].lower() if head else ""))
            depth -= 1
        i += 1
    return out


def in_problem_order(text: str) -> tuple[str, list[str]]:
    """``text`` with its problem blocks in the order the translator reads them, and the heads
    of the blocks that moved (none: ``text`` as it was).  Blocks it does not know stay put and
    leave the text as it was (the translator names them)."""
    found = blocks(text)
    heads = [h for _, _, h in found]
    if any(h not in PROBLEM_ORDER for h in heads) or len(set(heads)) != len(heads):
        return text, []
    wanted = sorted(found, key=lambda b: PROBLEM_ORDER.index(b[2]))
    if wanted == found:
        return text, []
    moved = [b[2] for b, w in zip(found, wanted) if b != w]
    # each block's place keeps what stood around it; the blocks trade places
    out, last = [], 0
    for (start, end, _), (ws, we, _) in zip(found, wanted):
        out += [text[last:start], text[ws:we]]
        last = end
    out.append(text[last:])
    return "".join(out), moved
