"""Tool mode from the command line and with the display for people: ``serve --tools`` turns it
on, ``peek --tools`` shows its view, and ``--display cards`` streams the cards of the stored
candidate as in tag mode."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import openai
import pytest
from typer.testing import CliRunner

from middleware.cli import serve
from middleware.cli.app import app
from middleware.display import for_people
from middleware.proxy import ServeOptions
from tests.gm_view.test_peek import played
from tests.proxy.conftest import TIMEOUT, chat_for, hearth, history
from tests.proxy.fake_upstream import FakeUpstream, calling, narrating, served, tool_call

runner = CliRunner()


def test_serve_tools_turns_tool_mode_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--tools`` reaches the proxy's options and the view it injects; without it, both are off."""
    seen: list[tuple[ServeOptions, Any]] = []

    async def fake_serve(games: Any, url: str, key: Any, store: str, options: ServeOptions,
                         host: str, port: int, level: int, view: Any = None) -> None:
        seen.append((options, view))

    monkeypatch.setattr(serve, "_serve", fake_serve)
    base = ["serve", "--ruleset", "brass-fair", "--upstream", "http://127.0.0.1:9"]
    for args in ([*base, "--tools"], base):
        result = runner.invoke(app, args)
        assert 0 == result.exit_code, result.output
    assert [(True, True), (False, False)] == [(o.tools, v.options.tools) for o, v in seen]


def test_peek_tools_prints_the_tool_mode_view(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    asyncio.run(played(url))
    tools = runner.invoke(app, ["peek", "--store", url, "fair-1", "--tools"])
    tags = runner.invoke(app, ["peek", "--store", url, "fair-1"])
    assert (0, 0) == (tools.exit_code, tags.exit_code)
    assert "you call functions; you never write tags" in tools.output
    assert "you call functions" not in tags.output


async def test_cards_stream_the_stored_tool_turn_as_people_see_it() -> None:
    """``--display cards``: the streamed text is the stored candidate shown for people (the check
    as its card line), while the stored text keeps the resolved tag."""
    upstream = FakeUpstream([calling(tool_call("skill_check", '{"skill": "Haul", "dc": 8}'),
                                     text="Ada heaves."), narrating("It gives: {result}.")])
    options = ServeOptions(timeout=TIMEOUT, tools=True, display="cards")
    messages = history("I pry the grate.")
    async with served(upstream, options, games=hearth("turn")) as proxy, \
            openai.AsyncOpenAI(base_url=f"{proxy.url}/v1", api_key="x", max_retries=0,
                               timeout=TIMEOUT) as sdk:
        stream = await sdk.chat.completions.create(model="fake-7b", messages=messages,  # type: ignore[arg-type]
                                                   stream=True)
        text = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
        stored = (await proxy.engine.candidates(chat_for(messages, "Bearer x"), 1))[0]
    assert for_people(stored.text, stored.records) == text
    assert "🎲 Haul" in text and 'rolls="3|1"' in stored.text
