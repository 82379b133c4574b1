# The sliding/dense series (side conditions over a crowded board: 27 pieces on 6 x 6, A B C
# three steps each, k others that must each move at least once) through search and SAT, one
# bench run. From the checkout, .venv active: sh benchmarks/crossover/dense/run.sh
sh benchmarks/crossover/run_series.sh sliding dense
