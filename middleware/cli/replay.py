"""``gm-middleware replay``, ``validate`` and ``schema``: transcripts and ruleset files."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from middleware import logs
from middleware.cli.app import app, err, out
from middleware.cli.cards import render_step
from middleware.engine import Engine
from middleware.errors import ExpectationError, GMError, TranscriptError
from middleware.rules.load import ruleset_json_schema, validate_ruleset
from middleware.stores import open_store
from middleware.transcript import Prepared, prepare, replay

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
    logs.configure(getattr(logging, log_level.upper(), logging.WARNING))
    try:
        with transcript.open(encoding="utf-8") as handle:
            prepared = prepare(handle, base=transcript.parent)
        code = asyncio.run(_replay(prepared, store, as_json))
    except ExpectationError as exc:
        err.print(f"[red]✗ {transcript}: {exc}[/red]")
        raise typer.Exit(1) from exc
    except (TranscriptError, GMError) as exc:
        err.print(f"[red]✗ {transcript}: {exc}[/red]")
        raise typer.Exit(2) from exc
    raise typer.Exit(code)


async def _replay(prepared: Prepared, url: str | None, as_json: bool) -> int:
    with tempfile.TemporaryDirectory(prefix="gm-middleware-") as tmp:
        store = await open_store(url or f"sqlite:///{tmp}/replay.db")
        try:
            with _progress(len(prepared.lines)) as bar:
                task = bar.add_task("replaying", total=len(prepared.lines) - 1)
                async for step in replay(prepared, Engine(store)):
                    if as_json and step.kind == "gm":
                        sys.stdout.write(json.dumps(step.as_json(), ensure_ascii=False) + "\n")
                    elif not as_json:
                        render_step(out, step)
                    bar.advance(task)
        finally:
            await store.close()
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
    problems = validate_ruleset(ruleset)
    if not problems:
        out.print(f"[green]✓ {ruleset} is a valid ruleset[/green]")
        return
    err.print(f"[red]✗ {ruleset}: {len(problems)} problem(s)[/red]")
    for problem in problems:
        out.print(f"{problem.path}: {problem.message}", markup=False)
    raise typer.Exit(1)


@app.command("schema")
def schema_command() -> None:
    """Print the JSON Schema of the ruleset file, generated from the ruleset models."""
    sys.stdout.write(json.dumps(ruleset_json_schema(), indent=2) + "\n")
