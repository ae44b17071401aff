"""The bot frameworks are optional extras: a missing one is named with the extra that brings it."""

from __future__ import annotations

import importlib.util

from middleware.errors import GMError


class MissingExtra(GMError):
    """A bot adapter's framework is not installed; the message names the pip extra."""


def require(module: str, extra: str, framework: str) -> None:
    """Raise ``MissingExtra`` unless ``module`` can be imported."""
    if importlib.util.find_spec(module) is None:
        raise MissingExtra(f"{framework} is not installed: pip install 'gm-middleware[{extra}]'")
