"""The chat tree's engine steps (``middleware.paths``): Continue, edited candidates, copies."""

from __future__ import annotations

from middleware.engine import Engine
from middleware.paths import extend, reread, rolls_are_faces, shown_dice
from middleware.rules.registry import load_bundled
from middleware.stores.memory import MemoryStore

PLACE = '[place: name="Brassford" size="fair town"] She walks.'
BUY = ' [inventory: action="buy" item="Honey cake"]'


async def test_extend_resolves_against_the_candidate_and_stores_the_joined_text_once() -> None:
    """Continue: the addition sees the place the first part named (a fair-town price); the
    joined candidate holds both parts' records; the same addition again is the same candidate."""
    engine = Engine(MemoryStore())
    await engine.create_game("c", load_bundled("brass-fair"), (), seed=1)
    first = await engine.process("c", 1, PLACE)
    done = await extend(engine, "c", 1, first.candidate, BUY)
    assert first.text + done.added == done.joined.text
    assert ["place", "inventory"] == [r.tag for r in done.joined.records]
    assert ["inventory"] == [r.tag for r in done.records]
    assert done.joined.candidate == (await extend(engine, "c", 1, first.candidate, BUY)).joined.candidate
    assert 2 == len(await engine.candidates("c", 1))


async def test_reread_throws_the_dice_a_check_shows() -> None:
    """An edited reply's check is read with its shown faces: the same total, no new throw."""
    engine = Engine(MemoryStore())
    await engine.create_game("c", load_bundled("brass-fair"), (), seed=1)
    first = await engine.process("c", 1, 'She tries. [skill_check: skill="Haggle" dc="7"]')
    edited = await reread(engine, "c", 1, first.text + " (The crowd cheers.)")
    assert first.records[0].rolls == edited.records[0].rolls  # type: ignore[attr-defined]
    assert [int(f) for f in first.records[0].rolls] == shown_dice(first.text)  # type: ignore[attr-defined]


async def test_reread_on_tens_dice_throws_again_rather_than_misread_the_readings() -> None:
    """roll-against with tens dice shows readings (``73|23``), not faces: an edited candidate's
    check is thrown from its own seed and resolves (no error record)."""
    ruleset = load_bundled("dim-archive")
    assert not rolls_are_faces(ruleset) and rolls_are_faces(load_bundled("brass-fair"))
    engine = Engine(MemoryStore())
    await engine.create_game("c", ruleset, (), seed=1)
    first = await engine.process("c", 1, '[skill_check: skill="Old Scripts" bonus="1"]')
    edited = await reread(engine, "c", 1, first.text + " Dust falls.")
    assert ["resolved"] == [r.status for r in edited.records]


async def test_an_addition_with_a_lone_surrogate_is_stored_replaced_and_said() -> None:
    """SPEC §8: a Continue whose added text holds half a UTF-16 pair (model output, taken as it
    came through the Python API) is stored with U+FFFD in its place and a record saying so, with
    or without a retry key; the same addition with the same key is the same candidate."""
    engine = Engine(MemoryStore())
    await engine.create_game("c", load_bundled("brass-fair"), (), seed=1)
    first = await engine.process("c", 1, PLACE)
    for key in (None, "retry-1"):
        done = await extend(engine, "c", 1, first.candidate, " Then \ud800 quiet.", key=key)
        assert first.text + " Then \ufffd quiet." == done.joined.text
        assert ("text", "surrogates-replaced") == (done.records[-1].tag, done.records[-1].reason)
        stored = await engine.store.get_candidate("c", 1, done.joined.candidate)
        assert (done.joined.text, PLACE + " Then \ufffd quiet.") == (stored.text, stored.reply)
    again = await extend(engine, "c", 1, first.candidate, " Then \ud800 quiet.", key="retry-1")
    assert done.joined.candidate == again.joined.candidate
    assert 3 == len(await engine.candidates("c", 1))
