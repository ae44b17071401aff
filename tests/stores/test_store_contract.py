"""The store contract (SPEC §2, §3, §8), one suite run against every store.

Each test states what a caller of any store sees; the ``store`` fixture yields every kind in turn.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from middleware.errors import GameError, StaleStart, StoreError
from middleware.stores import Store
from middleware.stores.base import CandidateRow, GameRow, ReplyRow, Start, TurnRow
from tests.rulesets import bundled_json


def a_game(chat: str = "millbrook", ruleset: str = "cinder-watch") -> GameRow:
    """A game on a real bundled ruleset, with a state holding the JSON shapes records use."""
    state = {"party": [{"name": "Ada", "bag": [{"item": "Hand axe", "count": 1}]}],
             "place": None, "chance": 0.4375, "note": "ö ✓ \u2028 \"quoted\""}
    return GameRow(chat=chat, ruleset_id=ruleset,
                   ruleset=bundled_json(ruleset), seed=7, options={"dice": "candidate"},
                   state=state)


def a_reply(turn: int = 1, reply: str = "The smith nods.", key: str | None = None,
            chat: str = "millbrook", gold: int = 12) -> CandidateRow:
    return CandidateRow(chat=chat, turn=turn, index=-1, key=key, seed=2**40 + turn, reply=reply,
                        text=reply, records=[{"tag": "place", "status": "resolved", "rolls": [3]}],
                        state={"party": [{"name": "Ada", "gold": gold}]})


async def played(store: Store, turns: int = 1, chat: str = "millbrook") -> None:
    """A game with ``turns`` turns, each with one candidate."""
    await store.create_game(a_game(chat))
    for turn in range(1, turns + 1):
        await store.start_turn(chat, turn, f"turn {turn}")
        await store.add_candidate(a_reply(turn, chat=chat))


# -- games -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["cinder-watch", "lantern-and-ledger", "tidemark-d20"])
async def test_a_game_reads_back_as_written(store: Store, ruleset: str) -> None:
    """A game created on any ruleset reads back equal, its ruleset JSON untouched."""
    game = a_game(ruleset=ruleset)
    await store.create_game(game)
    assert game == await store.get_game("millbrook")


async def test_games_of_one_ruleset_share_it_when_read_back(store: Store) -> None:
    """Games stored with the same ruleset read back with one ruleset value between them (not a
    copy per game), equal to what was written; another ruleset's games get their own."""
    await store.create_game(a_game("one"))
    await store.create_game(a_game("two"))
    await store.create_game(a_game("other", ruleset="tidemark-d20"))
    one, two, other = [await store.get_game(chat) for chat in ("one", "two", "other")]
    assert bundled_json("cinder-watch") == one.ruleset
    assert one.ruleset is two.ruleset
    assert bundled_json("tidemark-d20") == other.ruleset


async def test_a_chat_id_holds_one_game(store: Store) -> None:
    """Creating a second game on a taken chat id is refused and the first game is kept."""
    await store.create_game(a_game())
    other = GameRow("millbrook", "ember-roads", {}, 1, {}, {})
    with pytest.raises(GameError, match="millbrook"):
        await store.create_game(other)
    assert a_game() == await store.get_game("millbrook")


async def test_a_game_never_created_is_an_error(store: Store) -> None:
    """Reading, playing or forking a chat with no game raises GameError naming it."""
    with pytest.raises(GameError, match="nowhere"):
        await store.get_game("nowhere")
    with pytest.raises(GameError, match="nowhere"):
        await store.start_turn("nowhere", 1, "hello")
    with pytest.raises(GameError, match="nowhere"):
        await store.last_turn("nowhere")
    with pytest.raises(GameError, match="nowhere"):
        await store.fork("nowhere", 0, "elsewhere")


async def test_stored_json_cannot_be_changed_through_the_caller(store: Store) -> None:
    """Changing a value after writing it, or one read back, leaves the stored game as it was."""
    game = a_game()
    await store.create_game(game)
    game.state["party"][0]["name"] = "Mallory"
    read = await store.get_game("millbrook")
    read.state["party"].clear()
    assert a_game().state == (await store.get_game("millbrook")).state


