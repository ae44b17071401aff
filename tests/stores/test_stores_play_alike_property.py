"""One game played on every store at once, and read back cold (SPEC §2, §3): random runs of the
Python API on the real ``Engine`` over the memory store, SQLite and PostgreSQL side by side.

A run is a list of operations drawn in the API's own words: a player's message (``user``), a
reply of the model with real tags of a bundled ruleset (``process``; a new turn, a regenerate, a
regenerate of an earlier turn, with a retry key or not), a swipe back (``select``, refused when a
later turn was built on the one selected), a between-turn event (``edit``, ``rest``, ``gear``,
some refused), a starting kit (``take_gear``), a ``fork`` and play on the fork, and reads
(``state_after``, ``state``, ``kept_after``, ``candidates``, ``retried``). Turns, candidates and
chats are drawn as numbers and read against what the store holds, so a run always means something.
Two hot engines play on each store, as two workers of one proxy do; a hot engine may keep one
chat only, so its caches let go and read back. A run may be played in one batch per store
(``Engine.batch``, as a replay is), kept, or undone and then played again on the same engines.

After every operation (or after the last, in some runs, so the caches are not read between):

1. every store gives the same answer: equal return values (``Processed`` whole: text, records,
   seed, state, ``replayed``), or the same refusal (exception type and message), every refusal one
   of ours (a ``GMError``); and so does a memory store played by a new engine for every call
   (which holds nothing from one call to the next, and plays the run again: determinism);
2. on each store, a cold engine (nothing cached) reads the same ``state_after`` for every turn of
   every chat as each hot engine that played there (or the same refusal), and every store holds
   the same turns and candidates: the engine's caches never stand in for what the store holds.

Dice are fair (``dice="turn"``), as the engine throws them: every store throws the same faces for
the same turn, and no result is compared with a number written here.

``GM_HUNT_EXAMPLES`` (default 30) sets how many runs memory and SQLite play, and a fifth of it
(at least 6) with PostgreSQL too; the default runs are derandomized so CI sees the same ones, a
hunt (the variable set) draws new ones.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from middleware import paths
from middleware.engine import Engine, Processed
from middleware.errors import GameError, GMError
from middleware.rules.registry import load_bundled
from middleware.sheet.party import read_party
from middleware.stores import Store, open_store
from tests.stores.pg import fresh_schema

HUNT = "GM_HUNT_EXAMPLES" in os.environ
EXAMPLES = int(os.environ.get("GM_HUNT_EXAMPLES", "30"))


@dataclass(frozen=True)
class Game:
    """A bundled ruleset, its party, what its model writes and what its players do between turns."""

    ruleset: str
    party: list[dict[str, Any]]
    tags: list[str]
    events: list[dict[str, Any]]
    kits: list[tuple[str | None, str]]


HEARTH = Game(
    "hearth-and-haul",
    [{"name": "Bram", "player": True,
      "sheet": {"v": 1, "build": {"abilities": {"brawn": 1, "wits": 2, "nerve": 2},
                                  "fields": {"warden": 1}}},
      "live": {"pools": {"grit": {"value": 2}}},
      "bag": [{"item": "pack/ward-bell"}, {"item": "pack/ash-spear"},
              {"coins": "shilling", "count": 3}]},
     {"name": "Tilly",
      "sheet": {"v": 1, "build": {"abilities": {"brawn": 3, "wits": 1, "nerve": 0},
                                  "fields": {"carter": 2}}},
      "live": {"pools": {"grit": {"value": 1}}},
      "bag": [{"item": "pack/rope"}, {"item": "pack/tonic", "count": 2}]}],
    ['[skill_check: skill="Haul" dc="8"]', '[skill_check: skill="Ward" dc="7" who="Tilly"]',
     '[inventory: action="add" item="Coil of rope" who="Tilly"]',
     '[inventory: action="remove" item="Coil of rope" who="Tilly"]',
     '[inventory: action="use" item="Ward bell"]',
     '[inventory: action="use" item="Bitter tonic" who="Tilly"]',
     '[inventory: action="give" item="Bitter tonic" who="Tilly" to="Bram"]',
     '[inventory: action="pay" amount="1 shilling"]',
     '[inventory: action="earn" amount="5 pennies" who="Tilly"]',
     "[inventory: action=\"add\" item=\"Smith's anvil\"]",
     '[inventory: action="equip" item="Ash spear"]', '[place: name="Ferry house"]',
     '[sheet: op="damage" pool="grit" amount="1d2"]', '[sheet: op="rest" rest="camp"]',
     "[dice: 2d6]"],
    [{"type": "rest", "who": "Bram", "rest": "camp"},
     {"type": "edit", "who": "Tilly", "live": {"pools": {"grit": {"value": 0}}}},
     {"type": "gear", "who": "Tilly", "kit": "Traveller's bundle", "picks": ["Coil of rope"]},
     {"type": "gear", "who": "Bram", "kit": "Spare rope", "picks": [], "again": True},
     {"type": "gear", "who": "Bram", "kit": "Smith's load", "picks": []},
     {"type": "rest", "who": "Nobody", "rest": "camp"}],
    [("Tilly", "Spare rope"), ("Bram", "Traveller's bundle"), (None, "Smith's load"),
     ("Bram", "No such kit")],
)

FAIR = Game(
    "brass-fair",
    [{"name": "Ada", "player": True,
      "sheet": {"v": 1, "build": {"abilities": {"wits": 3}, "skills": {"haggle": "trained"}}},
      "bag": [{"coins": "ring", "count": 30}, {"item": "wares/hand-axe", "count": 1}]},
     {"name": "Bram", "live": {"pools": {"grit": {"value": 1}}},
      "bag": [{"item": "wares/lantern", "count": 1}, {"item": "wares/tonic", "count": 1}]}],
    ['[skill_check: skill="Haggle" dc="8"]',
     '[place: name="Crossroads" size="roadside stall"]',
     '[place: name="Brassford" size="fair town"]',
     '[place: name="Brassford" size="fair town" day="new"]',
     '[inventory: action="buy" item="Honey cake" who="Ada"]',
     '[inventory: action="buy" item="Honey cake" count="2" who="Bram"]',
     '[inventory: action="buy" item="Hand axe" seller="smith" who="Ada"]',
     '[inventory: action="sell" item="Hand axe" who="Ada"]',
     '[inventory: action="buy" item="Tin lantern" level="dear" who="Ada"]',
     '[inventory: action="pay" amount="3 brass rings" who="Ada"]',
     '[inventory: action="earn" amount="10 coppers"]', '[loot: table="road_finds"]',
     '[loot: table="road_finds" who="Bram"]',
     '[inventory: action="use" item="Bitter tonic" who="Bram"]',
     '[sheet: op="damage" pool="grit" amount="1"]'],
    [{"type": "rest", "who": "Bram", "rest": "camp"},
     {"type": "edit", "who": "Ada", "live": {"pools": {"grit": {"value": 1}}}},
     {"type": "rest", "who": "Ada", "rest": "nap"},
     {"type": "gear", "who": "Ada", "kit": "Pedlar's pack", "picks": []}],
    [("Ada", "Pedlar's pack")],
)

GAMES = {"hearth": HEARTH, "fair": FAIR}


# -- the operations, drawn as numbers -------------------------------------------------------------

@dataclass(frozen=True)
class Say:
    """``user``: the player's message for turn ``last + ahead`` (0: the turn again, 2: too far)."""

    chat: int
    ahead: int


