"""Benchmarks: methods x instances, one CSV row per run, appended as runs finish."""
