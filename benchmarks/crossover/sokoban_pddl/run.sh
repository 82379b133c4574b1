# The crossover study's Sokoban rooms (sokoban/boxes k=1..10, seed 0) through their PDDL
# export: every method reads the same PDDL task (SAT and search of the strips family, Fast
# Downward's LM-cut and SymK). From the checkout, .venv active: sh benchmarks/crossover/sokoban_pddl/run.sh
set -e
D=benchmarks/crossover/sokoban_pddl
sh benchmarks/crossover/export_rooms.sh $D
puzzleplan bench $D/instances --methods bfs,astar,pysat-de,cpsat,fd-lmcut,symk \
    --time-limit 20 --jobs 1 -o $D/sokoban_pddl.csv
puzzleplan report $D/sokoban_pddl.csv --markdown $D/report.md --force
