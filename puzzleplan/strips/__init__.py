"""A planner's front end for STRIPS tasks in PDDL, split by stage as Fast Downward's translator
is: the text read and checked (:mod:`.parse`), grounded (:mod:`.ground`: our own grounder,
:mod:`.grounder` -- :mod:`.normalise`, :mod:`.instantiate`, :mod:`.invariants`,
:mod:`.fact_groups`, :mod:`.finite_domain`, :mod:`.causal_graph` -- or Fast Downward's
translator, :mod:`.translator`) into a finite-domain task (:mod:`.sas`); then what is proved
about that task (:mod:`.analyses`, one module an analysis) and its SAT encoding with its levers
(:mod:`.encoding`).

It knows no puzzle family: the ``strips`` family (``puzzleplan/families/strips/``) is the
plug-in that reads ``.pddl`` files through it, and its rules are what the analyses and the
encoder read (a task's ``task``, ``ops``, ``initial``, ``avoided``, ``mover`` and ``levers``).
"""
