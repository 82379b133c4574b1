#!/bin/sh
# SAT on long plans: each lever of the SAT planner against Fast Downward LM-cut and SymK, side by
# side in one results file, benchmarks/levers/levers.csv (one isolated process per run, one run at a
# time; a rerun skips the rows already there).  Methods:
#   pysat                           forward unrolling, lemmas from the start (the baseline)
#   pysat:glucose42+cadical195      the same, a race of two solvers (two cores)
#   pysat-de                        double-ended: lemmas from the start and the goal, goal-side bounds
#   pysat-de:glucose42+cadical195   the same, a race
# Summary: puzzleplan report benchmarks/levers/levers.csv --baseline fd-lmcut,symk
set -e
cd "$(dirname "$0")/../.."
PP=.venv/bin/puzzleplan
OUT=benchmarks/levers/levers.csv
SAT=pysat,pysat:glucose42+cadical195,pysat-de,pysat-de:glucose42+cadical195
LONGEST=32,36,37,31,34,35,33,38,40,39
IPC_LEVELS=12,24,14,6,95,32,66,131,128,64,152,127,142,94,134,147,96,148,83,154,107,118,35,106,133,78,126,150,145,146
$PP bench instances/rushhour/thinkfun40.rh --levels $LONGEST -m steps --methods $SAT,fd-lmcut,symk \
    --time-limit 120 --jobs 1 -o $OUT
$PP bench catalogue:mas_puzzle catalogue:pennant -m steps --methods $SAT,fd-lmcut,symk --time-limit 600 --jobs 1 -o $OUT
$PP bench catalogue:klotski_seed -m steps --methods pysat,pysat-de,fd-lmcut,symk --time-limit 600 --jobs 1 -o $OUT
$PP bench instances/sokoban/Microban.txt --levels $IPC_LEVELS -m pushes --methods pysat,pysat-de,fd-lmcut,symk \
    --time-limit 120 --jobs 1 -o $OUT
