"""``gm-middleware bot``: the ready Telegram bot as a process, against the fake Bot API server and
the fake model on 127.0.0.1; the tokens and the clear errors (SPEC §7)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from middleware.bots.extras import MissingExtra, require
from middleware.cli import app
from middleware.display import for_people
from middleware.engine import Engine
from middleware.stores import open_store
from tests.bots.conftest import ROOT
from tests.bots.telegram_fake import TOKEN, FakeTelegram, user
from tests.proxy.conftest import FakeModel, serving

SCRIPT = Path(sys.executable).with_name("gm-middleware")
CLIMB = 'Wren climbs [skill_check: skill="Climb" dc="7"].'


def party_file(tmp_path: Path) -> Path:
    first = (ROOT / "transcripts" / "lantern-demo.jsonl").read_text(encoding="utf-8").splitlines()[0]
    path = tmp_path / "party.json"
    path.write_text(json.dumps({"party": json.loads(first)["party"]}), encoding="utf-8")
    return path


async def test_the_telegram_bot_command_plays_a_turn(tmp_path: Path) -> None:
    """The command polls the Bot API server it is given, asks the upstream, answers in the chat
    and keeps the game in the store it is given; it stops cleanly on SIGINT."""
    model, telegram = FakeModel(replies=[CLIMB]), FakeTelegram()
    async with serving(model.app()) as upstream, serving(telegram.app()) as api:
        process = await asyncio.create_subprocess_exec(
            str(SCRIPT), "bot", "telegram", "--ruleset", "lantern-and-ledger", "--upstream",
            upstream, "--party", str(party_file(tmp_path)), "--telegram-api", api,
            "--store", f"sqlite:///{tmp_path}/bot.db", "--model", "gm-model",
            "--log-level", "warning", env={**os.environ, "TELEGRAM_BOT_TOKEN": TOKEN})
        try:
            await telegram.push(telegram.message(user(101, "Ada", "ada"), "I climb."))
            await telegram.until(lambda t: len(t.sent()) == 1, wait_at_most=120)
        finally:
            process.send_signal(signal.SIGINT)
            await asyncio.wait_for(process.wait(), 60)
    assert telegram.sent()[0].params["text"].startswith('Wren climbs 🎲 Climb 2d6')
    assert "gm-model" == model.seen[0]["model"]
    store = await open_store(f"sqlite:///{tmp_path}/bot.db")
    try:
        [stored] = await Engine(store).candidates("telegram:-1001", 1)
        assert telegram.sent()[0].params["text"] == for_people(stored.text, stored.records)
    finally:
        await store.close()


@pytest.mark.parametrize(("platform", "variable"), [("telegram", "TELEGRAM_BOT_TOKEN"),
                                                    ("discord", "DISCORD_BOT_TOKEN")])
def test_a_bot_without_a_token_says_where_to_put_it(platform: str, variable: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """No token in the environment and no --token-file: exit 2 naming both."""
    monkeypatch.delenv(variable, raising=False)
    result = CliRunner().invoke(app, ["bot", platform, "--ruleset", "lantern-and-ledger",
                                      "--upstream", "http://127.0.0.1:9"])
    assert 2 == result.exit_code
    assert f"no bot token: set {variable} or pass --token-file" in result.output


def test_a_bad_seats_file_is_refused(tmp_path: Path) -> None:
    """Seats must map names to party members' names."""
    seats = tmp_path / "seats.json"
    seats.write_text('["Ada"]', encoding="utf-8")
    result = CliRunner().invoke(app, ["bot", "telegram", "--ruleset", "lantern-and-ledger",
                                      "--upstream", "http://127.0.0.1:9", "--seats", str(seats)])
    assert 2 == result.exit_code and "seats must be a JSON object of names" in result.output


def test_a_missing_framework_names_its_extra() -> None:
    """A framework that is not installed is named with the pip extra that brings it."""
    with pytest.raises(MissingExtra, match=r"pip install 'gm-middleware\[discord\]'"):
        require("discord_py_not_installed_here", "discord", "discord.py")
