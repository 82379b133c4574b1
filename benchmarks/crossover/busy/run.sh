# The sliding/busy series (side conditions over a wide board) through search and SAT, one bench
# run. From the checkout, .venv active: sh benchmarks/crossover/busy/run.sh
sh benchmarks/crossover/run_series.sh sliding busy
