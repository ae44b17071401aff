"""Rewriting a reply while it streams (SPEC §7 proxy): what is sent, when, and that it all adds up
to exactly the stored candidate. No HTTP here: ``ReplyStream`` over ``Engine.previewer``."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from middleware.display import for_people, shown_tag
from middleware.engine import Engine, Processed
from middleware.parse import parse_pieces
from middleware.paths import continue_seed, extend, extender
from middleware.pipeline import Preview, ResolvedReply
from middleware.proxy.continued import added
from middleware.proxy.stream import ReplyStream, priced_at_end
from middleware.records import Record, model_json
from middleware.resolve.market.day import market_of
from middleware.rewrite import resolved_text
from middleware.rules.registry import load_bundled
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.sheet.party import read_party
from middleware.state import GameState
from middleware.stores.memory import MemoryStore
from tests.branches.helpers import demo_game
from tests.conftest import ROOT
from tests.proxy.conftest import ADA, CHECK, hearth, whole_resolves

ROPE = '[inventory: action="add" item="Rope" who="Ada"]'
REPLY = f"She heaves. {CHECK} It gives. {ROPE} Then [skill_check: skill='Haul' dc=\"9\"] [place: X"
SEED = 1234


async def hearth_engine() -> Engine:
    engine = Engine(MemoryStore())
    games = hearth()
    await engine.create_game("chat", games.ruleset, [ADA], seed=3)
    await engine.user("chat", 1, "Go.")
    return engine


async def streamed(engine: Engine, reply: str, pieces: Iterable[str]) -> tuple[list[str], str]:
    """(what each piece released, the whole text sent) for ``reply`` fed in ``pieces``, stored."""
    preview = await engine.previewer("chat", 1, SEED)
    stream = ReplyStream(preview, priced_at_end(await engine.ruleset("chat")))
    sent = [stream.feed(piece) for piece in pieces]
    assert reply == stream.reply
    done = await engine.process("chat", 1, reply, seed=SEED)
    sent.append(stream.tail(done))
    assert done.text == "".join(sent)
    return sent, done.text


def cut(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


async def test_every_cut_of_the_reply_streams_the_stored_text() -> None:
    """Whatever size the model's pieces are (1 to 40 characters), the text sent adds up to
    exactly what ``process`` stores with the same seed: tags resolved, an unclosed one as prose."""
    engine = await hearth_engine()
    for size in range(1, 41):
        _, text = await streamed(engine, REPLY, cut(REPLY, size))
        assert text.endswith(" [place: X")  # never closed: prose, as written


async def test_prose_goes_out_at_once_and_a_tag_only_when_it_closes() -> None:
    """Prose before a tag is sent with the piece that brings it; the tag's start is held until
    its ``]`` arrives, then the resolved tag goes out whole."""
    engine = await hearth_engine()
    sent, _ = await streamed(engine, f"Hello {CHECK} bye",
                             ["Hello [skill_ch", 'eck: skill="Haul" ', 'dc="8"] b', "ye"])
    assert ("Hello ", "") == (sent[0], sent[1])
    assert sent[2].startswith('[skill_check: skill="Haul" dc="8" rolls="')
    assert sent[2].endswith('"] b')
    assert ("ye", "") == (sent[3], sent[4])


async def test_without_a_market_an_inventory_tag_streams_when_it_closes() -> None:
    """Hearth and Haul has no market, so nothing can re-price an ``[inventory:]`` later: it is sent
    as soon as it closes."""
    engine = await hearth_engine()
    sent, _ = await streamed(engine, f"{ROPE} and on", [ROPE, " and on"])
    assert sent[0].startswith('[inventory: action="add" item="Rope" count="1"')


async def shopping() -> tuple[Engine, Ruleset]:
    """An engine playing Brass Fair (a market) with Ada and three crowns, turn 1 started."""
    engine = Engine(MemoryStore())
    rules = load_bundled("brass-fair")
    party = read_party(rules, [{"name": "Ada", "player": True,
                                "bag": [{"coins": "crown", "count": 3}]}])
    await engine.create_game("chat", rules, party, seed=11)
    await engine.user("chat", 1, "Shopping.")
    return engine, rules


async def test_where_a_market_prices_goods_an_inventory_tag_waits_for_the_end() -> None:
    """SPEC §3 / ITM-MARKET-20: a buy is priced at the place in force at the END of the reply,
    so with a market an ``[inventory:]`` tag (and all after it) waits for the end; what is sent
    still adds up to the stored candidate, priced where the reply ends."""
    engine, _ = await shopping()
    reply = ('At the stall [place: name="Crossroads" size="roadside stall"]. '
             '[inventory: action="buy" item="Honey cake" who="Ada"] On to town. '
             '[place: name="Millbrook" size="fair town"] Done.')
    sent, _ = await streamed(engine, reply, cut(reply, 7))
    before_end = "".join(sent[:-1])
    assert 'At the stall [place: name="Crossroads" size="stall" result="ok"]. ' == before_end
    assert sent[-1].startswith('[inventory: action="buy" item="Honey cake"')
    assert sent[-1].endswith('[place: name="Millbrook" size="fair" result="ok"] Done.')


async def test_every_tag_of_a_long_reply_streams_as_it_closes() -> None:
    """A reply of 100 checks: each goes out resolved with the piece that closes it, none waits
    for the end (the stream resolves only the tag that closed), and they add up to the stored
    candidate."""
    engine = await hearth_engine()
    reply = " ".join([CHECK] * 100)
    sent, text = await streamed(engine, reply, [f"{CHECK} " for _ in range(99)] + [CHECK])
    assert [1] * 100 == [piece.count("rolls=") for piece in sent[:-1]]
    assert "" == sent[-1]
    assert 100 == text.count("rolls=")


def _gm_texts(*names: str) -> list[str]:
    """The Game Master's replies of the bundled transcripts ``names``."""
    lines = [json.loads(line) for name in names
             for line in (ROOT / "transcripts" / f"{name}.jsonl").read_text("utf-8").splitlines()]
    return [line["text"] for line in lines if line.get("type") == "gm"]


