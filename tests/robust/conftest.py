"""Robustness tests (issue 16's findings) run on real stores: the ``store`` fixture yields each."""

from __future__ import annotations

from tests.pipeline.conftest import engine  # noqa: F401  (Ember Roads on the memory store)
from tests.stores.conftest import store  # noqa: F401  (the fixture, on every store)
