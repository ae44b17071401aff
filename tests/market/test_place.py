"""``[place:]``: the scene's place and market size, and the place in force (ITM-MARKET-14..18,
SPEC §3, §6) on Gravewatch's market (compat file)."""

from __future__ import annotations

from typing import Any

import pytest

from middleware.character.summary import state_summary
from middleware.engine import Engine
from middleware.pipeline import resolve_reply
from middleware.resolve import dispatch
from middleware.resolve.market.day import pricing_place
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, Place, Stack
from middleware.stores.memory import MemoryStore
from tests.conftest import compat_path
from tests.market.day_helpers import context, gravewatch, probe, start

GRAVEWATCH = gravewatch()


def answer(reply: str, ruleset: Ruleset = GRAVEWATCH) -> tuple[str, dict[str, Any], Place | None]:
    """The rewritten reply, the first record's JSON and the place in force afterwards."""
    done = resolve_reply(reply, start(ruleset), context(ruleset))
    return done.text, done.records[0].model_dump(), done.state.place


def test_a_size_by_label_sets_the_place_and_answers_with_the_place_id() -> None:
    """ITM-MARKET-14/15, SPEC §6: "market town" is the size ``town``; the tag is answered on the
    spot as ``[place: name="…" size="<place id>" result="ok"]``."""
    text, record, place = answer('[place: name="Millbrook" size="market town"] They arrive.')
    assert '[place: name="Millbrook" size="town" result="ok"] They arrive.' == text
    assert Place(name="Millbrook", size="town", day=1) == place
    assert ("resolved", "town", "market town", 1, True) == (
        record["status"], record["size"], record["size_label"], record["day"], record["market"])


def test_a_size_by_id_or_label_ignores_case_and_punctuation() -> None:
    """Ambiguity 27 / SPEC §1b: ``Market-Town`` and ``CITY`` name sizes like their label and id."""
    assert "town" == answer("[place: name=Millbrook size=Market-Town]")[1]["size"]
    assert "city" == answer("[PLACE: name='Lantern Hill' size=CITY]")[1]["size"]


def test_an_unknown_size_is_refused_and_the_place_in_force_stays() -> None:
    """ITM-MARKET-15, Ambiguity 9: a size the ruleset lacks refuses the whole tag (unknown-size);
    the place named before stays in force."""
    done = resolve_reply('[place: name="Millbrook" size="village"] '
                         '[place: name="Ashford" size="metropolis"]',
                         start(GRAVEWATCH), context(GRAVEWATCH))
    assert ('[place: name="Millbrook" size="village" result="ok"] [place: name="Ashford" '
            'size="metropolis" result="refused" reason="unknown-size"]') == done.text
    assert ("refused", "unknown-size") == (done.records[1].status, done.records[1].reason)
    assert Place(name="Millbrook", size="village", day=1) == done.state.place


def test_a_place_without_a_size_has_no_market() -> None:
    """ITM-MARKET-14, Ambiguity 9: a road or the wilds is named without ``size``; it is in force
    but has no market."""
    text, record, place = answer('[place: name="The north road"]')
    assert '[place: name="The north road" result="ok"]' == text
    assert (Place(name="The north road"), False) == (place, record["market"])
    assert "The north road: no market here." == record["feedback"]


def test_a_ruleset_without_a_market_takes_places_but_no_sizes() -> None:
    """ITM-MARKET-15: Ember Roads has no market, so every size is one it does not have."""
    ember = load_ruleset(compat_path("ember-roads.json"))
    assert "unknown-size" == answer('[place: name="Ford" size="town"]', ember)[1]["reason"]
    assert Place(name="Ford") == answer('[place: name="Ford"]', ember)[2]


def test_the_bare_words_of_a_tag_name_the_place_and_no_name_is_refused() -> None:
    """SPEC §1b tolerance: ``[place: Millbrook]`` names Millbrook; a tag naming no place is refused
    with our code ``no-name`` and changes nothing."""
    assert Place(name="Millbrook") == answer("[place: Millbrook]")[2]
    text, record, place = answer('[place: size="town"]')
    assert ('[place: size="town" result="refused" reason="no-name"]', "no-name", None) == (
        text, record["reason"], place)


def test_results_the_model_wrote_are_not_believed() -> None:
    """SPEC §3/§6: a tag imitating a resolved one is resolved afresh."""
    text = answer('[place: name="Millbrook" size="town" result="refused" reason="unknown-size"]')[0]
    assert '[place: name="Millbrook" size="town" result="ok"]' == text


