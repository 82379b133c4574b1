"""Sliding blocks: Klotski, Rush Hour, Huarong Dao, Pennant, Ma's puzzle, any board with
walls, polyomino pieces and per-piece axes (seeds 000, 002, 004)."""
from ...contract import Family, Format

FAMILY = Family(
    name="sliding",
    summary="sliding blocks: Klotski, Rush Hour, Huarong Dao, any polyomino board",
    package=__name__,
    metrics=("steps", "slides", "moves", "makespan"),
    formats=(
        Format("slide", (".slide",), "slide:read", inline_constraints=True),
        Format("rushhour", (".rh",), "rushhour:read", levels="rushhour:levels"),
        Format("huarong", (".hrd", ".tsv"), "huarong:read", levels="huarong:levels"),
    ),
    rules="rules:SlidingPuzzle",
    build="rules:build",
    generate="generate:generate",
    series="series:SERIES",
    encoders={"steps": "encoding:SlidingEncoder", "slides": "encoding:SlidingEncoder",
              "moves": "encoding:SlidingEncoder", "makespan": "parallel:SimultaneousSteps"},
    parallel={"steps": "parallel:ParallelSteps"},
    pddl="pddl:PDDL",
    scene="scene:board",
    sources="seed 000 (TLA+ Klotski), seed 002 (B model of Rush Hour), seed 004 (Solving Klotski)",
)
