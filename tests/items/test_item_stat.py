"""``itemStat``: a sheet number read over the items a character holds (ITM-SHEET-01..11).

Juno's bag (SHEET-TRN-12) on Ember Roads: a worn leather coat (bulk 3, guard 1, body slot), a
held hand axe (bulk 1, hands, tag thrown), a carried waystone (no stats), two road rations (bulk 1
each) and coins. Reads go through the sheet (``SheetView.ref``) as a derived value would.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from middleware.character.check import view_for
from middleware.rules.catalogs import CatalogEntry
from middleware.rules.load import load_ruleset, validate_ruleset
from middleware.rules.refs import ValueRef
from middleware.state import Character, GameState, InventedItem
from tests.conftest import compat_json
from tests.sheet.sheet_helpers import JUNO

EMBER = load_ruleset(compat_json("ember-roads.json"))


def read(item_stat: dict[str, Any], bag: list[dict[str, Any]] | None = None) -> float:
    """What ``{"itemStat": item_stat}`` reads on Juno's sheet (with ``bag`` instead of hers)."""
    data = copy.deepcopy(JUNO)
    if bag is not None:
        data["bag"] = bag
    view = view_for(EMBER, Character.model_validate(data))
    return view.ref(ValueRef.model_validate({"itemStat": item_stat}))


@pytest.mark.parametrize(("item_stat", "expected"), [
    ({"stat": "bulk", "from": "worn", "pick": "sum"}, 4),
    ({"stat": "bulk", "from": "carried", "pick": "sum"}, 2),
    ({"stat": "bulk", "from": "all", "pick": "sum"}, 6),
    ({"stat": "bulk", "pick": "max"}, 3),
    ({"stat": "bulk", "pick": "min"}, 1),
    ({"pick": "count"}, 5),
    ({"pick": "count", "from": "worn"}, 2),
    ({"stat": "guard", "pick": "count"}, 1),
    ({"stat": "bulk", "pick": "sum", "slot": "hands"}, 1),
    ({"stat": "guard", "pick": "sum", "category": "armor"}, 1),
    ({"pick": "count", "tag": "thrown"}, 1),
])
def test_reads_over_juno_s_bag(item_stat: dict[str, Any], expected: float) -> None:
    """ITM-SHEET-02..05: worn is the equipped coat and axe; carried the rest; sum multiplies by
    pieces (rations 2 x 1); max/min read single values; count counts pieces (coins never,
    ITM-SHEET-10), only of items giving the stat when one is named; filters keep slot, category,
    tag."""
    assert expected == read(item_stat)


@pytest.mark.parametrize(("item_stat", "bag", "expected"), [
    ({"stat": "guard", "from": "carried", "default": 5}, None, 5),
    ({"stat": "bulk", "pick": "max", "default": -1}, [], -1),
    ({"pick": "count"}, [{"plain": "Rope", "count": 3}, {"coins": "mark", "count": 9}], 0),
    ({"stat": "bulk"}, [{"item": "outfitter/waystone"}], 0),
])
def test_default_when_nothing_gives_the_stat(item_stat: dict[str, Any],
                                             bag: list[dict[str, Any]] | None,
                                             expected: float) -> None:
    """ITM-SHEET-06/10: ``default`` (0 when omitted) when no item is selected or none gives the
    stat; plain items and coins are never read."""
    assert expected == read(item_stat, bag)


def test_guard_follows_the_coat_on_and_off() -> None:
    """ITM-SHEET-08/11 / SHEET-TRN-13: Guard (6 + Wits + worn guard) is 9 with the coat on, 8
    with it packed, 8 on a sheet nobody holds anything with."""
    packed = [dict(s, equipped=False) if s.get("item") == "outfitter/leather-coat" else s
              for s in JUNO["bag"]]
    guard = {"derived": "guard"}
    on = read_ref(guard, JUNO["bag"])
    off = read_ref(guard, packed)
    bare = view_for(EMBER, None).ref(ValueRef.model_validate(guard))
    assert (9, 8, 6) == (on, off, bare)


def read_ref(ref: dict[str, Any], bag: list[dict[str, Any]]) -> float:
    data = copy.deepcopy(JUNO)
    data["bag"] = bag
    return view_for(EMBER, Character.model_validate(data)).ref(ValueRef.model_validate(ref))


def test_items_never_move_maxima() -> None:
    """ITM-SHEET-07 / SHEET-REF-16: a pool maximum is worked out with nobody holding anything,
    even where play reads the same derived value with items."""
    data = compat_json("ember-roads.json")
    data["sheet"]["derived"].append({"id": "armoured_grit", "label": "Armoured grit",
                                     "op": "sum", "of": [{"const": 4}, {"derived": "guard"}]})
    assert ["$.sheet.live.pools[0].max"] == [p.path for p in _refusals(
        data, lambda d: d["sheet"]["live"]["pools"][0].update(max={"derived": "armoured_grit"}))]


