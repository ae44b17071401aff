"""Replay of a generated 10,000-turn transcript on every store, against the "regex + Lark LALR of
each tag body" floor (the pipeline benchmark's baseline, run over the same 10,000 replies: no
resolution, no store), all in one run. Goals: memory ≤ 3×, SQLite ≤ 4×, PostgreSQL ≤ 6× the floor.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_replay_bench.py --benchmark-only
-p no:cacheprovider -s``; PostgreSQL is the test server (``GM_TEST_POSTGRES``), a schema per round.

``test_replay_against_the_floor`` gives the ratios: in CPU time (``time.process_time``), the floor
and the three replays timed in turn, round after round (``ALTERNATING_ROUNDS``), the best of each
kept and divided by the floor's, so a drift of the machine's speed falls on all alike (the tests
after it time each alone, as pytest-benchmark groups them: the floor's rounds came first and a
store's all together, and a ratio read off them moved by a tenth between runs).
Logging is as ``gm-middleware replay`` sets it (``warning``, whatever ``GM_BENCH_LOG`` says): the
per-tag events a proxy writes are not what a replay pays.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from lark import Lark

from middleware import logs
from middleware.engine import Engine
from middleware.stores import open_store
from middleware.transcript import prepare, replay
from tests.benchmarks.processes import cpu_time
from tests.benchmarks.test_pipeline_bench import BASELINE_GRAMMAR, FIND
from tests.stores.pg import fresh_schema

TURNS = 10_000
ROUNDS = 2
ALTERNATING_ROUNDS = int(os.environ.get("GM_REPLAY_ROUNDS", "3"))
KINDS = ("memory", "sqlite", "postgres")


@pytest.fixture(autouse=True)
def _replay_logging(_deployed_logging: None) -> Iterator[None]:
    """The replay command's log level (``cli/replay.py``), over the benchmarks' default."""
    with open(os.devnull, "w") as sink:
        logs.configure(logging.WARNING, stream=sink)
        yield


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


async def run_in_fresh_schema(lines: list[str]) -> int:
    async with fresh_schema() as url:
        return await run(url, lines)


def floor(parser: Lark, replies: list[str]) -> int:
    """Each reply's tags found by a regex and their bodies parsed by Lark LALR: nothing else."""
    return sum(len(parser.parse(m.group(2)).children) for text in replies
               for m in FIND.finditer(text))


def replay_once(kind: str, lines: list[str], folder: Path, number: int) -> int:
    """One replay of ``lines`` on a new store of ``kind`` (a file in ``folder``, a schema)."""
    if kind == "postgres":
        return asyncio.run(run_in_fresh_schema(lines))
    return asyncio.run(run("memory://" if kind == "memory" else
                           f"sqlite:///{folder}/alternating-{number}.db", lines))


@pytest.mark.benchmark(group="replay-against-floor")
def test_replay_against_the_floor(benchmark: Any, tmp_path: Path) -> None:
    lines = transcript_lines(TURNS)
    parser = Lark(BASELINE_GRAMMAR, parser="lalr")
    replies = [json.loads(line)["text"] for line in lines[2::2]]

    def measure() -> dict[str, float]:
        times: dict[str, list[float]] = {kind: [] for kind in ("floor", *KINDS)}
        for number in range(ALTERNATING_ROUNDS):
            times["floor"].append(cpu_time(lambda: floor(parser, replies)))
            for kind in KINDS:
                times[kind].append(cpu_time(partial(replay_once, kind, lines, tmp_path, number)))
        return {kind: min(seconds) for kind, seconds in times.items()}

    best = benchmark.pedantic(measure, rounds=1, iterations=1)
    ratios = {kind: best[kind] / best["floor"] for kind in KINDS}
    benchmark.extra_info.update({"best_cpu_s": best, "ratios": ratios})
    print(f"\nreplay of {TURNS:,} turns against the floor ({best['floor'] * 1000:.0f} ms), CPU, "
          f"best of {ALTERNATING_ROUNDS} in turn: "
          + ", ".join(f"{kind} {ratio:.2f}x" for kind, ratio in ratios.items()))


@pytest.mark.benchmark(group="replay-10000-turns")
def test_floor_regex_and_lalr(benchmark: Any) -> None:
    parser = Lark(BASELINE_GRAMMAR, parser="lalr")
    replies = [json.loads(line)["text"] for line in transcript_lines(TURNS)[2::2]]
    assert 2 * TURNS == benchmark.pedantic(floor, (parser, replies), rounds=ROUNDS, iterations=1)


@pytest.mark.benchmark(group="replay-10000-turns")
def test_transcript_read(benchmark: Any) -> None:
    """The transcript's 20,001 lines read and checked (``prepare``), the part of every replay
    below that comes before the first turn."""
    lines = transcript_lines(TURNS)
    assert 2 * TURNS + 1 == benchmark.pedantic(lambda: len(prepare(lines).lines), rounds=ROUNDS,
                                               iterations=1)


@pytest.mark.benchmark(group="replay-10000-turns")
@pytest.mark.parametrize("kind", ["memory", "sqlite", "postgres"])
def test_replay(benchmark: Any, kind: str, tmp_path: Path) -> None:
    lines = transcript_lines(TURNS)
    urls: Iterator[str] = iter(f"sqlite:///{tmp_path}/r{i}.db" for i in range(100))

    def once() -> int:
        if kind == "postgres":
            return asyncio.run(run_in_fresh_schema(lines))
        return asyncio.run(run("memory://" if kind == "memory" else next(urls), lines))

    assert 2 * TURNS == benchmark.pedantic(once, rounds=ROUNDS, iterations=1)
