"""Any STRIPS task written in PDDL (a domain and a problem file), grounded into
finite-domain (SAS+) variables by our own grounder (plain STRIPS) or Fast Downward's
translator (:mod:`puzzleplan.strips.ground`): search, SAT, CP-SAT,
export and the outside planners on it, like on any puzzle.  Metrics ``steps``
(actions) and ``cost`` (``:action-costs``; SAT only when every action costs at least 1).  Side conditions name
action patterns (``push-*``, ``move(?, pos-3-2, ?)``) and facts to avoid."""
from ...contract import Family, Format

FAMILY = Family(
    name="strips",
    summary="any STRIPS task in PDDL (domain + problem), grounded by our own grounder or Fast Downward's translator",
    package=__name__,
    metrics=("steps", "cost"),
    formats=(Format("pddl", (".pddl",), "fileformat:read", options=("domain", "levers", "grounder"), places="rules:fact_patterns",
                   companions=("domain.pddl", "*-domain.pddl", "domain-*.pddl", "domain_*.pddl")),),
    rules="rules:StripsTask",
    build="rules:build",
    generate="generate:generate",
    series="series:SERIES",
    encoders={"steps": "encoders:StepsEncoder", "cost": "encoders:CostEncoder"},
    parallel={"steps": "encoders:ExistsSteps", "cost": "encoders:ExistsSteps"},
    pddl="pddl:PDDL",
    sources="PDDL 1.2/2.1 STRIPS subset (McDermott et al. 1998; Fox and Long 2003); IPC 2008 action costs",
)
