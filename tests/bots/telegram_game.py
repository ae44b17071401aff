"""The Telegram scenarios, played the same way through aiogram and through python-telegram-bot:
the bot under test polls the fake Bot API server and the assertions read what it posted there
and what the engine stored."""

from __future__ import annotations

from middleware.display import for_people
from middleware.resolve.checks.record import CheckRecord
from tests.bots.conftest import Rig
from tests.bots.telegram_fake import Call, FakeTelegram, user

CHAT = "telegram:-1001"
ADA = user(101, "Ada", "ada")
BOB = user(202, "Bob")
CLIMB = 'Wren climbs [skill_check: skill="Climb" dc="7"] toward the lamp.'
RECKON = 'Tobiah tallies the crates [skill_check: skill="Reckon" dc="8"].'
OIL = 'Wren fills the lamp [inventory: action="remove" item="Flask of lamp oil" count="1"]. It burns.'


def buttons(call: Call) -> dict[str, str]:
    """A posted message's inline buttons: label -> callback data."""
    rows = call.params.get("reply_markup", {}).get("inline_keyboard", [])
    return {b["text"]: b["callback_data"] for row in rows for b in row}


async def play_a_short_game(telegram: FakeTelegram, rig: Rig) -> None:
    rig.model.replies = [CLIMB, RECKON, OIL]
    for n, (who, text) in enumerate([(ADA, "I climb to the lamp."),
                                     (BOB, "I count the crates."),
                                     (ADA, "I fill the lamp with oil.")], start=1):
        update = await telegram.push(telegram.message(who, text))
        await telegram.until(lambda t, n=n: len(t.sent()) == n)
        posted = telegram.sent()[-1].params
        assert update["message"]["message_id"] == _quoted(posted)
    texts = [c.params["text"] for c in telegram.sent()]
    stored = [(await rig.engine.candidates(CHAT, t))[0] for t in (1, 2, 3)]
    assert [for_people(c.text, c.records) for c in stored] == texts
    assert texts[0].startswith('Wren climbs 🎲 Climb 2d6')
    assert "Bob (as Tobiah Crane): I count the crates." == rig.sent(1)[-1]["content"]
    assert {"↻ Again", "🎲 Dice"} == set(buttons(telegram.sent()[0]))
    assert {"↻ Again"} == set(buttons(telegram.sent()[2]))
    state = await rig.engine.state(CHAT)
    wren = next(m for m in state.party if m.name == "Wren Ashby")
    assert 1 == sum(s.count for s in wren.bag if s.item == "chandlery/lamp-oil")
    assert all(r.status == "resolved" for c in stored for r in c.records)


async def redelivery_edit_and_buttons(telegram: FakeTelegram, rig: Rig) -> None:
    rig.model.replies = [CLIMB, "Wren hides in the shadow instead.", CLIMB]
    first = await telegram.push(telegram.message(ADA, "I climb to the lamp."))
    await telegram.until(lambda t: len(t.sent()) == 1)
    await telegram.push(first)  # redelivered: the stored reply is posted again, nothing is added
    await telegram.until(lambda t: len(t.sent()) == 2)
    assert telegram.sent()[0].params["text"] == telegram.sent()[1].params["text"]
    assert 1 == len(rig.model.seen) and 1 == len(await rig.engine.candidates(CHAT, 1))

    edit = telegram.edited(first, "I hide in the shadow.")
    await telegram.push(edit)
    await telegram.until(lambda t: len(t.sent()) == 3)
    assert "Ada (as Wren Ashby): I hide in the shadow." == rig.sent()[-1]["content"]
    assert rig.sent(0)[:-1] == rig.sent()[:-1]  # the same turn start, a new candidate
    await telegram.push(edit)  # the edit redelivered
    await telegram.until(lambda t: len(t.sent()) == 4)
    assert 2 == len(rig.model.seen) and 2 == len(await rig.engine.candidates(CHAT, 1))

    hidden = telegram.sent()[-1]
    assert {"↻ Again", "◀ Previous"} == set(buttons(hidden))
    again = telegram.press(ADA, hidden, buttons(hidden)["↻ Again"])
    await telegram.push(again)
    await telegram.until(lambda t: len(t.sent()) == 5 and len(t.sent("answerCallbackQuery")) == 1)
    await telegram.push(again)  # the press redelivered: no third model call for it
    await telegram.until(lambda t: len(t.sent("answerCallbackQuery")) == 2)
    assert 3 == len(rig.model.seen) and 3 == len(await rig.engine.candidates(CHAT, 1))
    regenerated = telegram.sent()[4]
    third = (await rig.engine.candidates(CHAT, 1))[2]
    assert for_people(third.text, third.records) == regenerated.params["text"]

    await telegram.push(telegram.press(ADA, regenerated, buttons(regenerated)["◀ Previous"]))
    await telegram.until(lambda t: len(t.sent("editMessageText")) == 1)
    swiped = telegram.sent("editMessageText")[0].params
    assert "Wren hides in the shadow instead." == swiped["text"]
    assert regenerated.params["result"]["message_id"] == int(swiped["message_id"])
    assert 1 == (await rig.engine.store.get_turn(CHAT, 1)).selected  # type: ignore[union-attr]

    await telegram.push(telegram.press(ADA, regenerated, buttons(regenerated)["🎲 Dice"]))
    await telegram.until(lambda t: any(c.params.get("show_alert") in (True, "true")
                                       for c in t.sent("answerCallbackQuery")))
    [check] = (await rig.engine.candidates(CHAT, 1))[2].records
    assert isinstance(check, CheckRecord)
    card = next(c for c in telegram.sent("answerCallbackQuery") if c.params.get("show_alert"))
    assert card.params["text"].startswith("🎲 Climb: 2d6 [")
    assert f"{check.chance:.2%}" in card.params["text"]


def _quoted(params: dict[str, object]) -> object:
    reply = params.get("reply_parameters")
    return int(reply["message_id"]) if isinstance(reply, dict) else None


async def a_long_reply_is_split(telegram: FakeTelegram, rig: Rig) -> None:
    lines = [f"Line {n}: the lamp gutters and the shadows lengthen." for n in range(150)]
    rig.model.replies = ["\n".join(lines)]
    said = await telegram.push(telegram.message(ADA, "Tell me everything."))
    await telegram.until(lambda t: len(t.sent()) == 2)
    first, last = telegram.sent()
    assert all(len(c.params["text"]) <= 4096 for c in (first, last))
    assert lines == first.params["text"].split("\n") + last.params["text"].split("\n")
    assert said["message"]["message_id"] == _quoted(first.params) and None is _quoted(last.params)
    assert ({}, {"↻ Again"}) == (buttons(first), set(buttons(last)))
