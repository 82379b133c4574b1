#!/bin/sh
# The crossover study: every series of every family (puzzleplan generate), through search and
# SAT in one bench run, then the report with its map.  From the checkout, .venv active:
#   sh benchmarks/crossover/run.sh
set -e
cd "$(dirname "$0")/../.."
out=benchmarks/crossover
if [ ! -d "$out/instances" ]; then
    for pair in knights:wide knights:deep knights:moves sliding:crowd sliding:each sokoban:boxes strips:ferry strips:gripper; do
        puzzleplan generate "${pair%%:*}" "${pair##*:}" -o "$out/instances"
    done
fi
puzzleplan bench "$out/instances" --methods bfs,astar,pysat-de,cpsat,fd-lmcut,symk \
    --time-limit 20 --jobs 2 -o "$out/crossover.csv"
puzzleplan report "$out/crossover.csv" --plots "$out/plots" --markdown "$out/report.md" --force
