"""What the chat is shown is what is stored, whatever the model writes (SPEC §7 proxy, §8): the
real ``serve`` app over HTTP on 127.0.0.1, in front of a fake upstream that answers with a reply
drawn at random (prose and tags mixed, bad and unknown tags, a "[" left open, quotes inside
values, a lone surrogate sent as a JSON escape, branch blocks closed or not, now and then prose
up to or past the 100,000-character limit among them), cut into pieces of random sizes.

For every chat drawn (a first request, streamed or not, with a retry key or not; then a
regenerate, a retry with the same key, or a Continue, itself maybe asked again or retried):

1. every answer is a 200 and the server logs no error (no 5xx, no 4xx: the client is never at
   fault here, and no ``stream-diverged``);
2. streamed or not, the text is the stored candidate as the chat is shown it (tags: its text;
   cards: ``for_people`` of it); a Continue's addition is what the stored joined candidate adds to
   the reply as the chat was shown it;
3. with fair dice (``dice="turn"``), a regenerate of the same reply, streamed or not, is shown
   exactly what the first was; a Continue asked again is shown exactly the same addition;
4. a retry with the same ``Idempotency-Key`` gets back the first answer byte for byte, the model
   not asked and no candidate stored;
5. the reply as the chat then holds it, sent back with the next turn, is the stored candidate:
   turn 2 plays on it, nothing edited, and the model reads the stored resolved text.

One server per game and display, up for all the examples (each a chat of its own, by
``X-GM-Chat``), so the module runs in seconds; ``GM_HUNT_EXAMPLES`` (default 25) sets how many
examples each plays, for a longer hunt.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
from collections.abc import Awaitable, Iterator, Mapping, Sequence
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from structlog.testing import capture_logs

from middleware.display import for_people
from middleware.engine import Processed
from middleware.proxy import GameConfig, ServeOptions
from middleware.rules.registry import load_bundled
from middleware.sheet.party import read_party
from tests.branches.helpers import demo_game
from tests.gm_view.helpers import BRASS_PARTY, brass, party
from tests.proxy.conftest import CUTS, TIMEOUT, hearth
from tests.proxy.fake_upstream import Answer, FakeUpstream, Served, served

T = TypeVar("T")

COMMON = [
    "Rain drums on the tin roof. ", "She looks up.", "\n", " ", "She hums [", "] and on. ",
    "a note [skill_ch", "She reads the sign [place: name='Old ", "' she says. ",
    "[weird: tag] ", "[skill_check] ", "[inventory: action=\"juggle\"] ", "[ ", "[]", "]",
    '[inventory: action="add" item="The "Big" Rope" who="Ada"] ',
    '[place: name="Mill"brook"] ', "[loot: table=\"nowhere\"] ",
    '[skill_check: skill="Haul" dc="8" rolls="6|6" total="15" result="critical_success"] ',
    "Ouch \ud800 then. ", "caf\u00e9 \u2028 \U0001f3b2 ",
]
"""Prose and tags any game's model may write: bad and unknown tags, a "[" left open, a quote
inside a value, the model's own numbers, a lone surrogate (the fake sends it as ``\\ud800``)."""