BAD = ["[skill_check: skill=]", '[inventory: action="juggle" item="Rope"]', "[loot: table=\"x\"]",
       '[place: size="huge"]', '[skill_check: skill="Climb" dc="7"', "[dice: 0d0]", "[sheet: op=]",
       "[on success]", "[/branch]", "[place: name=\"Crossroads\" size=\"roadside stall\"]",
       "[dice: 2d6+1]", '[inventory: action="sell" item="Honey cake" who="Ada"]']
NO_MARKET = ['[place: name="Lockside"]', '[inventory: action="buy" item="Lamp oil" who="Wren Ashby"]',
             '[inventory: action="inspect" item="Lamp oil" seller="Fence" who="Wren Ashby"]']
PIECES = {"market-day": _gm_texts("market-day", "money-loot") + BAD,
          "branch-demo": _gm_texts("branch-demo", "harm-demo") + BAD + NO_MARKET}
"""What replies are made of, per game: real Game Master replies and tags the model gets wrong.
Brass Fair (``market-day``) prices buys where the reply ends; the Lantern and Ledger game of
``branch-demo`` reads branch blocks and has no market (places, buys and inspections all the
same)."""


async def _stream_and_store(game: str, earlier: str, reply: str, sizes: list[int], seed: int,
                            cards: bool) -> tuple[str, str]:
    """(the text the client was sent, the stored candidate as the client is shown it), for
    ``reply`` streamed on turn 1, or on turn 2 after ``earlier`` when there is one."""
    engine, rules, branches, turn = await _game(game, earlier, seed)
    preview = await engine.previewer("chat", turn, seed)
    stream = ReplyStream(preview, priced_at_end(rules), shown_tag if cards else resolved_text,
                         branches=branches)
    sent = [stream.feed(reply[at:at + size]) for at, size in _cuts(len(reply), sizes)]
    read = stream.finished()
    with whole_resolves() as resolved_again:
        done = await engine.process("chat", turn, stream.reply, seed=seed,
                                    resolved=None if read is None else (preview.start, read))
    [stored] = await engine.candidates("chat", turn)
    whole = preview(reply)
    assert _exactly(whole) == _exactly(stored)
    assert read is None or _exactly(whole) == _exactly(read)
    ordinary = not _held_for_the_end(reply, rules, branches) \
        and _placed_alike(whole.records, preview.start, rules)
    assert (ordinary, [] if ordinary else [stream.reply]) == (read is not None, resolved_again)
    shown = for_people(done.text, done.records) if cards else done.text
    sent.append(stream.tail(done, shown))
    return "".join(sent), shown


