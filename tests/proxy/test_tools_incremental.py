"""Tool mode answers each Engine call from the reply's own reading (``ReplyStream.read_so_far``:
each tag resolved once, as it closed), not by resolving the whole reply so far again; the store
takes that reading too. Nothing a user sees changes: every ``tool`` message (resolved tag, status,
feedback, reason), every text sent and every stored candidate is byte for byte what the way before
gives, where each call resolved the whole reply so far (``WholeEachCall``) and the store resolved
the reply again. No HTTP: ``ToolTurn`` driven a round at a time, as ``tool_answer`` and
``tool_events`` drive it, over ``Engine.previewer`` (a turn) or ``paths.extender`` (a Continue).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from middleware.engine import Engine, Processed
from middleware.json_input import JsonObject
from middleware.paths import continue_seed, extend, extender
from middleware.pipeline import Preview, ResolvedReply
from middleware.proxy.continued import added
from middleware.proxy.stream import ReplyStream, priced_at_end
from middleware.proxy.tools import MAX_CALLS, ToolTurn, engine_tools
from middleware.proxy.tools.calls import ToolCall
from middleware.records import Record, model_json
from middleware.rules.load import load_ruleset
from middleware.rules.registry import load_bundled
from middleware.sheet.party import read_party
from middleware.state import Character
from middleware.stores.memory import MemoryStore
from tests.branches.helpers import demo_game
from tests.conftest import compat_path
from tests.proxy.conftest import ADA, hearth, whole_resolves

BODY: JsonObject = {"model": "fake-7b", "messages": [{"role": "user", "content": "Go on."}]}


class WholeEachCall(ReplyStream):
    """The way before: the reply never vouches for its own reading, so each call resolves the
    whole reply so far (``ToolTurn`` falls back to its preview) and the store resolves it again."""

    def read_so_far(self) -> None:
        return None

    def finished(self) -> None:
        return None


def call(function: str, /, **arguments: object) -> tuple[str, str]:
    """An Engine call as the model writes it: the function's name and its arguments as JSON."""
    return function, json.dumps(arguments)


COMMON_PROSE = ["Rain drums on the tin roof. ", "She looks up.", "She hums [",
                "and a note [skill_ch", "She weighs it [place: name=", "] and on. ",
                "She reads the sign [place: name='Old ", "' she says. ",
                "[dice: 2d6+1] rolls across. ", "Ouch \ud800 then. "]
"""Prose, and prose that leaves a "[" open before the next call: a header begun, a tag left open
(the call's "]" closes it), a quote left open in one (its end is not certain after the call's "]":
the stream holds it), a tag the model wrote itself, a lone surrogate (the stream holds from it
on)."""
COMMON_CALLS = [call("dice", roll="2d6+1"), ("skill_check", '{"skill": "Scr'),
                call("skill_check", skill="Juggle", dc=8), call("inventory", action="juggle"),
                call("loot", table="x")]


@dataclass(frozen=True)
class Table:
    """A game to play a tool turn in: what its replies are made of, and how it starts."""

    prose: list[str]
    calls: list[tuple[str, str]]
    start: Callable[[], Awaitable[Engine]]
    branches: bool = False
    """The game reads branch blocks, and so does the stream (as the proxy's does)."""
    earlier: str = ""
    """A turn 1 stored first, the tool turn being turn 2."""
    base: str = ""
    """A candidate of turn 1 the tool turn continues (a Continue), else a new turn."""


async def ember_game() -> Engine:
    """The peer's Ember Roads (no market), Ada and Juno, as the stream benchmark plays it."""
    engine = Engine(MemoryStore())
    rules = load_ruleset(compat_path("ember-roads.json"))
    await engine.create_game("chat", rules, [ADA, Character(name="Juno")], seed=3)
    return engine


def demo(name: str) -> Callable[[], Awaitable[Engine]]:
    """The bundled demo game of ``transcripts/<name>.jsonl``, with its options (branch blocks)."""
    async def started() -> Engine:
        line = demo_game(name)
        rules = load_bundled(line["ruleset"])
        engine = Engine(MemoryStore())
        await engine.create_game("chat", rules, read_party(rules, line["party"]),
                                 seed=line["seed"], branches=bool(line.get("options")))
        return engine
    return started


async def hearth_game() -> Engine:
    engine = Engine(MemoryStore())
    await engine.create_game("chat", hearth().ruleset, [ADA], seed=3)
    return engine


EMBER = ["She pries at the grate. ", '[skill_check: skill="Scrap" dc="8"] It gives. ']
EMBER_CALLS = [call("skill_check", skill="Scrap", dc=8),
               call("skill_check", skill="Sneak", difficulty="Hard", who="Ada"),
               call("inventory", action="add", item="Rope", who="Ada"),
               call("inventory", action="remove", item="Rope", count=2),
               call("place", name="Millbrook"), call("sheet", op="damage", amount="1")]
