"""Branch blocks: what reading them costs per reply, and what they cost in upstream requests and
prompt/reply characters on the fake upstream.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_branches_bench.py --benchmark-only
-p no:cacheprovider -s``. No time is asserted; the figures sit side by side in one run.

- ``branch-pipeline``: the 4 KB, 5-check reply of ``test_pipeline_bench`` through ``resolve_reply``
  with branch blocks off, on (no markers in it: the cost of looking), and on with a two-section
  block after each check (the same prose split between the sections).
- ``branch-upstream``: three turns of a Lantern and Ledger chat through the real ``serve`` app and
  the fake upstream, branch blocks off (the model writes the check and narrates the outcome next
  turn) and on (the model writes every outcome): upstream requests per turn and the characters of
  what the upstream is sent and answers, printed and kept in ``extra_info``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from middleware.dice import Dice
from middleware.pipeline import resolve_reply
from middleware.proxy import GameConfig
from middleware.resolve import Context
from middleware.rules.load import load_ruleset
from middleware.state import Character, GameState, Sheet
from tests.benchmarks.test_pipeline_bench import TAGS, four_kb_reply
from tests.branches.test_stream import REPLY, _party
from tests.conftest import compat_path
from tests.proxy.conftest import history
from tests.proxy.fake_upstream import Answer, FakeUpstream, served

ADA = Character(name="Ada", player=True, sheet=Sheet.model_validate(
    {"v": 1, "build": {"abilities": {"brawn": 2}, "skills": {"scrap": "trained"}}}))
JUNO = Character(name="Juno")


def _blocked(reply: str) -> str:
    """The reply with a two-section block after each check: the prose after it split in two."""
    for tag in TAGS:
        at = reply.index(tag) + len(tag)
        rest = reply[at:at + 300]
        reply = (reply[:at] + f" [on success] {rest[:150]} [on failure] {rest[150:]} [/branch]"
                 + reply[at + 300:])
    return reply


@pytest.mark.parametrize("mode", ["off", "on", "on+blocks"])
@pytest.mark.benchmark(group="branch-pipeline")
def test_a_4kb_reply_with_and_without_branch_blocks(benchmark: Any, mode: str) -> None:
    rules = load_ruleset(compat_path("ember-roads.json"))
    state = GameState(ruleset=rules.id, party=(ADA, JUNO), branches=mode != "off")
    reply = _blocked(four_kb_reply()) if mode == "on+blocks" else four_kb_reply()
    done = benchmark(lambda: resolve_reply(reply, state, Context(rules, Dice(7))))
    benchmark.extra_info["records"] = len(done.records)


TURNS = ["I climb the wall to the lamp.", "I light it and look around.", "We go on."]
OFF = ['Wren eyes the wet brick and climbs. [skill_check: skill="Climb" difficulty="Risky"]',
       "She tells you how the climb went, then the lamp: it catches. The street is empty.",
       "The two of them walk on towards the lock."]
ON = [REPLY, "The lamp catches. The street is empty.", "The two of them walk on towards the lock."]


async def _chat(branches: bool) -> dict[str, Any]:
    games = _party()
    games = GameConfig(games.ruleset, games.party, games.seed, games.dice, branches=branches)
    upstream = FakeUpstream([Answer(text) for text in (ON if branches else OFF)])
    messages: list[dict[str, Any]] = history()
    async with served(upstream, games=games) as proxy, proxy.client() as client:
        for turn in TURNS:
            messages.append({"role": "user", "content": turn})
            answer = (await client.post("/v1/chat/completions",
                                        json={"model": "m", "messages": messages})).json()
            messages.append({"role": "assistant",
                             "content": answer["choices"][0]["message"]["content"]})
    prompts = [sum(len(m["content"]) for m in seen["messages"]) for seen in upstream.seen]
    return {"requests": len(upstream.seen), "turns": len(TURNS), "prompt_chars": prompts,
            "rules_chars": len(upstream.seen[0]["messages"][0]["content"]),
            "reply_chars": [len(t) for t in (ON if branches else OFF)]}


@pytest.mark.parametrize("branches", [False, True])
@pytest.mark.benchmark(group="branch-upstream")
def test_what_a_turn_costs_upstream(benchmark: Any, branches: bool) -> None:
    figures = benchmark.pedantic(lambda: asyncio.run(_chat(branches)), rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    print(f"\nbranches={'on' if branches else 'off'}: {json.dumps(figures)}")
