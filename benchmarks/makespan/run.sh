#!/bin/sh
# The makespan series (sliding/together): SAT against search on the same metric.
# From the checkout, .venv active: sh benchmarks/makespan/run.sh
set -e
cd "$(dirname "$0")/../.."
puzzleplan generate sliding together -o benchmarks/makespan/instances --force
puzzleplan bench benchmarks/makespan/instances --methods bfs,astar,idastar,pysat-de,pysat,cpsat \
    -m sliding=makespan --time-limit 60 --jobs 1 -o benchmarks/makespan/makespan.csv --force
puzzleplan report benchmarks/makespan/makespan.csv --plots benchmarks/makespan/plots \
    --markdown benchmarks/makespan/report.md --force
