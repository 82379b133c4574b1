# The sliding/busy series (side conditions over a wide board) through search and SAT, one bench
# run. From the checkout, .venv active: sh benchmarks/crossover/busy/run.sh
set -e
D=benchmarks/crossover/busy
puzzleplan generate sliding busy -o $D/instances
puzzleplan bench $D/instances --methods bfs,astar,pysat-de,cpsat,fd-lmcut,symk \
    --time-limit 20 --jobs 1 -o $D/busy.csv
puzzleplan report $D/busy.csv --markdown $D/report.md --force
