"""Sokoban: one player walks and pushes boxes onto storage cells (seed 001); open levels
are cut a margin around them."""
from ...contract import Family, Format

FAMILY = Family(
    name="sokoban",
    summary="Sokoban: walk, push every box onto a goal",
    package=__name__,
    metrics=("moves", "pushes"),
    formats=(Format("xsb", (".xsb", ".sok", ".txt"), "xsb:read", levels="xsb:levels"),),
    rules="rules:Sokoban",
    build="rules:build",
    generate="generate:generate",
    series="series:SERIES",
    encoders={"moves": "encoding:SokobanEncoder", "pushes": "encoding:SokobanPushEncoder"},
    pddl="pddl:PDDL",
    scene="scene:board",
    sources="seed 001 (an abstract data type of Sokoban)",
)
