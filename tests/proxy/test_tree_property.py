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
import itertools
import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from middleware.display import for_people
from middleware.engine import Engine
from middleware.paths import extend
from middleware.proxy import GameConfig, ServeOptions
from middleware.proxy.access import OPEN
from middleware.proxy.chat import read_request
from middleware.proxy.history import tags_key
from middleware.proxy.inject import engine_records
from middleware.proxy.tree import ChatTree, Route
from middleware.records import Record
from middleware.stores import open_store
from middleware.stores.memory import MemoryStore
from tests.gm_view.helpers import BRASS_PARTY, brass, party
from tests.proxy.conftest import TIMEOUT, FakeModel, Proxy, running_proxy, streamed_text
from tests.stores.pg import fresh_schema

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
    system: str = SYSTEM

    def messages(self, *, continuing: bool = False) -> list[dict[str, Any]]:
        sent = [{"role": "system", "content": self.system}]
        for turn in self.turns[self.trimmed:]:
            sent.append({"role": "user", "content": turn.user})
            if turn.reply is not None:
                sent.append({"role": "assistant", "content": turn.reply})
        if not continuing and sent[-1]["role"] == "assistant":
            raise AssertionError("a request to answer ends with the player")
        return sent


Action = tuple[str, int]
_TABLES = itertools.count(1)
"""Each session's system prompt its own, so no two sessions share a chat."""


class Table(Protocol):
    """How the UI's requests are answered, and how it is shown a stored candidate."""

    engine: Engine

    async def answer(self, ui: Ui, reply: str) -> Played: ...

    async def extend(self, ui: Ui, more: str) -> Played: ...

    def shown(self, text: str, records: Sequence[Record]) -> str: ...

ACTIONS = st.lists(st.tuples(st.sampled_from(["send", "send", "send", "regenerate", "swipe",
                                              "edit_user", "edit_old_user", "edit_prose", "trim",
                                              "continue"]),
                             st.integers(0, 9)), min_size=1, max_size=16)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS, st.booleans())
def test_any_way_a_chat_ui_is_used_plays_the_turn_it_shows(actions: list[Action],
                                                           named: bool) -> None:
    """``named``: the UI names the chat (Open WebUI's header), else the proxy finds it."""
    async def play() -> None:
        await _play(Routed(ChatTree(Engine(MemoryStore()))), actions, _named(named))
    asyncio.run(play())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS, st.booleans(), st.booleans(), st.sampled_from(["tags", "cards"]), st.booleans())
def test_a_chat_over_http_plays_the_turn_it_shows(actions: list[Action], named: bool,
                                                  stream: bool, display: str,
                                                  tools: bool) -> None:
    """The same through ``serve``'s app over HTTP, streamed or not, ``--display tags`` or
    ``cards``, ``--tools`` or not (the model answering in text, its tags read as in tag mode):
    with cards the UI holds the replies as cards and sends them back so. A card is no tag, so a
    reply shown as cards whose prose the player edits is read again as the text it now is: with
    cards, prose edits are left out."""
    if display == "cards":
        actions = [a for a in actions if a[0] != "edit_prose"]

    async def play() -> None:
        games = GameConfig(brass(), party(brass(), BRASS_PARTY), seed=4)
        options = ServeOptions(display=display, timeout=TIMEOUT, tools=tools)
        async with running_proxy(games, FakeModel(), options=options) as proxy:
            await _play(Served(proxy, stream, cards=display == "cards"), actions, _named(named))
    asyncio.run(play())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS, st.booleans(), st.sampled_from(["sqlite", "postgres"]))
def test_the_same_on_the_stores_on_disk(actions: list[Action], named: bool, kind: str) -> None:
    """The same routed over SQLite (a file) and PostgreSQL (a schema of its own), as ``serve``
    runs on them."""
    async def play() -> None:
        if kind == "postgres":
            async with fresh_schema() as url:
                store = await open_store(url)
                try:
                    await _play(Routed(ChatTree(Engine(store))), actions, _named(named))
                finally:
                    await store.close()
            return
        with tempfile.TemporaryDirectory() as folder:
            store = await open_store(f"sqlite:///{folder}/games.db")
            try:
                await _play(Routed(ChatTree(Engine(store))), actions, _named(named))
            finally:
                await store.close()
    asyncio.run(play())


