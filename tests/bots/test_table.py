"""The framework-neutral table: a bot's turns, retries, regenerates, swipes, edits and undo on the
real engine and store, asking a scripted fake model over HTTP (SPEC §3, §7)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from middleware.bots import NotNow, Speaker
from middleware.errors import UpstreamError
from middleware.resolve.checks.chance import check_chance
from middleware.resolve.checks.record import CheckRecord
from tests.bots.conftest import Rig

ADA = Speaker("101", "Ada", "ada")
BOB = Speaker("202", "Bob")
CHAT = "telegram:-100"
CLIMB = 'Wren climbs [skill_check: skill="Climb" dc="7"].'


async def test_a_turn_asks_once_and_posts_the_resolved_reply(rig: Rig) -> None:
    """A player's message is one model call; the reply's check is resolved and stored as
    candidate 0 of turn 1; the prompt names the tags and the ruleset's skills (SPEC §7)."""
    rig.model.replies = [CLIMB]
    played = await rig.table.play(CHAT, ADA, "I climb to the lamp.", key="tg:1", message="7")
    assert (1, 0, False) == (played.turn, played.candidate, played.replayed)
    assert 1 == len(rig.model.seen)
    [check] = played.records
    assert isinstance(check, CheckRecord) and check.status == "resolved"
    assert played.text.startswith('Wren climbs 🎲 Climb 2d6')
    assert played.resolved.startswith('Wren climbs [skill_check: skill="Climb" dc="7" rolls=')
    system, state, user = rig.sent()
    assert "[skill_check:" in system["content"] and "Climb, Slip Past" in system["content"]
    assert "Wren Ashby (player)" in state["content"]
    assert {"role": "user", "content": "Ada (as Wren Ashby): I climb to the lamp."} == user
    assert "fake-gm" == rig.model.seen[-1]["model"]
    stored = await rig.engine.candidates(CHAT, 1)
    assert [played.resolved] == [c.text for c in stored]


async def test_the_next_turn_sends_the_kept_candidate_back(rig: Rig) -> None:
    """The history a bot sends is the player lines and the selected candidates as resolved."""
    rig.model.replies = [CLIMB, "The lamp flares."]
    first = await rig.table.play(CHAT, ADA, "I climb.")
    await rig.table.play(CHAT, ADA, "I light it.")
    roles = [(m["role"], m["content"]) for m in rig.sent()[1:]]
    assert [("user", "Ada (as Wren Ashby): I climb."), ("assistant", first.resolved),
            ("user", "Ada (as Wren Ashby): I light it.")] == [r for r in roles if r[0] != "system"]


async def test_a_redelivered_update_applies_nothing_twice(rig: Rig) -> None:
    """SPEC §3: the same retry key returns the stored candidate: no model call, no new row."""
    rig.model.replies = [CLIMB]
    first = await rig.table.play(CHAT, ADA, "I climb.", key="tg:5", message="9")
    again = await rig.table.play(CHAT, ADA, "I climb.", key="tg:5", message="9")
    assert again.replayed and (first.resolved, first.records) == (again.resolved, again.records)
    assert 1 == len(rig.model.seen)
    assert 1 == await rig.engine.store.last_turn(CHAT)
    assert 1 == len(await rig.engine.candidates(CHAT, 1))


async def test_each_speaker_plays_their_own_member(rig: Rig) -> None:
    """A second person takes the first free party member; a check without who= on their turn
    rolls for that member, and each keeps their seat on later turns."""
    rig.model.replies = ["Noted.", 'Tobiah counts [skill_check: skill="Reckon" dc="8"].', "Up."]
    await rig.table.play(CHAT, ADA, "I look around.")
    bob = await rig.table.play(CHAT, BOB, "I count the crates.")
    assert "Tobiah Crane" == bob.who
    [check] = bob.records
    start = await rig.engine.state(CHAT, 1)
    reckon = '[skill_check: skill="Reckon" dc="8"]'
    tobiah = check_chance(rig.table.config.ruleset, start, reckon, "Tobiah Crane")
    wren = check_chance(rig.table.config.ruleset, start, reckon, "Wren Ashby")
    assert tobiah is not None and wren is not None and tobiah.chance != wren.chance
    assert tobiah.chance == check.chance
    assert {"role": "user", "content": "Bob (as Tobiah Crane): I count the crates."} == rig.sent()[-1]
    ada = await rig.table.play(CHAT, ADA, "I climb.")
    assert "Wren Ashby" == ada.who
    assert "Wren Ashby (player)" in rig.sent()[-2]["content"]


async def test_configured_seats_win(rig: Rig) -> None:
    """A seat configured by @handle puts that person at the member named."""
    rig.table.config.seats["@ada"] = "Tobiah Crane"
    rig.model.replies = ["Noted."]
    played = await rig.table.play(CHAT, ADA, "I look around.")
    assert "Tobiah Crane" == played.who
    state = await rig.table.state(CHAT)
    assert ["Tobiah Crane"] == [m.name for m in state.party if m.player]


async def test_regenerate_and_swipe(rig: Rig) -> None:
    """A regenerate is a new candidate from the turn's start, sent the same prompt; a swipe back
    selects the old one, and the next turn builds on it (SPEC §3)."""
    rig.model.replies = [CLIMB, "She slips and hangs on.", "Onwards."]
    first = await rig.table.play(CHAT, ADA, "I climb.")
    second = await rig.table.regenerate(CHAT, turn=1, key="tg:cb1")
    assert (1, False) == (second.candidate, second.has_next)
    assert rig.model.seen[0]["messages"] == rig.model.seen[1]["messages"]
    back = await rig.table.swipe(CHAT, -1)
    assert (0, True, first.resolved) == (back.candidate, back.has_next, back.resolved)
    await rig.table.play(CHAT, ADA, "I go on.")
    assert first.resolved in [m["content"] for m in rig.sent()]
    with pytest.raises(NotNow, match="latest turn"):
        await rig.table.regenerate(CHAT, turn=1)