async def _game(game: str, earlier: str, seed: int) -> tuple[Engine, Ruleset, bool, int]:
    """The bundled demo ``game`` at its next turn, with ``earlier`` stored as turn 1 when there
    is one: (engine, ruleset, whether it reads branch blocks, the turn to play)."""
    line = demo_game(game)
    rules, branches = load_bundled(line["ruleset"]), bool(line.get("options"))
    engine = Engine(MemoryStore())
    await engine.create_game("chat", rules, read_party(rules, line["party"]), seed=line["seed"],
                             branches=branches)
    await engine.user("chat", 1, "Go on.")
    if not earlier:
        return engine, rules, branches, 1
    await engine.process("chat", 1, earlier, seed=seed + 1)
    await engine.user("chat", 2, "And then?")
    return engine, rules, branches, 2


def _cuts(length: int, sizes: list[int]) -> list[tuple[int, int]]:
    """(start, size) of each piece of a text of ``length`` cut in ``sizes``, cycling."""
    cuts, at = [], 0
    for size in itertools.cycle(sizes):
        if at >= length:
            return cuts
        cuts.append((at, size))
        at += size
    return cuts


def _exactly(done: ResolvedReply | Processed) -> tuple[str, list[str], str]:
    """A resolved or stored reply as bytes: its text, records and state."""
    return done.text, _json(done.records), model_json(done.state)


def _json(records: Iterable[Record]) -> list[str]:
    return [model_json(record) for record in records]


def _placed_alike(records: Iterable[Record], start: GameState, rules: Ruleset) -> bool:
    """Whether nothing of the reply hangs on the place where it ends (SPEC §3): no ``[place:]``,
    or no market day going at the start and no buy, sale or inspection read where a market
    prices them."""
    tags = {record.tag for record in records}
    return "place" not in tags or (start.market is None and (
        market_of(rules) is None or "inventory" not in tags))


def _held_for_the_end(reply: str, rules: Ruleset, branches: bool) -> bool:
    """Whether the stream holds ``reply`` from some tag to the end: an ``[inventory:]`` tag
    anywhere where a market prices goods."""
    return market_of(rules) is not None and any(
        isinstance(piece, Tag) and piece.name == "inventory"
        for piece in parse_pieces(reply, branches=branches))