def _named(named: bool) -> dict[str, str]:
    return {"X-OpenWebUI-Chat-Id": "owui-1"} if named else {}


@dataclass(frozen=True)
class Played:
    """Where a request played, and what the UI is shown: the reply (a Continue: the addition)."""

    chat: str
    turn: int
    continues: int | None
    shown: str


class Routed:
    """Requests routed by ``ChatTree`` and answered as the proxy stores them, the stored text
    shown as it is (``--display tags``)."""

    def __init__(self, tree: ChatTree) -> None:
        self.tree = tree
        self.engine = tree.engine

    async def answer(self, ui: Ui, reply: str) -> Played:
        route = await self._route(ui, continuing=False)
        done = await self.engine.process(route.chat, route.turn, reply)
        self.tree.remember(done.chat, done.turn, done.candidate, done.text)
        return Played(route.chat, route.turn, None, done.text)

    async def extend(self, ui: Ui, more: str) -> Played:
        route = await self._route(ui, continuing=True)
        assert route.continues is not None
        done = await extend(self.engine, route.chat, route.turn, route.continues, more)
        joined = done.joined
        self.tree.remember(joined.chat, joined.turn, joined.candidate, joined.text)
        return Played(route.chat, route.turn, route.continues, done.added)

    def shown(self, text: str, records: Sequence[Record]) -> str:
        return text

    async def _route(self, ui: Ui, *, continuing: bool) -> Route:
        ask = read_request(json.dumps({"model": "m",
                                       "messages": ui.messages(continuing=continuing)}).encode())
        async def create(chat: str) -> bool:
            await self.engine.create_game(chat, brass(), party(brass(), BRASS_PARTY), seed=4)
            return True
        return await self.tree.route({k.lower(): v for k, v in ui.headers.items()}, ask, create)


class Served:
    """Requests to ``serve``'s app over HTTP, the answers streamed or not; with ``cards``
    (``--display cards``) the UI is shown cards."""

    def __init__(self, proxy: Proxy, stream: bool, *, cards: bool) -> None:
        self.proxy = proxy
        self.engine = proxy.engine
        self.stream = stream
        self.cards = cards

    async def answer(self, ui: Ui, reply: str) -> Played:
        return await self._asked(ui, reply, continuing=False)

    async def extend(self, ui: Ui, more: str) -> Played:
        return await self._asked(ui, more, continuing=True)

    def shown(self, text: str, records: Sequence[Record]) -> str:
        return for_people(text, records) if self.cards else text

    async def _asked(self, ui: Ui, reply: str, *, continuing: bool) -> Played:
        self.proxy.model.replies.append(reply)
        messages = ui.messages(continuing=continuing)
        if self.stream:
            chunks = await self.proxy.stream(messages, headers=ui.headers)
            gm, shown = chunks[-1]["gm"], "".join(streamed_text(chunks))
        else:
            answer = await self.proxy.ask(messages, headers=ui.headers)
            assert 200 == answer.status_code, answer.text
            body = answer.json()
            gm, shown = body["gm"], body["choices"][0]["message"]["content"]
        chat = OPEN.chat(gm["chat"])  # the stored id of the chat the client was told
        # a Continue's answer names the joined candidate, not the one it extended
        return Played(chat, gm["turn"], None, shown)


async def _play(table: Table, actions: list[Action], headers: dict[str, str]) -> None:
    ui = Ui(headers=headers, system=f"{SYSTEM} Table {next(_TABLES)}.")
    await _send(table, ui, "We reach the fair.", 0)
    for name, n in actions:
        await _ACT[name](table, ui, n)


async def _send(table: Table, ui: Ui, text: str, n: int) -> None:
    """The player writes ``text``; the model answers."""
    if ui.turns and ui.turns[-1].reply is None:
        return
    ui.said += 1
    ui.turns.append(Turn(f"{text} ({ui.said})"))
    await _answer(table, ui, n)


async def _answer(table: Table, ui: Ui, n: int) -> None:
    """The last turn asked for (again): routed, answered, stored; the UI shows the answer."""
    # mostly a reply of its own; now and then one the model wrote before, word for word
    reply = (f"Scene {ui.said}-{n}. " if n < 7 else "") + REPLIES[n % len(REPLIES)]
    played = await table.answer(ui, reply)
    await _check(table, ui, played)
    last = ui.turns[-1]
    if last.reply is not None:
        last.swipes.append(last.reply)
    last.reply = played.shown


