"""What tool mode costs upstream, against tag mode, for the same three turns of the same story,
measured on the fake upstream: requests per turn and prompt characters per turn (every request's
``messages`` and ``tools`` as JSON, summed). Not timed; the counts are exact.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_tool_mode_cost.py -s``; it prints a
table (the README's figures).

The turns: (1) one check after a line of prose, (2) narration only, (3) a check, then an item
taken after the result is known. Tag mode writes each turn in one reply; tool mode calls each
check and item as a function and narrates after the answer, so turn 3 is three requests.
"""

from __future__ import annotations

import json
from typing import Any

import openai

from middleware.proxy import ServeOptions
from tests.proxy.conftest import TIMEOUT, ember, history
from tests.proxy.fake_upstream import Answer, FakeUpstream, calling, served, tool_call

CHECK = tool_call("skill_check", '{"skill": "Scrap", "dc": 8}')
TAKE = tool_call("inventory", '{"action": "add", "item": "Road rations", "count": 2}')
PLAYERS = ("I pry the grate.", "We walk on.", "I force the chest open.")
TAGS = [Answer('Ada sets her shoulder to the grate. [skill_check: skill="Scrap" dc="8"] It gives.'),
        Answer("The road bends east under a grey sky."),
        Answer('She heaves at the lid. [skill_check: skill="Scrap" dc="8"] Inside, food. '
               '[inventory: action="add" item="Road rations" count="2"] She takes it.')]
TOOLS = [calling(CHECK, text="Ada sets her shoulder to the grate."), Answer("It gives."),
         Answer("The road bends east under a grey sky."),
         calling(CHECK, text="She heaves at the lid."), calling(TAKE, text="Inside, food."),
         Answer("She takes it.")]


def prompt_chars(body: dict[str, Any]) -> int:
    return len(json.dumps(body["messages"], ensure_ascii=False)) \
        + len(json.dumps(body.get("tools", []), ensure_ascii=False))


async def played(answers: list[Answer], tools: bool) -> list[tuple[int, int]]:
    """(requests, prompt characters) per turn of the three turns, played through the proxy."""
    upstream = FakeUpstream(list(answers))
    options = ServeOptions(timeout=TIMEOUT, tools=tools)
    per_turn: list[tuple[int, int]] = []
    async with served(upstream, options, games=ember("turn")) as proxy, \
            openai.AsyncOpenAI(base_url=f"{proxy.url}/v1", api_key="x", max_retries=0,
                               timeout=TIMEOUT) as sdk:
        turns: list[str] = []
        for player in PLAYERS:
            turns.append(player)
            seen = len(upstream.seen)
            answer = await sdk.chat.completions.create(model="fake-7b",
                                                       messages=history(*turns))  # type: ignore[arg-type]
            turns.append(answer.choices[0].message.content or "")
            asked = upstream.seen[seen:]
            per_turn.append((len(asked), sum(prompt_chars(b) for b in asked)))
    return per_turn


async def test_tool_mode_costs_more_requests_and_prompt_per_turn() -> None:
    """Tag mode asks once per turn; tool mode once more per round of calls, each time sending the
    whole prompt again with the functions' schemas (and a shorter rules block)."""
    tags, tools = await played(TAGS, False), await played(TOOLS, True)
    print("\nturn | tag mode: requests, prompt chars | tool mode: requests, prompt chars | ratio")
    for turn, ((tag_n, tag_chars), (tool_n, tool_chars)) in enumerate(zip(tags, tools,
                                                                         strict=True), 1):
        print(f"{turn} | {tag_n}, {tag_chars:,} | {tool_n}, {tool_chars:,} | "
              f"{tool_chars / tag_chars:.2f}")
    total_tags, total_tools = sum(c for _, c in tags), sum(c for _, c in tools)
    print(f"all | {sum(n for n, _ in tags)}, {total_tags:,} | {sum(n for n, _ in tools)}, "
          f"{total_tools:,} | {total_tools / total_tags:.2f}")
    assert [1, 1, 1] == [n for n, _ in tags]
    assert [2, 1, 3] == [n for n, _ in tools]
