"""Names find ruleset items and coins the way bags need them (ITM-BAG-01..09, ITM-MONEY-08)."""

from __future__ import annotations

from typing import Any

from middleware.items import item_index
from middleware.items.index import STANDARD_STACK
from middleware.rules import load_ruleset
from tests.conftest import compat_json
from tests.rulesets import compat_ruleset as ruleset
from tests.rulesets import item_of


def test_an_item_by_its_catalog_ref() -> None:
    """ITM-BAG-01: a stack stores ``<catalog>/<entry>``, which finds the item."""
    found = item_index(ruleset("ember-roads.json")).by_ref("outfitter/hand-axe")
    assert found is not None
    assert ("Hand axe", "outfitter", "weapon") == (found.label, found.catalog,
                                                   found.item.category)


def test_a_label_without_case_accents_or_punctuation() -> None:
    """ITM-BAG-03: a name equal to an item's label, whatever its case, adds that item."""
    index = item_index(ruleset("gravewatch.json"))
    for name in ("Lantern-keeper's coat", "LANTERN KEEPERS COAT", "lantern-keepér's coat",
                 "kit/lantern-coat"):
        found = index.find(name)
        assert "kit/lantern-coat" == (found.ref if found else None)
    assert None is index.find("Lantern coat of the dawn")


def test_the_first_catalog_wins_a_shared_label() -> None:
    """ITM-BAG-04: two items with one label resolve to the one listed first."""
    raw: dict[str, Any] = compat_json("ember-roads.json")
    raw["catalogs"].append({"id": "smithy", "label": "Smithy", "holds": "items", "entries": [
        {"id": "axe", "label": "hand AXE", "item": {"category": "weapon"}}]})
    index = item_index(load_ruleset(raw))
    found = index.find("Hand axe")
    assert "outfitter/hand-axe" == (found.ref if found else None)
    assert index.by_ref("smithy/axe") is not None


def test_stack_limits() -> None:
    """ITM-ENTRY-06 / ITM-BAG-05: ``stack``, the standard capacity, and one per stack with
    charges."""
    index = item_index(ruleset("gravewatch.json"))
    limits = {i.entry.id: i.stack_limit for i in index.items}
    assert (20, 6, 1, STANDARD_STACK) == (limits["shot-and-powder"], limits["warming-tonic"],
                                          limits["dawn-bell"], limits["grave-spade"])


def test_charges_make_a_single_stack_even_without_stack() -> None:
    """ITM-ENTRY-06: an item with charges always sits in a stack of one."""
    raw: dict[str, Any] = compat_json("gravewatch.json")
    item_of(raw, "kit/dawn-bell").pop("stack")
    found = item_index(load_ruleset(raw)).by_ref("kit/dawn-bell")
    assert 1 == (found.stack_limit if found else None)


def test_services_are_never_carried() -> None:
    """ITM-ENTRY-09 / ITM-BAG-09: the bed at the watch-house is a service."""
    index = item_index(ruleset("gravewatch.json"))
    assert ["kit/watch-house-bed"] == [s.ref for s in index.services]
    bed = index.find("A bed at the watch-house")
    assert bed is not None and bed.is_service


def test_coins_by_id_label_and_one() -> None:
    """ITM-MONEY-08 / ITM-BLOCK-18: a coin by id or label, singular or plural, any case."""
    raw: dict[str, Any] = compat_json("gravewatch.json")
    raw["items"]["currencies"][0]["units"][0]["one"] = "penny"
    index = item_index(load_ruleset(raw))
    for name in ("penny", "Penny", "pennies", "PENNIES"):
        coin = index.coin(name)
        assert ("coin", "penny", 1) == ((coin.family.id, coin.unit.id, coin.worth)
                                        if coin else None)
    crown = index.coin("crowns")
    assert 60 == (crown.worth if crown else None)
    assert None is index.coin("guinea")


def test_one_names_a_single_coin() -> None:
    """ITM-MONEY-17: ``one`` for exactly one piece, else (and without ``one``) ``label``."""
    raw: dict[str, Any] = compat_json("gravewatch.json")
    raw["items"]["currencies"][0]["units"][0]["one"] = "penny"
    index = item_index(load_ruleset(raw))
    penny, shilling = index.coin("penny"), index.coin("shilling")
    assert penny is not None and shilling is not None
    assert ("penny", "pennies", "shillings") == \
        (penny.name_for(1), penny.name_for(2), shilling.name_for(1))


def test_switches() -> None:
    """ITM-BLOCK-22..24 / ITM-BAG-06/07: freeform, native and propose, with their defaults."""
    raw: dict[str, Any] = compat_json("ember-roads.json")
    raw["items"].update(freeform="refuse", native=False, propose=False)
    strict = item_index(load_ruleset(raw))
    default = item_index(ruleset("ember-roads.json"))
    no_items = item_index(ruleset("ruleset-5e-2014.example.json"))
    assert ("refuse", False, False) == (strict.freeform, strict.native, strict.propose)
    assert ("plain", True, True) == (default.freeform, default.native, default.propose)
    assert ("plain", True, (), ()) == (no_items.freeform, no_items.native, no_items.items,
                                       no_items.coins)


def test_the_index_is_built_once_per_ruleset() -> None:
    """The index is cached: asking twice for one ruleset gives the same object."""
    rules = ruleset("ember-roads.json")
    assert item_index(rules) is item_index(rules)
