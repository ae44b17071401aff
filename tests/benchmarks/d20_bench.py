"""Avrae's ``d20`` beside our checks, in the same run (issue 3). Only the benchmark venv runs it.

d20 pins an old ``lark-parser`` that would overwrite our ``lark``, so it is installed only into
``/work/main/.venv-bench`` (``python3 -m venv .venv-bench && .venv-bench/bin/pip install -e .
pytest pytest-benchmark hypothesis d20``). This file is not named ``test_*.py``: the default run
(and ``.venv``) never collects it. Run both modules together so the ratios are side by side::

    .venv-bench/bin/python -m pytest -p no:cacheprovider --benchmark-only \\
        tests/benchmarks/test_checks_bench.py tests/benchmarks/d20_bench.py

d20 is imported inside the benchmarks, so importing this module needs nothing beyond pytest.
"""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.benchmark(group="check-4d6")
def test_d20_roll_4d6kh3_in_the_same_run(benchmark: Any) -> None:
    import d20

    assert 3 <= d20.roll("4d6kh3").total <= 18
    benchmark(d20.roll, "4d6kh3")


@pytest.mark.benchmark(group="check-pool-10")
def test_d20_roll_4d6kh3_beside_the_pool(benchmark: Any) -> None:
    """Issue 3 measures both checks against ``4d6kh3``; the pool's own size follows below."""
    import d20

    assert 3 <= d20.roll("4d6kh3").total <= 18
    benchmark(d20.roll, "4d6kh3")


@pytest.mark.benchmark(group="check-pool-10")
def test_d20_roll_10d10_exploding_in_the_same_run(benchmark: Any) -> None:
    import d20

    assert 0 <= d20.roll("10d10e10>6").total
    benchmark(d20.roll, "10d10e10>6")
