#!/bin/sh
# The makespan series (sliding/together): SAT against search on the same metric.
# From the checkout, .venv active: sh benchmarks/makespan/run.sh
set -e
cd "$(dirname "$0")/../.."
puzzleplan generate sliding together -o benchmarks/makespan/instances --force
rm -f benchmarks/makespan/makespan.csv benchmarks/makespan/makespan.csv.meta.jsonl
puzzleplan bench benchmarks/makespan/instances --methods bfs,astar,idastar,pysat-de,pysat,cpsat \
    -m sliding=makespan --time-limit 60 --jobs 1 -o benchmarks/makespan/makespan.csv
puzzleplan report benchmarks/makespan/makespan.csv --plots benchmarks/makespan/plots \
    --markdown benchmarks/makespan/report.md --force
# Rush Hour cards in makespan (cars that do not interfere move at once)
rm -f benchmarks/makespan/rushhour.csv benchmarks/makespan/rushhour.csv.meta.jsonl
puzzleplan bench instances/rushhour/thinkfun40.rh --levels 1,5,10,15,20,25,30,35,40 --methods astar,pysat-de \
    -m sliding=makespan --time-limit 60 --jobs 1 -o benchmarks/makespan/rushhour.csv
