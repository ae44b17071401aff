"""A stored candidate is bounded in size (issue 16 #10): a reply past ``MAX_CANDIDATE_CHARS`` is
cut there, on every store, and a record says so; a Continue adds only what is left. Before, a
15 MB reply was stored whole, twice (as written and rewritten)."""

from __future__ import annotations

from middleware.engine import Engine
from middleware.paths import extend, reread
from middleware.stores import Store
from middleware.text import MAX_CANDIDATE_CHARS
from tests.proxy.conftest import CHECK
from tests.robust.test_long_chats import start_game

HUGE = f"Ada heaves. {CHECK} " + "x" * 15_000_000
"""A 15 MB reply with a check at its start."""


async def test_a_15_mb_reply_is_kept_to_the_limit_and_says_so(store: Store) -> None:
    """The stored reply is its first 100,000 characters, the check in it resolved (dice 3, 4:
    3 + 4 + 3 = 10 against 8), the last record ``reply-cut``; a fresh engine reads the same."""
    engine = await start_game(store)
    await engine.user("chat", 1, "Pry it.")
    done = await engine.process("chat", 1, HUGE, dice=[3, 4])
    row = await store.get_candidate("chat", 1, 0)
    again = (await Engine(store).candidates("chat", 1))[0]
    assert (HUGE[:MAX_CANDIDATE_CHARS], MAX_CANDIDATE_CHARS) == (row.reply, len(row.reply))
    assert len(row.text) < MAX_CANDIDATE_CHARS + 1000
    assert ["success", None] == [getattr(r, "result", None) for r in done.records]
    assert ("text", "reply-cut") == (done.records[-1].tag, done.records[-1].reason)
    assert (done.text, done.records) == (again.text, again.records)


async def test_a_continue_adds_only_what_the_candidate_has_room_for(store: Store) -> None:
    """A 90,000-character candidate continued by 50,000 characters keeps 100,000 in all (the
    addition cut, ``reply-cut``); continued again, it adds nothing and says so."""
    engine = await start_game(store)
    await engine.user("chat", 1, "Talk.")
    await engine.process("chat", 1, "a" * 90_000)
    first = await extend(engine, "chat", 1, 0, "b" * 50_000)
    second = await extend(engine, "chat", 1, first.joined.candidate, "c" * 10)
    rows = [await store.get_candidate("chat", 1, n) for n in (1, 2)]
    assert [MAX_CANDIDATE_CHARS] * 2 == [len(r.reply) for r in rows]
    assert ("a" * 90_000 + "b" * 10_000, "") == (rows[0].reply, second.added)
    assert ["reply-cut", "reply-cut"] == [d.records[-1].reason for d in (first, second)]


async def test_an_edited_reply_past_the_limit_is_stored_cut(store: Store) -> None:
    """An edited candidate (``reread``) keeps at most the limit too."""
    engine = await start_game(store)
    await engine.user("chat", 1, "Go.")
    done = await reread(engine, "chat", 1, "y" * (MAX_CANDIDATE_CHARS + 5))
    row = await store.get_candidate("chat", 1, done.candidate)
    assert (MAX_CANDIDATE_CHARS, MAX_CANDIDATE_CHARS) == (len(row.reply), len(row.text))
