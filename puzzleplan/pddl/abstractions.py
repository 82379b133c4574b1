"""Fast Downward with abstraction heuristics, on the PDDL export: ``fd-ms`` and ``fd-ipdb``.

Both are A* with an admissible heuristic, so their plans are optimal (:mod:`.planners` runs
them and replays what they find).  Their budgets are counts, not seconds: the abstractions
they build are capped in abstract states, so the same task gets the same heuristic on any
machine (neither sets Fast Downward's wall-clock limits on building the heuristic).

``fd-ms``    merge-and-shrink with the configuration Fast Downward's documentation recommends:
             bisimulation shrinking (``shrink_bisimulation(greedy=false)``), the SCC-DFP merge
             strategy, exact label reduction, at most 50,000 abstract states
             (Sievers and Helmert, JAIR 2021).
``fd-ipdb``  pattern databases chosen by hill climbing in the space of pattern collections,
             their canonical sum (Haslum et al., AAAI 2007), with Fast Downward's defaults
             (``ipdb()``: at most 2 million states per PDB, 20 million in the collection).
"""
from __future__ import annotations

from .planners import Planner

MERGE_AND_SHRINK = ("merge_and_shrink(merge_strategy=merge_sccs(order_of_sccs=topological,"
                    "merge_selector=score_based_filtering(scoring_functions=[goal_relevance(),dfp(),total_order()])),"
                    "shrink_strategy=shrink_bisimulation(greedy=false),"
                    "label_reduction=exact(before_shrinking=true,before_merging=false),"
                    "max_states=50000,threshold_before_merge=1)")


class MergeAndShrink(Planner):
    search, what = f"astar({MERGE_AND_SHRINK})", "Fast Downward, A* with merge-and-shrink (bisimulation, SCC-DFP)"


class HillClimbingPDBs(Planner):
    search, what = "astar(ipdb())", "Fast Downward, A* with hill-climbing pattern databases (iPDB)"