async def test_what_is_not_json_is_refused_and_nothing_stored(store: Store) -> None:
    """A state holding something JSON cannot carry is a StoreError; no candidate appears."""
    await played(store, 1)
    bad = CandidateRow("millbrook", 1, -1, None, 1, "r", "t", [], {"when": object()})
    with pytest.raises(StoreError, match="state"):
        await store.add_candidate(bad)
    assert 1 == len(await store.list_candidates("millbrook", 1))
    row = await store.get_turn("millbrook", 1)
    assert row is not None and 0 == row.selected  # the refused select changed nothing


# -- turns -----------------------------------------------------------------------------------------

async def test_a_turn_starts_with_the_players_text_and_nothing_selected(store: Store) -> None:
    """A started turn has the player's text, no selection and no events; last_turn follows."""
    await store.create_game(a_game())
    assert 0 == await store.last_turn("millbrook")
    await store.start_turn("millbrook", 1, "We walk into Millbrook.")
    assert TurnRow("millbrook", 1, "We walk into Millbrook.") == await store.get_turn(
        "millbrook", 1)
    assert 1 == await store.last_turn("millbrook")
    assert None is await store.get_turn("millbrook", 2)


async def test_starting_a_turn_again_keeps_it_and_its_candidates(store: Store) -> None:
    """start_turn on a turn that exists changes nothing: its text and candidates stay."""
    await played(store, 1)
    await store.start_turn("millbrook", 1, "")
    turn = await store.get_turn("millbrook", 1)
    assert ("turn 1", 0) == (_user_text(turn), _selected(turn))
    assert 1 == len(await store.list_candidates("millbrook", 1))


async def test_turns_are_numbered_from_one(store: Store) -> None:
    """Turn 0 is the new game itself and cannot be started."""
    await store.create_game(a_game())
    with pytest.raises(GameError, match="from 1"):
        await store.start_turn("millbrook", 0, "")


# -- candidates ------------------------------------------------------------------------------------

async def test_candidates_are_numbered_in_order_and_the_newest_is_selected(store: Store) -> None:
    """Three replies to one turn are candidates 0, 1, 2; after each, it is the one selected."""
    await store.create_game(a_game())
    await store.start_turn("millbrook", 1, "hi")
    for expected in range(3):
        stored = await store.add_candidate(a_reply(reply=f"reply {expected}"))
        assert expected == stored.index
        turn = await store.get_turn("millbrook", 1)
        assert expected == (turn.selected if turn else None)
        assert stored == await store.get_candidate("millbrook", 1, expected)
    listed = await store.list_candidates("millbrook", 1)
    assert ["reply 0", "reply 1", "reply 2"] == [c.reply for c in listed]
    assert listed[2] == await store.selected_candidate("millbrook", 1)


async def test_a_candidate_reads_back_as_written(store: Store) -> None:
    """Everything given with a candidate (a seed wider than 64 bits too) comes back equal."""
    await played(store, 0)
    await store.start_turn("millbrook", 1, "hi")
    row = CandidateRow("millbrook", 1, -1, "upd-1", 2**70, "[loot: grave_goods]", "[loot: …]",
                       [{"tag": "loot", "fell": [{"item": "Ring", "count": 1}]}, {"x": None}],
                       {"place": {"name": "Millbrook", "day": 3}, "odds": [0.25, 1e-9]})
    stored = await store.add_candidate(row)
    expected = CandidateRow(**{**_fields(row), "index": 0})
    assert expected == stored
    assert expected == await store.get_candidate("millbrook", 1, 0)


async def test_a_swipe_back_selects_an_earlier_candidate(store: Store) -> None:
    """Selecting candidate 0 holds; a new reply after that is candidate 2 and is selected."""
    await played(store, 1)
    await store.add_candidate(a_reply(reply="second"))
    await store.select("millbrook", 1, 0)
    assert "The smith nods." == _reply(await store.selected_candidate("millbrook", 1))
    stored = await store.add_candidate(a_reply(reply="third"))
    assert 2 == stored.index
    assert "third" == _reply(await store.selected_candidate("millbrook", 1))


