"""Turns, candidates, regenerate, retry, select and fork (SPEC §3)."""

from __future__ import annotations

import pytest
from structlog.testing import capture_logs

from middleware.engine import Engine
from middleware.errors import GameError
from middleware.resolve import dispatch
from middleware.rules.registry import load_bundled
from tests.pipeline.conftest import pebbles, pocket_resolver

CHECK = '[skill_check: skill="Climb" dc="8"]'


@pytest.fixture
def pocket(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(dispatch.RESOLVERS, "loot", pocket_resolver)


async def test_a_check_is_rolled_with_scripted_dice(engine: Engine) -> None:
    """Ada's Climb is Hand 2 + apprentice 1 = +3; 3 + 4 + 3 = 10 against dc 8 succeeds."""
    done = await engine.process("chat", 1, f"She heaves. {CHECK} The door gives.", dice=[3, 4])
    record = done.records[0].model_dump()
    assert ([3, 4], 10, 8, True) == (record["rolls"], record["total"], record["dc"],
                                     record["success"])
    assert done.text.startswith("She heaves. [skill_check: skill=\"Climb\" dc=\"8\" rolls=\"3|4\"")
    assert done.text.endswith("] The door gives.")


async def test_regenerate_starts_again_from_the_turn_start(engine: Engine, pocket: None) -> None:
    """A regenerated reply is another candidate resolved against S(n-1): nothing carries over."""
    first = await engine.process("chat", 1, "[loot: stones]")
    second = await engine.process("chat", 1, "[loot: stones] and [loot: stones]")
    assert (0, 1) == (first.candidate, second.candidate)
    assert (1, 2) == (pebbles(first.state), pebbles(second.state))


async def test_the_newest_candidate_is_selected_unless_another_is(engine: Engine,
                                                                  pocket: None) -> None:
    """S(n) follows the selected candidate; selecting back (a swipe) changes what turn n+1 sees."""
    await engine.process("chat", 1, "[loot: a]")
    await engine.process("chat", 1, "[loot: a][loot: b][loot: c]")
    assert 3 == pebbles(await engine.state("chat", 1))
    await engine.select("chat", 1, 0)
    assert 1 == pebbles(await engine.state("chat", 1))
    turn_two = await engine.process("chat", 2, "[loot: d]")
    assert 2 == pebbles(turn_two.state)


async def test_a_retry_with_a_seen_key_returns_the_stored_candidate(engine: Engine) -> None:
    """SPEC §3: the same key on the same turn gives the stored result, no new dice, no new row."""
    first = await engine.process("chat", 1, CHECK, key="update-17")
    again = await engine.process("chat", 1, CHECK, key="update-17")
    assert (first.candidate, first.text, first.seed) == (again.candidate, again.text, again.seed)
    assert (False, True) == (first.replayed, again.replayed)
    assert 1 == len(await engine.candidates("chat", 1))


async def test_a_stored_seed_replays_the_same_dice(engine: Engine) -> None:
    """SPEC §5: the seed stored with a candidate throws the same faces again."""
    first = await engine.process("chat", 1, CHECK)
    again = await engine.process("chat", 1, CHECK, seed=first.seed)
    assert first.records[0].model_dump()["rolls"] == again.records[0].model_dump()["rolls"]
    assert first.text == again.text


async def test_fair_dice_throw_the_same_for_every_candidate_of_a_turn() -> None:
    """SPEC §5 ``dice: "turn"``: regenerating cannot fish for a better roll."""
    from middleware.stores.memory import MemoryStore
    from tests.pipeline.conftest import ADA

    engine = Engine(MemoryStore())
    await engine.create_game("fair", load_bundled("lantern-and-ledger"), [ADA],
                             dice="turn")
    one = await engine.process("fair", 1, CHECK)
    two = await engine.process("fair", 1, f"Again: {CHECK}")
    other_turn = await engine.process("fair", 2, CHECK)
    assert one.seed == two.seed != other_turn.seed
    assert one.records[0].model_dump()["rolls"] == two.records[0].model_dump()["rolls"]


async def test_a_fork_starts_from_the_turn_and_shares_nothing_after(engine: Engine,
                                                                    pocket: None) -> None:
    """SPEC §3: a branch at turn n starts from S(n); play on it never touches the original."""
    await engine.process("chat", 1, "[loot: a]")
    await engine.process("chat", 2, "[loot: a][loot: b]")
    await engine.fork("chat", 1, "branch")
    assert 1 == pebbles(await engine.state("branch"))
    await engine.process("branch", 2, "[loot: z]")
    assert (2, 3) == (pebbles(await engine.state("branch")), pebbles(await engine.state("chat")))


async def test_turns_cannot_skip_ahead(engine: Engine) -> None:
    """A reply for turn 3 while the chat is at turn 0 is an API error, not a silent gap."""
    with pytest.raises(GameError):
        await engine.process("chat", 3, CHECK)


async def test_an_event_cannot_skip_ahead_either(engine: Engine) -> None:
    """An edit after turn 3 while the chat is at turn 1 is an API error, as a reply for turn 3
    is, and starts nothing (it started turn 3 over a gap, and the player's message for turn 2 was
    then stored by the engine that sent the edit and dropped by any other)."""
    await engine.process("chat", 1, CHECK)
    with pytest.raises(GameError, match=r"is at turn 1; turn 3 cannot be played"):
        await engine.event("chat", 3, {"type": "edit", "who": "Ada", "live": {}})
    assert 1 == await engine.store.last_turn("chat")


async def test_a_resolver_bug_leaves_its_tag_and_the_rest_goes_on(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """SPEC §8: status ``error``, the tag stays as written, later tags are still resolved."""
    def broken(*_: object) -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.setitem(dispatch.RESOLVERS, "loot", broken)
    done = await engine.process("chat", 1, f"[loot: cursed] then {CHECK}", dice=[6, 6])
    assert ["error", "resolved"] == [r.status for r in done.records]
    assert done.text.startswith("[loot: cursed] then [skill_check: ")


async def test_at_most_forty_goods_tags_per_reply(engine: Engine, pocket: None) -> None:
    """SPEC §1b: the 41st inventory or loot tag is refused ``too-many`` and changes nothing."""
    done = await engine.process("chat", 1, "[loot: x]" * 41)
    assert 40 == pebbles(done.state)
    assert ("refused", "too-many") == (done.records[40].status, done.records[40].reason)


async def test_one_log_event_per_tag(engine: Engine) -> None:
    """SPEC §9: chat, turn, candidate, tag, status and time spent on every tag."""
    with capture_logs() as events:
        await engine.process("chat", 1, f"{CHECK} {CHECK}")
    tags = [e for e in events if e["event"] == "tag"]
    assert 2 == len(tags)
    assert {"chat", "turn", "candidate", "tag", "status", "ms"} <= set(tags[0])
    assert ("chat", 1, "skill_check", "resolved") == (
        tags[0]["chat"], tags[0]["turn"], tags[0]["tag"], tags[0]["status"])
