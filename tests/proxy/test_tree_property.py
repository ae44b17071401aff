"""A chat UI used every way at once, against the proxy's chat tree (SPEC §3, §7 proxy): random runs
of sending, regenerating, swiping back, editing an old player message, editing a reply's prose,
trimming the oldest turns and Continue, each request routed by ``ChatTree`` and its reply stored
as the proxy stores it. After every request, whatever came before:

- routing never fails;
- the request plays the turn the UI is at (its player messages, plus the turns it trimmed);
- on the chat it played, every reply the UI sent back is the candidate selected at its turn (by
  its text, or by its tags where the UI edited its prose), so the state the turn starts from is
  the one the UI's history shows.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from middleware.engine import Engine
from middleware.paths import extend
from middleware.proxy.chat import read_request
from middleware.proxy.history import tags_key
from middleware.proxy.tree import ChatTree, Route
from middleware.stores.memory import MemoryStore
from tests.gm_view.helpers import BRASS_PARTY, brass, party

SYSTEM = "You are the Game Master of the brass road."
REPLIES = ('She haggles. [skill_check: skill="Haggle" dc="7"]',
           'A rope lies in the ditch. [inventory: action="add" item="Coil of rope"]',
           "They rest.",
           '[place: name="Brassford" size="fair town"] The chandler smiles.')


@dataclass
class Turn:
    """One exchange as the UI shows it: the player's message, the reply shown (None: not
    answered yet) and the other replies it holds for that turn (swipes)."""

    user: str
    reply: str | None = None
    swipes: list[str] = field(default_factory=list)


@dataclass
class Ui:
    """What the chat UI holds and sends."""

    turns: list[Turn] = field(default_factory=list)
    trimmed: int = 0
    """The oldest turns the UI no longer sends (context trimming)."""
    said: int = 0
    edited: set[str] = field(default_factory=set)
    """The replies whose prose the UI edited (their tags as they were)."""
    headers: dict[str, str] = field(default_factory=dict)

    def messages(self, *, continuing: bool = False) -> list[dict[str, Any]]:
        sent = [{"role": "system", "content": SYSTEM}]
        for turn in self.turns[self.trimmed:]:
            sent.append({"role": "user", "content": turn.user})
            if turn.reply is not None:
                sent.append({"role": "assistant", "content": turn.reply})
        if not continuing and sent[-1]["role"] == "assistant":
            raise AssertionError("a request to answer ends with the player")
        return sent


Action = tuple[str, int]

ACTIONS = st.lists(st.tuples(st.sampled_from(["send", "send", "send", "regenerate", "swipe",
                                              "edit_user", "edit_old_user", "edit_prose", "trim",
                                              "continue"]),
                             st.integers(0, 9)), min_size=1, max_size=16)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS, st.booleans())
def test_any_way_a_chat_ui_is_used_plays_the_turn_it_shows(actions: list[Action],
                                                           named: bool) -> None:
    """``named``: the UI names the chat (Open WebUI's header), else the proxy finds it."""
    asyncio.run(_play(actions, {"X-OpenWebUI-Chat-Id": "owui-1"} if named else {}))


async def _play(actions: list[Action], headers: dict[str, str]) -> None:
    tree = ChatTree(Engine(MemoryStore()))
    ui = Ui(headers=headers)
    await _send(tree, ui, "We reach the fair.", 0)
    for name, n in actions:
        await _ACT[name](tree, ui, n)


async def _send(tree: ChatTree, ui: Ui, text: str, n: int) -> None:
    """The player writes ``text``; the model answers."""
    if ui.turns and ui.turns[-1].reply is None:
        return
    ui.said += 1
    ui.turns.append(Turn(f"{text} ({ui.said})"))
    await _answer(tree, ui, n)


async def _answer(tree: ChatTree, ui: Ui, n: int) -> None:
    """The last turn asked for (again): routed, answered, stored; the UI shows the answer."""
    route = await _route(tree, ui)
    # mostly a reply of its own; now and then one the model wrote before, word for word
    reply = (f"Scene {ui.said}-{n}. " if n < 7 else "") + REPLIES[n % len(REPLIES)]
    done = await tree.engine.process(route.chat, route.turn, reply)
    tree.remember(done.chat, done.turn, done.candidate, done.text)
    await _check(tree, ui, route)
    last = ui.turns[-1]
    if last.reply is not None:
        last.swipes.append(last.reply)
    last.reply = done.text


async def _regenerate(tree: ChatTree, ui: Ui, n: int) -> None:
    """Regenerate: the last turn asked again (the UI keeps the reply shown as a swipe)."""
    if not ui.turns or ui.turns[-1].reply is None:
        return
    shown = ui.turns[-1]
    kept = Turn(shown.user, None, [*shown.swipes, shown.reply] if shown.reply else shown.swipes)
    ui.turns[-1] = kept
    await _answer(tree, ui, n)


async def _swipe(tree: ChatTree, ui: Ui, n: int) -> None:
    """Swipe the last turn back to an earlier reply (nothing is sent until the player writes)."""
    last = ui.turns[-1] if ui.turns else None
    if last is None or last.reply is None or not last.swipes:
        return
    back = last.swipes.pop(n % len(last.swipes))
    last.swipes.append(last.reply)
    last.reply = back


async def _edit_user(tree: ChatTree, ui: Ui, n: int) -> None:
    """Edit an older player message: the UI drops what came after it and asks again. Once the
    UI trims, a reply before the edit is still sent (else the request names no game: a new
    chat to the proxy, as to anyone)."""
    sent = ui.turns[ui.trimmed:]
    if not sent:
        return
    at = ui.trimmed + n % len(sent)
    if ui.trimmed and all(t.reply is None for t in ui.turns[ui.trimmed:at]):
        return
    ui.said += 1
    ui.turns[at:] = [Turn(f"{ui.turns[at].user} (edited {ui.said})")]
    await _answer(tree, ui, n)


async def _edit_old_user(tree: ChatTree, ui: Ui, n: int) -> None:
    """Edit an older player message in place, keeping what came after it (as SillyTavern lets
    one), then write on."""
    sent = ui.turns[ui.trimmed:]
    if not sent or (ui.trimmed and len(sent) < 2):
        return
    at = ui.trimmed + n % len(sent) if not ui.trimmed else ui.trimmed + 1 + n % (len(sent) - 1)
    ui.said += 1
    ui.turns[at].user = f"{ui.turns[at].user} (edited {ui.said})"
    await _send(tree, ui, "On we go", n)


async def _edit_prose(tree: ChatTree, ui: Ui, n: int) -> None:
    """Edit a reply's prose, its tags left as they are (nothing is sent until the player
    writes)."""
    answered = [t for t in ui.turns[ui.trimmed:] if t.reply is not None
                and tags_key(t.reply) is not None]
    if not answered:
        return
    turn = answered[n % len(answered)]
    assert turn.reply is not None
    turn.reply = f"(As it was told.) {turn.reply}"
    ui.edited.add(turn.reply)


async def _trim(tree: ChatTree, ui: Ui, n: int) -> None:
    """The UI drops the oldest turn it sends; a reply it still sends stays, so the chat is
    known by its replies."""
    if len([t for t in ui.turns[ui.trimmed + 1:] if t.reply is not None]) >= 2:
        ui.trimmed += 1


async def _continue(tree: ChatTree, ui: Ui, n: int) -> None:
    """Continue: the history ends with the reply shown (edited or not); the model adds to it,
    and the UI shows the addition after the reply as it holds it."""
    last = ui.turns[-1] if ui.turns else None
    if last is None or last.reply is None:
        return
    route = await _route(tree, ui, continuing=True)
    assert route.continues is not None
    more = f" Then {REPLIES[n % len(REPLIES)]}"
    done = await extend(tree.engine, route.chat, route.turn, route.continues, more)
    joined = done.joined
    tree.remember(joined.chat, joined.turn, joined.candidate, joined.text)
    await _check(tree, ui, route, continuing=True)
    shown = last.reply + done.added
    if last.reply in ui.edited:
        ui.edited.add(shown)
    last.swipes.append(last.reply)
    last.reply = shown


_ACT = {"send": lambda tree, ui, n: _send(tree, ui, "On we go", n), "regenerate": _regenerate,
        "swipe": _swipe, "edit_user": _edit_user, "edit_old_user": _edit_old_user,
        "edit_prose": _edit_prose, "trim": _trim, "continue": _continue}


async def _route(tree: ChatTree, ui: Ui, *, continuing: bool = False) -> Route:
    messages = ui.messages(continuing=continuing)
    ask = read_request(json.dumps({"model": "m", "messages": messages}).encode())
    return await tree.route({k.lower(): v for k, v in ui.headers.items()}, ask, _new_game(tree))


def _new_game(tree: ChatTree) -> Any:
    async def create(chat: str) -> bool:
        await tree.engine.create_game(chat, brass(), party(brass(), BRASS_PARTY), seed=4)
        return True
    return create


async def _check(tree: ChatTree, ui: Ui, route: Route, *, continuing: bool = False) -> None:
    """The turn played is the UI's; there, each turn holds the player's message as sent, and
    each reply sent is the candidate selected at its turn."""
    assert len(ui.turns) == route.turn, (route, len(ui.turns))
    store = tree.engine.store
    for number, turn in enumerate(ui.turns[ui.trimmed:], start=ui.trimmed + 1):
        said = await store.get_turn(route.chat, number)
        assert said is not None and said.user_text == turn.user, (number, said, turn.user)
        if turn.reply is None or (number == route.turn and not continuing):
            continue
        row = await store.get_turn(route.chat, number)
        assert row is not None and row.selected is not None, (number, route)
        # a Continue extends the candidate sent back (the joined one is selected now)
        chosen = route.continues if continuing and number == route.turn else row.selected
        assert chosen is not None
        kept = await store.get_candidate(route.chat, number, chosen)
        if turn.reply in ui.edited:
            assert tags_key(kept.text) == tags_key(turn.reply), (number, kept.text, turn.reply)
        else:
            assert kept.text.strip() == turn.reply.strip(), (number, kept.text, turn.reply)