async def test_turns_read_a_span_of_turns_at_once(store: Store) -> None:
    """``turns`` gives each started turn of the span as ``get_turn`` reads it (player text,
    selection, events), and leaves out turns never started (and another chat's)."""
    await played(store, turns=3)
    await played(store, turns=2, chat="other")
    await store.add_candidate(a_reply(2))
    await store.select("millbrook", 2, 0)
    await store.add_event("millbrook", 3, {"kind": "rest", "who": "Ada"})
    await store.start_turn("millbrook", 4, "no reply yet")
    expected = {turn: row for turn in range(1, 5)
                if (row := await store.get_turn("millbrook", turn)) is not None}
    assert [1, 2, 3, 4] == list(expected)
    assert [0, 0, 0, None] == [row.selected for row in expected.values()]
    assert [{"kind": "rest", "who": "Ada"}] == expected[3].events
    assert "no reply yet" == expected[4].user_text
    assert expected == await store.turns("millbrook", -2, 9)
    assert {2: expected[2], 3: expected[3]} == await store.turns("millbrook", 2, 3)
    assert {} == await store.turns("millbrook", 5, 9)


async def test_replies_read_the_candidates_of_a_span_of_turns_without_their_states(
        store: Store) -> None:
    """``replies`` gives every candidate of the span, by turn and index, with the text and
    records ``list_candidates`` reads (and no state), leaving out another chat's."""
    await played(store, turns=3)
    await played(store, turns=2, chat="other")
    await store.add_candidate(a_reply(2, reply="second"))
    listed = [row for turn in (1, 2, 3) for row in await store.list_candidates("millbrook", turn)]
    assert [(1, 0), (2, 0), (2, 1), (3, 0)] == [(row.turn, row.index) for row in listed]
    assert [ReplyRow(row.turn, row.index, row.text, row.records) for row in listed] \
        == await store.replies("millbrook", -2, 9)
    assert [(2, 0), (2, 1)] == [(r.turn, r.index) for r in await store.replies("millbrook", 2, 2)]
    assert [] == await store.replies("millbrook", 4, 9)


async def test_a_seen_key_returns_the_stored_candidate_and_writes_nothing(store: Store) -> None:
    """A retry with a key the turn has seen gets the first result back; no candidate is added."""
    await played(store, 1)
    first = await store.add_candidate(a_reply(reply="first try", key="update-17", gold=3))
    await store.select("millbrook", 1, 0)
    again = await store.add_candidate(a_reply(reply="retried", key="update-17", gold=99))
    assert first == again
    assert 2 == len(await store.list_candidates("millbrook", 1))
    assert 0 == _selected(await store.get_turn("millbrook", 1))
    assert first == await store.find_candidate("millbrook", 1, "update-17")


async def test_a_candidate_is_stored_only_while_its_start_stands(store: Store) -> None:
    """A writer's start (the turn before as it read it) that no longer holds stores nothing
    (``StaleStart``); one that holds stores the candidate."""
    await played(store, 1)
    await store.start_turn("millbrook", 2, "turn 2")
    with pytest.raises(StaleStart, match="turn 1 of chat 'millbrook' changed"):
        await store.add_candidate(a_reply(2, reply="on a stale start"), Start(1, 1, 0))
    with pytest.raises(StaleStart):
        await store.add_candidate(a_reply(2, reply="an event missed"), Start(1, 0, 1))
    assert [] == await store.list_candidates("millbrook", 2)
    with pytest.raises(GameError, match="has no turn 3"):  # a missing turn is said first
        await store.add_candidate(a_reply(3, reply="no turn"), Start(2, 5, 0))
    stored = await store.add_candidate(a_reply(2, reply="on the start"), Start(1, 0, 0))
    assert (0, 0) == (stored.index, _selected(await store.get_turn("millbrook", 2)))


