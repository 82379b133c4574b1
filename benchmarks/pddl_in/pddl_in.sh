#!/bin/sh
# PDDL in: the IPC 2008 optimal Sokoban track read directly (its domain.pddl and 30 problems),
# by our search and SAT and by Fast Downward (A* LM-cut) and SymK, in steps and in cost (pushes:
# the track's action costs), one isolated process per run, 20 s each, one run at a time.
# Results: benchmarks/pddl_in/pddl_in_ipc.csv (a rerun skips the rows there).  The set is the shared
# datasets' copy beside the repository (IPC=... to point elsewhere); instances/pddl holds four
# of its problems for the tests.
set -e
cd "$(dirname "$0")/../.."
PP=.venv/bin/puzzleplan
OUT=benchmarks/pddl_in/pddl_in_ipc.csv
IPC=${IPC:-../shared/datasets/pddl/sokoban-opt08-strips}
cat /proc/loadavg
$PP bench "$IPC" -m cost --methods bfs,fd-lmcut,symk --time-limit 20 --jobs 1 -q -o $OUT
cat /proc/loadavg
$PP bench "$IPC" -m steps --methods bfs,pysat,fd-lmcut,symk --time-limit 20 --jobs 1 -q -o $OUT
cat /proc/loadavg
# SAT under cost (the walks cost 0: one transition each, docs/results/pddl-in.md), added once
# the strips family took actions of cost 0
$PP bench "$IPC" -m cost --methods pysat-de --time-limit 20 --jobs 1 -q -o $OUT
cat /proc/loadavg
# Every method under cost side by side in one run (the rows above come from runs at different
# loads): its own results file
$PP bench "$IPC" -m cost --methods bfs,astar,pysat-de,fd-lmcut,symk --time-limit 20 --jobs 1 -q \
    -o benchmarks/pddl_in/pddl_in_ipc_cost.csv
cat /proc/loadavg
# SAT under cost again after a walk's rounds shrank (a literal per cell the player steps into, not
# per action: git 1434b39), beside A* (the fastest search above), on this machine: its own file
$PP bench "$IPC" -m cost --methods astar,pysat-de --time-limit 20 --jobs 1 -q \
    -o benchmarks/pddl_in/pddl_in_ipc_cost_walk.csv
cat /proc/loadavg