HEARTH = [
    '[skill_check: skill="Haul" dc="8"] ', "[skill_check: skill='Haul' dc=\"9\"] ",
    '[skill_check: skill="Juggle" dc="8"] ', '[inventory: action="add" item="Rope" who="Ada"] ',
    '[inventory: action="remove" item="Rope" count="2" who="Ada"] ',
    '[place: name="Millbrook"] ',
]
BRANCHES = [
    '[skill_check: skill="Haggle" dc="8" who="Tobiah Crane"]\n',
    '[skill_check: skill="Climb" difficulty="Risky"]\n',
    "[on success] Through for a groat. ", "[on failure] Three groats. ",
    "[on Clean success] The lamp catches. ", "[on Success at a cost] The rung snaps. ",
    "[on Miss] She drops to the cobbles. ", "[/branch] ", "[/branch]\nBelow, Tobiah counts. ",
    '[inventory: action="pay" amount="1 groat" who="Wren Ashby"] ',
    '[sheet: op="damage" track="harm" kind="cut" amount="1"] ',
    '[inventory: action="add" item="Lamp oil" who="Wren Ashby"] ', '[place: name="Lockside"] ',
]
FAIR = [
    '[skill_check: skill="Haggle" dc="8"] ', '[place: name="Crossroads" size="roadside stall"] ',
    '[place: name="Brassford" size="fair town"] ',
    '[inventory: action="buy" item="Honey cake" who="Ada"] ',
    '[inventory: action="buy" item="Honey cake" count="2" who="Bram"] ',
    '[inventory: action="sell" item="Hand axe" who="Ada"] ',
    '[inventory: action="add" item="Rope" who="Bram"] ',
]
LONG = "On and on. " * 9100
"""Prose past the 100,000-character limit (the candidate is cut there)."""


def hearth_and_haul() -> GameConfig:
    return hearth("turn")


def branch_demo() -> GameConfig:
    line = demo_game("branch-demo")
    rules = load_bundled(line["ruleset"])
    return GameConfig(rules, tuple(read_party(rules, line["party"])), seed=7, dice="turn",
                      branches=True)


def brass_fair() -> GameConfig:
    return GameConfig(brass(), party(brass(), BRASS_PARTY), seed=4, dice="turn")


GAMES = {"hearth": (hearth_and_haul, HEARTH), "branches": (branch_demo, BRANCHES),
         "fair": (brass_fair, FAIR)}


def replies(own: list[str]) -> st.SearchStrategy[str]:
    """A reply: fragments of the game's own and common ones, with a little random bracketry,
    and now and then long prose among them (the tags before it shown resolved, longer than the
    model wrote them; those after it cut away)."""
    fragment = st.one_of(st.sampled_from(own + COMMON),
                         st.text(alphabet=' []"=:/abcnos\n', max_size=8))
    long = st.sampled_from([None] * 15 + [LONG[:n] for n in (99_900, 100_100)])
    return st.builds(_with_long, st.lists(fragment, max_size=10), long, st.integers(0, 10))


def _with_long(parts: list[str], long: str | None, at: int) -> str:
    if long is not None:
        parts = [*parts[:at], long, *parts[at:]]
    return "".join(parts)


CUT_SIZES = st.one_of(st.just(CUTS), st.lists(st.integers(1, 40), min_size=1, max_size=5)
                      .map(tuple), st.just((4096,)))


@dataclass(frozen=True)
class Said:
    """One reply of the model: its text and how its stream is cut."""

    text: str
    cuts: tuple[int, ...]

    def answer(self) -> Answer:
        # long text in big pieces: thousands of events would only cost time
        return Answer(self.text, cuts=(4096,) if len(self.text) > 20_000 else self.cuts)


def said(own: list[str]) -> st.SearchStrategy[Said]:
    return st.builds(Said, replies(own), CUT_SIZES)


@dataclass
class Table:
    """A served game and display, up across examples: its own event loop runs the servers
    whenever an example runs on it."""

    games: GameConfig
    display: str

    def __post_init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.stack = AsyncExitStack()
        self.upstream = FakeUpstream()
        options = ServeOptions(display="cards" if self.display == "cards" else "tags",
                               timeout=TIMEOUT)
        self.proxy: Served = self.run(self.stack.enter_async_context(
            served(self.upstream, options, games=self.games)))
        self.http: httpx.AsyncClient = self.run(self.stack.enter_async_context(self.proxy.client()))

    def run(self, work: Awaitable[T]) -> T:
        return self.loop.run_until_complete(work)

    def close(self) -> None:
        self.run(self.stack.aclose())
        self.run(_cancelled(asyncio.all_tasks(self.loop)))
        self.loop.close()

    def shown(self, done: Processed) -> str:
        """A stored candidate as the chat is shown it."""
        return done.text if self.display == "tags" else for_people(done.text, done.records)


