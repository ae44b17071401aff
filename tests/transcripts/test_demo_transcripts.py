"""The demo transcripts are regression tests: each replays with its expectations on every store.

SPEC §4 (transcripts, ``expect``), STYLE habit 10 (each ``transcripts/*.jsonl`` is one parametrized
case, its path built from ``__file__``). The expectations inside the files were worked out by hand
from the bundled rulesets and the scripted dice; a few behaviours a line's ``expect`` cannot state
(a retry writes nothing new, fair dice give every candidate the same seed) are asserted here.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from middleware.engine import Engine
from middleware.errors import ExpectationError
from middleware.rules.registry import bundled_ids
from middleware.stores.base import Store
from middleware.stores.memory import MemoryStore
from middleware.stores.sqlite import SQLiteStore
from middleware.transcript import Step, prepare, replay

TRANSCRIPTS = Path(__file__).resolve().parents[2] / "transcripts"
DEMOS = sorted(TRANSCRIPTS.glob("*.jsonl"))


@pytest.fixture(params=["memory", "sqlite"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """Every store the engine runs on (SPEC §2): the same transcript must replay on each."""
    opened: Store = MemoryStore() if request.param == "memory" \
        else await SQLiteStore.open(tmp_path / "demo.db")
    try:
        yield opened
    finally:
        await opened.close()


async def replay_demo(path: Path, engine: Engine) -> list[Step]:
    """Replay one transcript; a failed expectation fails the test with the line and the diff."""
    prepared = prepare(path.read_text(encoding="utf-8").splitlines(), base=path.parent)
    try:
        return [step async for step in replay(prepared, engine)]
    except ExpectationError as exc:
        pytest.fail(f"{path.name} {exc}", pytrace=False)


def test_there_are_demo_transcripts() -> None:
    """The issues ask for demo transcripts (three, then one per new ruleset); none may go missing."""
    expected = {"fair-dice.jsonl", "lantern-demo.jsonl", "tidemark-demo.jsonl",
                "cinder-demo.jsonl", "shadow-demo.jsonl", "archive-demo.jsonl", "signal-demo.jsonl",
                "items-haul.jsonl", "market-day.jsonl", "money-loot.jsonl", "harm-demo.jsonl"}
    assert expected <= {p.name for p in DEMOS}


@pytest.mark.parametrize("path", DEMOS, ids=[p.stem for p in DEMOS])
async def test_demo_replays_with_its_expectations(path: Path, store: Store) -> None:
    """SPEC §4: replaying the transcript meets every ``expect`` on every ``gm`` line."""
    steps = await replay_demo(path, Engine(store))

    gm_lines = [s for s in steps if s.kind == "gm"]
    assert gm_lines, "a demo transcript has at least one gm line"


@pytest.mark.parametrize("path", DEMOS, ids=[p.stem for p in DEMOS])
def test_demo_names_a_bundled_ruleset(path: Path) -> None:
    """SPEC §4: the demos use rulesets bundled with the package, so they replay from any folder."""
    prepared = prepare(path.read_text(encoding="utf-8").splitlines(), base=path.parent)

    assert prepared.game.ruleset in bundled_ids()


async def test_retry_with_a_seen_key_returns_the_stored_candidate(store: Store) -> None:
    """SPEC §3: the lantern retry (same ``key``) throws no new dice and stores nothing new."""
    engine = Engine(store)
    steps = await replay_demo(TRANSCRIPTS / "lantern-demo.jsonl", engine)
    first, retry = [s for s in steps if s.kind == "gm" and s.turn == 2 and s.chat == "lantern-demo"]
    assert first.processed is not None and retry.processed is not None

    assert (False, True) == (first.processed.replayed, retry.processed.replayed)
    assert (first.processed.candidate, first.processed.seed, first.processed.text) == \
        (retry.processed.candidate, retry.processed.seed, retry.processed.text)
    assert 1 == len(await engine.candidates("lantern-demo", 2))


async def test_fork_shares_nothing_after_its_turn(store: Store) -> None:
    """SPEC §3: the branch starts from S(1); the main line's later edit (Pluck 1) is not on it."""
    engine = Engine(store)
    await replay_demo(TRANSCRIPTS / "lantern-demo.jsonl", engine)

    main = await engine.state("lantern-demo")
    branch = await engine.state("lantern-branch")

    assert ("rattled",) == main.party[0].live.conditions
    assert () == branch.party[0].live.conditions


async def test_fair_dice_give_every_candidate_of_a_turn_the_same_seed(store: Store) -> None:
    """SPEC §5: with ``dice: "turn"`` regenerating cannot fish for a better roll."""
    steps = await replay_demo(TRANSCRIPTS / "fair-dice.jsonl", Engine(store))
    seeds: dict[int, set[int]] = {}
    for step in steps:
        if step.processed is not None:
            seeds.setdefault(step.turn, set()).add(step.processed.seed)

    assert [1, 1] == [len(seeds[1]), len(seeds[2])]
    assert seeds[1] != seeds[2]


@pytest.mark.parametrize("path", DEMOS, ids=[p.stem for p in DEMOS])
async def test_every_record_reads_back_from_the_store_as_it_was_made(path: Path,
                                                                     store: Store) -> None:
    """SPEC §2, §6: a stored candidate's records (kept without the fields that do not apply) read
    back equal to the records the engine made, for every tag family the demos use."""
    engine = Engine(store)
    steps = [s for s in await replay_demo(path, engine) if s.processed is not None]
    assert steps
    for step in steps:
        assert step.processed is not None
        stored = await engine.candidates(step.chat, step.turn)
        assert step.processed.records == stored[step.processed.candidate].records


async def test_a_failed_replay_retried_on_the_same_engine_plays_as_on_a_new_one(
        store: Store) -> None:
    """SPEC §4 (nothing half-written): the lantern demo with its last line's expectation broken
    fails and stores nothing; replayed again, fixed, on the same engine, its branch's player's
    message is stored as the transcript says (it was taken for stored by the engine, and dropped),
    and every step is the one a new engine gives."""
    lines = (TRANSCRIPTS / "lantern-demo.jsonl").read_text(encoding="utf-8").splitlines()
    broken = [*lines[:-1], lines[-1].replace('"modifier": 2', '"modifier": 3')]
    engine = Engine(store)
    with pytest.raises(ExpectationError):
        [step async for step in replay(prepare(broken), engine)]
    steps = [(s.chat, s.turn, s.text, s.processed) for s in await replay_demo(
        TRANSCRIPTS / "lantern-demo.jsonl", engine)]
    user = json.loads(lines[-2])["text"]
    assert user == (await store.get_turn("lantern-branch", 2)).user_text
    assert steps == [(s.chat, s.turn, s.text, s.processed) for s in await replay_demo(
        TRANSCRIPTS / "lantern-demo.jsonl", Engine(MemoryStore()))]
