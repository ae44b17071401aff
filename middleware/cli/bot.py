"""``gm-middleware bot telegram|discord``: a ready Game Master bot on the same engine (SPEC §7).

Registered on the ``app`` of ``cli/app.py`` (``cli/__init__`` imports it). Thin: the options are
read here, the bot is ``middleware.bots.run``. Tokens come from the environment (``TELEGRAM_BOT_TOKEN``,
``DISCORD_BOT_TOKEN``) or ``--token-file``, never from the command line (it shows in ``ps``).
The bots and the engine are imported when a command runs, so that ``--help`` starts without them.

    gm-middleware bot telegram --ruleset lantern-and-ledger --upstream http://127.0.0.1:11434
    gm-middleware bot discord --ruleset gravewatch.json --party party.json \\
        --upstream http://127.0.0.1:11434 --store postgresql://gm@db/games
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from middleware.cli.app import app, err
from middleware.cli.serve import game_config
from middleware.errors import GMError

if TYPE_CHECKING:
    from pydantic import JsonValue

    from middleware.bots.run import Service

bot_app = typer.Typer(no_args_is_help=True, help="Run a Game Master bot on a chat platform.")
app.add_typer(bot_app, name="bot")

Ruleset = Annotated[str, typer.Option(help="A bundled ruleset id or a ruleset file.")]
Upstream = Annotated[str, typer.Option(help="The model server's base URL "
                                            "(its /v1/chat/completions is called).")]
Party = Annotated[Path | None, typer.Option(exists=True, dir_okay=False,
                                            help="Party entries as in a transcript.")]
Seats = Annotated[Path | None, typer.Option(exists=True, dir_okay=False,
                                            help="JSON object: platform user id, @handle or "
                                                 "display name -> party member.")]
Store = Annotated[str, typer.Option(help="Store URL: SQLite for one process, PostgreSQL when "
                                         "several bot processes share games.")]
TokenFile = Annotated[Path | None, typer.Option(exists=True, dir_okay=False,
                                                help="A file holding the bot token.")]
Model = Annotated[str, typer.Option(help="The model name sent upstream.")]
ApiKey = Annotated[str | None, typer.Option(envvar="GM_UPSTREAM_KEY",
                                            help="Bearer key for the upstream.")]
Seed = Annotated[int, typer.Option(help="Seed new games are derived from.")]
FairDice = Annotated[bool, typer.Option(help="Every candidate of a turn throws the same dice.")]
LogLevel = Annotated[str, typer.Option(help="Log level.")]


@bot_app.command("telegram")
def telegram_command(ruleset: Ruleset, upstream: Upstream, party: Party = None,
                     seats: Seats = None, store: Store = "sqlite:///games.db",
                     telegram_api: Annotated[str | None, typer.Option(
                         help="A self-hosted Bot API server's base URL.")] = None,
                     token_file: TokenFile = None, model: Model = "", api_key: ApiKey = None,
                     seed: Seed = 0, fair_dice: FairDice = False, log_level: LogLevel = "info",
                     ) -> None:
    """Run the Game Master as a Telegram bot (aiogram, long polling)."""
    from middleware.bots.run import run_telegram

    service = _service(ruleset, upstream, party, seats, store, model, api_key, seed, fair_dice,
                       log_level)
    token = _token("TELEGRAM_BOT_TOKEN", token_file)
    _run(run_telegram(service, token, telegram_api))


@bot_app.command("discord")
def discord_command(ruleset: Ruleset, upstream: Upstream, party: Party = None,
                    seats: Seats = None, store: Store = "sqlite:///games.db",
                    channel: Annotated[list[int] | None, typer.Option(
                        help="Play only in this channel id (repeatable).")] = None,
                    prefix: Annotated[str, typer.Option(help="Command prefix (!undo).")] = "!",
                    token_file: TokenFile = None, model: Model = "", api_key: ApiKey = None,
                    seed: Seed = 0, fair_dice: FairDice = False, log_level: LogLevel = "info",
                    ) -> None:
    """Run the Game Master as a Discord bot (discord.py; needs the message content intent)."""
    from middleware.bots.run import run_discord

    service = _service(ruleset, upstream, party, seats, store, model, api_key, seed, fair_dice,
                       log_level)
    token = _token("DISCORD_BOT_TOKEN", token_file)
    _run(run_discord(service, token, prefix=prefix, channels=channel or None))


def _service(ruleset: str, upstream: str, party: Path | None, seats: Path | None, store: str,
             model: str, api_key: str | None, seed: int, fair_dice: bool,
             log_level: str) -> Service:
    from middleware import logs
    from middleware.bots.run import Service
    from middleware.bots.table import TableConfig

    logs.configure(getattr(logging, log_level.upper(), logging.INFO))
    try:
        games = game_config(ruleset, party, seed=seed, fair_dice=fair_dice)
        seated: JsonValue = json.loads(seats.read_text(encoding="utf-8")) if seats else {}
    except (GMError, OSError, json.JSONDecodeError) as exc:
        _fail(str(exc))
    if not isinstance(seated, dict) or not all(isinstance(v, str) for v in seated.values()):
        _fail(f"{seats}: seats must be a JSON object of names")
    config = TableConfig(games.ruleset, games.party, seed=games.seed, dice=games.dice,
                         model=model,
                         seats={str(k): v for k, v in seated.items() if isinstance(v, str)})
    return Service(config, upstream, store, api_key)


def _token(variable: str, token_file: Path | None) -> str:
    token = (token_file.read_text(encoding="utf-8") if token_file else
             os.environ.get(variable, "")).strip()
    if not token:
        _fail(f"no bot token: set {variable} or pass --token-file")
    return token


def _run(bot: Coroutine[object, object, None]) -> None:
    import asyncio

    try:
        asyncio.run(bot)
    except GMError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        pass


def _fail(message: str) -> NoReturn:
    err.print(f"✗ {message}", markup=False)
    raise typer.Exit(2)