async def _cancelled(tasks: set[asyncio.Task[Any]]) -> None:
    """``tasks`` cancelled and waited for: whatever the servers left running (a stream's watcher
    cancelled as it ended runs its cancellation on the loop's next turn)."""
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@contextmanager
def table(game: str, display: str) -> Iterator[Table]:
    running = Table(GAMES[game][0](), display)
    try:
        yield running
    finally:
        running.close()


@dataclass(frozen=True)
class Shown:
    """One answer as the client got it: the text, and the candidate it names."""

    text: str
    turn: int
    candidate: int
    replayed: bool


async def ask(table: Table, chat: str, messages: list[dict[str, Any]], stream: bool,
              key: str | None, reply: Said | None) -> Shown:
    """One request; ``reply`` is what the model answers (None: it must not be asked)."""
    seen = len(table.upstream.seen)
    if reply is not None:
        table.upstream.answers.append(reply.answer())
    headers = {"X-GM-Chat": chat, **({"Idempotency-Key": key} if key else {})}
    body = {"model": "fake-7b", "messages": messages, "stream": stream}
    if stream:
        async with table.http.stream("POST", "/v1/chat/completions", json=body,
                                     headers=headers) as response:
            raw = (await response.aread()).decode()
        assert 200 == response.status_code, raw[:500]
        shown = _streamed(raw)
    else:
        response = await table.http.post("/v1/chat/completions", json=body, headers=headers)
        assert 200 == response.status_code, response.text[:500]
        answer = response.json()
        shown = Shown(answer["choices"][0]["message"]["content"] or "", answer["gm"]["turn"],
                      answer["gm"]["candidate"], answer["gm"]["replayed"])
    assert ([], seen + (reply is not None)) == (table.upstream.answers, len(table.upstream.seen))
    return shown


def _streamed(raw: str) -> Shown:
    """A streamed answer read: ``[DONE]`` last, no error event, the content joined."""
    lines = [line[len("data: "):] for line in raw.split("\n") if line.startswith("data: ")]
    assert "[DONE]" == lines[-1], raw[-500:]
    chunks = [json.loads(line) for line in lines[:-1]]
    assert [] == [c for c in chunks if "error" in c]
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])
    gm = next(c["gm"] for c in chunks if "gm" in c)
    return Shown(text, gm["turn"], gm["candidate"], gm["replayed"])


@dataclass(frozen=True)
class Step:
    """How a request is made: streamed or not, with a retry key or not."""

    stream: bool
    keyed: bool


STEPS = st.builds(Step, st.booleans(), st.booleans())


@dataclass(frozen=True)
class Chat:
    """One chat drawn: the first reply and request, then what follows it."""

    first: Said
    step: Step
    then: str
    """``regenerate``, ``retry``, ``continue`` or ``none``."""
    again: Step
    more: Said
    """A Continue's addition."""
    after: str
    """After a Continue: ``again`` (asked again), ``retry`` (with its key) or ``none``."""
    last: Step


def chats(own: list[str]) -> st.SearchStrategy[Chat]:
    return st.builds(Chat, said(own), STEPS,
                     st.sampled_from(["regenerate", "retry", "continue", "none"]), STEPS,
                     said(own), st.sampled_from(["again", "retry", "none"]), STEPS)


