"""``gm-middleware serve --branches`` (issue 15): the option makes every new chat's game read
branch blocks, and the model is taught them in the rules block it is sent; without it, never."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from middleware.cli import app
from middleware.cli import serve as serve_module
from middleware.proxy import GameConfig
from tests.branches.test_stream import REPLY, _party
from tests.proxy.conftest import chat_for, history
from tests.proxy.fake_upstream import Answer, FakeUpstream, served

runner = CliRunner()


@pytest.mark.parametrize(("flags", "branches"), [(["--branches"], True), ([], False)])
def test_the_option_reaches_the_games_config(monkeypatch: pytest.MonkeyPatch, flags: list[str],
                                             branches: bool) -> None:
    """``serve --branches`` hands the proxy a ``GameConfig`` with branches on (not serving)."""
    seen: list[GameConfig] = []

    async def fake_serve(games: GameConfig, *args: Any, **kwargs: Any) -> None:
        seen.append(games)

    monkeypatch.setattr(serve_module, "_serve", fake_serve)
    result = runner.invoke(app, ["serve", "--ruleset", "lantern-and-ledger",
                                 "--upstream", "http://127.0.0.1:9", *flags])
    assert 0 == result.exit_code, result.output
    assert [branches] == [g.branches for g in seen]


@pytest.mark.parametrize("branches", [True, False])
async def test_the_model_is_taught_branch_blocks_only_when_on(branches: bool) -> None:
    """The upstream request's system message holds the BRANCH BLOCKS part with branches on, and
    no word of it with them off; the chat's game is stored with the option (or without)."""
    games = _party()
    games = GameConfig(games.ruleset, games.party, games.seed, games.dice, branches=branches)
    upstream = FakeUpstream(always=Answer(REPLY))
    async with served(upstream, games=games) as proxy, proxy.client() as client:
        messages = history("I climb.")
        answer = await client.post("/v1/chat/completions",
                                   json={"model": "m", "messages": messages})
        game = await proxy.engine.game(chat_for(messages))
    assert 200 == answer.status_code
    system = upstream.seen[0]["messages"][0]["content"]
    assert branches == ("BRANCH BLOCKS" in system) == ("[/branch]" in system)
    assert branches == bool(game.options.get("branches"))
    assert branches == ("[/branch]" not in answer.json()["choices"][0]["message"]["content"])