async def test_a_seen_key_answers_before_a_stale_start(store: Store) -> None:
    """A retry whose start went stale since its first try still gets the stored candidate back
    (the first try stored it; nothing is added)."""
    await played(store, 1)
    await store.start_turn("millbrook", 2, "turn 2")
    first = await store.add_candidate(a_reply(2, reply="first try", key="retry"), Start(1, 0, 0))
    await store.add_event("millbrook", 1, {"type": "rest"})
    again = await store.add_candidate(a_reply(2, reply="retried", key="retry"), Start(1, 0, 0))
    assert (first, True) == (again, again.replayed)
    assert 1 == len(await store.list_candidates("millbrook", 2))


async def test_a_key_belongs_to_its_turn(store: Store) -> None:
    """The same key on another turn is a new candidate; an unseen key finds nothing."""
    await played(store, 2)
    one = await store.add_candidate(a_reply(1, key="k"))
    two = await store.add_candidate(a_reply(2, key="k"))
    assert (1, 1) == (one.index, two.index)
    assert None is await store.find_candidate("millbrook", 1, "never-sent")


async def test_missing_candidates_and_turns_are_errors(store: Store) -> None:
    """Asking for, selecting or adding to something that does not exist raises GameError."""
    await played(store, 1)
    with pytest.raises(GameError, match="candidate 5"):
        await store.get_candidate("millbrook", 1, 5)
    with pytest.raises(GameError, match="candidate 1"):
        await store.select("millbrook", 1, 1)
    with pytest.raises(GameError, match="turn 4"):
        await store.add_candidate(a_reply(4))
    with pytest.raises(GameError, match="turn 4"):
        await store.add_event("millbrook", 4, {"type": "rest"})
    assert [] == await store.list_candidates("millbrook", 4)
    assert None is await store.selected_candidate("millbrook", 4)


async def test_numbers_past_64_bits_find_nothing_or_are_refused_as_ours(store: Store) -> None:
    """A turn or candidate number no store can hold (10**30, from a transcript's ``select``)
    finds nothing or is refused with ``GameError`` / ``StoreError``, never a foreign error
    (SQLite raised its ``OverflowError``, which the replay let escape as a traceback)."""
    await played(store, 1)
    huge = 10**30
    calls = {"select": lambda: store.select("millbrook", 1, huge),
             "select turn": lambda: store.select("millbrook", huge, 0),
             "candidate": lambda: store.get_candidate("millbrook", 1, huge),
             "candidates": lambda: store.list_candidates("millbrook", huge),
             "turn": lambda: store.get_turn("millbrook", huge)}
    for name, call in calls.items():
        try:
            found = await call()
        except (GameError, StoreError):
            continue
        assert found in (None, []), name
    row = await store.get_turn("millbrook", 1)
    assert row is not None and 0 == row.selected  # the refused select changed nothing


async def test_a_chat_id_with_a_lone_surrogate_is_kept_or_refused_as_ours(store: Store) -> None:
    """A chat id holding a lone surrogate (from the Python API: a transcript's ids are cleaned
    as they are read) is stored and found, or refused with ``StoreError``, never a foreign
    error (SQLite raised its ``UnicodeEncodeError``)."""
    try:
        await played(store, 1, chat="\ud800")
    except StoreError:
        with pytest.raises((GameError, StoreError)):
            await store.get_game("\ud800")
        return
    assert "\ud800" == (await store.get_game("\ud800")).chat


async def test_twenty_writers_get_distinct_dense_indexes(store: Store) -> None:
    """Twenty replies stored at once get indexes 0..19, each once, and one of them is selected."""
    await played(store, 0)
    await store.start_turn("millbrook", 1, "hi")
    rows = await asyncio.gather(*(store.add_candidate(a_reply(reply=f"r{n}")) for n in range(20)))
    assert list(range(20)) == sorted(r.index for r in rows)
    listed = await store.list_candidates("millbrook", 1)
    assert {r.reply: r.index for r in rows} == {c.reply: c.index for c in listed}
    assert 19 == _selected(await store.get_turn("millbrook", 1))


async def test_twenty_retries_with_one_key_store_one_candidate(store: Store) -> None:
    """Twenty concurrent calls with the same key all get the one candidate stored."""
    await played(store, 0)
    await store.start_turn("millbrook", 1, "hi")
    rows = await asyncio.gather(*(store.add_candidate(a_reply(key="k", reply=f"r{n}"))
                                  for n in range(20)))
    assert 1 == len({(r.index, r.reply) for r in rows})
    assert 1 == len(await store.list_candidates("millbrook", 1))


