"""The ``--json`` state summary's bags and purses (SPEC §7), read through the ItemIndex."""

from __future__ import annotations

from middleware.character.summary import state_summary
from middleware.rules.catalogs import CatalogEntry
from middleware.rules.registry import load_bundled
from middleware.state import Character, GameState, InventedItem, Stack

RULES = load_bundled("hearth-and-haul")
EMBER_CHARM = InventedItem(ref="invented/ember-charm", entry=CatalogEntry.model_validate(
    {"id": "ember-charm", "label": "Ember charm", "item": {"category": "charm"}}))


def summary(*bag: Stack) -> dict[str, object]:
    state = GameState(ruleset=RULES.id, party=(Character(name="Bram", player=True, bag=bag),),
                      invented=(EMBER_CHARM,))
    party = state_summary(RULES, state)["party"]
    assert isinstance(party, dict)
    return {key: party["Bram"][key] for key in ("bag", "coins")}


def test_counts_are_summed_over_stacks_that_show_the_same_label() -> None:
    """SPEC §7: a full stack of five tonics and one more read as 6; an equipped spear and a loose
    one read as 2 (the label, not the stack, is the key)."""
    got = summary(Stack(item="pack/tonic", count=5), Stack(item="pack/ash-spear", equipped=True),
                  Stack(item="pack/tonic"), Stack(item="pack/ash-spear"))

    assert {"Bitter tonic": 6, "Ash spear": 2} == got["bag"]


def test_coins_show_by_their_label_and_the_purse_in_the_smallest_coin() -> None:
    """SPEC §7 / ITM-BLOCK-15: 3 shillings (12 pennies each) and 5 pennies are worth 41 pennies
    of the family ``coin``; a single shilling still shows by the plural label."""
    got = summary(Stack(coins="shilling", count=3), Stack(coins="penny", count=5))

    assert {"bag": {"shillings": 3, "pennies": 5}, "coins": {"coin": 41}} == got


def test_plain_and_invented_items_show_by_their_names() -> None:
    """SPEC §7: a plain item by its name; an invented item by the name the game stored for it
    (ITM-PROPOSE-13), never by its ref."""
    got = summary(Stack(plain="Walking stick"), Stack(item="invented/ember-charm"))

    assert {"Walking stick": 1, "Ember charm": 1} == got["bag"]


def test_an_empty_bag_has_no_labels_and_no_coins() -> None:
    """SPEC §7: nothing held, nothing listed."""
    assert {"bag": {}, "coins": {}} == summary()
