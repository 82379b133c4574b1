"""TEMPLATE: a complete, deliberately tiny puzzle family to copy when adding your own.

The puzzle: lettered tokens on a row of cells; a step moves one token one cell left or
right into an empty cell; the goal is a second picture.  Every part a family can have is
here, each in the file a real family keeps it in, each a few lines long:

    __init__.py    the record: name, metrics, file formats, where each part lives
    rules.py       the semantics (a Rules subclass) and ``build``: search, validation and
                   every plan's replay run on it
    fileformat.py  the reader of ``.line`` files
    encoding.py    the SAT encoding (an Encoder subclass): planner, lemmas, CP-SAT, export
    generate.py    random small instances, for the conformance suite
    scene.py       how the board is drawn (GIF, MP4, HTML player)
    pddl.py        the STRIPS export (Fast Downward, SymK)

Copy the folder to ``puzzleplan/families/<name>/`` (or into a package of your own, with
an entry point in the group ``puzzleplan.families``), rename ``name`` below, and replace
the puzzle; ``docs/families.md`` walks through it.  This folder itself is skipped by the
registry: it is documentation that runs (``tests/conformance/test_template_family.py``).
"""
from puzzleplan.contract import Family, Format

FAMILY = Family(
    name="line",
    summary="tokens on a row of cells (the template family)",
    package=__name__,
    metrics=("steps",),
    formats=(Format("line", (".line",), "fileformat:read", inline_constraints=True),),
    rules="rules:Line",
    build="rules:build",
    generate="generate:generate",
    encoders={"steps": "encoding:LineEncoder"},
    pddl="pddl:PDDL",
    scene="scene:board",
    sources="the template of puzzleplan's family contract",
)
