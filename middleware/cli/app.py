"""The ``gm-middleware`` Typer app and its two consoles: every command module registers on it."""

from __future__ import annotations

import typer
from rich.console import Console

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Resolve an AI Game Master's tags against a tabletop ruleset.")
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)
