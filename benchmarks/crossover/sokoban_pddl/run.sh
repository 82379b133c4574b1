# The crossover study's Sokoban rooms (sokoban/boxes k=1..10, seed 0) through their PDDL
# export: every method reads the same PDDL task (SAT and search of the strips family, Fast
# Downward's LM-cut and SymK). From the checkout, .venv active: sh benchmarks/crossover/sokoban_pddl/run.sh
set -e
D=benchmarks/crossover/sokoban_pddl
mkdir -p $D/instances
for f in benchmarks/crossover/instances/sokoban-boxes-k*-s0.xsb; do
    n=$(basename "$f" .xsb)
    t=$(mktemp -d)
    puzzleplan export "$f" -o "$t/$n.pddl"
    mv "$t/$n.pddl" "$D/instances/$n.pddl"
    mv "$t/domain.pddl" "$D/instances/$n-domain.pddl"
    rmdir "$t"
done
puzzleplan bench $D/instances --methods bfs,astar,pysat-de,cpsat,fd-lmcut,symk \
    --time-limit 20 --jobs 1 -o $D/sokoban_pddl.csv
puzzleplan report $D/sokoban_pddl.csv --markdown $D/report.md --force
