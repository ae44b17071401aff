"""The ready Telegram bot loads before it takes its first message what a turn would load on first
use (``lazy.ready_to_serve``, as ``serve`` does), so the first player waits no longer than the
next.

A fresh interpreter runs ``run_telegram`` (what ``gm-middleware bot telegram`` runs) against the
fake Bot API server and the fake model on 127.0.0.1; once the bot is polling, a player's message
is answered with a check resolved, and that turn imports no module of the package and builds no
model of the state or the records. Without the call, the same turn built the state's and the
records' models and imported a module of the dice (``resolve.dice.teach``). This file is also that
interpreter's script (``python -m tests.bots.test_bot_ready DB``).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from tests.loaded import assert_loaded_nothing, first_turn_in_a_fresh_interpreter

CLIMB = 'Wren climbs [skill_check: skill="Climb" dc="7"].'


def test_a_first_message_to_the_ready_telegram_bot_loads_nothing(tmp_path: Path) -> None:
    found = first_turn_in_a_fresh_interpreter("tests.bots.test_bot_ready", str(tmp_path / "bot.db"))
    assert found["answered"].startswith("Wren climbs 🎲 Climb 2d6")  # the turn was played
    assert_loaded_nothing(found)


async def _first_message(db: str) -> dict[str, object]:
    from middleware.bots.run import Service, run_telegram
    from middleware.bots.table import TableConfig
    from tests.bots.conftest import lantern, lantern_party
    from tests.bots.telegram_fake import TOKEN, FakeTelegram, user
    from tests.loaded import Since
    from tests.proxy.conftest import FakeModel, serving

    ruleset = lantern()
    model, telegram = FakeModel(replies=[CLIMB]), FakeTelegram()
    async with serving(model.app()) as upstream, serving(telegram.app()) as api:
        service = Service(TableConfig(ruleset, lantern_party(ruleset)), upstream, f"sqlite:///{db}")
        bot = asyncio.create_task(run_telegram(service, TOKEN, api))
        await telegram.until(lambda t: any(call.method == "getMe" for call in t.calls))
        since = Since()
        await telegram.push(telegram.message(user(101, "Ada", "ada"), "I climb."))
        await telegram.until(lambda t: len(t.sent()) == 1)
        found = since.found()
        bot.cancel()
        await asyncio.wait([bot], timeout=30)
    return {"answered": telegram.sent()[0].params["text"], **found}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(_first_message(sys.argv[1]))))
