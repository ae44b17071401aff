"""The ``gm-middleware`` command (SPEC §7): thin; every rule lives below it.

Each command module registers its commands on the one Typer ``app`` (``cli/app.py``); importing
them here is what puts them on it.
"""

from __future__ import annotations

from middleware.cli import dice, gear, replay, serve
from middleware.cli.app import app

__all__ = ["app", "main"]

_COMMANDS = (dice, gear, replay, serve)
"""The command modules, each imported for the commands it registers on ``app``."""


def main() -> None:
    """Entry point of the ``gm-middleware`` script."""
    app()
