#!/bin/sh
# A first plan and both bounds: solve with --fast (doubling horizons), with --probes, and plain,
# on the long puzzles; one JSON line per run on stdout, CPU seconds from /usr/bin/time on stderr.
# Usage: sh benchmarks/anytime/anytime.sh FIFTEEN_PUZZLE_FILE > benchmarks/anytime/runs.jsonl
set -e
cd "$(dirname "$0")/../.."
PP=.venv/bin/puzzleplan
run() {
    /usr/bin/time -f "cpu %U+%S s, wall %e s: $*" $PP solve "$@" --json --no-enumerate || true
}
for level in 38 39 40; do
    run instances/rushhour/thinkfun40.rh -l $level --fast --gap 100 --time-limit 10
done
run instances/seeds/rushhour_card40_bmodel_v2.rh --fast --gap 100 --time-limit 10
run "$1" --fast --time-limit 10
run "$1" --probes --time-limit 10
run instances/seeds/klotski_seed000.slide --probes --time-limit 60
run instances/seeds/klotski_seed000.slide --fast --time-limit 60
