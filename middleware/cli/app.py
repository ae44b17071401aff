"""The ``gm-middleware`` Typer app and its two consoles: every command module registers on it."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Resolve an AI Game Master's tags against a tabletop ruleset.")


class _Stdout(Console):
    """Rich's console, except that a reader closing the pipe is left to the command to handle
    (rich would exit 1, the code of a failed expectation)."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


out = _Stdout(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _show_version(shown: bool) -> None:
    if shown:
        from importlib import metadata  # for --version only: --help starts without it

        out.print(f"gm-middleware {metadata.version('gm-middleware')}")
        raise typer.Exit(0)

@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_show_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Resolve an AI Game Master's tags against a tabletop ruleset."""
