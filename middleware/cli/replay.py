"""``gm-middleware replay``, ``validate`` and ``schema``: transcripts and ruleset files.

The engine, the store, the transcript reader and the ruleset models are imported when a command
runs, so that ``--help`` starts without them.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
from contextlib import aclosing
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from middleware.cli.app import app, err, out
from middleware.errors import (
    ExpectationError,
    GMError,
    Problem,
    RulesetError,
    TranscriptError,
    Unreadable,
    UnreadableRuleset,
)

if TYPE_CHECKING:
    from middleware.transcript import Prepared, Step

UNREADABLE = 3
"""The exit code for input that could not be read at all (``errors.Unreadable``): 1 is a failed
expectation or a refused ruleset, 2 a malformed transcript line."""

LONG_REPLAY = 200
"""Transcripts with more lines than this show a progress bar (on stderr, when it is a terminal)."""


@app.command("replay")
def replay_command(
    transcript: Annotated[Path, typer.Argument(exists=True, dir_okay=False, readable=True)],
    as_json: Annotated[bool, typer.Option("--json", help="JSON Lines: one object per gm line.")] = False,
    store: Annotated[str | None, typer.Option(help="Store URL (default: a fresh SQLite file).")] = None,
    log_level: Annotated[str, typer.Option(help="Log level for the per-tag events.")] = "warning",
) -> None:
    """Replay a saved transcript through the real pipeline and print every rewritten reply."""
    import asyncio

    from middleware import logs
    from middleware.transcript import prepare
    from middleware.transcript.lines import decoded_lines

    logs.configure(getattr(logging, log_level.upper(), logging.WARNING))
    try:
        with transcript.open("rb") as handle:
            prepared = prepare(decoded_lines(handle), base=transcript.parent)
        code = asyncio.run(_replay(prepared, store, as_json))
    except ExpectationError as exc:
        _refused(f"{transcript}: {exc}")
        raise typer.Exit(1) from exc
    except Unreadable as exc:
        _refused(f"{transcript}: could not read: {exc}")
        raise typer.Exit(UNREADABLE) from exc
    except (TranscriptError, GMError) as exc:
        _refused(f"{transcript}: {exc}")
        raise typer.Exit(2) from exc
    raise typer.Exit(code)


def _refused(message: str) -> None:
    """One red line on stderr, as written: a message quotes the transcript (``[/branch]``, any
    bracket a user wrote), which rich would read as markup."""
    err.print(f"✗ {message}", style="red", markup=False)


async def _replay(prepared: Prepared, url: str | None, as_json: bool) -> int:
    from middleware.engine import Engine
    from middleware.stores import open_store
    from middleware.transcript import replay

    with tempfile.TemporaryDirectory(prefix="gm-middleware-") as tmp:
        store = await open_store(url or f"sqlite:///{tmp}/replay.db")
        try:
            with _progress(len(prepared.lines)) as bar:
                task = bar.add_task("replaying", total=len(prepared.lines) - 1)
                # Closed here, in this task, when the reader goes away (``| head -1``): the
                # replay's batch then ends where it began and keeps nothing.
                async with aclosing(replay(prepared, Engine(store))) as steps:
                    async for step in steps:
                        if not _show(step, as_json):
                            return _reader_gone()
                        bar.advance(task)
        finally:
            await store.close()
    return 0


def _show(step: Step, as_json: bool) -> bool:
    """Print one step; False when stdout was closed by its reader."""
    from middleware.cli.cards import render_step

    try:
        if as_json and step.kind == "gm":
            # ASCII: the line reads the same on any console's encoding, and no character in it
            # (U+2028, U+0085) is a line break to a reader that splits on more than "\n"
            sys.stdout.write(json.dumps(step.as_json()) + "\n")
            sys.stdout.flush()
        elif not as_json:
            render_step(out, step)
    except BrokenPipeError:
        return False
    return True


def _reader_gone() -> int:
    """Stdout's reader closed the pipe: end quietly (exit 0), with stdout pointed at /dev/null so
    the interpreter's last flush has nowhere to fail."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 0


def _progress(lines: int) -> Progress:
    show = lines > LONG_REPLAY and err.is_terminal
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    console=err, disable=not show, transient=True,
                    redirect_stdout=False, redirect_stderr=False)


@app.command("validate")
def validate_command(
    ruleset: Annotated[Path, typer.Argument(exists=True, dir_okay=False, readable=True)],
) -> None:
    """Check a ruleset file: list every problem with its JSON path, or say it is valid."""
    from middleware.rules.load import load_ruleset

    try:
        load_ruleset(ruleset)
        problems: list[Problem] = []
    except UnreadableRuleset as exc:
        _refused(f"{ruleset}: could not read: {exc.problems[0].message}")
        raise typer.Exit(UNREADABLE) from exc
    except RulesetError as exc:
        problems = list(exc.problems)
    if not problems:
        out.print(f"✓ {ruleset} is a valid ruleset", style="green", markup=False)
        return
    _refused(f"{ruleset}: {len(problems)} problem(s)")
    for problem in problems:
        out.print(f"{problem.path}: {problem.message}", markup=False)
    raise typer.Exit(1)


@app.command("schema")
def schema_command() -> None:
    """Print the JSON Schema of the ruleset file, generated from the ruleset models."""
    from middleware.rules.load import ruleset_json_schema

    sys.stdout.write(json.dumps(ruleset_json_schema(), indent=2) + "\n")
