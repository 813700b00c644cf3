"""Benchmarks (issue: performance).  Run all with ``make bench``; not part of the test suite."""