def _refusals(data: Any, change: Any) -> Any:
    change(data)
    return validate_ruleset(data)


@pytest.mark.parametrize(("where", "change"), [
    ("$.sheet.live.pools[1].max",
     lambda d: d["sheet"]["live"]["pools"][1].update(max={"itemStat": {"stat": "bulk"}})),
    ("$.items.carry.encumberedAbove",
     lambda d: d["items"]["carry"].update(encumberedAbove={"derived": "bulk_carried"})),
    ("$.items.carry.limit",
     lambda d: d["items"]["carry"].update(limit={"itemStat": {"stat": "bulk"}})),
])
def test_item_reads_refused_where_play_cannot_change(where: str, change: Any) -> None:
    """ITM-SHEET-07 / ITM-IMPORT-05: a pool max and the carry numbers may not read items, not
    even through a derived value."""
    assert [where] == [p.path for p in _refusals(compat_json("ember-roads.json"), change)]


def test_invented_items_are_read_like_catalog_items() -> None:
    """ITM-SHEET-10 / SHEET-REF-12: an item the GM invented in the ruleset's words counts (its
    worn guard) in the sheet of whoever holds it, stored under its ``invented/`` ref."""
    charm = InventedItem(ref="invented/ember-charm", entry=CatalogEntry.model_validate(
        {"id": "ember-charm", "label": "Ember charm", "item": {
            "category": "armor", "slots": {"body": 1}, "stats": {"bulk": 2, "guard": 2}}}))
    member = Character.model_validate(
        {"name": "Pell", "bag": [{"item": "invented/ember-charm", "equipped": True}]})
    state = GameState(ruleset=EMBER.id, party=(member,), invented=(charm,))
    guard = ValueRef.model_validate({"derived": "guard"})
    with_state = view_for(EMBER, member, state=state).ref(guard)
    without = view_for(EMBER, member).ref(guard)
    assert (8.0, 6.0) == (with_state, without)


def _guard_ref(**item_stat: Any) -> Any:
    """Ember Roads with Guard's itemStat (``$.sheet.derived[i].of[2]``) replaced."""
    data = compat_json("ember-roads.json")
    index = next(i for i, d in enumerate(data["sheet"]["derived"]) if d["id"] == "guard")
    data["sheet"]["derived"][index]["of"][2] = {"itemStat": item_stat}
    return index, data


@pytest.mark.parametrize(("item_stat", "key"), [
    ({"stat": "damage", "pick": "sum"}, "pick"),
    ({"stat": "swing", "pick": "max"}, "pick"),
    ({"stat": "weight", "pick": "count"}, "stat"),
    ({"stat": "guard", "slot": "feet"}, "slot"),
    ({"stat": "guard", "category": "jewel"}, "category"),
    ({"stat": "guard", "tag": "silvered"}, "tag"),
])
def test_item_stat_names_what_the_block_declares(item_stat: dict[str, Any], key: str) -> None:
    """ITM-IMPORT-05 / ITM-SHEET-04/05: sum, max and min need a number stat; the stat, slot,
    category and tag exist in the items block."""
    index, data = _guard_ref(**item_stat)
    assert [f"$.sheet.derived[{index}].of[2].itemStat.{key}"] == [
        p.path for p in validate_ruleset(data)]


def test_a_count_of_a_text_stat_is_allowed() -> None:
    """ITM-SHEET-04: ``count`` may name any stat (items that give a damage die)."""
    _, data = _guard_ref(stat="damage", pick="count")
    assert [] == validate_ruleset(data)


def test_a_scaled_column_may_not_read_items() -> None:
    """ITM-SHEET-07 / SHEET-REF-16: a catalog row's scaled number is worked out before play, so
    it may not read items, directly or through a derived value."""
    data = compat_json("ember-roads.json")
    paths = [(c, e, r) for c, cat in enumerate(data["catalogs"])
             for e, entry in enumerate(cat.get("entries", ()))
             for r, row in enumerate(entry.get("rows", ())) if "scaled" in row]
    c, e, r = paths[0]
    row = data["catalogs"][c]["entries"][e]["rows"][r]
    row["scaled"]["uses"]["from"] = {"derived": "bulk_carried"}
    assert [f"$.catalogs[{c}].entries[{e}].rows[{r}].scaled.uses.from"] == [
        p.path for p in validate_ruleset(data)]
