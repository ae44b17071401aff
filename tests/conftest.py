"""Shared test set-up: trusted records are verified, structlog is reset, and absent peer files are
reported once (``tests/peer.py`` says where they are looked for)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import structlog
from _pytest.terminal import TerminalReporter

from middleware import records
from tests.peer import COMPAT, REQUIRED, ROOT, SHARED, SPEC, compat_json, compat_path, missing

records.VERIFY_TRUSTED = True  # every record a resolver builds unvalidated is checked here

__all__ = ["COMPAT", "ROOT", "SHARED", "SPEC", "compat_json", "compat_path"]


def pytest_configure(config: pytest.Config) -> None:
    """With ``GM_REQUIRE_COMPAT=1`` (CI), an absent peer folder is an error, not a skip."""
    if REQUIRED and missing():
        raise pytest.UsageError("GM_REQUIRE_COMPAT is set but " + "; ".join(missing()))


def pytest_terminal_summary(terminalreporter: TerminalReporter) -> None:
    """Say once why the tests of the peer's files were skipped (even under ``-q``)."""
    reasons = missing()
    if not reasons:
        return
    skipped = [r for r in terminalreporter.stats.get("skipped", ())
               if any(reason in str(r.longrepr) for reason in reasons)]
    terminalreporter.write_line(
        f"{len(skipped)} tests or modules skipped: " + "; ".join(reasons)
        + " (see README, Set up on a fresh machine)", yellow=True)


@pytest.fixture(autouse=True)
def _fresh_structlog() -> Iterator[None]:
    """A face (the CLI) configures structlog globally; every test starts from the defaults."""
    yield
    structlog.reset_defaults()
