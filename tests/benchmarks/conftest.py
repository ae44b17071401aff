"""Benchmarks: run with ``.venv/bin/python -m pytest tests/benchmarks --benchmark-only``.

They are not part of the default test run (``addopts`` ignores this folder) and never assert a
time: they print figures measured side by side in one run, and the ratios go in the issue notes.
"""

import logging
import os
from collections.abc import Iterator

import pytest
import structlog

from middleware import logs, records

records.VERIFY_TRUSTED = False  # measure records as the engine builds them, not the suite's check

LOG_LEVEL = os.environ.get("GM_BENCH_LOG", "info")
"""Logging as a deployed face runs it: ``info`` writes every per-tag event as a JSON line (to
/dev/null here), like ``gm-middleware serve``; ``warning`` drops them, like ``gm-middleware replay``."""


@pytest.fixture(autouse=True)
def _deployed_logging() -> Iterator[None]:
    """Measure with structlog configured as a face configures it, not its print-to-stdout default."""
    with open(os.devnull, "w") as sink:
        logs.configure(getattr(logging, LOG_LEVEL.upper()), stream=sink)
        yield
    structlog.reset_defaults()
