#!/bin/sh
# SAT (pysat-de, 20 s a run) on the crossover's series, the 40 ThinkFun cards and the seed
# puzzles, for the moves owed by the counts and the first horizon's probe. Run once with the
# code of the revision before them (PUZZLEPLAN_SRC: a checkout of it) into before.csv and once
# with this checkout's into after.csv, side by side, one per core; .venv active:
#   PUZZLEPLAN_SRC=/tmp/before sh benchmarks/probe_owed/run.sh before.csv &
#   sh benchmarks/probe_owed/run.sh after.csv
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
src=$(cd "${PUZZLEPLAN_SRC:-$root}" && pwd)
out="$root/benchmarks/probe_owed/${1:-after.csv}"
cd "$src"       # the code imported is that of $src (the working directory comes first on the path)
run() { PYTHONPATH="$src" python -c "from puzzleplan.cli import main; main()" bench "$@" --methods pysat-de \
        --time-limit 20 --jobs 1 -q -o "$out"; }
run "$root/benchmarks/crossover/instances"
run "$root/instances/rushhour/thinkfun40.rh" --levels 1-40
run "$root/instances/seeds"
