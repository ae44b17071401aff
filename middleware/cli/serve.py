"""``gm-middleware serve``: the OpenAI-compatible proxy in front of a model server (SPEC §7).

Registered on the ``app`` of ``cli/app.py``. Thin: the proxy is
``middleware.proxy``; this reads the options, opens the store and runs uvicorn.

    gm-middleware serve --ruleset gravewatch.json --party party.json \\
        --upstream http://127.0.0.1:11434 --store sqlite:///games.db --port 8800

With ``--api-key`` (the operator's key, paid for by the operator) the proxy must ask for a token
of its own (``--auth-token``, ``--tokens-file``): without one it does not start (exit 4,
``INSECURE``), unless ``--insecure-no-auth`` is given and it listens on a loopback address only.

The proxy, the engine, the store and uvicorn are imported when the command runs, not with the
module: ``gm-middleware --help`` and every other command start without them.
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer

from middleware.cli.app import app, err
from middleware.errors import GMError
from middleware.proxy.options import (
    BODY_TIMEOUT,
    MAX_BODY,
    MAX_CONNECTIONS,
    READ_TIMEOUT,
    ServeOptions,
)

if TYPE_CHECKING:
    import asyncio

    from pydantic import JsonValue
    from starlette.applications import Starlette

    from middleware.engine import Engine
    from middleware.proxy import GameConfig
    from middleware.proxy.inject import InjectConfig
    from middleware.rules.ruleset import Ruleset

UNREADABLE = 3
"""The exit code for a tokens file that could not be read (as ``replay``'s "could not read")."""

INSECURE = 4
"""The exit code for a proxy that would spend the operator's ``--api-key`` on anyone who reaches
it: ``--api-key`` without a token of the proxy's own, or ``--insecure-no-auth`` off loopback."""


@app.command("serve")
def serve_command(
    ruleset: Annotated[str, typer.Option(help="A bundled ruleset id or a ruleset file.")],
    upstream: Annotated[str, typer.Option(help="The model server's base URL "
                                               "(its /v1/chat/completions is called).")],
    party: Annotated[Path | None, typer.Option(exists=True, dir_okay=False,
                                               help="Party entries as in a transcript "
                                                    "(a list, or {\"party\": [...]}).")] = None,
    store: Annotated[str, typer.Option(help="Store URL.")] = "sqlite:///games.db",
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8800,
    api_key: Annotated[str | None, typer.Option(envvar="GM_UPSTREAM_KEY",
                                                help="Bearer key for the upstream (default: the "
                                                     "client's Authorization is passed on).")] = None,
    seed: Annotated[int, typer.Option(help="Seed new games are derived from.")] = 0,
    fair_dice: Annotated[bool, typer.Option(help="Every candidate of a turn throws the same "
                                                 "dice (SPEC §5).")] = False,
    branches: Annotated[bool, typer.Option(help="The model may write a section per outcome after "
                                               "a check (\\[on success] … \\[on failure] … "
                                               "\\[/branch]); the dice keep one.")] = False,
    log_level: Annotated[str, typer.Option(help="Log level.")] = "info",
    inject: Annotated[str, typer.Option(help="What the model is told: full (rules and state), "
                                             "rules (the rules block only) or off.")] = "full",
    state_in_user: Annotated[bool, typer.Option(help="Put the state block inside the last user "
                                                     "message (for templates that refuse a "
                                                     "second system message).")] = False,
    display: Annotated[str, typer.Option(help="What the chat is shown: 'tags' (the engine's "
                                              "resolved tags) or 'cards' (a line per tag).")] = "tags",
    auth_token: Annotated[str | None, typer.Option(envvar="GM_PROXY_TOKEN",
                                                   help="A bearer token every request to the "
                                                        "proxy must carry.")] = None,
    tokens_file: Annotated[Path | None, typer.Option(dir_okay=False,
                                                     help="Tokens the proxy accepts, one "
                                                          "'TOKEN [PLAYER NAME]' a line.")] = None,
    insecure_no_auth: Annotated[bool, typer.Option(help="Serve --api-key without a token of "
                                                        "the proxy's own (loopback only).")] = False,
    max_body: Annotated[int, typer.Option(min=1024, help="The longest request body accepted "
                                                         "(bytes); longer is 413.")] = MAX_BODY,
    read_timeout: Annotated[float, typer.Option(min=0.1, help="Seconds a client has to send a "
                                                              "request's headers.")] = READ_TIMEOUT,
    body_timeout: Annotated[float, typer.Option(min=0.1, help="Seconds a client has to send "
                                                              "a request's body.")] = BODY_TIMEOUT,
    max_connections: Annotated[int, typer.Option(min=1, help="Connections served at once (503 "
                                                             "past it).")] = MAX_CONNECTIONS,
    chats: Annotated[int, typer.Option(min=1, help="Chats kept in memory (the rest are read "
                                                   "from the store when they return).")] = 1024,
    keepalive: Annotated[float, typer.Option(min=0, help="Seconds of silence on a stream before "
                                                         "an SSE keep-alive comment (0: none).")
                         ] = 10.0,
    upstream_timeout: Annotated[float, typer.Option(min=1, help="Seconds the upstream may take "
                                                               "to answer (504 past it).")] = 300.0,
    tools: Annotated[bool, typer.Option(help="Tool mode: the model calls the Engine's functions "
                                             "(skill_check, inventory, ...) instead of writing "
                                             "tags.")] = False,
) -> None:
    """Run the OpenAI-compatible proxy: point a chat UI at http://HOST:PORT/v1."""
    import asyncio

    from middleware import logs
    from middleware.proxy.inject import inject_config

    level = getattr(logging, log_level.upper(), logging.INFO)
    logs.configure(level)
    if display not in ("tags", "cards"):
        err.print(f"✗ --display must be 'tags' or 'cards', not {display!r}", markup=False)
        raise typer.Exit(2)
    try:
        games = game_config(ruleset, party, seed=seed, fair_dice=fair_dice, branches=branches)
        view = inject_config(inject, state_in_user, tools)
    except (GMError, OSError, json.JSONDecodeError) as exc:
        err.print(f"✗ {exc}", markup=False)
        raise typer.Exit(2) from exc
    tokens = _tokens(tokens_file)
    _refuse_insecure(api_key, bool(auth_token or tokens), insecure_no_auth, host)
    if not (auth_token or tokens) and not is_loopback(host):
        logs.get_logger().warning("proxy-open", host=host, reason="no token: anyone who reaches "
                                  "this address plays, each as their own Authorization")
    options = ServeOptions(display="cards" if display == "cards" else "tags", max_body=max_body,
                           auth_token=auth_token or None, tokens=tokens, keepalive=keepalive,
                           chats=chats, timeout=upstream_timeout, read_timeout=read_timeout,
                           body_timeout=body_timeout, max_connections=max_connections,
                           tools=tools)
    with asyncio.Runner(loop_factory=event_loop()) as runner:
        runner.run(_serve(games, upstream, api_key, store, options, host, port, level, view))


def event_loop() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (not on Windows), else asyncio's own: measured
    with the proxy in its own process in front of a fake upstream, it took about a quarter off
    the time a stream spends in the proxy."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def _tokens(path: Path | None) -> tuple[tuple[str, str | None], ...]:
    """The tokens file's tokens (none without one); a file that cannot be read stops ``serve``."""
    from middleware.proxy.access import TokensFileError, read_tokens

    if path is None:
        return ()
    try:
        return tuple(read_tokens(path))
    except (OSError, UnicodeDecodeError) as exc:
        err.print(f"✗ {path}: could not read: {exc}", markup=False)
        raise typer.Exit(UNREADABLE) from exc
    except TokensFileError as exc:
        err.print(f"✗ {path}: {exc}", markup=False)
        raise typer.Exit(2) from exc


def _refuse_insecure(api_key: str | None, tokens: bool, insecure: bool, host: str) -> None:
    """Exit ``INSECURE`` rather than spend the operator's key on anyone who can reach the port."""
    if insecure and not is_loopback(host):
        err.print(f"✗ --insecure-no-auth serves only on a loopback address (127.0.0.1, ::1, "
                  f"localhost), not on {host!r}", markup=False)
        raise typer.Exit(INSECURE)
    if api_key and not tokens and not insecure:
        err.print("✗ --api-key spends your upstream key on every request: give the proxy a "
                  "token of its own (--auth-token, GM_PROXY_TOKEN or --tokens-file), or "
                  "--insecure-no-auth to serve without one on 127.0.0.1", markup=False)
        raise typer.Exit(INSECURE)


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def game_config(ruleset: str, party: Path | None, *, seed: int = 0,
                fair_dice: bool = False, branches: bool = False) -> GameConfig:
    """The game every new chat starts with: the ruleset and the party file, validated whole."""
    from middleware.proxy import GameConfig
    from middleware.sheet.party import read_party

    rules = _ruleset(ruleset)
    entries: JsonValue = json.loads(party.read_text(encoding="utf-8")) if party else []
    entries = entries["party"] if isinstance(entries, dict) and "party" in entries else entries
    return GameConfig(rules, read_party(rules, entries), seed=seed,
                      dice="turn" if fair_dice else "candidate", branches=branches)


def _ruleset(name: str) -> Ruleset:
    """A bundled ruleset by id, else a ruleset file."""
    from middleware.rules.load import load_ruleset
    from middleware.rules.registry import bundled_ids, load_bundled

    return load_bundled(name) if name in bundled_ids() else load_ruleset(Path(name))


class ProxyApp(NamedTuple):
    """The app ``serve`` runs, its engine, and what closes its upstream client and store."""

    app: Starlette
    engine: Engine
    close: Callable[[], Awaitable[None]]


async def proxy_app(games: GameConfig, url: str, api_key: str | None, store_url: str,
                    options: ServeOptions, view: InjectConfig | None = None) -> ProxyApp:
    """The proxy ``serve`` runs, over the store at ``store_url`` and the upstream at ``url``."""
    from middleware.engine import Engine
    from middleware.proxy import HttpUpstream, create_app
    from middleware.stores import open_store

    engine = Engine(await open_store(store_url), chats=options.chats)
    upstream = HttpUpstream(url, api_key, timeout=options.timeout)

    async def close() -> None:
        await upstream.aclose()
        await engine.store.close()

    return ProxyApp(create_app(engine, upstream, games, options=options, inject=view), engine,
                    close)


async def _serve(games: GameConfig, url: str, api_key: str | None, store_url: str,
                 options: ServeOptions, host: str, port: int, level: int,
                 view: InjectConfig | None = None) -> None:
    import uvicorn

    from middleware.lazy import ready_to_serve
    from middleware.proxy.server import server_config
    from middleware.proxy.server_log import uvicorn_log_config

    app, _, close = await proxy_app(games, url, api_key, store_url, options, view)
    config = server_config(app, options, host=host, port=port, log_level=level,
                           log_config=uvicorn_log_config(level))
    ready_to_serve()
    try:
        await uvicorn.Server(config).serve()
    finally:
        await close()
