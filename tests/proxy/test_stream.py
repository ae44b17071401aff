"""Rewriting a reply while it streams (SPEC §7 proxy): what is sent, when, and that it all adds up
to exactly the stored candidate. No HTTP here: ``ReplyStream`` over ``Engine.previewer``."""

from __future__ import annotations

from collections.abc import Iterable

from middleware.engine import Engine
from middleware.proxy.stream import ReplyStream, priced_at_end
from middleware.rules.registry import load_bundled
from middleware.sheet.party import read_party
from middleware.stores.memory import MemoryStore
from tests.proxy.conftest import ADA, CHECK, ember

ROPE = '[inventory: action="add" item="Rope" who="Ada"]'
REPLY = f"She heaves. {CHECK} It gives. {ROPE} Then [skill_check: skill='Scrap' dc=\"9\"] [place: X"
SEED = 1234


async def ember_engine() -> Engine:
    engine = Engine(MemoryStore())
    games = ember()
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
    engine = await ember_engine()
    for size in range(1, 41):
        _, text = await streamed(engine, REPLY, cut(REPLY, size))
        assert text.endswith(" [place: X")  # never closed: prose, as written


async def test_prose_goes_out_at_once_and_a_tag_only_when_it_closes() -> None:
    """Prose before a tag is sent with the piece that brings it; the tag's start is held until
    its ``]`` arrives, then the resolved tag goes out whole."""
    engine = await ember_engine()
    sent, _ = await streamed(engine, f"Hello {CHECK} bye",
                             ["Hello [skill_ch", 'eck: skill="Scrap" ', 'dc="8"] b', "ye"])
    assert ("Hello ", "") == (sent[0], sent[1])
    assert sent[2].startswith('[skill_check: skill="Scrap" dc="8" rolls="')
    assert sent[2].endswith('"] b')
    assert ("ye", "") == (sent[3], sent[4])


async def test_without_a_market_an_inventory_tag_streams_when_it_closes() -> None:
    """Ember Roads has no market, so nothing can re-price an ``[inventory:]`` later: it is sent
    as soon as it closes."""
    engine = await ember_engine()
    sent, _ = await streamed(engine, f"{ROPE} and on", [ROPE, " and on"])
    assert sent[0].startswith('[inventory: action="add" item="Rope" count="1"')


async def test_where_a_market_prices_goods_an_inventory_tag_waits_for_the_end() -> None:
    """SPEC §3 / ITM-MARKET-20: a buy is priced at the place in force at the END of the reply,
    so with a market an ``[inventory:]`` tag (and all after it) waits for the end; what is sent
    still adds up to the stored candidate, priced where the reply ends."""
    engine = Engine(MemoryStore())
    rules = load_bundled("brass-fair")
    party = read_party(rules, [{"name": "Ada", "player": True,
                                "bag": [{"coins": "crown", "count": 3}]}])
    await engine.create_game("chat", rules, party, seed=11)
    await engine.user("chat", 1, "Shopping.")
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
    engine = await ember_engine()
    reply = " ".join([CHECK] * 100)
    sent, text = await streamed(engine, reply, [f"{CHECK} " for _ in range(99)] + [CHECK])
    assert [1] * 100 == [piece.count("rolls=") for piece in sent[:-1]]
    assert "" == sent[-1]
    assert 100 == text.count("rolls=")
