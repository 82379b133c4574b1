#!/bin/sh
# Fast Downward's abstraction heuristics (fd-ms, fd-ipdb) and SymK's three directions beside
# LM-cut and blind A*, on the PDDL export of the longest Rush Hour cards and two sliding puzzles.
set -e
cd "$(dirname "$0")/../.."
OUT=benchmarks/abstractions/abstractions.csv
METHODS=fd-lmcut,fd-blind,fd-ms,fd-ipdb,symk,symk:fw,symk:bw
puzzleplan bench instances/rushhour/thinkfun40.rh --levels 36-40 -m slides --methods $METHODS -o $OUT --time-limit 120 -q
puzzleplan bench instances/rushhour/thinkfun40.rh --levels 36-40 -m steps --methods $METHODS -o $OUT --time-limit 120 -q
puzzleplan bench instances/sliding/eight_puzzle.slide instances/seeds/klotski_seed000.slide -m steps --methods $METHODS \
    -o $OUT --time-limit 120 -q
puzzleplan report $OUT > benchmarks/abstractions/abstractions.md
