"""Shared test helpers: where the compat rulesets live (``../shared`` beside the checkout)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog

from middleware import records

records.VERIFY_TRUSTED = True  # every record a resolver builds unvalidated is checked here

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
COMPAT = SHARED / "compat"


def compat_path(name: str) -> Path:
    """The path of a compat ruleset file such as ``gravewatch.json``."""
    return COMPAT / name


def compat_json(name: str) -> Any:
    """The parsed JSON of a compat ruleset file (a fresh copy each call, safe to change)."""
    return json.loads(compat_path(name).read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _fresh_structlog() -> Iterator[None]:
    """A face (the CLI) configures structlog globally; every test starts from the defaults."""
    yield
    structlog.reset_defaults()