async def played(table: Table, chat: Chat, n: int) -> None:
    """``chat`` played at ``table`` as chat ``hunt-n``, every answer checked."""
    name = f"hunt-{n}"
    table.upstream.answers.clear()  # what an earlier example that failed left
    messages = [{"role": "system", "content": "You are the Game Master."},
                {"role": "user", "content": "I look around."}]
    key = f"k-{n}" if chat.step.keyed or chat.then == "retry" else None
    first = await ask(table, name, messages, chat.step.stream, key, chat.first)
    stored = await table.proxy.engine.candidates(name, 1)
    assert (1, len(stored) - 1, False) == (first.turn, first.candidate, first.replayed)
    assert table.shown(stored[-1]) == first.text
    held = first.text
    """The reply as the chat holds it now, sent back with the next turn."""
    if chat.then == "regenerate":
        other = await ask(table, name, messages, chat.again.stream, None, chat.first)
        stored = await table.proxy.engine.candidates(name, 1)
        assert (2, 1) == (len(stored), other.candidate)
        assert (first.text, first.text) == (other.text, table.shown(stored[1]))
    elif chat.then == "retry":
        again = await ask(table, name, messages, chat.again.stream, key, None)
        assert (first.text, first.candidate, True) == (again.text, again.candidate, again.replayed)
        assert 1 == len(await table.proxy.engine.candidates(name, 1))
    elif chat.then == "continue":
        held += await continued(table, name,
                                [*messages, {"role": "assistant", "content": first.text}],
                                first, chat)
    await next_turn(table, name, [*messages, {"role": "assistant", "content": held},
                                  {"role": "user", "content": "Go on."}])


async def next_turn(table: Table, name: str, messages: list[dict[str, Any]]) -> None:
    """The reply the chat holds, sent back with the next turn, is a stored candidate: turn 2
    plays on it, nothing edited, and the model reads it as the stored resolved text."""
    headers = {"X-GM-Chat": name}
    table.upstream.answers.append(Answer("Next."))
    response = await table.http.post("/v1/chat/completions", headers=headers, json={
        "model": "fake-7b", "messages": messages})
    assert 200 == response.status_code, response.text[:500]
    assert ("2", None) == (response.headers["x-gm-turn"], response.headers.get("x-gm-edited"))
    kept = (await table.proxy.engine.store.get_turn(name, 1))
    assert kept is not None and kept.selected is not None
    selected = (await table.proxy.engine.candidates(name, 1))[kept.selected]
    assert selected.text == table.upstream.seen[-1]["messages"][-3]["content"]


async def continued(table: Table, name: str, messages: list[dict[str, Any]], base: Shown,
                    chat: Chat) -> str:
    """A Continue of ``base``: what it adds is what the stored joined candidate adds to the
    reply as shown (the chat holds the two as one message, and sends that back); the addition."""
    key = f"c-{name}" if chat.again.keyed or chat.after == "retry" else None
    added = await ask(table, name, messages, chat.again.stream, key, chat.more)
    joined = (await table.proxy.engine.candidates(name, 1))[added.candidate]
    assert base.text + added.text == table.shown(joined)
    count = len(await table.proxy.engine.candidates(name, 1))
    if chat.after == "again":  # the same addition: the same dice, the same text
        again = await ask(table, name, messages, chat.last.stream, None, chat.more)
        assert added.text == again.text
    elif chat.after == "retry":
        again = await ask(table, name, messages, chat.last.stream, key, None)
        assert (added.text, added.candidate, True) == (again.text, again.candidate,
                                                       again.replayed)
        assert count == len(await table.proxy.engine.candidates(name, 1))
    return added.text


def errors(logged: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [e for e in logged if e.get("log_level") in ("error", "critical")
            or e["event"] in ("stream-diverged", "proxy-error")]


@pytest.mark.parametrize("display", ["tags", "cards"])
@pytest.mark.parametrize("game", ["hearth", "branches", "fair"])
def test_what_the_chat_is_shown_is_what_is_stored(game: str, display: str) -> None:
    """SPEC §7, §8: whatever the model writes and however its stream is cut, streamed or not, a
    new turn, a regenerate, a Continue or a retry: every answer is a 200, the text is the stored
    candidate as shown, fair dice show a regenerate the same, a retry gets the first answer back
    byte for byte, and the server logs no error."""
    with table(game, display) as running:
        numbers = itertools.count()

        @settings(max_examples=int(os.environ.get("GM_HUNT_EXAMPLES", "25")), deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        @given(chats(GAMES[game][1]))
        def example(chat: Chat) -> None:
            with capture_logs() as logged:
                running.run(played(running, chat, next(numbers)))
            assert [] == errors(logged)

        example()
