"""Issue 2 performance: replay of a generated 10,000-turn transcript on SQLite against the
in-memory store, in the same run. Goals: SQLite ≤ 5 s and ≤ 2× the in-memory store."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from middleware.engine import Engine
from middleware.stores import open_store
from middleware.transcript import prepare, replay

TURNS = 10_000


def transcript_lines(turns: int) -> list[str]:
    game = {"type": "game", "id": "long", "ruleset": "lantern-and-ledger", "seed": 3,
            "party": [{"name": "Ada", "player": True}]}
    lines = [json.dumps(game)]
    for turn in range(turns):
        lines.append(json.dumps({"type": "user", "text": f"I try again ({turn})."}))
        lines.append(json.dumps({"type": "gm", "text": "You lean in. [skill_check: "
                                 f'skill="Reckon" dc="{6 + turn % 6}"] Then quiet.'}))
    return lines


async def run(url: str, lines: list[str]) -> int:
    store = await open_store(url)
    try:
        count = 0
        async for _step in replay(prepare(lines), Engine(store)):
            count += 1
        return count
    finally:
        await store.close()


@pytest.mark.benchmark(group="replay-10000-turns")
@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_replay(benchmark: Any, kind: str, tmp_path: Path) -> None:
    lines = transcript_lines(TURNS)
    urls = iter(f"sqlite:///{tmp_path}/r{i}.db" for i in range(100))

    def once() -> int:
        return asyncio.run(run("memory://" if kind == "memory" else next(urls), lines))

    assert 2 * TURNS == benchmark.pedantic(once, rounds=3, iterations=1)
