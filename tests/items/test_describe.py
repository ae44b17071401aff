"""The lines the Game Master and the player read about an item, as the page words them
(ITM-ENTRY-07, ITM-ENTRY-17..22, ITM-MONEY-06/17). The page's example line and the features no
bundled ruleset has (hidden stats, combat effects) read the peer's files; cost, worn, carried,
use and charges lines read Hearth and Haul, Brass Fair and Lantern and Ledger."""

from __future__ import annotations

from typing import Any

from middleware.items import RulesetItem, item_index
from middleware.items.describe import (
    charges_left,
    cost_text,
    effect_text,
    gm_item_line,
    item_line,
    use_text,
)
from middleware.items.words import words_of
from middleware.rules import Ruleset, load_ruleset
from tests import rulesets
from tests.conftest import compat_json
from tests.rulesets import compat_ruleset as ruleset
from tests.rulesets import item_of


def bundled(ruleset_id: str) -> Ruleset:
    return rulesets.ruleset(ruleset_id)


def mine(ruleset_id: str, ref: str) -> RulesetItem:
    """An item of a bundled ruleset, by ref."""
    found = item_index(bundled(ruleset_id)).by_ref(ref)
    assert found is not None
    return found


def item(name: str, ref: str) -> RulesetItem:
    found = item_index(ruleset(name)).by_ref(ref)
    assert found is not None
    return found


def test_the_page_example_line() -> None:
    """ITM-ENTRY-18: ``Hand axe [Weapon, Common, Thrown; Damage 1d6, Reach close]`` (the page's
    shortened Ember Roads hand axe gives damage and reach)."""
    raw: dict[str, Any] = compat_json("ember-roads.json")
    item_of(raw, "outfitter/hand-axe")["stats"] = {"damage": "1d6", "reach": "close"}
    rules = load_ruleset(raw)
    found = item_index(rules).by_ref("outfitter/hand-axe")
    assert found is not None
    assert "Hand axe [Weapon, Common, Thrown; Damage 1d6, Reach close]" == \
        item_line(found, rules.items, words_of(rules))


def test_every_stat_given_in_the_block_order() -> None:
    """ITM-ENTRY-18: the stats come by their labels, in the order the block declares them."""
    rules = ruleset("ember-roads.json")
    assert "Hunting bow [Weapon, Common, Ranged, Two-handed; Bulk 2, Damage 1d8, " \
           "Rolls with wits, Reach far]" == \
        item_line(item("ember-roads.json", "outfitter/hunting-bow"), rules.items,
                  words_of(rules))


def test_a_stat_not_prompt_visible_is_never_shown() -> None:
    """ITM-BLOCK-06: the silver nail's hiding place (``conceal``) stays off the line."""
    rules = ruleset("gravewatch.json")
    assert "Silver coffin nail [Arm, Rare, Silver, Easily hidden; Target 7, Damage 1d6, " \
           "Harm tearing]" == \
        item_line(item("gravewatch.json", "kit/silver-nail"), rules.items, words_of(rules))


def test_cost() -> None:
    """ITM-ENTRY-07 / ITM-MONEY-06: Hearth and Haul's rope ``costs 1 shilling``; the Ward bell
    has no cost, so no text."""
    index = item_index(bundled("hearth-and-haul"))
    assert "costs 1 shilling" == cost_text(mine("hearth-and-haul", "pack/rope").item, index)
    assert None is cost_text(mine("hearth-and-haul", "pack/ward-bell").item, index)


def test_a_single_coin_by_its_one_name() -> None:
    """ITM-MONEY-17: a price of one coin uses ``one`` where declared (Brass Fair's crown), else
    ``label`` (Lantern and Ledger's groats)."""
    assert "costs 1 crown" == cost_text(mine("brass-fair", "wares/hand-axe").item,
                                        item_index(bundled("brass-fair")))
    assert "costs 1 groats" == cost_text(mine("lantern-and-ledger", "chandlery/hooked-pole").item,
                                         item_index(bundled("lantern-and-ledger")))


def test_worn_effect_for_the_player_and_the_gm() -> None:
    """ITM-ENTRY-19: Hearth and Haul's oilskin coat: "While worn: -1 on checks (Scout)" and
    ``worn: -1 on checks (Scout)``."""
    words = words_of(bundled("hearth-and-haul"))
    coat = mine("hearth-and-haul", "pack/oilskin").item
    assert coat.worn is not None
    assert ("While worn: -1 on checks (Scout)", "worn: -1 on checks (Scout)") == \
        (effect_text("worn", coat.worn, words, gm=False),
         effect_text("worn", coat.worn, words, gm=True))


def test_combat_parts_of_a_worn_effect() -> None:
    """ITM-ENTRY-19: "While worn: -1 on attacks" and ``worn: +1 on checks (Ward), immune to
    Rattled``."""
    words = words_of(ruleset("gravewatch.json"))
    ring = item("gravewatch.json", "kit/widows-ring").item
    bell = item("gravewatch.json", "kit/dawn-bell").item
    assert ring.worn is not None and bell.worn is not None
    assert "While worn: -1 on attacks" == effect_text("worn", ring.worn, words, gm=False)
    assert "worn: +1 on checks (Ward), immune to Rattled" == \
        effect_text("worn", bell.worn, words, gm=True)


def test_carried_effect() -> None:
    """ITM-ENTRY-19 / ITM-CHECK-04: Brass Fair's lamp charm carried helps Ward."""
    words = words_of(bundled("brass-fair"))
    charm = mine("brass-fair", "wares/lamp-charm").item
    assert charm.carried is not None
    assert "carried: +1 on checks (Ward)" == effect_text("carried", charm.carried, words, gm=True)


def test_use_for_the_player() -> None:
    """ITM-ENTRY-22: Hearth and Haul's bitter tonic, in a ruleset without combat budgets (the
    budget is named by its id): "Use (act): restores 1 Grit, used up"."""
    words = words_of(bundled("hearth-and-haul"))
    assert "Use (act): restores 1 Grit, used up" == \
        use_text(mine("hearth-and-haul", "pack/tonic").item, words, gm=False)


def test_use_for_the_gm() -> None:
    """ITM-ENTRY-22: ``use (act): restores 1 Grit, 1 of 3 charges`` (the Ward bell); the ash
    spear has no use."""
    words = words_of(bundled("hearth-and-haul"))
    assert "use (act): restores 1 Grit, 1 of 3 charges" == \
        use_text(mine("hearth-and-haul", "pack/ward-bell").item, words, gm=True)
    assert None is use_text(mine("hearth-and-haul", "pack/ash-spear").item, words, gm=True)


def test_charges_left() -> None:
    """ITM-ENTRY-22 / ITM-USE-14: "2 of 3 charges left"; an item without charges has none."""
    bell = mine("hearth-and-haul", "pack/ward-bell").item
    assert "2 of 3 charges left" == charges_left(2, bell)
    assert None is charges_left(2, mine("hearth-and-haul", "pack/ash-spear").item)


def test_the_whole_gm_inventory_line() -> None:
    """ITM-ENTRY-18/19/22: the item line, then cost, worn, use and charges left after ``; ``."""
    rules = bundled("hearth-and-haul")
    bell = mine("hearth-and-haul", "pack/ward-bell")
    assert "Ward bell [Charm, Rare; Weight 1]; worn: +1 on checks (Ward); use (act): restores " \
           "1 Grit, 1 of 3 charges; 2 of 3 charges left" == \
        gm_item_line(bell, item_index(rules), words_of(rules), charges=2)
