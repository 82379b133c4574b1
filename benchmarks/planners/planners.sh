#!/bin/sh
# SAT and search against the planning community's planners, side by side in one results file:
# benchmarks/planners/planners.csv (one isolated process per run, 60 s and 4 GiB each, one run at a time).
# A rerun skips the rows already there.  Summary: puzzleplan report benchmarks/planners/planners.csv --baseline fd-lmcut,symk
set -e
cd "$(dirname "$0")/../.."
PP=.venv/bin/puzzleplan
OUT=benchmarks/planners/planners.csv
METHODS=pysat,cpsat,bfs,fd-lmcut,fd-blind,symk
IPC_LEVELS=12,24,14,6,95,32,66,131,128,64,152,127,142,94,134,147,96,148,83,154,107,118,35,106,133,78,126,150,145,146
$PP bench instances/rushhour/thinkfun40.rh -m steps --methods $METHODS --time-limit 60 --jobs 1 -o $OUT
$PP bench catalogue:klotski_seed catalogue:pennant catalogue:mas_puzzle catalogue:century -m steps \
    --methods $METHODS --time-limit 60 --jobs 1 -o $OUT
$PP bench instances/sokoban/Microban.txt --levels $IPC_LEVELS -m pushes --methods $METHODS --time-limit 60 --jobs 1 -o $OUT
$PP bench instances/rushhour/thinkfun40.rh -m slides --methods $METHODS --time-limit 60 --jobs 1 -o $OUT
$PP bench catalogue:klotski_seed catalogue:pennant catalogue:century -m slides \
    --methods $METHODS --time-limit 60 --jobs 1 -o $OUT
$PP bench catalogue:rushhour40_v2 catalogue:knights_seed --methods $METHODS --time-limit 60 --jobs 1 -o $OUT
