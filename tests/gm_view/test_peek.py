"""Peek (ITM-FAKE-13's Peek Prompt): the Python call, the CLI and the proxy's route all show what
the next turn will be sent, and the next request really carries it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from typer.testing import CliRunner

from middleware.cli.app import app
from middleware.engine import Engine
from middleware.proxy import GameConfig
from middleware.proxy.inject import InjectConfig
from middleware.proxy.peek import peek
from middleware.stores import open_store
from tests.gm_view.helpers import BRASS_PARTY, brass, party
from tests.proxy.conftest import FakeModel, history, running_proxy

runner = CliRunner()
BUY = '[place: name="Brassford" size="fair town"] [inventory: action="buy" item="Honey cake"]'


async def played(url: str) -> None:
    """A brass-fair game in the store at ``url`` with one turn played: a cake bought."""
    engine = Engine(await open_store(url))
    await engine.create_game("fair-1", brass(), party(brass(), BRASS_PARTY), seed=4)
    await engine.user("fair-1", 1, "We go to the fair.")
    await engine.process("fair-1", 1, BUY)
    await engine.store.close()


async def test_peek_from_python_is_the_next_turns_view(tmp_path: Path) -> None:
    """ITM-FAKE-13: turn 2's view: the rules, the cake in Ada's bag and last turn's feedback;
    the pedlar's fake shown with its truth in the day's MARKET block."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    await played(url)
    engine = Engine(await open_store(url))
    seen = await peek(engine, "fair-1")
    await engine.store.close()
    assert 2 == seen.turn
    assert "1 × Honey cake [Provisions" in seen.view.state
    assert "Ada buys 1 Honey cake from the chandler" in seen.view.state
    assert "(FAKE: really Brass compass)" in seen.view.state
    assert "DIFFICULTY LADDER" in seen.view.rules


def test_the_peek_command_prints_both_blocks_and_where_they_go(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    asyncio.run(played(url))
    text = runner.invoke(app, ["peek", "--store", url, "fair-1"])
    assert 0 == text.exit_code, text.output
    assert "## rules block: merged into the first system message" in text.output
    assert "## state block: a system message just before the last player message" in text.output
    as_json = json.loads(runner.invoke(app, ["peek", "--store", url, "fair-1", "--json",
                                             "--inject", "rules"]).output)
    assert ("rules", None, 2) == (as_json["inject"], as_json["state"], as_json["turn"])


def test_peek_at_a_chat_with_no_game_says_so() -> None:
    result = runner.invoke(app, ["peek", "--store", "memory://", "nobody"])
    assert 2 == result.exit_code and "no game for chat 'nobody'" in result.output


async def test_the_prompt_route_shows_what_the_next_request_carries() -> None:
    """``GET /v1/gm/chats/{chat}/prompt`` before turn 2, then turn 2 itself: the model's request
    holds exactly the peeked rules (in the system message) and state (before the player)."""
    model = FakeModel(replies=[BUY, "They rest."])
    games = GameConfig(brass(), party(brass(), BRASS_PARTY), seed=4)
    async with running_proxy(games, model) as proxy:
        headers = {"X-GM-Chat": "fair-2"}
        first = await proxy.ask(history("We go to the fair."), headers=headers)
        kept = first.json()["choices"][0]["message"]["content"]
        seen = (await proxy.client.get("/v1/gm/chats/fair-2/prompt")).json()
        await proxy.ask(history("We go to the fair.", kept, "We rest."), headers=headers)
        missing = await proxy.client.get("/v1/gm/chats/nobody/prompt")
    sent = model.seen[1]["messages"]
    assert sent[0]["content"].endswith("\n\n" + seen["rules"])
    assert {"role": "system", "content": seen["state"]} == sent[-2]
    assert 404 == missing.status_code and "error" in missing.json()
    assert InjectConfig().mode == seen["inject"]


async def test_after_the_model_failed_the_peek_is_the_turn_asked_again() -> None:
    """The model failing on turn 2 leaves it opened with no reply; the next request (the chat
    asking again) plays turn 2. The prompt route shows turn 2 and what that request carries,
    last turn's feedback included (before: turn 3, its view without the LAST TURN block)."""
    model = FakeModel(replies=[BUY, 500, "They rest."])
    games = GameConfig(brass(), party(brass(), BRASS_PARTY), seed=4)
    async with running_proxy(games, model) as proxy:
        headers = {"X-GM-Chat": "fair-3"}
        first = await proxy.ask(history("We go to the fair."), headers=headers)
        kept = first.json()["choices"][0]["message"]["content"]
        failed = await proxy.ask(history("We go to the fair.", kept, "We rest."), headers=headers)
        seen = (await proxy.client.get("/v1/gm/chats/fair-3/prompt")).json()
        again = await proxy.ask(history("We go to the fair.", kept, "We rest."), headers=headers)
    assert (502, 200) == (failed.status_code, again.status_code)
    assert str(seen["turn"]) == again.headers["x-gm-turn"] == "2"
    sent = model.seen[2]["messages"]
    assert sent[0]["content"].endswith("\n\n" + seen["rules"])
    assert {"role": "system", "content": seen["state"]} == sent[-2]
    assert "LAST TURN" in seen["state"]
