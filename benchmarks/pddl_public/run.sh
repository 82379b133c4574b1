#!/bin/sh
# SAT on PDDL tasks beside SAT on the same puzzles' own files, search and Fast Downward: the
# public problems bundled in instances/pddl/pddlgym (8-puzzle, gripper, ferry, snake) and our
# own PDDL exports of Rush Hour card 40 (steps, slides) and Ma's puzzle.  One bench run per
# metric, one run at a time.  From the checkout, .venv active:
#   sh benchmarks/pddl_public/run.sh
set -e
cd "$(dirname "$0")/../.."
out=benchmarks/pddl_public
card40=instances/seeds/rushhour_card40_bmodel_v2.rh
if [ ! -d "$out/exports" ]; then
    mkdir -p "$out/exports"
    puzzleplan export "$card40" -m steps --pddl "$out/exports/card40-steps"
    puzzleplan export "$card40" -m slides --pddl "$out/exports/card40-slides"
    puzzleplan export instances/sliding/mas_puzzle.slide -m steps --pddl "$out/exports/mas-steps"
fi
methods=bfs,astar,pysat-de,fd-lmcut,symk
puzzleplan bench instances/pddl/pddlgym "$out/exports" instances/sliding/mas_puzzle.slide "$card40" \
    --methods "$methods" --time-limit 30 -o "$out/pddl_public.csv"
puzzleplan bench "$card40" -m slides --methods "$methods" --time-limit 30 -o "$out/pddl_public.csv"
puzzleplan report "$out/pddl_public.csv" --markdown "$out/report.md" --force
