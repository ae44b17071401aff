"""Ready bots: a table on a store and an upstream, polling Telegram (aiogram) or Discord.

``gm-middleware bot telegram|discord`` calls these; a bot author who wants more than the table
mounts the adapters in their own bot instead (README). Both run until the process is stopped,
and both load what a turn would load on first use before they take their first message
(``lazy.ready_to_serve``), as ``serve`` does.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from middleware.bots.extras import require
from middleware.bots.table import Table, TableConfig
from middleware.engine import Engine
from middleware.lazy import ready_to_serve
from middleware.proxy.upstream import HttpUpstream
from middleware.stores import open_store


@dataclass(frozen=True, slots=True)
class Service:
    """Where a bot's games live and which model it asks."""

    config: TableConfig
    upstream: str
    store: str = "sqlite:///games.db"
    api_key: str | None = None


async def run_telegram(service: Service, token: str, api: str | None = None) -> None:
    """The table on aiogram's dispatcher, long-polling ``api`` (default: Telegram's own)."""
    require("aiogram", "aiogram", "aiogram")
    from aiogram import Bot, Dispatcher
    from aiogram.client.session.aiohttp import AiohttpSession
    from aiogram.client.telegram import TelegramAPIServer

    from middleware.bots.aiogram_router import table_router

    engine = Engine(await open_store(service.store))
    upstream = HttpUpstream(service.upstream, service.api_key)
    session = AiohttpSession(api=TelegramAPIServer.from_base(api)) if api else AiohttpSession()
    dispatcher = Dispatcher()
    dispatcher.include_router(table_router(Table(engine, upstream, service.config)))
    ready_to_serve()
    try:
        await dispatcher.start_polling(Bot(token, session=session))
    finally:
        await upstream.aclose()
        await engine.store.close()


async def run_discord(service: Service, token: str, *, prefix: str = "!",
                      channels: Collection[int] | None = None) -> None:
    """The table as a discord.py cog on a bot with the message content intent."""
    require("discord", "discord", "discord.py")
    import discord
    from discord.ext import commands

    from middleware.bots.discord_cog import TableCog

    engine = Engine(await open_store(service.store))
    upstream = HttpUpstream(service.upstream, service.api_key)
    intents = discord.Intents.default()
    intents.message_content = True
    bot = commands.Bot(command_prefix=prefix, intents=intents)
    try:
        async with bot:
            await bot.add_cog(TableCog(bot, Table(engine, upstream, service.config),
                                       channels=channels))
            ready_to_serve()
            await bot.start(token)
    finally:
        await upstream.aclose()
        await engine.store.close()
