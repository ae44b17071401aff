"""What routing a chat UI's request costs as the chat grows, with the path its last request
followed known (``tree_known``) and looked up every turn, side by side in one run.

Two chats are played to ``GM_ROUTE_TURNS`` turns (default 250) turn by turn, each over a SQLite
store of its own, the same messages and dice in both: the request of each turn (the whole history,
as a chat UI sends it) routed by a ``ChatTree`` that keeps known paths and by one that never does,
the reply then stored as the proxy stores it. The route alone is timed, in the process, the two
in turn. It prints the p50 of each for every band of 50 turns and their ratio. No time is asserted.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_route_bench.py --benchmark-only -s
-p no:cacheprovider``.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

import pytest

from middleware.engine import Engine
from middleware.proxy.chat import read_request
from middleware.proxy.tree import ChatTree
from middleware.proxy.tree_known import KnownPaths
from middleware.stores import open_store
from tests.gm_view.helpers import BRASS_PARTY, brass, party
from tests.proxy.test_tree_known import NeverKnown

TURNS = int(os.environ.get("GM_ROUTE_TURNS", "250"))
BAND = 50


async def played(folder: Path) -> dict[str, list[float]]:
    """Each tree's route time (ms) at every turn."""
    trees = {}
    for name, known in (("known", KnownPaths()), ("looked_up", NeverKnown())):
        trees[name] = ChatTree(Engine(await open_store(f"sqlite:///{folder / name}.db")),
                               known=known)
    histories: dict[str, list[dict[str, str]]] = {
        name: [{"role": "system", "content": "The brass road."}] for name in trees}
    took: dict[str, list[float]] = {name: [] for name in trees}
    try:
        for turn in range(1, TURNS + 1):
            for name, tree in trees.items():
                took[name].append(await _turn(tree, histories[name], turn))
    finally:
        for tree in trees.values():
            await tree.engine.store.close()
    return took


async def _turn(tree: ChatTree, messages: list[dict[str, str]], turn: int) -> float:
    """One turn: the player's message routed (timed, ms), the reply stored."""
    messages.append({"role": "user", "content": f"On we go ({turn})."})
    ask = read_request(json.dumps({"model": "m", "messages": messages}).encode())

    async def create(chat: str) -> bool:
        await tree.engine.create_game(chat, brass(), party(brass(), BRASS_PARTY), seed=4)
        return True

    began = time.perf_counter()
    route = await tree.route({}, ask, create)
    took = (time.perf_counter() - began) * 1000
    done = await tree.engine.process(
        route.chat, route.turn,
        f'Scene {turn}. The haggling goes on. [skill_check: skill="Haggle" dc="7"]', seed=turn)
    tree.stored(done)
    messages.append({"role": "assistant", "content": done.text})
    return took


@pytest.mark.benchmark(group="route")
def test_route_by_the_chats_length(benchmark: Any, tmp_path: Path) -> None:
    took: dict[str, list[float]] = {}

    def run() -> None:
        took.update(asyncio.run(played(tmp_path)))

    benchmark.pedantic(run, rounds=1, iterations=1)
    bands = {name: [statistics.median(times[start:start + BAND])
                    for start in range(0, TURNS, BAND)] for name, times in took.items()}
    benchmark.extra_info.update(bands)
    print(f"\nA chat routed turn by turn to {TURNS} turns (SQLite), p50 of the route by turns:")
    for n, start in enumerate(range(0, TURNS, BAND)):
        known, looked = bands["known"][n], bands["looked_up"][n]
        print(f"  turns {start + 1}-{min(start + BAND, TURNS)}: the path known {known:.3f} ms, "
              f"every turn looked up {looked:.3f} ms ({known / looked:.2f}x)")
    assert len(took["known"]) == len(took["looked_up"]) == TURNS
