# The busy series' points k=1..4 (from the first point SAT proved at 20 s to the last) again at
# 200 s a run, BFS, A*, LM-cut, SymK and SAT (pysat-de), one bench run, one run at a time: does SAT's lead
# where it alone proved at 20 s (k=2, 3) reach 10x against the searches on the same conditions?
# From the checkout, .venv active: sh benchmarks/crossover/busy_200s/run.sh
set -e
D=benchmarks/crossover/busy_200s
I=benchmarks/crossover/busy/instances
puzzleplan bench $I/sliding-busy-k01-s0.slide $I/sliding-busy-k02-s0.slide $I/sliding-busy-k03-s0.slide \
    $I/sliding-busy-k04-s0.slide --methods bfs,astar,fd-lmcut,symk,pysat-de --time-limit 200 --jobs 1 -o $D/busy_200s.csv
puzzleplan report $D/busy_200s.csv --markdown $D/report.md --force
