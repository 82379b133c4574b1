# The strips series with interchangeable objects (gripper's balls and grippers; ferry's cars that
# share a start and a goal) again once SAT breaks their symmetry (the strips family's symmetry
# lever): every method, one bench run, one run at a time; then SAT with the lever and without it.
# From the checkout, .venv active: sh benchmarks/crossover/symmetry/run.sh
set -e
D=benchmarks/crossover/symmetry
I=benchmarks/crossover/instances
puzzleplan bench $I/strips-gripper-n*-s0.pddl $I/strips-ferry-n*-s0.pddl \
    --methods bfs,astar,pysat-de,cpsat,fd-lmcut,symk --time-limit 20 --jobs 1 -o $D/symmetry.csv
puzzleplan report $D/symmetry.csv --markdown $D/report.md --force
python $D/levers.py --seconds 20 $I/strips-gripper-n*-s0.pddl $I/strips-ferry-n*-s0.pddl