MARKET = ["The widow has honey cakes. ", '[place: name="Crossroads" size="roadside stall"] ']
MARKET_CALLS = [call("skill_check", skill="Haggle", dc=8),
                call("place", name="Crossroads", size="stall"),
                call("place", name="Brassford", size="fair"),
                call("inventory", action="buy", item="Honey cake", who="Ada"),
                call("inventory", action="add", item="Rope", who="Bram"),
                call("sheet", op="damage", amount="1", who="Bram")]
BRANCHES = ["Wren climbs. ", "[on Clean success] The lamp catches. ",
            "[on Miss] She drops to the cobbles. ", "[/branch] Below, Tobiah counts. ",
            '[skill_check: skill="Climb" difficulty="Risky"] ']
BRANCH_CALLS = [call("skill_check", skill="Climb", difficulty="Risky"),
                call("skill_check", skill="Reckon", dc=7, who="Wren Ashby"),
                call("inventory", action="add", item="Lamp oil", who="Wren Ashby"),
                call("place", name="Lockside"),
                call("sheet", op="damage", track="harm", kind="cut", amount="1")]
LONG = ["And the road goes on and on, past the mill and the ford and the long grey wall " * 3]
HEARTH_CALLS = [call("skill_check", skill="Haul", dc=8),
                call("inventory", action="add", item="Road rations", count=2)]

TABLES = {
    "ember": Table(COMMON_PROSE + EMBER, COMMON_CALLS + EMBER_CALLS, ember_game),
    "market": Table(COMMON_PROSE + MARKET, COMMON_CALLS + MARKET_CALLS, demo("market-day")),
    "market-day-going": Table(COMMON_PROSE + MARKET, COMMON_CALLS + MARKET_CALLS,
                              demo("market-day"), earlier='[place: name="Brassford" size="fair"] '
                              '[inventory: action="buy" item="Honey cake" who="Ada"]'),
    "branches": Table(COMMON_PROSE + BRANCHES, COMMON_CALLS + BRANCH_CALLS,
                      demo("branch-demo"), branches=True),
    "continue-near-the-limit": Table(COMMON_PROSE + LONG, COMMON_CALLS + HEARTH_CALLS,
                                     hearth_game, base="Ada waits. " * 9_040),
}
"""Ember Roads (no market); Brass Fair, whose market prices a buy where the reply ends (the
stream holds from the buy on), on a first turn and on a market day going (a ``place`` then hangs
on the place where the reply ends); Lantern and Ledger with branch blocks on; a Continue of a
candidate with 560 characters of room left (a turn's reply may pass that limit)."""


@dataclass(frozen=True)
class Played:
    """A tool turn as the user and the model saw it: each text sent, the next request (every call
    and its ``tool`` message), the stored candidate as bytes, and the rest of it sent at the end."""

    sent: list[str]
    asked: JsonObject
    stored: tuple[str, list[str], str]
    tail: str


Round = tuple[list[str], list[ToolCall]]
"""One upstream answer: the model's text in the pieces it came in, then its Engine calls."""


async def played(table: Table, script: Sequence[Round], seed: int,
                 reader: type[ReplyStream]) -> Played:
    """``script`` played as one tool turn read by ``reader``, stored (a candidate or a Continue),
    the store resolving the reply again only when ``reader`` does not vouch for its reading."""
    engine = await table.start()
    rules = await engine.ruleset("chat")
    preview, store = await _turn(engine, table, seed)
    reply = reader(preview, priced_at_end(rules), branches=table.branches,
                   limit=preview.limit)  # as the proxy reads a Continue: cut at its room
    turn = ToolTurn(BODY, engine_tools(rules), preview, reply)
    sent: list[str] = []
    for pieces, calls in script:
        turn.request()
        sent += [turn.text(piece) for piece in pieces]
        if calls:
            sent.append(turn.answer("".join(pieces), calls))
    done = await store(reply, turn.notes)
    return Played(sent, turn.request(), _exactly(done), reply.tail(done))


Store = Callable[[ReplyStream, Sequence[Record]], Awaitable[Processed]]