@dataclass(frozen=True)
class Reply:
    """``process``: the model's reply for turn ``last - back`` (-1: the next turn), from the
    game's tags, with a retry key or not; ``streamed``: read first as the proxy reads a streamed
    reply (``previewer``), and stored as read (``resolved=``)."""

    chat: int
    back: int
    tags: tuple[int, ...]
    key: str | None
    streamed: bool = False


@dataclass(frozen=True)
class Swipe:
    """``select``: candidate ``candidate`` (4: one past the last) of the answered turn ``back``
    from the latest."""

    chat: int
    back: int
    candidate: int


@dataclass(frozen=True)
class Between:
    """``event``: one of the game's events after turn ``last - back`` (-2: one too far)."""

    chat: int
    back: int
    event: int


@dataclass(frozen=True)
class Kit:
    """``take_gear``: one of the game's kits, after the latest turn."""

    chat: int
    kit: int


@dataclass(frozen=True)
class Fork:
    """``fork`` at turn ``last - back`` into one of a few names (a name taken is refused)."""

    chat: int
    back: int
    name: int


@dataclass(frozen=True)
class Look:
    """A read of turn ``last - back``: ``state_after``, ``state``, ``kept_after``,
    ``candidates`` or ``retried``."""

    chat: int
    back: int
    read: int


