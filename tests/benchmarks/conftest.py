"""Benchmarks: run with ``.venv/bin/python -m pytest tests/benchmarks --benchmark-only``.

They are not part of the default test run (``addopts`` ignores this folder) and never assert a
time: they print figures measured side by side in one run, and the ratios go in the issue notes.
"""
