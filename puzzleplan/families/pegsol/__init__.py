"""Peg solitaire on any board (English 33, French 37, triangles...): a peg jumps over a
neighbour into an empty hole and the peg jumped over is removed; named pegs for side
conditions; metrics ``steps`` (jumps) and ``moves`` (runs of jumps by one peg)."""
from ...contract import Family, Format

FAMILY = Family(
    name="pegsol",
    summary="peg solitaire: jumps that remove pegs, any board, one-peg or pictured goals",
    package=__name__,
    metrics=("steps", "moves"),
    formats=(Format("peg", (".peg",), "fileformat:read", inline_constraints=True),),
    rules="rules:PegSolitaire",
    build="rules:build",
    generate="generate:generate",
    encoders={"steps": "encoding:StepsEncoder", "moves": "encoding:MovesEncoder"},
    pddl="pddl:PDDL",
    scene="scene:board",
    sources="Beasley, The Ins and Outs of Peg Solitaire (1985); Bergholt 1912 (English 33 in 18 moves)",
)