# -- events ----------------------------------------------------------------------------------------

async def test_events_are_kept_in_order_with_the_turn(store: Store) -> None:
    """Between-turn events read back in the order added, as written."""
    await played(store, 1)
    rest = {"type": "rest", "who": "Ada", "rest": "night"}
    edit = {"type": "edit", "who": "Ada", "live": {"pools": {"grit": 2.5}, "note": "ö"}}
    await store.add_event("millbrook", 1, rest)
    await store.add_event("millbrook", 1, edit)
    assert [rest, edit] == _events(await store.get_turn("millbrook", 1))


# -- forks -----------------------------------------------------------------------------------------

async def test_a_fork_copies_the_game_up_to_its_turn(store: Store) -> None:
    """A fork at turn 2 of 3 has turns 1-2 with their candidates, selection and events."""
    await played(store, 3)
    await store.add_candidate(a_reply(2, reply="second of two"))
    await store.select("millbrook", 2, 0)
    await store.add_event("millbrook", 2, {"type": "rest", "who": "Ada", "rest": "night"})
    await store.fork("millbrook", 2, "millbrook-b")
    game = await store.get_game("millbrook-b")
    assert ("millbrook", 2, a_game().state) == (game.parent, game.forked_at, game.state)
    assert 2 == await store.last_turn("millbrook-b")
    for turn in (1, 2):
        assert _moved(await store.get_turn("millbrook", turn)) == await store.get_turn(
            "millbrook-b", turn)
        assert [_fields(c) | {"chat": "millbrook-b"} for c in
                await store.list_candidates("millbrook", turn)] == [
            _fields(c) for c in await store.list_candidates("millbrook-b", turn)]
    assert None is await store.get_turn("millbrook-b", 3)


async def test_a_fork_shares_nothing_after_it(store: Store) -> None:
    """Playing on in a fork leaves the original as it was, and the other way round."""
    await played(store, 2)
    await store.fork("millbrook", 1, "branch")
    await store.add_candidate(a_reply(1, chat="branch", reply="only in the branch"))
    await store.add_event("branch", 1, {"type": "rest"})
    await store.start_turn("branch", 2, "a different turn 2")
    await store.add_candidate(a_reply(1, reply="only in the original"))
    assert ["The smith nods.", "only in the original"] == [
        c.reply for c in await store.list_candidates("millbrook", 1)]
    assert ["The smith nods.", "only in the branch"] == [
        c.reply for c in await store.list_candidates("branch", 1)]
    assert [] == _events(await store.get_turn("millbrook", 1))
    assert "turn 2" == _user_text(await store.get_turn("millbrook", 2))
    assert "a different turn 2" == _user_text(await store.get_turn("branch", 2))


async def test_a_fork_refuses_a_taken_chat_or_an_unplayed_turn(store: Store) -> None:
    """Forking onto a chat that has a game, or at a turn not yet played, is a GameError."""
    await played(store, 2)
    await store.create_game(a_game("taken"))
    with pytest.raises(GameError, match="taken"):
        await store.fork("millbrook", 1, "taken")
    with pytest.raises(GameError, match="turn 3"):
        await store.fork("millbrook", 3, "later")
    with pytest.raises(GameError):
        await store.get_game("later")


async def test_a_fork_at_turn_zero_is_the_new_game(store: Store) -> None:
    """Forking at turn 0 copies the game with no turns."""
    await played(store, 2)
    await store.fork("millbrook", 0, "fresh")
    assert (0, a_game().state) == (await store.last_turn("fresh"),
                                   (await store.get_game("fresh")).state)


# -- batches ---------------------------------------------------------------------------------------

async def test_a_batch_keeps_everything_written_in_it(store: Store) -> None:
    """Writes in a batch that ends normally are all stored."""
    async with store.batch():
        await played(store, 3)
    assert 3 == await store.last_turn("millbrook")
    assert 1 == len(await store.list_candidates("millbrook", 3))