@dataclass(frozen=True)
class Again:
    """A candidate of the answered turn ``back`` from the latest (4: one past the last) played
    on as the proxy does (``paths``): continued (``extend``, with a retry key or not) or edited
    so that its tags change (``reread``), with some of the game's tags."""

    chat: int
    back: int
    candidate: int
    tags: tuple[int, ...]
    key: str | None
    edited: bool


Op = Say | Reply | Swipe | Between | Kit | Fork | Look | Again

CHATS, BACK, KEYS = st.integers(0, 3), st.integers(-1, 3), st.sampled_from([None, None, "k1", "k2"])
TAGS = st.lists(st.integers(0, 14), max_size=4).map(tuple)
REPLY = st.builds(Reply, CHATS, st.sampled_from([-1, -1, 0, 0, 0, 1, 2]), TAGS, KEYS,
                  st.booleans())
SAY = st.builds(Say, CHATS, st.sampled_from([0, 1, 1, 1, 1, 2]))
OPS: st.SearchStrategy[Op] = st.one_of(
    REPLY, REPLY, REPLY, SAY, SAY,
    st.builds(Swipe, CHATS, BACK, st.integers(0, 4)),
    st.builds(Between, CHATS, st.integers(-2, 3), st.integers(0, 6)),
    st.builds(Kit, CHATS, st.integers(0, 3)),
    st.builds(Fork, CHATS, BACK, st.integers(0, 2)),
    st.builds(Look, CHATS, BACK, st.integers(0, 4)),
    st.builds(Again, CHATS, BACK, st.integers(0, 4), TAGS, KEYS, st.booleans()),
)


@dataclass(frozen=True)
class Run:
    """One game: which, how many chats each hot engine keeps, what is done by which worker,
    whether every step is checked or only the last, and in a batch or not: ``kept`` (one batch
    per store, committed), ``undone`` (one batch, rolled back, then the run again outside it on
    the same engines, as a failed replay retried on a long-lived engine)."""

    game: str
    keeps: int
    ops: tuple[tuple[int, Op], ...]
    look_every_step: bool
    batch: str


RUNS = st.builds(Run, st.sampled_from(sorted(GAMES)), st.sampled_from([1, 4096]),
                 st.lists(st.tuples(st.integers(0, 1), OPS), min_size=10, max_size=40).map(tuple),
                 st.booleans(), st.sampled_from(["none", "none", "kept", "undone"]))


# -- a call, as every store is asked it ----------------------------------------------------------

@dataclass(frozen=True)
class Call:
    """An engine method and its arguments, the same for every store."""

    method: str
    args: tuple[Any, ...]
    kwargs: tuple[tuple[str, Any], ...] = ()

    async def on(self, engine: Engine) -> Any:
        step = STEPS.get(self.method)
        if step is not None:
            return await step(engine, *self.args, **dict(self.kwargs))
        return await getattr(engine, self.method)(*self.args, **dict(self.kwargs))


async def streamed(engine: Engine, chat: str, turn: int, reply: str, key: str | None) -> Processed:
    """``process`` as the proxy calls it for a streamed reply: read whole from the preview of
    the turn's start with the turn's seed, then stored as read."""
    preview = await engine.previewer(chat, turn)
    return await engine.process(chat, turn, reply, key=key, seed=preview.seed,
                                resolved=(preview.start, preview(reply)))


STEPS: dict[str, Callable[..., Awaitable[Any]]] = {
    "streamed": streamed, "extend": paths.extend, "reread": paths.reread}
"""The calls that are not ``Engine`` methods: the proxy's ways of storing a candidate."""


