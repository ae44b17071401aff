"""The GM's view: what building both blocks costs, and what injecting them adds to a request.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_gm_view_bench.py --benchmark-only``.
No time is asserted; the figures sit side by side in one run (SPEC §9).

- ``gm-view``: ``build_view`` for the bundled Brass Fair, a party of 4 whose bags hold 100 stacks
  each (ruleset items, coins and plain things), on a market day at the fair town, with the records
  of a kept reply; beside it the rules block alone and the state block alone.
- ``proxy-request``: one non-streaming request through the proxy app in process (httpx's ASGI
  transport, an in-memory upstream that answers at once, the memory store), with ``--inject full``
  and with ``--inject off``: the difference is what the view adds to a request.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

import httpx
import pytest

from middleware.engine import Engine
from middleware.gm_view import ViewOptions, build_view
from middleware.gm_view.rules_block import rules_block
from middleware.gm_view.state_block import state_block
from middleware.items.index import item_index
from middleware.proxy import GameConfig, create_app
from middleware.proxy.inject import InjectConfig
from middleware.rules.registry import load_bundled
from middleware.state import Character, GameState, Place, Stack
from middleware.stores.memory import MemoryStore

REPLY = ('[place: name="Brassford" size="fair town"] The stalls are loud. '
         '[inventory: action="buy" item="Honey cake"] [skill_check: skill="Haggle" dc="7"]')


def party_of_four() -> tuple[Character, ...]:
    """Four members, each bag 100 stacks: every ruleset item, coins and plain things."""
    refs = [i.ref for i in item_index(load_bundled("brass-fair")).items if not i.is_service]
    members = []
    for n in range(4):
        bag = [Stack(item=refs[k % len(refs)], count=1 + k % 3) for k in range(60)]
        bag += [Stack(coins=("copper", "ring", "crown")[k % 3], count=5) for k in range(3)]
        bag += [Stack(plain=f"Trinket {k}", count=1) for k in range(37)]
        members.append(Character(name=f"Member {n}", player=n == 0, bag=tuple(bag)))
    return tuple(members)


def market_day() -> tuple[GameState, tuple[Any, ...]]:
    """S(1) after a kept reply at Brassford on market day 1, and that reply's records."""
    ruleset = load_bundled("brass-fair")
    engine = Engine(MemoryStore())
    start = GameState(ruleset=ruleset.id, party=party_of_four(),
                      place=Place(name="Brassford", size="fair", day=1))

    async def played() -> Any:
        await engine.create_game("bench", ruleset, start.party, seed=9)
        return await engine.process("bench", 1, REPLY)

    done = asyncio.run(played())
    return done.state, done.records


@pytest.mark.benchmark(group="gm-view")
def test_both_blocks_for_four_bags_of_100_on_a_market_day(benchmark: Any) -> None:
    ruleset = load_bundled("brass-fair")
    state, records = market_day()
    view = benchmark(build_view, ruleset, state, records, ViewOptions(budget=200_000,
                                                                      part_cap=100_000), seed=9)
    benchmark.extra_info["rules_chars"] = len(view.rules)
    benchmark.extra_info["state_chars"] = len(view.state)


@pytest.mark.benchmark(group="gm-view")
def test_the_rules_block_alone(benchmark: Any) -> None:
    ruleset = load_bundled("brass-fair")
    benchmark(rules_block, ruleset, (), ViewOptions())


@pytest.mark.benchmark(group="gm-view")
def test_the_state_block_alone(benchmark: Any) -> None:
    ruleset = load_bundled("brass-fair")
    state, records = market_day()
    options = ViewOptions(budget=200_000, part_cap=100_000)
    benchmark(state_block, ruleset, state, records, options, seed=9, budget=200_000)


class _AtOnce:
    """An upstream that answers every request at once with one reply (no network)."""

    async def complete(self, body: dict[str, Any], auth: str | None) -> dict[str, Any]:
        return {"id": "x", "object": "chat.completion", "model": "fake",
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": "They walk on."}}]}

    async def stream(self, body: dict[str, Any],
                     auth: str | None) -> AsyncGenerator[dict[str, Any], None]:
        raise NotImplementedError
        yield {}

    async def models(self, auth: str | None) -> dict[str, Any]:
        return {"object": "list", "data": []}


def _request_runner(mode: str) -> Any:
    ruleset = load_bundled("brass-fair")
    engine = Engine(MemoryStore())
    app = create_app(engine, _AtOnce(), GameConfig(ruleset, party_of_four(), seed=9),
                     inject=InjectConfig(mode=mode))  # type: ignore[arg-type]
    loop = asyncio.new_event_loop()
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gm")
    body = {"model": "gm", "messages": [
        {"role": "system", "content": "You are the GM."},
        {"role": "user", "content": "We reach the fair."}]}
    headers = {"X-GM-Chat": "bench"}

    def one() -> None:
        answer = loop.run_until_complete(client.post("/v1/chat/completions", json=body,
                                                     headers=headers))
        assert 200 == answer.status_code

    one()
    return one, lambda: (loop.run_until_complete(client.aclose()), loop.close())


@pytest.mark.parametrize("mode", ["full", "off"])
@pytest.mark.benchmark(group="proxy-request")
def test_a_proxy_request_with_and_without_the_view(benchmark: Any, mode: str) -> None:
    one, close = _request_runner(mode)
    try:
        benchmark(one)
    finally:
        close()
