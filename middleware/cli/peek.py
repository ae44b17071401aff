"""``gm-middleware peek``: what the model will be sent on a chat's next turn (ITM-FAKE-13).

Registered on the ``app`` of ``cli/app.py``. Thin: ``middleware.proxy.peek``
works the view out (imported when the command runs, so that ``--help`` starts without it); this
opens the store and prints it.

    gm-middleware peek --store sqlite:///games.db chat-1 [--json] [--inject rules] [--tools]
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from middleware.cli.app import app, err
from middleware.errors import GMError

if TYPE_CHECKING:
    from middleware.proxy.inject import InjectConfig


@app.command("peek")
def peek_command(
    chat: Annotated[str, typer.Argument(help="The chat id (the proxy's X-GM-Chat, or the id it "
                                             "logged as proxy-new-game).")],
    store: Annotated[str, typer.Option(help="Store URL.")] = "sqlite:///games.db",
    inject: Annotated[str, typer.Option(help="As serve's --inject: full, rules or off.")] = "full",
    state_in_user: Annotated[bool, typer.Option(help="As serve's --state-in-user.")] = False,
    tools: Annotated[bool, typer.Option(help="As serve's --tools: the view of tool mode.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object: chat, turn, "
                                                         "rules, state, where, text.")] = False,
) -> None:
    """Print exactly what the model will be sent on CHAT's next turn."""
    import asyncio

    from middleware.proxy.inject import inject_config

    try:
        config = inject_config(inject, state_in_user, tools)
        shown = asyncio.run(_peek(store, chat, config, as_json))
    except GMError as exc:
        err.print(f"✗ {exc}", markup=False)
        raise typer.Exit(2) from exc
    typer.echo(shown)


async def _peek(store_url: str, chat: str, config: InjectConfig, as_json: bool) -> str:
    from middleware.engine import Engine
    from middleware.proxy.peek import peek, peek_text
    from middleware.stores import open_store

    engine = Engine(await open_store(store_url))
    try:
        seen = await peek(engine, chat, config)
    finally:
        await engine.store.close()
    return json.dumps(seen.as_json(), ensure_ascii=False) if as_json else peek_text(seen)
