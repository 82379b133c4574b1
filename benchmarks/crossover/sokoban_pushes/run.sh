# The crossover study's Sokoban rooms (sokoban/boxes k=1..10, seed 0) under pushes through their
# PDDL export: the walks cost 0 and the pushes 1 (as in the IPC's sokoban-opt track), so every
# method minimises pushes on the same PDDL task: SAT of the strips family under cost (each walk
# one transition), its uniform-cost search and A*, Fast Downward's LM-cut and SymK.
# From the checkout, .venv active: sh benchmarks/crossover/sokoban_pushes/run.sh
set -e
D=benchmarks/crossover/sokoban_pushes
sh benchmarks/crossover/export_rooms.sh $D -m pushes
cat /proc/loadavg
puzzleplan bench $D/instances -m cost --methods bfs,astar,pysat-de,fd-lmcut,symk \
    --time-limit 20 --jobs 1 -o $D/sokoban_pushes.csv
cat /proc/loadavg
puzzleplan report $D/sokoban_pushes.csv --markdown $D/report.md --force
