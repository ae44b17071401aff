"""Item rulesets refused at import (ITM-IMPORT): each rule and the exact JSON path it reports.

Every case breaks one thing in a parsed copy of a real file and asserts the whole list of paths, so
a refusal also shows that nothing else was blamed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from middleware.rules import validate_ruleset
from tests.rulesets import by_ids, catalog, entry, item_of, raw_json

Raw = dict[str, Any]
Change = Callable[[Raw], object]

AXE = "outfitter/hand-axe"
POULTICE = "outfitter/poultice"
SPADE = "kit/grave-spade"
LITANY = "kit/litany-page"
BELL = "kit/dawn-bell"
HAND_AXE = "wares/hand-axe"
ROPE = "wares/rope"
LANTERN = "wares/lantern"
CAKES = "wares/honey-cake"
WARES_TONIC = "wares/tonic"
INN_BED = "wares/inn-bed"
FALSE_ROPE = "wares/false-rope"
"""The item entries the cases change, by id: the bundled Brass Fair's ``wares`` for the rules any
items block has, the peer's Gravewatch ``kit`` and Ember Roads ``outfitter`` for what only they
have (rarity caps, an enum stat, charges, requirements, a gate)."""


def paths(name: str, change: Change) -> list[str]:
    """The JSON paths the loader blames after ``change`` to ruleset ``name`` (a peer file or a
    bundled id), catalog entries named by id."""
    raw: Raw = raw_json(name)
    change(raw)
    return [by_ids(raw, p.path) for p in validate_ruleset(raw)]


def _block(raw: Raw) -> Raw:
    block: Raw = raw["items"]
    return block


def test_the_compat_files_pass_every_item_check() -> None:
    """ITM-IMPORT-01: the three real files load with every item rule in force."""
    for name in ("gravewatch.json", "ember-roads.json", "ruleset-5e-2014.example.json"):
        assert [] == paths(name, lambda raw: None)


BLOCK_CASES: list[tuple[str, str, Change, list[str]]] = [
    ("ITM-IMPORT-02 no categories", "brass-fair",
     lambda r: _block(r).update(categories=[]), ["$.items.categories"]),
    ("ITM-IMPORT-02 slot count above 20", "brass-fair",
     lambda r: _block(r)["slots"][0].update(count=21), ["$.items.slots[0].count"]),
    ("ITM-IMPORT-02 stat of an unknown type", "brass-fair",
     lambda r: _block(r)["stats"][0].update(type="colour"), ["$.items.stats[0].type"]),
    ("ITM-IMPORT-02 carry.unit over 12 letters", "brass-fair",
     lambda r: _block(r)["carry"].update(unit="stonesweights"), ["$.items.carry.unit"]),
    ("ITM-IMPORT-02 more than 6 currencies", "brass-fair",
     lambda r: _block(r).update(currencies=[
         {"id": f"f{i}", "label": "F", "units": [{"id": f"u{i}", "label": "u", "value": 1}]}
         for i in range(7)]), ["$.items.currencies"]),
    ("ITM-IMPORT-02 two caps for one rarity", "ember-roads.json",
     lambda r: _block(r)["rarityCaps"][1].update(rarity="common"),
     ["$.items.rarityCaps[1].rarity"]),
    ("ITM-IMPORT-02 a cap outside its stat's range", "ember-roads.json",
     lambda r: _block(r)["rarityCaps"][2].update(stats={"guard": 5}),
     ["$.items.rarityCaps[2].stats.guard"]),
    ("ITM-IMPORT-02 a fractional cap on an integer stat", "ember-roads.json",
     lambda r: _block(r)["rarityCaps"][0].update(stats={"guard": 0.5}),
     ["$.items.rarityCaps[0].stats.guard"]),
    ("ITM-IMPORT-03 carry.stat not a number stat", "ember-roads.json",
     lambda r: _block(r)["carry"].update(stat="damage"), ["$.items.carry.stat"]),
    ("ITM-IMPORT-03 perWeight without carry", "brass-fair",
     lambda r: _block(r).pop("carry"), ["$.items.currencies[0].perWeight"]),
    ("ITM-IMPORT-03 carry.limit reads current state", "brass-fair",
     lambda r: _block(r)["carry"].update(limit={"livePool": "grit"}), ["$.items.carry.limit"]),
    ("ITM-IMPORT-05 binding.max reads items", "hearth-and-haul",
     lambda r: _block(r)["binding"].update(max={"itemStat": {"stat": "weight"}}),
     ["$.items.binding.max"]),
    ("ITM-IMPORT-04 smallest coin not worth 1", "brass-fair",
     lambda r: _block(r)["currencies"][0]["units"][0].update(value=2),
     ["$.items.currencies[0].units"]),
    ("ITM-IMPORT-04 two coins of one value", "brass-fair",
     lambda r: _block(r)["currencies"][0]["units"][2].update(value=10),
     ["$.items.currencies[0].units[2].value"]),
    ("ITM-IMPORT-04 a coin id in two families", "brass-fair",
     lambda r: _block(r)["currencies"][1]["units"][0].update(id="copper"),
     ["$.items.currencies[1].units[0].id"]),
    ("ITM-IMPORT-10 two default price levels", "brass-fair",
     lambda r: _block(r)["market"]["prices"][0].update(default=True),
     ["$.items.market.prices"]),
    ("ITM-IMPORT-10 times not above 0", "brass-fair",
     lambda r: _block(r)["market"]["prices"][0].update(times=0),
     ["$.items.market.prices[0].times"]),
    ("ITM-IMPORT-10 buyBack above 1", "brass-fair",
     lambda r: _block(r)["market"].update(buyBack=1.5), ["$.items.market.buyBack"]),
    ("ITM-IMPORT-10 no places", "brass-fair",
     lambda r: _block(r)["market"].update(places=[]), ["$.items.market.places"]),
    ("ITM-IMPORT-10 limited neither number nor dice", "brass-fair",
     lambda r: _block(r)["market"]["sold"][0].update(limited="a few"),
     ["$.items.market.sold[0].limited"]),
    ("ITM-MARKET-09 a seller in an unknown place", "brass-fair",
     lambda r: _block(r)["market"]["sellers"][1].update(place="metropolis"),
     ["$.items.market.sellers[1].place"]),
    ("ITM-IMPORT-11 rolls above 20", "brass-fair",
     lambda r: _block(r)["lootTables"][0].update(rolls=21), ["$.items.lootTables[0].rolls"]),
    ("ITM-IMPORT-11 a loot item that is no ruleset item", "brass-fair",
     lambda r: _block(r)["lootTables"][0]["entries"][0].update(item="wares/musket"),
     ["$.items.lootTables[0].entries[0].item"]),
    ("ITM-IMPORT-11 loot coins the ruleset lacks", "brass-fair",
     lambda r: _block(r)["lootTables"][0]["entries"][1].update(coins="guinea"),
     ["$.items.lootTables[0].entries[1].coins"]),
    ("ITM-IMPORT-11 a filter on an undeclared category", "brass-fair",
     lambda r: _block(r)["lootTables"][0]["entries"][2].update(filter={"category": "gun"}),
     ["$.items.lootTables[0].entries[2].filter.category"]),
    ("ITM-IMPORT-12 a service as starting gear", "brass-fair",
     lambda r: _block(r).update(startingGear=[
         {"id": "carter", "label": "Carter", "lines": [{"item": INN_BED}]}]),
     ["$.items.startingGear[0].lines[0].item"]),
    ("ITM-IMPORT-12 oneOf with one item", "brass-fair",
     lambda r: _block(r).update(startingGear=[
         {"id": "carter", "label": "Carter", "lines": [{"oneOf": [HAND_AXE]}]}]),
     ["$.items.startingGear[0].lines[0].oneOf"]),
]


@pytest.mark.parametrize(("rule", "name", "change", "expected"), BLOCK_CASES,
                         ids=[c[0] for c in BLOCK_CASES])
def test_block_refusals(rule: str, name: str, change: Change, expected: list[str]) -> None:
    """ITM-IMPORT-02..05, -10..12: a broken items block is refused at the key that is wrong."""
    assert expected == paths(name, change)


ENTRY_CASES: list[tuple[str, str, Change, list[str]]] = [
    ("ITM-IMPORT-06 undeclared category", "brass-fair",
     lambda r: item_of(r, HAND_AXE).update(category="tool"), [f"<{HAND_AXE}>.item.category"]),
    ("ITM-IMPORT-06 undeclared rarity", "brass-fair",
     lambda r: item_of(r, HAND_AXE).update(rarity="legendary"), [f"<{HAND_AXE}>.item.rarity"]),
    ("ITM-IMPORT-06 rarity with no rarities declared", "ember-roads.json",
     lambda r: (_block(r).pop("rarities"), _block(r).pop("rarityCaps"),
                [e["item"].pop("rarity") for e in catalog(r, "outfitter")["entries"][1:]]),
     [f"<{AXE}>.item.rarity"]),
    ("ITM-IMPORT-06 undeclared tag", "brass-fair",
     lambda r: item_of(r, HAND_AXE).update(tags=["heirloom", "silvered"]),
     [f"<{HAND_AXE}>.item.tags[1]"]),
    ("ITM-IMPORT-06 stat above its range", "brass-fair",
     lambda r: item_of(r, HAND_AXE)["stats"].update(weight=41),
     [f"<{HAND_AXE}>.item.stats.weight"]),
    ("ITM-IMPORT-06 enum stat value not listed", "ember-roads.json",
     lambda r: item_of(r, AXE)["stats"].update(reach="everywhere"), [f"<{AXE}>.item.stats.reach"]),
    ("ITM-IMPORT-06 undeclared stat", "brass-fair",
     lambda r: item_of(r, HAND_AXE)["stats"].update(sharpness=2),
     [f"<{HAND_AXE}>.item.stats.sharpness"]),
    ("ITM-IMPORT-06 more slots than a character has", "brass-fair",
     lambda r: item_of(r, HAND_AXE)["slots"].update(hands=3), [f"<{HAND_AXE}>.item.slots.hands"]),
    ("ITM-IMPORT-06 stack above 999 999", "brass-fair",
     lambda r: item_of(r, CAKES).update(stack=1_000_000), [f"<{CAKES}>.item.stack"]),
    ("ITM-IMPORT-06 cost in an undeclared coin", "brass-fair",
     lambda r: item_of(r, HAND_AXE)["cost"].update(unit="guinea"),
     [f"<{HAND_AXE}>.item.cost.unit"]),
    ("ITM-IMPORT-06 a fractional cost", "brass-fair",
     lambda r: item_of(r, HAND_AXE)["cost"].update(amount=1.5),
     [f"<{HAND_AXE}>.item.cost.amount"]),
    ("ITM-IMPORT-06 binds without a binding", "brass-fair",
     lambda r: item_of(r, HAND_AXE).update(binds={}), [f"<{HAND_AXE}>.item.binds"]),
    ("ITM-IMPORT-06 charges in a stack above 1", "gravewatch.json",
     lambda r: item_of(r, BELL).update(stack=3), [f"<{BELL}>.item.stack"]),
    ("ITM-IMPORT-06 an item with mechanics", "brass-fair",
     lambda r: entry(r, WARES_TONIC).update(mechanics={"kind": "heal"}),
     [f"<{WARES_TONIC}>.mechanics"]),
    ("ITM-ENTRY-01 an item catalog that feeds a list", "brass-fair",
     lambda r: catalog(r, "wares").update(feeds=["gear"]), ["<wares>.feeds"]),
    ("ITM-ENTRY-01 an item catalog entry without item", "brass-fair",
     lambda r: entry(r, LANTERN).pop("item"), [f"<{LANTERN}>.item"]),
    ("ITM-IMPORT-07 a service without a cost", "brass-fair",
     lambda r: item_of(r, INN_BED).pop("cost"), [f"<{INN_BED}>.item.cost"]),
    ("ITM-IMPORT-07 a service with slots and a stack", "brass-fair",
     lambda r: item_of(r, INN_BED).update(slots={"hands": 1}, stack=2),
     [f"<{INN_BED}>.item.slots", f"<{INN_BED}>.item.stack"]),
    ("ITM-IMPORT-08 five requirements", "gravewatch.json",
     lambda r: item_of(r, SPADE).update(requires=item_of(r, SPADE)["requires"] * 5),
     [f"<{SPADE}>.item.requires"]),
    ("ITM-IMPORT-08 otherwise changes an attribute", "gravewatch.json",
     lambda r: item_of(r, SPADE)["requires"][0]["otherwise"].update(abilities={"sinew": {"add": -1}}),
     [f"<{SPADE}>.item.requires[0].otherwise.abilities"]),
    ("ITM-IMPORT-09 a sheet-entry key in a use", "brass-fair",
     lambda r: item_of(r, WARES_TONIC)["use"].update(cost=[{"pool": "grit", "amount": 1}]),
     [f"<{WARES_TONIC}>.item.use.cost"]),
    ("ITM-IMPORT-09 restore in an attack use", "brass-fair",
     lambda r: item_of(r, WARES_TONIC)["use"].update(kind="attack"),
     [f"<{WARES_TONIC}>.item.use.restore"]),
    ("ITM-IMPORT-09 restore naming the health pool", "ember-roads.json",
     lambda r: item_of(r, POULTICE)["use"].update(restore={"pool": "grit", "amount": {"flat": 1}}),
     [f"<{POULTICE}>.item.use.restore.pool"]),
    ("ITM-IMPORT-09 charges.max above 100", "gravewatch.json",
     lambda r: item_of(r, BELL)["charges"].update(max=101), [f"<{BELL}>.item.charges.max"]),
    ("ITM-IMPORT-09 gate difficulty 0", "gravewatch.json",
     lambda r: item_of(r, LITANY)["use"]["gate"].update(difficulty=0),
     [f"<{LITANY}>.item.use.gate.difficulty"]),
    ("ITM-IMPORT-13 a fake of another category", "brass-fair",
     lambda r: item_of(r, ROPE).update(passesFor=HAND_AXE), [f"<{ROPE}>.item.passesFor"]),
    ("ITM-IMPORT-13 a fake of an item that does not exist", "brass-fair",
     lambda r: item_of(r, ROPE).update(passesFor="wares/iron-rope"),
     [f"<{ROPE}>.item.passesFor"]),
    ("ITM-IMPORT-13 more than 6 tells", "brass-fair",
     lambda r: item_of(r, ROPE).update(passesFor=LANTERN, tells=[
         {"check": {"skill": "scout"}, "dc": 9, "says": "it frays"}] * 7),
     [f"<{ROPE}>.item.tells"]),
    ("ITM-IMPORT-14 tells on an item that is not a fake", "brass-fair",
     lambda r: item_of(r, ROPE).update(tells=[{"check": {"skill": "scout"}, "dc": 9,
                                               "says": "it frays"}]),
     [f"<{ROPE}>.item.tells"]),
    ("ITM-IMPORT-14 foolsReveal naming no way", "brass-fair",
     lambda r: (catalog(r, "wares")["entries"].append(
         {"id": "false-rope", "label": "Coil of rope", "item": {
             "category": "gear", "passesFor": ROPE, "foolsReveal": ["identify"]}})),
     [f"<{FALSE_ROPE}>.item.foolsReveal[0]"]),
]


@pytest.mark.parametrize(("rule", "name", "change", "expected"), ENTRY_CASES,
                         ids=[c[0] for c in ENTRY_CASES])
def test_entry_refusals(rule: str, name: str, change: Change, expected: list[str]) -> None:
    """ITM-IMPORT-06..09, -13, -14 / ITM-ENTRY-01: a broken item is refused at its key."""
    assert expected == paths(name, change)


def test_an_item_outside_an_item_catalog() -> None:
    """ITM-ENTRY-01: ``item`` belongs only in a catalog with ``"holds": "items"``."""
    def change(raw: Raw) -> None:
        entry(raw, "knacks/road-sense")["item"] = {"category": "weapon"}

    assert ["<knacks/road-sense>.item"] == paths("ember-roads.json", change)


def test_an_item_catalog_without_the_items_block() -> None:
    """ITM-BLOCK-01: item catalogs are written in the block's words, so they need the block."""
    def change(raw: Raw) -> None:
        raw["catalogs"].append({"id": "gear", "label": "Gear", "holds": "items", "entries": []})

    assert ["<gear>.holds"] == paths("ruleset-5e-2014.example.json", change)