async def call_for(op: Op, game: Game, chats: list[str], store: Store) -> Call:
    """The call ``op`` stands for, its numbers read against what ``store`` holds now."""
    chat = chats[op.chat % len(chats)]
    last = await store.last_turn(chat)
    if isinstance(op, Say):
        return Call("user", (chat, last + op.ahead, f"Turn {last + op.ahead}: we go on."))
    turn = turn_of(last, getattr(op, "back", 0), least=0 if isinstance(op, Fork | Look) else 1)
    if isinstance(op, Reply):
        text = " ".join(["The road runs on.", *tags(game, op.tags)])
        return Call("streamed" if op.streamed else "process", (chat, turn, text),
                    (("key", op.key),))
    if isinstance(op, Swipe | Again):
        turn, candidate = await candidate_of(store, chat, last, op.back, op.candidate)
        if isinstance(op, Swipe):
            return Call("select", (chat, turn, candidate))
        if not op.edited:
            return Call("extend", (chat, turn, candidate, " And on. " + " ".join(tags(game, op.tags))),
                        (("key", op.key),))
        rows = await store.list_candidates(chat, turn)
        text = rows[candidate].text if candidate < len(rows) else "Edited."
        return Call("reread", (chat, turn, " ".join([text, *tags(game, op.tags), "(edited)"])))
    if isinstance(op, Between):
        return Call("event", (chat, turn, game.events[op.event % len(game.events)]))
    if isinstance(op, Kit):
        who, kit = game.kits[op.kit % len(game.kits)]
        return Call("take_gear", (chat, who, kit))
    if isinstance(op, Fork):
        return Call("fork", (chat, turn, f"{chat}/{op.name}"))
    reads = [Call("state_after", (chat, turn)), Call("state", (chat,)),
             Call("kept_after", (chat, turn)), Call("candidates", (chat, turn)),
             Call("retried", (chat, turn, "k1"))]
    return reads[op.read % len(reads)]


def tags(game: Game, drawn: Sequence[int]) -> list[str]:
    return [game.tags[i % len(game.tags)] for i in drawn]


async def candidate_of(store: Store, chat: str, last: int, back: int,
                       drawn: int) -> tuple[int, int]:
    """The answered turn ``back`` from the latest (the latest turn if none is) and candidate
    ``drawn`` of it (4: one past the last)."""
    answered = sorted({r.turn for r in await store.replies(chat, 1, last)}) or [max(last, 1)]
    turn = answered[-1 - max(back, 0) % len(answered)]
    count = len(await store.list_candidates(chat, turn))
    return turn, count if drawn == 4 else drawn % max(count, 1)


def turn_of(last: int, back: int, least: int) -> int:
    """Turn ``last - back`` as far back as the chat goes (``least``: its first turn that means
    something here), or past ``last`` for a ``back`` below 0."""
    return last - back if back < 0 else max(least, last - back % (last + 1))


async def answer(call: Call, engine: Engine) -> tuple[str, Any]:
    """What ``call`` gives: ("ok", value), or ("refused", type, message) for one of ours."""
    try:
        return "ok", await call.on(engine)
    except GMError as exc:
        return "refused", (type(exc).__name__, str(exc))


# -- the tables: one store each, two hot engines on it --------------------------------------------

@dataclass
class Table:
    """A store and the two engines (workers) playing on it; ``cold``: a new engine for every
    call instead, which holds nothing from one call to the next."""

    name: str
    store: Store
    workers: tuple[Engine, Engine]
    cold: bool = False

    def worker(self, n: int) -> Engine:
        return Engine(self.store) if self.cold else self.workers[n]


@asynccontextmanager
async def tables(kinds: Sequence[str], keeps: int) -> AsyncIterator[list[Table]]:
    """One table per store kind, each store fresh (PostgreSQL in a schema of its own), and last
    a memory store played with a cold engine per call."""
    async with AsyncExitStack() as stack:
        made = []
        for kind in [*kinds, "cold"]:
            if kind == "postgres":
                url = await stack.enter_async_context(fresh_schema())
            elif kind == "sqlite":
                url = f"sqlite:///{stack.enter_context(tempfile.TemporaryDirectory())}/x.db"
            else:
                url = "memory://"
            store = await open_store(url)
            stack.push_async_callback(store.close)
            made.append(Table(kind, store, (Engine(store, chats=keeps), Engine(store, chats=keeps)),
                              cold=kind == "cold"))
        yield made