async def test_a_batch_that_fails_leaves_nothing_stored(store: Store) -> None:
    """A replay stopped by a bad line (an error inside the batch) leaves no trace of its writes."""
    await played(store, 1, chat="before")
    with pytest.raises(ValueError, match="line 7"):
        async with store.batch():
            await played(store, 2)
            await store.add_candidate(a_reply(1, chat="before", reply="in the batch"))
            raise ValueError("line 7: unknown key 'dicee'")
    with pytest.raises(GameError):
        await store.get_game("millbrook")
    assert 1 == len(await store.list_candidates("before", 1))
    assert 0 == _selected(await store.get_turn("before", 1))


async def test_a_failed_nested_batch_undoes_only_itself(store: Store) -> None:
    """An inner batch that raises undoes its own writes; the outer batch keeps the rest."""
    async with store.batch():
        await played(store, 1)
        with pytest.raises(ValueError):
            async with store.batch():
                await store.add_candidate(a_reply(reply="undone"))
                raise ValueError("inner")
    assert ["The smith nods."] == [c.reply for c in await store.list_candidates("millbrook", 1)]


async def test_other_tasks_wait_for_a_batch(store: Store) -> None:
    """A write from another task during a batch is not swept into it: it lands after it ends."""
    await played(store, 1)
    entered = asyncio.Event()

    async def other_writer() -> CandidateRow:
        await entered.wait()
        return await store.add_candidate(a_reply(reply="other task"))

    writer = asyncio.create_task(other_writer())
    with pytest.raises(ValueError):
        async with store.batch():
            await store.add_candidate(a_reply(reply="in the batch"))
            entered.set()
            await asyncio.sleep(0)
            raise ValueError("stop")
    assert 1 == (await writer).index
    assert ["The smith nods.", "other task"] == [
        c.reply for c in await store.list_candidates("millbrook", 1)]


# -- helpers ---------------------------------------------------------------------------------------

def _fields(row: CandidateRow) -> dict[str, Any]:
    return {name: getattr(row, name) for name in CandidateRow.__slots__}


def _reply(row: CandidateRow | None) -> str | None:
    return row.reply if row else None


def _selected(row: TurnRow | None) -> int | None:
    return row.selected if row else None


def _events(row: TurnRow | None) -> list[Any] | None:
    return row.events if row else None


def _user_text(row: TurnRow | None) -> str | None:
    return row.user_text if row else None


def _moved(row: TurnRow | None) -> TurnRow | None:
    if row is None:
        return None
    return TurnRow("millbrook-b", row.turn, row.user_text, row.selected, row.events)


# -- text is valid Unicode (issue 16 #3) -----------------------------------------------------------

async def test_lone_surrogates_are_replaced_alike_by_every_store(store: Store) -> None:
    """Half a UTF-16 pair (JSON ``"\\ud800"``) in the player's text, the reply, the rewritten text,
    the key, a record and the state: every store keeps U+FFFD in its place and reads back the same
    row, where SQLite raised ``UnicodeEncodeError`` and PostgreSQL a ``StoreError``."""
    await store.create_game(a_game())
    await store.start_turn("millbrook", 1, "I ring \ud800 the bell")
    row = CandidateRow(chat="millbrook", turn=1, index=-1, key="k\udfff", seed=3,
                       reply="It rings \ud800.", text="It rings \ud800.",
                       records=[{"tag": "text", "feedback": "x\ud800"}],
                       state={"party": [{"name": "Ada\udc00"}]})
    stored = await store.add_candidate(row)
    found = await store.find_candidate("millbrook", 1, "k\udfff")
    turn = await store.get_turn("millbrook", 1)
    assert turn is not None and "I ring \ufffd the bell" == turn.user_text
    assert found is not None and stored == found
    assert ("k\ufffd", "It rings \ufffd.", "It rings \ufffd.") == (found.key, found.reply,
                                                                   found.text)
    assert ([{"tag": "text", "feedback": "x\ufffd"}], {"party": [{"name": "Ada\ufffd"}]}) == (
        found.records, found.state)
