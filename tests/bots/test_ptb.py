"""python-telegram-bot handlers on the real ``Application``, polling a fake Bot API server on
127.0.0.1 and posting their answers there; the table asks a scripted fake model (SPEC §3, §7)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from telegram.ext import Application, MessageHandler, filters

from middleware.bots.ptb_handlers import GROUP, add_table_handlers
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
    seen_by_own_handler: list[int]


@pytest.fixture
async def running(rig: Rig) -> AsyncIterator[Running]:
    """The real application polling the fake server; the bot author's own handler in group 0
    keeps seeing every message beside the table's handlers in a group of their own."""
    telegram = FakeTelegram()
    own: list[int] = []
    async with serving(telegram.app()) as url:
        application = (Application.builder().token(TOKEN).base_url(f"{url}/bot")
                       .base_file_url(f"{url}/file/bot").build())

        async def note(update: object, context: object) -> None:
            own.append(1)

        application.add_handler(MessageHandler(filters.ALL, note))
        add_table_handlers(application, rig.table)
        await application.initialize()
        await application.start()
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0, timeout=1)
        try:
            yield Running(telegram, rig, own)
        finally:
            await application.updater.stop()
            await application.stop()
            await application.shutdown()


async def test_a_short_game_through_ptb(running: Running) -> None:
    """Three turns by two people: what was posted, who played whom, the stored game; the
    application's own handler saw each message too."""
    await play_a_short_game(running.telegram, running.rig)
    assert 3 == len(running.seen_by_own_handler)


async def test_redelivery_edit_and_buttons_through_ptb(running: Running) -> None:
    """A redelivered update asks and stores nothing again; an edit and the regenerate button are
    new candidates; previous edits the message in place; the dice button shows the card."""
    await redelivery_edit_and_buttons(running.telegram, running.rig)


async def test_undo_through_ptb(running: Running) -> None:
    """/undo takes the latest turn back and says so; the handlers sit in their own group."""
    running.rig.model.replies = ["One."]
    ada = user(101, "Ada", "ada")
    await running.telegram.push(running.telegram.message(ada, "Hello."))
    await running.telegram.until(lambda t: len(t.sent()) == 1)
    await running.telegram.push(running.telegram.message(ada, "/undo"))
    await running.telegram.until(lambda t: len(t.sent()) == 2)
    assert "↶ Undone: the game is back after turn 0." == running.telegram.sent()[-1].params["text"]
    assert 0 == await running.rig.engine.store.last_turn("telegram:-1001~1")
    assert GROUP != 0


async def test_a_long_reply_is_split_through_ptb(running: Running) -> None:
    """A reply past 4096 is posted as two messages cut between lines: the first quotes the
    player, the buttons sit under the last."""
    await a_long_reply_is_split(running.telegram, running.rig)
