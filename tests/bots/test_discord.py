"""The discord.py ``Cog`` on a real ``commands.Bot``: messages, edits and button presses are built
from Discord API payloads by the library's own gateway parsers; what the bot sends goes to a
fake REST API on 127.0.0.1; the table asks a scripted fake model (SPEC §3, §7)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import discord
import pytest
from discord.ext import commands

from middleware.bots.discord_cog import TableCog
from middleware.display import for_people
from middleware.resolve.checks.record import CheckRecord
from tests.bots.conftest import Rig
from tests.bots.discord_fake import (
    TOKEN,
    FakeDiscord,
    Sent,
    author,
    guild_payload,
    message_payload,
)
from tests.proxy.conftest import serving

CHAT = "discord:555"
ADA = author("101", "ada", "Ada")
BOB = author("202", "bob", "Bob")
CLIMB = 'Wren climbs [skill_check: skill="Climb" dc="7"] toward the lamp.'
RECKON = 'Tobiah tallies the crates [skill_check: skill="Reckon" dc="8"].'
OIL = 'Wren fills the lamp [inventory: action="remove" item="Flask of lamp oil" count="1"].'


@dataclass
class Running:
    discord: FakeDiscord
    bot: commands.Bot
    rig: Rig

    def say(self, sender: dict[str, Any], content: str, mid: str | None = None) -> dict[str, Any]:
        payload = message_payload(mid or self.discord.new_id(), sender, content)
        self.bot._connection.parse_message_create(payload)  # type: ignore[arg-type]
        return payload

    def edit(self, payload: dict[str, Any], content: str, stamp: str) -> None:
        edited = {**payload, "content": content, "edited_timestamp": stamp}
        self.bot._connection.parse_message_update(edited)  # type: ignore[arg-type]

    def press(self, sender: dict[str, Any], on: Sent, label: str) -> dict[str, Any]:
        payload = self.discord.interaction(sender, on, labels(on)[label])
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        return payload


def labels(sent: Sent) -> dict[str, str]:
    """A posted message's buttons: label -> custom id."""
    rows = sent.body.get("components", [])
    return {c["label"]: c["custom_id"] for row in rows for c in row.get("components", [])}


@pytest.fixture
async def running(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Running]:
    fake = FakeDiscord()
    async with serving(fake.app()) as url:
        monkeypatch.setattr(discord.http.Route, "BASE", f"{url}/api/v10")
        intents = discord.Intents.default()
        intents.message_content = True
        bot = commands.Bot(command_prefix="!", intents=intents, chunk_guilds_at_startup=False)
        try:
            await bot.login(TOKEN)
            bot._connection.parse_guild_create(guild_payload())  # type: ignore[arg-type]
            await bot.add_cog(TableCog(bot, rig.table))
            yield Running(fake, bot, rig)
        finally:
            await bot.close()


async def test_a_short_game_through_the_cog(running: Running) -> None:
    """Three turns by two people: each reply answers its message, who played whom, the game."""
    running.rig.model.replies = [CLIMB, RECKON, OIL]
    for n, (who, text) in enumerate([(ADA, "I climb to the lamp."), (BOB, "I count the crates."),
                                     (ADA, "I fill the lamp.")], start=1):
        said = running.say(who, text)
        await running.discord.until(lambda d, n=n: len(d.posted()) == n)
        assert int(said["id"]) == running.discord.posted()[-1].body["message_reference"]["message_id"]
    texts = [c.body["content"] for c in running.discord.posted()]
    stored = [(await running.rig.engine.candidates(CHAT, t))[0] for t in (1, 2, 3)]
    assert [for_people(c.text, c.records) for c in stored] == texts
    assert "Bob (as Tobiah Crane): I count the crates." == running.rig.sent(1)[-1]["content"]
    assert {"↻ Again", "🎲 Dice"} == set(labels(running.discord.posted()[0]))
    state = await running.rig.engine.state(CHAT)
    wren = next(m for m in state.party if m.name == "Wren Ashby")
    assert 1 == sum(s.count for s in wren.bag if s.item == "chandlery/lamp-oil")