def test_a_long_name_is_cut_to_a_hundred_characters() -> None:
    """SPEC §8: bad input is bounded; the place keeps the first 100 characters of its name."""
    place = answer(f'[place: name="{"M" * 300}"]')[2]
    assert "M" * 100 == (place.name if place else None)


def test_a_place_named_later_in_the_reply_is_where_an_earlier_tag_is_priced(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """ITM-MARKET-20, SPEC §3, Ambiguity 11: a buy is priced at the place in force at the end of
    the reply, so a tag before ``[place:]`` already reads it through ``pricing_place``; the place in
    force at that moment is still the old one."""
    seen: list[tuple[Place | None, Place | None]] = []
    monkeypatch.setitem(dispatch.RESOLVERS, "loot",
                        probe(seen, lambda state, ctx: (state.place, pricing_place(state, ctx))))
    resolve_reply('[loot: buy] [place: name="Millbrook" size="town"] [place: name="Ashford" '
                  'size="hamlet"]', start(GRAVEWATCH), context(GRAVEWATCH))
    assert [(None, Place(name="Ashford", size="hamlet", day=1))] == seen


def test_pricing_reads_the_place_in_force_when_the_reply_names_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """ITM-MARKET-16: without a ``[place:]`` in the reply, the place in force prices the buy; a
    refused ``[place:]`` never moves it."""
    seen: list[Place | None] = []
    monkeypatch.setitem(dispatch.RESOLVERS, "loot", probe(seen, pricing_place))
    here = start(GRAVEWATCH).model_copy(update={"place": Place(name="Millbrook", size="town")})
    resolve_reply('[loot: buy] [place: name="Ashford" size="nowhere"]', here, context(GRAVEWATCH))
    assert [Place(name="Millbrook", size="town")] == seen


async def test_the_place_in_force_comes_from_the_selected_replies_only() -> None:
    """ITM-MARKET-16..18: the last place answered in the selected replies stays in force; a
    regenerated reply reads only what came before it; player text never counts."""
    engine = Engine(MemoryStore())
    await engine.create_game("chat", GRAVEWATCH, seed=7)
    await engine.user("chat", 1, '[place: name="Player Town" size="city"] We walk on.')
    first = await engine.process("chat", 1, "The road is long.")
    assert first.state.place is None
    await engine.process("chat", 1, '[place: name="Millbrook" size="town"] You arrive.')
    await engine.user("chat", 2, "We look around.")
    regenerated_a = await engine.process("chat", 2, '[place: name="Ashford" size="hamlet"]')
    regenerated_b = await engine.process("chat", 2, "The market is busy.")
    assert Place(name="Ashford", size="hamlet", day=1) == regenerated_a.state.place
    assert Place(name="Millbrook", size="town", day=1) == regenerated_b.state.place
    await engine.select("chat", 2, 0)
    assert "Ashford" == (await engine.state("chat")).place.name  # type: ignore[union-attr]


def test_the_json_summary_shows_the_place_in_force() -> None:
    """SPEC §7: the ``--json`` state summary carries the place, its size id and its day."""
    done = resolve_reply('[place: name="Millbrook" size="market town"]', start(GRAVEWATCH),
                         context(GRAVEWATCH))
    expected = {"name": "Millbrook", "size": "town", "day": 1}
    assert expected == state_summary(GRAVEWATCH, done.state)["place"]


@pytest.mark.parametrize(("before", "after", "expected"), [
    (None, "village", 'result="ok" now="1" price="3 shillings"'),
    ("hamlet", "village", 'result="ok" now="1" price="3 shillings"'),
    ("village", "hamlet", 'result="refused" reason="not-here"'),
])
def test_a_place_later_in_the_reply_prices_an_earlier_buy(
        monkeypatch: pytest.MonkeyPatch, before: str | None, after: str,
        expected: str) -> None:
    """ITM-MARKET-20/23, SPEC §3, Ambiguity 11: the grave spade (sold from a village up) is priced
    where the reply ends: bought with no place yet or in a hamlet when the reply ends in a village,
    refused ``not-here`` in a village when the reply ends in a hamlet."""
    from middleware.resolve.inventory import ACTIONS
    from middleware.resolve.inventory.buy import buy

    monkeypatch.setitem(ACTIONS, "buy", buy)
    ada = Character(name="Ada", player=True, bag=(Stack(coins="shilling", count=5),))
    here = Place(name="Ashford", size=before) if before else None
    state = start(GRAVEWATCH).model_copy(update={"party": (ada,), "place": here})
    done = resolve_reply('[inventory: action="buy" item="Grave spade" who="Ada"] '
                         f'[place: name="Millbrook" size="{after}"]', state, context(GRAVEWATCH))
    assert expected in done.text.split("] [place:")[0]