async def create(table: Table, game: Game) -> None:
    rules = load_bundled(game.ruleset)
    await table.worker(0).create_game("road", rules, read_party(rules, game.party), seed=11,
                                      dice="turn")


class Undone(Exception):
    """Raised to roll a run's batches back."""


async def play(run: Run, kinds: Sequence[str]) -> None:
    """Play ``run`` on a table per store kind and a cold one, checking after each step. In a
    batch, the first worker plays alone and opens it (``Engine.batch``), as a replay does."""
    async with tables(kinds, run.keeps) as all_tables:
        if run.batch == "none":
            await play_on(run, all_tables)
            return
        try:
            async with AsyncExitStack() as batches:
                for table in all_tables:
                    await batches.enter_async_context(table.workers[0].batch())
                chats = await play_on(run, all_tables, alone=True)
                if run.batch == "undone":
                    raise Undone
            await all_agree(all_tables, chats, "after the batch")
        except Undone:
            for table in all_tables:
                assert {} == await table.store.turns("road", 1, 10**6), table.name
                with pytest.raises(GameError, match="no game for chat 'road'"):
                    await table.store.get_game("road")
            await play_on(run, all_tables)


async def play_on(run: Run, all_tables: list[Table], alone: bool = False) -> list[str]:
    """Create the game and play ``run`` on every table, checking after each step (``alone``:
    the first worker plays every step); the chats played."""
    game = GAMES[run.game]
    chats = ["road"]
    for table in all_tables:
        await create(table, game)
    for step, (drawn, op) in enumerate(run.ops):
        worker = 0 if alone else drawn
        call = await call_for(op, game, chats, all_tables[0].store)
        note(f"step {step}: worker {worker} {call}")
        said = [await answer(call, table.worker(worker)) for table in all_tables]
        for table, got in zip(all_tables[1:], said[1:], strict=True):
            assert said[0] == got, f"step {step} {call}: {all_tables[0].name} and {table.name}"
        if call.method == "fork" and said[0][0] == "ok":
            chats.append(call.args[2])
        if run.look_every_step or step == len(run.ops) - 1:
            await all_agree(all_tables, chats, f"after step {step} {call}", 1 if alone else 2)
    return chats


async def all_agree(all_tables: list[Table], chats: list[str], when: str,
                    workers: int = 2) -> None:
    """Every store holds the same turns and candidates, and on each a cold engine reads every
    turn's state as each hot engine (of the first ``workers``) does."""
    seen: list[Any] = []
    for table in all_tables:
        cold = Engine(table.store)
        held = []
        for chat in chats:
            last = await table.store.last_turn(chat)
            turns = await table.store.turns(chat, 1, last)
            held.append((chat, last, turns, [await cold.candidates(chat, t)
                                              for t in range(1, last + 1)]))
            for turn in range(last + 1):
                read = Call("state_after", (chat, turn))
                truth = await answer(read, cold)
                for n, hot in enumerate(table.workers[:workers]):
                    assert truth == await answer(read, hot), \
                        f"{when}: {table.name} worker {n} reads S({turn}) of {chat!r} stale"
                held.append(truth)
        seen.append(held)
    for table, held in zip(all_tables[1:], seen[1:], strict=True):
        assert seen[0] == held, f"{when}: {all_tables[0].name} and {table.name} hold different games"


def examples(count: int) -> settings:
    return settings(max_examples=count, deadline=None, derandomize=not HUNT, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@examples(EXAMPLES)
@given(RUNS)
def test_memory_and_sqlite_play_one_game_alike(run: Run) -> None:
    """SPEC §2, §3: any run of the API answers the same on the memory store, SQLite and a memory
    store played by a new engine for every call, and each hot engine reads what a cold one reads."""
    asyncio.run(play(run, ["memory", "sqlite"]))


@examples(max(6, EXAMPLES // 5))
@given(RUNS)
def test_postgres_plays_the_game_as_the_others_do(run: Run) -> None:
    """SPEC §2, §3: the same with PostgreSQL beside them, a schema of its own per run."""
    asyncio.run(play(run, ["memory", "sqlite", "postgres"]))
