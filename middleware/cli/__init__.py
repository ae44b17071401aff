"""The ``gm-middleware`` command (SPEC §7): thin; every rule lives below it.

Each command module registers its commands on the one Typer ``app`` (``cli/app.py``); importing
them here is what puts them on it.
"""

from __future__ import annotations

import sys

from middleware.cli import bot, dice, gear, peek, replay, serve
from middleware.cli.app import app

__all__ = ["app", "main"]

_COMMANDS = (bot, dice, gear, peek, replay, serve)
"""The command modules, each imported for the commands it registers on ``app``."""


def main() -> None:
    """Entry point of the ``gm-middleware`` script."""
    _printable_anywhere()
    app()


def _printable_anywhere() -> None:
    """A character the console's encoding lacks (a game's "Été" on an ASCII or cp1252 console)
    is printed as an escape (``\\xc9``), not raised: a replay's cards, ✓ and ✗ included, never
    end in a traceback over how the terminal is set up."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
