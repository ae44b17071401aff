"""Names find ruleset items and coins the way bags need them (ITM-BAG-01..09, ITM-MONEY-08), on
the bundled Brass Fair (wares, a service, two coin families) and Hearth and Haul (a bell with
charges, an anvil whose label has an apostrophe)."""

from __future__ import annotations

from middleware.items import item_index
from middleware.items.index import STANDARD_STACK
from middleware.rules import load_ruleset
from tests.rulesets import bundled_json, ruleset


def test_an_item_by_its_catalog_ref() -> None:
    """ITM-BAG-01: a stack stores ``<catalog>/<entry>``, which finds the item."""
    found = item_index(ruleset("brass-fair")).by_ref("wares/hand-axe")
    assert found is not None
    assert ("Hand axe", "wares", "arm") == (found.label, found.catalog, found.item.category)


def test_a_label_without_case_accents_or_punctuation() -> None:
    """ITM-BAG-03: a name equal to an item's label, whatever its case, adds that item."""
    index = item_index(ruleset("hearth-and-haul"))
    for name in ("Smith's anvil", "SMITHS ANVIL", "smíth's anvil", "pack/anvil"):
        found = index.find(name)
        assert "pack/anvil" == (found.ref if found else None)
    assert None is index.find("Anvil of the smith")


def test_the_first_catalog_wins_a_shared_label() -> None:
    """ITM-BAG-04: two items with one label resolve to the one listed first."""
    raw = bundled_json("brass-fair")
    raw["catalogs"].append({"id": "smithy", "label": "Smithy", "holds": "items", "entries": [
        {"id": "axe", "label": "hand AXE", "item": {"category": "arm"}}]})
    index = item_index(load_ruleset(raw))
    found = index.find("Hand axe")
    assert "wares/hand-axe" == (found.ref if found else None)
    assert index.by_ref("smithy/axe") is not None


def test_stack_limits() -> None:
    """ITM-ENTRY-06 / ITM-BAG-05: ``stack``, and the standard capacity without one."""
    index = item_index(ruleset("brass-fair"))
    limits = {i.entry.id: i.stack_limit for i in index.items}
    assert (20, 10, 5, STANDARD_STACK) == (limits["spark-powder"], limits["honey-cake"],
                                           limits["tonic"], limits["rope"])


def test_charges_make_a_single_stack_even_without_stack() -> None:
    """ITM-ENTRY-06: an item with charges (the ward bell, which names no ``stack``) always sits
    in a stack of one."""
    found = item_index(ruleset("hearth-and-haul")).by_ref("pack/ward-bell")
    assert 1 == (found.stack_limit if found else None)


def test_services_are_never_carried() -> None:
    """ITM-ENTRY-09 / ITM-BAG-09: the bed at the inn is a service."""
    index = item_index(ruleset("brass-fair"))
    assert ["wares/inn-bed"] == [s.ref for s in index.services]
    bed = index.find("A bed at the inn")
    assert bed is not None and bed.is_service


def test_coins_by_id_label_and_one() -> None:
    """ITM-MONEY-08 / ITM-BLOCK-18: a coin by id or label, singular or plural, any case."""
    index = item_index(ruleset("brass-fair"))
    for name in ("copper", "Copper", "coppers", "COPPERS"):
        coin = index.coin(name)
        assert ("coin", "copper", 1) == ((coin.family.id, coin.unit.id, coin.worth)
                                         if coin else None)
    crown = index.coin("crowns")
    assert 100 == (crown.worth if crown else None)
    assert None is index.coin("guinea")


def test_one_names_a_single_coin() -> None:
    """ITM-MONEY-17: ``one`` for exactly one piece, else (and without ``one``) ``label``."""
    raw = bundled_json("brass-fair")
    del raw["items"]["currencies"][0]["units"][1]["one"]
    index = item_index(load_ruleset(raw))
    copper, ring = index.coin("copper"), index.coin("ring")
    assert copper is not None and ring is not None
    assert ("copper", "coppers", "brass rings") == \
        (copper.name_for(1), copper.name_for(2), ring.name_for(1))


def test_switches() -> None:
    """ITM-BLOCK-22..24 / ITM-BAG-06/07: freeform, native and propose, with their defaults."""
    raw = bundled_json("brass-fair")
    raw["items"].update(freeform="refuse", native=False, propose=False)
    strict = item_index(load_ruleset(raw))
    default = item_index(ruleset("brass-fair"))
    no_items = item_index(ruleset("tidemark-d20"))
    assert ("refuse", False, False) == (strict.freeform, strict.native, strict.propose)
    assert ("plain", True, True) == (default.freeform, default.native, default.propose)
    assert ("plain", True, (), ()) == (no_items.freeform, no_items.native, no_items.items,
                                       no_items.coins)


def test_the_index_is_built_once_per_ruleset() -> None:
    """The index is cached: asking twice for one ruleset gives the same object."""
    rules = ruleset("brass-fair")
    assert item_index(rules) is item_index(rules)
