# One generated series of the crossover study through search and SAT, one bench run, into
# benchmarks/crossover/SERIES/: sh benchmarks/crossover/run_series.sh FAMILY SERIES
# (from the checkout, .venv active; the busy and dense series' run.sh call it)
set -e
D=benchmarks/crossover/$2
puzzleplan generate "$1" "$2" -o $D/instances
puzzleplan bench $D/instances --methods bfs,astar,pysat-de,cpsat,fd-lmcut,symk \
    --time-limit 20 --jobs 1 -o $D/$2.csv
puzzleplan report $D/$2.csv --markdown $D/report.md --force
