"""The aiogram 3 router on the real dispatcher, polling a fake Bot API server on 127.0.0.1 and
posting its answers there; the table asks a scripted fake model (SPEC §3, §7)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiogram import Bot, Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from middleware.bots.aiogram_router import table_router
from tests.bots.conftest import Rig
from tests.bots.telegram_fake import TOKEN, FakeTelegram, user
from tests.bots.telegram_game import (
    a_long_reply_is_split,
    play_a_short_game,
    redelivery_edit_and_buttons,
)
from tests.proxy.conftest import serving


@dataclass
class Running:
    telegram: FakeTelegram
    rig: Rig


@pytest.fixture
async def running(rig: Rig) -> AsyncIterator[Running]:
    """The real dispatcher polling the fake server, with the table's router included."""
    telegram = FakeTelegram()
    async with serving(telegram.app()) as url:
        bot = Bot(TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(url)))
        dispatcher = Dispatcher()
        dispatcher.include_router(table_router(rig.table))
        polling = asyncio.create_task(dispatcher.start_polling(bot, handle_signals=False,
                                                               polling_timeout=1))
        try:
            yield Running(telegram, rig)
        finally:
            await dispatcher.stop_polling()
            await polling


async def test_a_short_game_through_aiogram(running: Running) -> None:
    """Three turns by two people: what was posted, who played whom, the stored game."""
    await play_a_short_game(running.telegram, running.rig)


async def test_redelivery_edit_and_buttons_through_aiogram(running: Running) -> None:
    """A redelivered update asks and stores nothing again; an edit and the regenerate button are
    new candidates; previous edits the message in place; the dice button shows the card."""
    await redelivery_edit_and_buttons(running.telegram, running.rig)


async def test_undo_through_aiogram(running: Running) -> None:
    """/undo takes the latest turn back and says so."""
    running.rig.model.replies = ["One."]
    ada = user(101, "Ada", "ada")
    await running.telegram.push(running.telegram.message(ada, "Hello."))
    await running.telegram.until(lambda t: len(t.sent()) == 1)
    await running.telegram.push(running.telegram.message(ada, "/undo"))
    await running.telegram.until(lambda t: len(t.sent()) == 2)
    assert "↶ Undone: the game is back after turn 0." == running.telegram.sent()[-1].params["text"]
    assert 0 == await running.rig.engine.store.last_turn("telegram:-1001~1")


async def test_a_long_reply_is_split_through_aiogram(running: Running) -> None:
    """A reply past 4096 is posted as two messages cut between lines: the first quotes the
    player, the buttons sit under the last."""
    await a_long_reply_is_split(running.telegram, running.rig)