async def test_redelivery_edit_and_buttons_through_the_cog(running: Running) -> None:
    """A message delivered twice asks and stores nothing again; an edit and the regenerate button
    are new candidates; previous edits the message in place; the dice card goes to the presser."""
    fake, rig = running.discord, running.rig
    rig.model.replies = [CLIMB, "Wren hides in the shadow instead.", CLIMB]
    first = running.say(ADA, "I climb to the lamp.")
    await fake.until(lambda d: len(d.posted()) == 1)
    running.say(ADA, "I climb to the lamp.", mid=first["id"])  # the same message again
    await fake.until(lambda d: len(d.posted()) == 2)
    assert 1 == len(rig.model.seen) and 1 == len(await rig.engine.candidates(CHAT, 1))

    running.edit(first, "I hide in the shadow.", "2026-12-01T22:01:00+00:00")
    await fake.until(lambda d: len(d.posted()) == 3)
    assert "Ada (as Wren Ashby): I hide in the shadow." == rig.sent()[-1]["content"]
    running.edit(first, "I hide in the shadow.", "2026-12-01T22:01:00+00:00")  # redelivered
    await fake.until(lambda d: len(d.posted()) == 4)
    assert 2 == len(rig.model.seen) and 2 == len(await rig.engine.candidates(CHAT, 1))

    hidden = fake.posted()[-1]
    pressed = running.press(ADA, hidden, "↻ Again")
    await fake.until(lambda d: len(d.posted()) == 5)
    assert 6 == fake.callbacks()[-1].body["type"]  # a deferred update, then the follow-up
    running.bot._connection.parse_interaction_create(pressed)  # type: ignore[arg-type]
    await fake.until(lambda d: len(d.callbacks()) == 2)
    assert 3 == len(rig.model.seen) and 3 == len(await rig.engine.candidates(CHAT, 1))
    regenerated = fake.posted()[4]
    third = (await rig.engine.candidates(CHAT, 1))[2]
    assert for_people(third.text, third.records) == regenerated.body["content"]

    running.press(ADA, regenerated, "◀ Previous")
    await fake.until(lambda d: len(d.callbacks()) == 3)
    swiped = fake.callbacks()[-1].body
    assert (7, "Wren hides in the shadow instead.") == (swiped["type"], swiped["data"]["content"])
    assert 1 == (await rig.engine.store.get_turn(CHAT, 1)).selected  # type: ignore[union-attr]

    running.press(BOB, regenerated, "🎲 Dice")
    await fake.until(lambda d: len(d.callbacks()) == 4)
    card = fake.callbacks()[-1].body
    [check] = (await rig.engine.candidates(CHAT, 1))[2].records
    assert isinstance(check, CheckRecord)
    assert (4, 64) == (card["type"], card["data"]["flags"])
    assert card["data"]["content"].startswith("🎲 Climb: 2d6 [")
    assert f"{check.chance:.2%}" in card["data"]["content"]


async def test_undo_through_the_cog(running: Running) -> None:
    """!undo is a command, not a turn: it takes the latest turn back and says so."""
    running.rig.model.replies = ["One."]
    running.say(ADA, "Hello.")
    await running.discord.until(lambda d: len(d.posted()) == 1)
    running.say(ADA, "!undo")
    await running.discord.until(lambda d: len(d.posted()) == 2)
    assert "↶ Undone: the game is back after turn 0." == running.discord.posted()[-1].body["content"]
    assert 1 == len(running.rig.model.seen)
    assert 0 == await running.rig.engine.store.last_turn("discord:555~1")


async def test_a_long_reply_is_split_through_the_cog(running: Running) -> None:
    """A reply past 2000 characters is posted as messages cut between lines: the first replies
    to the player, the buttons sit under the last."""
    lines = [f"Line {n}: the lamp gutters and the shadows lengthen." for n in range(60)]
    running.rig.model.replies = ["\n".join(lines)]
    said = running.say(ADA, "Tell me everything.")
    await running.discord.until(lambda d: len(d.posted()) == 2)
    first, last = running.discord.posted()
    assert all(len(c.body["content"]) <= 2000 for c in (first, last))
    assert lines == first.body["content"].split("\n") + last.body["content"].split("\n")
    assert int(said["id"]) == first.body["message_reference"]["message_id"]
    assert "message_reference" not in last.body
    assert ({}, {"↻ Again"}) == (labels(first), set(labels(last)))
