"""Sokoban as STRIPS: walks and pushes per direction over the floor (see
:mod:`puzzleplan.pddl.task`); walks cost 0 under ``pushes``, as in the IPC's sokoban-opt track."""
from __future__ import annotations

from ...pddl.task import DIR_NAMES, Atom, FamilyPDDL, Schema, cell
from ...puzzle import Move
from .rules import DIRS as SOKO_DIRS, add


def sokoban_schemas(dom, metric: str) -> list[Schema]:
    """Walks ``(?from ?to)`` and pushes ``(?from ?box ?to)`` per direction, over the
    floor the domain computed (avoided cells and dead squares left out, as it does)."""
    out = []
    stand = [c for c in sorted(dom.floor) if c not in dom.no_player]
    for letter, d in SOKO_DIRS.items():
        walks = [(cell(c), cell(add(c, d))) for c in stand if add(c, d) in dom.floor and add(c, d) not in dom.no_player]
        pushes = [(cell(c), cell(add(c, d)), cell(add(add(c, d), d))) for c in stand
                  if add(c, d) in dom.floor and add(c, d) not in dom.no_player
                  and add(add(c, d), d) in dom.floor and add(add(c, d), d) not in dom.dead]
        name = DIR_NAMES[letter.upper()]
        if walks:
            out.append(Schema(f"walk-{name}", "player", ("?from", "?to"), walks,
                              pre=[("player", "?from"), ("clear", "?to")],
                              add=[("player", "?to"), ("clear", "?from")],
                              delete=[("player", "?from"), ("clear", "?to")],
                              cost=0 if metric == "pushes" else 1, step=(letter,),
                              counted=metric != "pushes"))
        if pushes:
            out.append(Schema(f"push-{name}", "player", ("?from", "?box", "?to"), pushes,
                              pre=[("player", "?from"), ("box", "?box"), ("clear", "?to")],
                              add=[("player", "?box"), ("box", "?to"), ("clear", "?from")],
                              delete=[("player", "?from"), ("box", "?box"), ("clear", "?to")],
                              cost=1, step=(letter.upper(),)))
    return out


def sokoban_facts(dom) -> tuple[list[str], list[Atom], dict]:
    cells = sorted(dom.floor)
    player, boxes = dom.initial
    init = [("clear", cell(c)) for c in cells if c != player and c not in boxes]
    init += [("player", cell(player))] + [("box", cell(b)) for b in boxes]
    return [cell(c) for c in cells], init, {cell(c): c for c in cells}


class PDDL(FamilyPDDL):
    def schemas(self, base, metric: str) -> list[Schema]:
        return sokoban_schemas(base, metric)

    def facts(self, base):
        return sokoban_facts(base)

    def goal_atoms(self, base) -> list[list[Atom]]:
        return [[("box", cell(g)) for g in base.goal_boxes]]

    def at(self, base, mover, where: str) -> Atom:
        return ("player", where)

    def to_move(self, base, schema: Schema, cells: list) -> Move:
        return Move("player", schema.step[0])
