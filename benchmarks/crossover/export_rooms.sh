# The crossover study's Sokoban rooms (sokoban/boxes k=1..10, seed 0) exported as PDDL into
# FOLDER/instances, each problem with its domain beside it (NAME.pddl, NAME-domain.pddl), for
# the runs of sokoban_pddl/ and sokoban_pushes/.  Usage: sh export_rooms.sh FOLDER [export options]
set -e
D=$1
shift
mkdir -p $D/instances
for f in benchmarks/crossover/instances/sokoban-boxes-k*-s0.xsb; do
    n=$(basename "$f" .xsb)
    t=$(mktemp -d)
    puzzleplan export "$f" "$@" -o "$t/$n.pddl"
    mv "$t/$n.pddl" "$D/instances/$n.pddl"
    mv "$t/domain.pddl" "$D/instances/$n-domain.pddl"
    rmdir "$t"
done
