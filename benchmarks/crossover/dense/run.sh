# The sliding/dense series (side conditions over a crowded board: 27 pieces on 6 x 6, A B C
# three steps each, k others that must each move at least once) through search and SAT, one
# bench run. From the checkout, .venv active: sh benchmarks/crossover/dense/run.sh
set -e
D=benchmarks/crossover/dense
puzzleplan generate sliding dense -o $D/instances
puzzleplan bench $D/instances --methods bfs,astar,pysat-de,cpsat,fd-lmcut,symk \
    --time-limit 20 --jobs 1 -o $D/dense.csv
puzzleplan report $D/dense.csv --markdown $D/report.md --force