@pytest.mark.parametrize("cards", [False, True])
@pytest.mark.parametrize("game", sorted(PIECES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_chunking_of_a_reply_streams_exactly_the_stored_candidate(
        game: str, cards: bool, data: st.DataObject) -> None:
    """A reply made of real Game Master replies and botched tags, cut into pieces of any sizes,
    with any dice: what the client is sent adds up to exactly the stored candidate as shown
    (resolved tags or cards), and the stored candidate is, byte for byte, the whole reply resolved
    at once with those dice: checks and sheet ops as they close, buys priced where the reply ends,
    branch blocks as their check chose; on turn 1, or on turn 2 after another such reply. The
    store takes the stream's own reading, the reply resolved once, unless a tag was held for the
    end or a ``[place:]`` may have hung on where the reply ends (then it resolves the reply
    again); the stream's reading is then that same whole resolve."""
    earlier = " ".join(data.draw(st.lists(st.sampled_from(PIECES[game]), max_size=4)))
    reply = " ".join(data.draw(st.lists(st.sampled_from(PIECES[game]), min_size=1, max_size=6)))
    sizes = data.draw(st.lists(st.integers(1, 40), min_size=1, max_size=12))
    seed = data.draw(st.integers(0, 2**62))
    sent, shown = asyncio.run(_stream_and_store(game, earlier, reply, sizes, seed, cards))
    assert shown == sent


async def test_a_streamed_reply_is_stored_from_its_own_reading_resolved_once() -> None:
    """SPEC §7: when the reply ends, the stream's own reading (each tag resolved as it closed, the
    unclosed one at the end left as prose) is what the store writes: the reply is not resolved a
    second time, and the candidate is byte for byte the whole reply resolved with the same dice.
    Hearth and Haul has no market, so a place named changes nothing the tags streamed did."""
    engine = await hearth_engine()
    preview = await engine.previewer("chat", 1, SEED)
    stream = ReplyStream(preview, priced_at_end(await engine.ruleset("chat")))
    reply = f'In [place: name="Millbrook"]. {REPLY}'
    sent = [stream.feed(piece) for piece in cut(reply, 5)]
    read = stream.finished()
    assert read is not None
    with whole_resolves() as resolved_again:
        done = await engine.process("chat", 1, stream.reply, seed=SEED,
                                    resolved=(preview.start, read))
    sent.append(stream.tail(done))
    whole = preview(reply)
    assert [] == resolved_again
    assert (whole.text, _json(whole.records), model_json(whole.state)) == \
        (done.text, _json(done.records), model_json(done.state))
    assert done.text == "".join(sent)


@pytest.mark.parametrize("reply", [
    f"Ouch \ud800 then {CHECK} done.",
    f"{CHECK} " + "On and on. " * 9100,
], ids=["lone-surrogate", "cut-at-the-limit"])
async def test_a_reading_the_stream_cannot_vouch_for_is_resolved_again(reply: str) -> None:
    """A stream that held text for the store (a lone surrogate, replaced there) or was cut at the
    limit hands the store no reading: the reply is resolved whole, as before, and what was sent
    still adds up to the stored candidate."""
    engine = await hearth_engine()
    preview = await engine.previewer("chat", 1, SEED)
    stream = ReplyStream(preview, priced_at_end(await engine.ruleset("chat")))
    sent = [stream.feed(piece) for piece in cut(reply, 4096)]
    assert stream.finished() is None
    with whole_resolves() as resolved_again:
        done = await engine.process("chat", 1, stream.reply, seed=SEED)
    sent.append(stream.tail(done))
    assert ([stream.reply], done.text) == (resolved_again, "".join(sent))


async def test_a_place_named_on_a_market_day_is_resolved_again() -> None:
    """SPEC §3 / ITM-MARKET-20: with a market day going (a buy at Millbrook last turn), a
    ``[place:]`` keeps today's market or not by where the reply ends, which the tags streamed did
    not know: the store resolves the reply whole, and the client is sent exactly that."""
    engine, rules = await shopping()
    await engine.process("chat", 1, '[place: name="Millbrook" size="fair town"] '
                                     '[inventory: action="buy" item="Honey cake" who="Ada"]')
    await engine.user("chat", 2, "On.")
    preview = await engine.previewer("chat", 2, SEED)
    assert preview.start.market is not None
    stream = ReplyStream(preview, priced_at_end(rules))
    reply = f'On the road. [place: name="Crossroads" size="roadside stall"] {CHECK} Rest.'
    sent = [stream.feed(piece) for piece in cut(reply, 7)]
    assert stream.finished() is None
    with whole_resolves() as resolved_again:
        done = await engine.process("chat", 2, stream.reply, seed=SEED)
    sent.append(stream.tail(done))
    assert ([reply], done.text) == (resolved_again, "".join(sent))


async def streamed_at_turn_2(engine: Engine, reply: str
                             ) -> tuple[Preview, ReplyStream, ResolvedReply]:
    """``reply`` streamed as turn 2 of ``chat`` (the player's line stored first), in pieces of 6:
    its preview, its stream and the stream's own reading of it."""
    await engine.user("chat", 2, "On.")
    preview = await engine.previewer("chat", 2, SEED)
    stream = ReplyStream(preview, priced_at_end(await engine.ruleset("chat")))
    for piece in cut(reply, 6):
        stream.feed(piece)
    read = stream.finished()
    assert read is not None
    return preview, stream, read


async def test_a_reading_made_on_a_start_that_no_longer_stands_is_not_stored() -> None:
    """SPEC §3: another candidate of turn 1 stored while turn 2 streams changes S(1); the stream's
    reading was made on the old S(1), so the store resolves the reply again on the new one (the
    rope it adds is the second in the bag, not the first)."""
    engine = await hearth_engine()
    await engine.process("chat", 1, "First.", seed=SEED)
    reply = f"She climbs. {CHECK} Then {ROPE} more."
    preview, stream, read = await streamed_at_turn_2(engine, reply)
    assert 'now="1"' in read.text
    await engine.process("chat", 1, f"Second. {ROPE}", seed=SEED)
    with whole_resolves() as resolved_again:
        done = await engine.process("chat", 2, stream.reply, seed=SEED,
                                    resolved=(preview.start, read))
    now = await engine.previewer("chat", 2, SEED)
    assert ([reply], now(reply).text) == (resolved_again, done.text)
    assert 'now="2"' in done.text


async def test_a_reading_made_on_a_start_read_back_equal_is_stored_as_read() -> None:
    """The engine lets the chat's states go while its reply streams (more chats in play than it
    keeps, or another worker's turns): the store reads S(1) back as a new object. It is the state
    the stream read on, so the stream's reading is stored, not resolved again, and it is byte for
    byte the whole reply resolved on that state."""
    engine = Engine(MemoryStore(), chats=1)
    for chat in ("chat", "other"):
        await engine.create_game(chat, hearth().ruleset, [ADA], seed=3)
        await engine.user(chat, 1, "Go.")
    await engine.process("chat", 1, f"First. {ROPE}", seed=SEED)
    reply = f"She climbs. {CHECK} Then {ROPE} more."
    preview, stream, read = await streamed_at_turn_2(engine, reply)
    for turn in range(1, 6):  # the other chat's turns push this chat's states out
        await engine.process("other", turn, f"Elsewhere. {CHECK}", seed=SEED)
        await engine.user("other", turn + 1, "On.")
    with whole_resolves() as resolved_again:
        done = await engine.process("chat", 2, stream.reply, seed=SEED,
                                    resolved=(preview.start, read))
    whole = (await engine.previewer("chat", 2, SEED))(reply)
    assert [] == resolved_again
    assert (whole.text, _json(whole.records), model_json(whole.state)) == \
        (done.text, _json(done.records), model_json(done.state))
    assert 'now="2"' in done.text


async def test_a_continue_streams_each_check_with_the_dice_it_is_stored_with() -> None:
    """A Continue adding three checks to a stored candidate, streamed a check at a time: each goes
    out as it closes, and what was sent is exactly the addition stored (its own dice, thrown on
    from the first check to the last, as ``extend`` throws them)."""
    engine = await hearth_engine()
    base = await engine.process("chat", 1, f"She starts. {CHECK}", seed=SEED)
    more = f" Again {CHECK} and again {CHECK} and once more {CHECK}."
    preview = await extender(engine, "chat", 1, base.candidate,
                             continue_seed(base.seed, 1))
    stream = ReplyStream(preview, priced_at_end(await engine.ruleset("chat")),
                         limit=preview.limit)
    sent = [stream.feed(piece) for piece in cut(more, 9)]
    done = await extend(engine, "chat", 1, base.candidate, stream.reply)
    sent.append(stream.tail(added(done)))
    assert done.added == "".join(sent)
    assert 3 == "".join(sent[:-1]).count("rolls=")