async def _turn(engine: Engine, table: Table, seed: int) -> tuple[Preview, Store]:
    """The preview of the tool turn's candidate and how it is stored, as the proxy does both."""
    await engine.user("chat", 1, "Go.")
    if table.base:
        base = await engine.process("chat", 1, table.base, seed=seed)
        row = await engine.store.get_candidate("chat", 1, base.candidate)
        preview = await extender(engine, "chat", 1, base.candidate, continue_seed(seed, 1), row)

        async def continued(reply: ReplyStream, notes: Sequence[Record]) -> Processed:
            return added(await extend(engine, "chat", 1, base.candidate, reply.reply,
                                      key="request-key", notes=notes, base=row,
                                      resolved=reply.finished()))
        return preview, continued
    turn = 1
    if table.earlier:
        await engine.process("chat", 1, table.earlier, seed=seed + 1)
        await engine.user("chat", 2, "And then?")
        turn = 2
    preview = await engine.previewer("chat", turn, seed)

    async def stored(reply: ReplyStream, notes: Sequence[Record]) -> Processed:
        return await engine.process("chat", turn, reply.reply, seed=seed, notes=notes,
                                    resolved=reply.for_store())
    return preview, stored


def _answers(asked: JsonObject) -> list[JsonObject]:
    """The content of each ``tool`` message a request carries."""
    messages = asked["messages"]
    return [json.loads(str(m["content"])) for m in messages if isinstance(m, dict)
            and m["role"] == "tool"] if isinstance(messages, list) else []


def _exactly(done: ResolvedReply | Processed) -> tuple[str, list[str], str]:
    """A resolved or stored reply as bytes: its text, records and state."""
    return done.text, [model_json(r) for r in done.records], model_json(done.state)


def _script(data: st.DataObject, table: Table) -> list[Round]:
    """Up to seven rounds (``MAX_ROUNDS`` is eight: none is the last), each some of the table's
    prose cut anywhere, then up to six of its calls: past ``MAX_CALLS`` calls sometimes."""
    rounds = data.draw(st.lists(st.tuples(
        st.lists(st.sampled_from(table.prose), max_size=3),
        st.lists(st.sampled_from(table.calls), max_size=6),
        st.lists(st.integers(1, 30), min_size=1, max_size=5)), min_size=1, max_size=7))
    numbered = itertools.count()
    return [(_cut("".join(prose), sizes), [ToolCall(f"call_{next(numbered)}", name, arguments)
                                           for name, arguments in calls])
            for prose, calls, sizes in rounds]


def _cut(text: str, sizes: Iterable[int]) -> list[str]:
    pieces: list[str] = []
    at = 0
    for size in itertools.cycle(sizes):
        if at >= len(text):
            return pieces
        pieces.append(text[at:at + size])
        at += size
    return pieces


@pytest.mark.parametrize("name", sorted(TABLES))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_each_call_answered_from_the_reading_so_far_is_what_the_whole_reply_gives(
        name: str, data: st.DataObject) -> None:
    """Any turn of prose and calls (checks, items added, places, bad calls, prose that leaves a
    "[" open before a call, a buy the stream holds for the end, branch blocks, a Continue that
    passes its limit), any dice: the model is told exactly what each call resolved to when the
    whole reply so far was resolved per call, the client is sent the same texts, and the stored
    candidate is the same, byte for byte; it is the whole reply resolved at once."""
    table = TABLES[name]
    script = _script(data, table)
    seed = data.draw(st.integers(0, 2**62))
    new = asyncio.run(played(table, script, seed, ReplyStream))
    before = asyncio.run(played(table, script, seed, WholeEachCall))
    assert before == new
    assert new.stored[0] == "".join(new.sent) + new.tail


async def test_a_turn_of_checks_resolves_no_reply_whole() -> None:
    """``MAX_CALLS`` checks with prose between, in one round as in several: no call resolves
    the reply so far whole, nor does the store; the checks throw the dice of the whole reply
    resolved at once (the stored candidate's)."""
    engine = await ember_game()
    await engine.user("chat", 1, "Go.")
    preview = await engine.previewer("chat", 1, 1234)
    whole: list[str] = []

    def counted(reply: str) -> ResolvedReply:
        whole.append(reply)
        return preview(reply)

    rules = await engine.ruleset("chat")
    reply = ReplyStream(preview, priced_at_end(rules))
    turn = ToolTurn(BODY, engine_tools(rules), counted, reply)
    check = ToolCall("call", "skill_check", '{"skill": "Scrap", "dc": 8}')
    for _ in range(MAX_CALLS // 4):
        turn.request()
        turn.text("She pries at the grate.")
        turn.answer("", [check] * 4)
    results = _answers(turn.request())
    with whole_resolves() as resolved_again:
        done = await engine.process("chat", 1, reply.reply, seed=1234, resolved=reply.for_store())
    assert ([], []) == (whole, resolved_again)
    assert [r.model_dump(mode="json") for r in preview(reply.reply).records] \
        == [r.model_dump(mode="json") for r in done.records]
    assert [r.status for r in done.records] == [r["status"] for r in results]
    assert MAX_CALLS == len(results) == done.text.count("rolls=")