async def test_an_edit_replays_the_turn_with_the_new_text(rig: Rig) -> None:
    """An edited player message re-plays its turn as a new candidate from the turn's start; later
    turns send the edited line; an edit of an older message or with the same text does nothing."""
    rig.model.replies = [CLIMB, "She hides instead.", "Later."]
    await rig.table.play(CHAT, ADA, "I climb.", message="40")
    edited = await rig.table.edit(CHAT, "40", "I hide.", key="tg:41")
    assert edited is not None and (1, 1) == (edited.turn, edited.candidate)
    assert "Ada (as Wren Ashby): I hide." == rig.sent()[-1]["content"]
    assert None is await rig.table.edit(CHAT, "40", "I hide.", key="tg:42")
    await rig.table.play(CHAT, ADA, "I wait.", message="43")
    assert "Ada (as Wren Ashby): I hide." in [m["content"] for m in rig.sent()]
    assert None is await rig.table.edit(CHAT, "40", "I run.", key="tg:44")
    assert 3 == len(rig.model.seen)


async def test_undo_takes_back_the_latest_turn(rig: Rig) -> None:
    """Undo: the chat goes on from the turn before; the undone turn's buttons are stale."""
    rig.model.replies = ["One.", "Two.", "Two again."]
    await rig.table.play(CHAT, ADA, "First.")
    second = await rig.table.play(CHAT, ADA, "Second.")
    assert 1 == await rig.table.undo(CHAT)
    assert f"{CHAT}~1" == await rig.table.game_id(CHAT)
    again = await rig.table.play(CHAT, ADA, "Second, better.")
    assert (2, 0) == (again.turn, again.candidate)
    assert "Second." not in str(rig.sent())
    with pytest.raises(NotNow, match="undone"):
        await rig.table.press(CHAT, second.buttons()[0].data)


async def test_a_redelivery_of_an_undone_turn_plays_nothing(rig: Rig) -> None:
    """An update redelivered after its turn was undone is refused, not played as a new turn."""
    rig.model.replies = ["One.", "Two."]
    await rig.table.play(CHAT, ADA, "First.", key="tg:1")
    await rig.table.play(CHAT, ADA, "Second.", key="tg:2")
    await rig.table.undo(CHAT)
    with pytest.raises(NotNow, match="undone"):
        await rig.table.play(CHAT, ADA, "Second.", key="tg:2")
    assert 2 == len(rig.model.seen) and 1 == await rig.engine.store.last_turn(f"{CHAT}~1")


async def test_a_failed_model_call_leaves_a_turn_the_next_message_replaces(rig: Rig) -> None:
    """The model failing stores no candidate; the next message replaces the unanswered turn."""
    rig.model.replies = [502, "Answered."]
    with pytest.raises(UpstreamError):
        await rig.table.play(CHAT, ADA, "Hello?")
    played = await rig.table.play(CHAT, ADA, "Hello again?")
    assert (1, 0) == (played.turn, played.candidate)
    assert "Ada (as Wren Ashby): Hello again?" == rig.sent()[-1]["content"]


async def test_a_message_redelivered_after_its_turn_was_answered_opens_no_turn(rig: Rig) -> None:
    """SPEC §3: the model failed on a message, so its update stored nothing under its key; the
    player pressed regenerate and the turn was answered. The platform then delivers that message
    again (same update, same message id): it is the turn already played, its reply posted again
    (replayed), the model not asked (before: it opened turn 2 with the same line, asked the model
    and posted a second reply)."""
    rig.model.replies = [502, CLIMB]
    with pytest.raises(UpstreamError):
        await rig.table.play(CHAT, ADA, "I climb.", key="tg:8", message="31")
    answered = await rig.table.regenerate(CHAT, turn=1, key="tg:cb9")
    again = await rig.table.play(CHAT, ADA, "I climb.", key="tg:8", message="31")
    assert (1, 0, True) == (again.turn, again.candidate, again.replayed)
    assert (answered.resolved, answered.text) == (again.resolved, again.text)
    assert 2 == len(rig.model.seen)
    assert 1 == await rig.engine.store.last_turn(CHAT)


async def test_buttons_and_the_dice_card(rig: Rig) -> None:
    """A reply with a check has regenerate and dice buttons; the card shows the exact chance."""
    rig.model.replies = [CLIMB, "Again."]
    played = await rig.table.play(CHAT, ADA, "I climb.")
    assert ["regenerate", "dice"] == [b.action for b in played.buttons()]
    pressed = await rig.table.press(CHAT, played.buttons()[1].data)
    [check] = played.records
    assert isinstance(check, CheckRecord) and check.chance is not None
    assert "card" == pressed.kind
    exact = Fraction(check.chance).limit_denominator(1_000_000)
    assert f"chance {exact.numerator}/{exact.denominator} = {check.chance:.2%}" in pressed.played.card
    assert " ".join(map(str, check.rolls)) in pressed.played.card
    regen = await rig.table.press(CHAT, played.buttons()[0].data, key="tg:77")
    assert ("post", 1) == (regen.kind, regen.played.candidate)
    back = await rig.table.press(CHAT, regen.played.buttons()[1].data)
    assert ("edit", 0) == (back.kind, back.played.candidate)
