"""Knights jumping on an arbitrary set of squares, never onto each other, with per-knight
move counts in the goal (seed 003, Guarini's problem)."""
from ...contract import Family, Format

FAMILY = Family(
    name="knights",
    summary="knights jumping on a set of squares, goals with move counts",
    package=__name__,
    metrics=("steps",),
    formats=(Format("knights", (".knights",), "fileformat:read", inline_constraints=True),),
    rules="rules:Knights",
    build="rules:build",
    generate="generate:generate",
    series="series:SERIES",
    encoders={"steps": "encoding:KnightsEncoder"},
    pddl="pddl:PDDL",
    scene="scene:board",
    # measured: benchmarks/knights_solvers/knights_solvers.csv (CaDiCaL 1.7x less CPU time on the seed)
    default_solver="cadical195",
    sources="seed 003 (TLA+ knights on restricted squares)",
)