async def _regenerate(table: Table, ui: Ui, n: int) -> None:
    """Regenerate: the last turn asked again (the UI keeps the reply shown as a swipe)."""
    if not ui.turns or ui.turns[-1].reply is None:
        return
    shown = ui.turns[-1]
    kept = Turn(shown.user, None, [*shown.swipes, shown.reply] if shown.reply else shown.swipes)
    ui.turns[-1] = kept
    await _answer(table, ui, n)


async def _swipe(table: Table, ui: Ui, n: int) -> None:
    """Swipe the last turn back to an earlier reply (nothing is sent until the player writes)."""
    last = ui.turns[-1] if ui.turns else None
    if last is None or last.reply is None or not last.swipes:
        return
    back = last.swipes.pop(n % len(last.swipes))
    last.swipes.append(last.reply)
    last.reply = back


async def _edit_user(table: Table, ui: Ui, n: int) -> None:
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
    await _answer(table, ui, n)


async def _edit_old_user(table: Table, ui: Ui, n: int) -> None:
    """Edit an older player message in place, keeping what came after it (as SillyTavern lets
    one), then write on."""
    sent = ui.turns[ui.trimmed:]
    if not sent or (ui.trimmed and len(sent) < 2):
        return
    at = ui.trimmed + n % len(sent) if not ui.trimmed else ui.trimmed + 1 + n % (len(sent) - 1)
    ui.said += 1
    ui.turns[at].user = f"{ui.turns[at].user} (edited {ui.said})"
    await _send(table, ui, "On we go", n)


async def _edit_prose(table: Table, ui: Ui, n: int) -> None:
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


async def _trim(table: Table, ui: Ui, n: int) -> None:
    """The UI drops the oldest turn it sends; a reply it still sends stays, so the chat is
    known by its replies."""
    if len([t for t in ui.turns[ui.trimmed + 1:] if t.reply is not None]) >= 2:
        ui.trimmed += 1


async def _continue(table: Table, ui: Ui, n: int) -> None:
    """Continue: the history ends with the reply shown (edited or not); the model adds to it,
    and the UI shows the addition after the reply as it holds it."""
    last = ui.turns[-1] if ui.turns else None
    if last is None or last.reply is None:
        return
    played = await table.extend(ui, f" Then {REPLIES[n % len(REPLIES)]}")
    await _check(table, ui, played, continuing=True)
    shown = last.reply + played.shown
    if last.reply in ui.edited:
        ui.edited.add(shown)
    last.swipes.append(last.reply)
    last.reply = shown


_ACT = {"send": lambda table, ui, n: _send(table, ui, "On we go", n), "regenerate": _regenerate,
        "swipe": _swipe, "edit_user": _edit_user, "edit_old_user": _edit_old_user,
        "edit_prose": _edit_prose, "trim": _trim, "continue": _continue}


async def _check(table: Table, ui: Ui, played: Played, *, continuing: bool = False) -> None:
    """The turn played is the UI's; there, each turn holds the player's message as sent, and
    each reply sent is the candidate selected at its turn, as the UI was shown it."""
    assert len(ui.turns) == played.turn, (played, len(ui.turns))
    store = table.engine.store
    for number, turn in enumerate(ui.turns[ui.trimmed:], start=ui.trimmed + 1):
        said = await store.get_turn(played.chat, number)
        assert said is not None and said.user_text == turn.user, (number, said, turn.user)
        if turn.reply is None or (number == played.turn and not continuing):
            continue
        assert said.selected is not None, (number, played)
        # a Continue extends the candidate sent back (the joined one is selected now)
        chosen = played.continues if continuing and number == played.turn else said.selected
        if chosen is None:
            continue
        kept = await store.get_candidate(played.chat, number, chosen)
        shown = table.shown(kept.text, engine_records(kept.records))
        if turn.reply in ui.edited:
            assert tags_key(shown) == tags_key(turn.reply), (number, shown, turn.reply)
        else:
            assert shown.strip() == turn.reply.strip(), (number, shown, turn.reply)
