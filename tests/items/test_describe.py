"""The lines the Game Master and the player read about an item, as the page words them
(ITM-ENTRY-07, ITM-ENTRY-17..22, ITM-MONEY-06/17)."""

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
from middleware.rules import load_ruleset
from tests.conftest import compat_json
from tests.rulesets import compat_ruleset as ruleset
from tests.rulesets import item_of


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
    """ITM-ENTRY-07 / ITM-MONEY-06: ``costs 3 shillings``; no cost, no text."""
    index = item_index(ruleset("gravewatch.json"))
    assert "costs 3 shillings" == cost_text(item("gravewatch.json", "kit/grave-spade").item,
                                            index)
    assert None is cost_text(item("gravewatch.json", "kit/widows-ring").item, index)


def test_a_single_coin_by_its_one_name() -> None:
    """ITM-MONEY-17: a price of one coin uses ``one`` where declared, else ``label``."""
    raw: dict[str, Any] = compat_json("gravewatch.json")
    raw["items"]["currencies"][0]["units"][0]["one"] = "penny"
    item_of(raw, "kit/shot-and-powder")["cost"]["amount"] = 1
    index = item_index(load_ruleset(raw))
    powder = index.by_ref("kit/shot-and-powder")
    assert powder is not None
    assert "costs 1 penny" == cost_text(powder.item, index)
    assert "costs 1 shillings" == cost_text(item("gravewatch.json", "kit/litany-page").item,
                                            item_index(ruleset("gravewatch.json")))


def test_worn_effect_for_the_player_and_the_gm() -> None:
    """ITM-ENTRY-19: "While worn: -1 on checks (Sneak)" and ``worn: -1 on checks (Sneak)``."""
    words = words_of(ruleset("ember-roads.json"))
    coat = item("ember-roads.json", "outfitter/leather-coat").item
    assert coat.worn is not None
    assert ("While worn: -1 on checks (Sneak)", "worn: -1 on checks (Sneak)") == \
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
    """ITM-ENTRY-19 / ITM-CHECK-04: the waystone carried helps Sway and resists burn."""
    words = words_of(ruleset("ember-roads.json"))
    stone = item("ember-roads.json", "outfitter/waystone").item
    assert stone.carried is not None
    assert "carried: +1 on checks (Sway), resists burn" == \
        effect_text("carried", stone.carried, words, gm=True)


def test_use_for_the_player() -> None:
    """ITM-ENTRY-22: "Use (Action): heals 1d4 + 1, range 0 paces, used up"."""
    words = words_of(ruleset("ember-roads.json"))
    assert "Use (Action): heals 1d4 + 1, range 0 paces, used up" == \
        use_text(item("ember-roads.json", "outfitter/poultice").item, words, gm=False)


def test_use_for_the_gm() -> None:
    """ITM-ENTRY-22: ``use (Act): Steel 7 save negates it, Rattled, 1 of 3 charges``."""
    words = words_of(ruleset("gravewatch.json"))
    assert "use (Act): Steel 7 save negates it, Rattled, 1 of 3 charges" == \
        use_text(item("gravewatch.json", "kit/dawn-bell").item, words, gm=True)
    assert None is use_text(item("gravewatch.json", "kit/grave-spade").item, words, gm=True)


def test_charges_left() -> None:
    """ITM-ENTRY-22 / ITM-USE-14: "2 of 3 charges left"; an item without charges has none."""
    bell = item("gravewatch.json", "kit/dawn-bell").item
    assert "2 of 3 charges left" == charges_left(2, bell)
    assert None is charges_left(2, item("gravewatch.json", "kit/grave-spade").item)


def test_the_whole_gm_inventory_line() -> None:
    """ITM-ENTRY-18/19/22: the item line, then cost, worn, use and charges left after ``; ``."""
    rules = ruleset("gravewatch.json")
    bell = item("gravewatch.json", "kit/dawn-bell")
    assert "Dawn bell [Token, Relic, Easily hidden]; worn: +1 on checks (Ward), immune to " \
           "Rattled; use (Act): Steel 7 save negates it, Rattled, 1 of 3 charges; " \
           "2 of 3 charges left" == \
        gm_item_line(bell, item_index(rules), words_of(rules), charges=2)
