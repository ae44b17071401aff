"""Items on checks, end to end through ``[skill_check:]`` (ITM-CHECK-01..15, SHEET-COND-07).

Gravewatch (d10 dice pool, target 7: a flat +1 is one more die) and Ember Roads (2d6 + modifier),
with scripted dice: what the player sees is the record, ``effects=``/``from=``/``automatic=``
included. Faces avoid 1 and 10 on Gravewatch so no cancel, botch or explosion gets in the way.
"""

from __future__ import annotations

import copy
from typing import Any

from middleware.character.check import view_for
from middleware.dice import Dice
from middleware.resolve import Context
from middleware.resolve.checks import resolve_check
from middleware.resolve.checks.record import CheckRecord
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.state import Character, GameState
from tests.conftest import compat_json
from tests.sheet.sheet_helpers import BRAM, JUNO

Raw = dict[str, Any]

PLAIN_WARDEN: Raw = {
    "name": "Wren", "player": True,
    "sheet": {"v": 1, "build": {"abilities": {"sinew": 2, "nerve": 3, "warmth": 2},
                                "skills": {"ward": "rating_2", "dig": "rating_2",
                                           "listen": "rating_1"},
                                "saves": {"steel": "rating_1"}, "fields": {"watch": "dawn"}}},
    "live": {"pools": {"resolve": {"value": 4}}},
}
"""No wounds, no shuttered lantern: Ward 5 dice, Dig 4, Listen 4, Steel 4, Nerve 3 (pool sizes)."""

TRAVELLER: Raw = {
    "name": "Pell", "player": True,
    "sheet": {"v": 1, "build": {"abilities": {"brawn": 1, "wits": 2, "heart": 1},
                                "skills": {"sneak": "expert", "sway": "trained"},
                                "fields": {"toughness": 3}}},
}
"""Sneak +4, Sway +2, Wits +2, Brawn +1; no stance, no burden, no conditions."""


def ruleset(name: str, items: list[Raw] | None = None, **resolution: Any) -> Ruleset:
    """A compat ruleset with extra catalog items (``id``, ``label``, ``item``) appended to its
    item catalog and ``resolution`` keys replaced."""
    data = compat_json(name)
    catalog = next(c for c in data["catalogs"] if c.get("holds") == "items")
    catalog["entries"].extend(items or [])
    data["resolution"].update(resolution)
    return load_ruleset(data)


def who(base: Raw, bag: list[Raw], **changes: Any) -> Character:
    data = copy.deepcopy(base)
    data["bag"] = bag
    data.update(changes)
    return Character.model_validate(data)


def check(rules: Ruleset, member: Character, faces: list[int], *words: str,
          **attrs: str) -> tuple[CheckRecord, GameState, Dice]:
    """Resolve one tag with exactly ``faces`` for ``member`` (the player)."""
    tag = Tag("skill_check", attrs, words, "[skill_check: ...]", 0, 18)
    dice = Dice(1, script=faces)
    state = GameState(ruleset=rules.id, party=(member,))
    resolution = resolve_check(tag, state, Context(ruleset=rules, dice=dice))
    assert isinstance(resolution.record, CheckRecord)
    assert dice.script_left == 0
    return resolution.record, resolution.state, dice


def attrs_of(record: CheckRecord, *names: str) -> dict[str, str]:
    return {k: v for k, v in record.tag_attrs() if k in names}


GRAVEWATCH = ruleset("gravewatch.json")
EMBER = ruleset("ember-roads.json")
BELL: Raw = {"item": "kit/dawn-bell", "equipped": True, "bound": True, "charges": 2}
SPADE: Raw = {"item": "kit/grave-spade", "equipped": True}
COAT: Raw = {"item": "outfitter/leather-coat", "equipped": True}
WAYSTONE: Raw = {"item": "outfitter/waystone"}
GAUNTLETS: Raw = {"item": "outfitter/ox-hide-gauntlets", "equipped": True}


def test_bram_wards_with_six_dice_and_names_the_bell() -> None:
    """SHEET-TRN-10 / ITM-CHECK-02/11/15: Bram's Ward is 7 - 1 (light) - 1 (Harm) + 1 (bound
    Dawn bell) = 6 dice; the record says ``effects="+1" from="Dawn bell"``."""
    bram = Character.model_validate(BRAM)
    record, _, _ = check(GRAVEWATCH, bram, [7, 8, 2, 3, 4, 5], skill="Ward", dc="2")
    assert ({"pool": "6", "effects": "+1", "from": "Dawn bell", "result": "success"}
            == attrs_of(record, "pool", "effects", "from", "result"))


def test_a_bell_equipped_but_not_bound_is_not_worn() -> None:
    """ITM-SHEET-02 / ITM-CHECK-02: an item that binds works as worn only while bound (and
    equipped, since it takes a slot); otherwise the Ward pool stays 5 and no effect is named."""
    loose = who(PLAIN_WARDEN, [dict(BELL, bound=False)])
    pocketed = who(PLAIN_WARDEN, [dict(BELL, equipped=False)])
    worn = who(PLAIN_WARDEN, [BELL])
    got = [check(GRAVEWATCH, m, [2] * n, skill="Ward", dc="1")[0]
           for m, n in ((loose, 5), (pocketed, 5), (worn, 6))]
    assert [(5, None, None), (5, None, None), (6, "+1", "Dawn bell")] == [
        (r.pool, r.effects, r.from_) for r in got]


def test_combat_parts_of_an_item_are_ignored_on_checks() -> None:
    """ITM-CHECK-07: the bound Widow's ring takes a die off attacks only; Ward is untouched."""
    ring = who(PLAIN_WARDEN, [{"item": "kit/widows-ring", "equipped": True, "bound": True}])
    record, _, _ = check(GRAVEWATCH, ring, [2] * 5, skill="Ward", dc="1")
    assert (5, None, None) == (record.pool, record.effects, record.from_)


def test_unmet_requirement_costs_a_die_on_dig() -> None:
    """ITM-CHECK-08/10 / SHEET-TRN-09: the grave spade wants Sinew 3; at Sinew 2 its
    ``otherwise`` takes a die off Dig (4 -> 3) and names the spade; at Sinew 3 nothing."""
    weak = who(PLAIN_WARDEN, [SPADE])
    sinewy = copy.deepcopy(PLAIN_WARDEN)
    sinewy["sheet"]["build"]["abilities"]["sinew"] = 3
    strong = who(sinewy, [SPADE])
    short, _, _ = check(GRAVEWATCH, weak, [7, 2, 3], skill="Dig", dc="1")
    met, _, _ = check(GRAVEWATCH, strong, [7, 2, 3, 4, 5], skill="Dig", dc="1")
    assert [(3, "-1", "Grave spade"), (5, None, None)] == [
        (short.pool, short.effects, short.from_), (met.pool, met.effects, met.from_)]


def test_requirement_applies_only_while_worn() -> None:
    """ITM-CHECK-08 (Ambiguity 21): a spade carried in the bag, not held, costs nothing."""
    carried = who(PLAIN_WARDEN, [dict(SPADE, equipped=False)])
    record, _, _ = check(GRAVEWATCH, carried, [2] * 4, skill="Dig", dc="1")
    assert (4, None) == (record.pool, record.from_)


GLOVES: Raw = {"id": "iron-gloves", "label": "Iron gloves", "item": {
    "category": "coat", "slots": {"worn": 1},
    "worn": {"abilities": {"sinew": {"set": 3}}}}}


def test_gloves_that_set_sinew_satisfy_the_spade() -> None:
    """ITM-CHECK-10: a requirement reads the attribute after the wearer's items change it, so
    gloves setting Sinew to 3 meet the spade's need: Dig 3 + 2 = 5 dice, with no penalty."""
    rules = ruleset("gravewatch.json", [GLOVES])
    gloved = who(PLAIN_WARDEN, [SPADE, {"item": "kit/iron-gloves", "equipped": True}])
    record, _, _ = check(rules, gloved, [2] * 5, skill="Dig", dc="1")
    assert (5, None, None) == (record.pool, record.effects, record.from_)


LUCKY: Raw = {"id": "lucky-thread", "label": "Lucky thread", "item": {
    "category": "token", "worn": {"failsSaves": ["steel"]},
    "carried": {"modifiers": [{"to": "saves", "flat": 1}]}}}
CURSED: Raw = {"id": "grave-dirt", "label": "Grave dirt", "item": {
    "category": "token", "slots": {"worn": 1},
    "worn": {"failsSaves": ["steel"]}}}


def test_an_item_that_fails_a_save_fails_it_without_a_roll() -> None:
    """ITM-CHECK-14/15: worn grave dirt fails Steel with no dice thrown and nothing spent:
    ``automatic="true" from="Grave dirt"``; Resolve stays at 4."""
    rules = ruleset("gravewatch.json", [CURSED])
    member = who(PLAIN_WARDEN, [{"item": "kit/grave-dirt", "equipped": True}])
    record, state, dice = check(rules, member, [], skill="Steel save", dc="1",
                                spend="resolve:1")
    assert ({"result": "failure", "automatic": "true", "from": "Grave dirt"}
            == attrs_of(record, "result", "automatic", "from"))
    assert ([], [], 4) == (record.rolls, dice.thrown,
                           state.party[0].live.pools["resolve"].value)


def test_save_reads_only_save_effects() -> None:
    """ITM-CHECK-12: a carried thread's ``+1`` to saves adds a die to Steel (4 -> 5), not Ward;
    its ``worn`` failsSaves does not apply while it is merely carried (ITM-CHECK-02)."""
    rules = ruleset("gravewatch.json", [LUCKY])
    member = who(PLAIN_WARDEN, [{"item": "kit/lucky-thread"}])
    steel, _, _ = check(rules, member, [2] * 5, skill="Steel save", dc="1")
    ward, _, _ = check(rules, member, [2] * 5, skill="Ward", dc="1")
    assert [(5, "+1", "Lucky thread", None), (5, None, None, None)] == [
        (r.pool, r.effects, r.from_, r.automatic) for r in (steel, ward)]


WHISTLE: Raw = {"id": "bone-whistle", "label": "Bone whistle", "item": {
    "category": "token", "carried": {"skills": ["listen"],
                                     "modifiers": [{"to": "checks", "flat": 1}]}}}
CHARM: Raw = {"id": "plain-charm", "label": "Plain charm", "item": {
    "category": "token", "carried": {"modifiers": [{"to": "checks", "flat": 1}]}}}


def test_source_narrowing_and_unnarrowed_checks() -> None:
    """ITM-CHECK-03/12: a source's ``skills`` narrows its modifiers (the whistle helps Listen,
    not Ward); an ability check or an unknown check reads only what is narrowed to nothing."""
    rules = ruleset("gravewatch.json", [WHISTLE, CHARM])
    member = who(PLAIN_WARDEN, [{"item": "kit/bone-whistle"}, {"item": "kit/plain-charm"}])
    listen, _, _ = check(rules, member, [2] * 6, skill="Listen", dc="1")
    ward, _, _ = check(rules, member, [2] * 6, skill="Ward", dc="1")
    nerve, _, _ = check(rules, member, [2] * 4, skill="Nerve", dc="1")
    unknown, _, _ = check(rules, member, [2] * 1, skill="Basket weaving", dc="1")
    assert [("+2", "Bone whistle, Plain charm"), ("+1", "Plain charm"), ("+1", "Plain charm"),
            ("+1", "Plain charm")] == [(r.effects, r.from_) for r in (listen, ward, nerve, unknown)]


def test_sneak_with_the_coat_on_a_summed_check() -> None:
    """ITM-CHECK-04/11/15 / SHEET-TRN-14: the worn leather coat is -1 on Sneak: 4 + 4 + 3 = 11;
    the card reads ``modifier="3" effects="-1" from="Leather coat"``."""
    member = who(TRAVELLER, [COAT])
    record, _, _ = check(EMBER, member, [4, 4], skill="Sneak", dc="11")
    assert ({"modifier": "3", "total": "11", "result": "success", "effects": "-1",
             "from": "Leather coat"}
            == attrs_of(record, "modifier", "total", "result", "effects", "from"))


def test_a_coat_in_the_pack_is_not_worn() -> None:
    """ITM-SHEET-02 / ITM-CHECK-02: the coat unequipped is only carried and has no carried
    effect, so Sneak keeps +4."""
    member = who(TRAVELLER, [dict(COAT, equipped=False)])
    record, _, _ = check(EMBER, member, [4, 4], skill="Sneak", dc="11")
    assert (4, None, None) == (record.modifier, record.effects, record.from_)


def test_waystone_counts_once_however_many_stacks() -> None:
    """ITM-CHECK-04/07: a carried waystone is +1 on Sway; two stacks of it are still +1."""
    member = who(TRAVELLER, [WAYSTONE, WAYSTONE])
    record, _, _ = check(EMBER, member, [3, 3], skill="Sway", dc="9")
    assert (3, "+1", "Waystone", 9) == (record.modifier, record.effects, record.from_,
                                        record.total)


def test_a_worn_item_does_not_also_give_its_carried_effect() -> None:
    """ITM-CHECK-02 (Ambiguity 21): an item worn in one stack and carried in another applies
    once, as worn: its carried +1 on Sway is not added to its worn -1 on Sneak."""
    both = {"id": "reversible-cloak", "label": "Reversible cloak", "item": {
        "category": "armor", "slots": {"body": 1},
        "worn": {"modifiers": [{"to": "checks", "skills": ["sneak"], "flat": -1}]},
        "carried": {"modifiers": [{"to": "checks", "skills": ["sway"], "flat": 1}]}}}
    rules = ruleset("ember-roads.json", [both])
    member = who(TRAVELLER, [{"item": "outfitter/reversible-cloak"},
                             {"item": "outfitter/reversible-cloak", "equipped": True}])
    sneak, _, _ = check(rules, member, [3, 3], skill="Sneak", dc="9")
    sway, _, _ = check(rules, member, [3, 3], skill="Sway", dc="9")
    assert [("-1", "Reversible cloak"), (None, None)] == [
        (r.effects, r.from_) for r in (sneak, sway)]


SPURS: Raw = {"id": "bone-dice", "label": "Bone dice", "item": {
    "category": "gear", "carried": {"modifiers": [
        {"to": "checks", "skills": ["sway"], "dice": "1d4"}]}}}


def test_dice_of_an_item_are_thrown_on_a_summed_check() -> None:
    """ITM-CHECK-11: a modifier's dice are rolled (2d6 then the 1d4): 3 + 3 + 2 (Sway) + 1
    (waystone) + 4 (bone dice) = 13; ``effects="+1+1d4"``, both sources named."""
    rules = ruleset("ember-roads.json", [SPURS])
    member = who(TRAVELLER, [WAYSTONE, {"item": "outfitter/bone-dice"}])
    record, _, _ = check(rules, member, [3, 3, 4], skill="Sway", dc="12")
    assert (13, "+1+1d4", "Waystone, Bone dice") == (record.total, record.effects, record.from_)


GRACE: Raw = {"id": "lucky-coin", "label": "Lucky coin", "item": {
    "category": "gear", "carried": {"effects": ["own-checks-advantage"]}}}
HOOD: Raw = {"id": "heavy-hood", "label": "Heavy hood", "item": {
    "category": "gear", "carried": {"modifiers": [
        {"to": "checks", "skills": ["sneak"], "mode": "disadvantage"}]}}}


def test_item_advantage_rolls_twice_only_where_the_ruleset_does() -> None:
    """ITM-CHECK-13: with ``resolution.advantage`` a carried lucky coin rolls 2d6 twice and keeps
    the better (7 + 4 + 2 = 13), named in ``from=``; in Ember Roads as shipped it changes nothing."""
    twice = ruleset("ember-roads.json", [GRACE], advantage=True)
    once = ruleset("ember-roads.json", [GRACE])
    member = who(TRAVELLER, [{"item": "outfitter/lucky-coin"}])
    tilted, _, _ = check(twice, member, [1, 2, 3, 4], skill="Wits", dc="9")
    plain, _, _ = check(once, member, [3, 4], skill="Wits", dc="9")
    assert [("advantage", 7, "Lucky coin"), ("normal", 7, None)] == [
        (r.mode, r.used, r.from_) for r in (tilted, plain)]


def test_item_leans_cancel_with_the_gm_mode() -> None:
    """ITM-CHECK-13: advantage from a lucky coin and disadvantage from a hood (a ``mode``
    modifier) cancel; so do the coin and the GM's ``mode="disadvantage"``: one throw each."""
    rules = ruleset("ember-roads.json", [GRACE, HOOD], advantage=True)
    member = who(TRAVELLER, [{"item": "outfitter/lucky-coin"}, {"item": "outfitter/heavy-hood"}])
    coin = who(TRAVELLER, [{"item": "outfitter/lucky-coin"}])
    sneak, _, _ = check(rules, member, [3, 4], skill="Sneak", dc="9")
    gm, _, _ = check(rules, coin, [3, 4], skill="Wits", dc="9", mode="disadvantage")
    assert [("normal", [3, 4], "Lucky coin, Heavy hood"), ("normal", [3, 4], "Lucky coin")] == [
        (r.mode, r.rolls, r.from_) for r in (sneak, gm)]


def test_gauntlets_set_brawn_before_the_sheet_is_read() -> None:
    """ITM-CHECK-05/06: worn ox-hide gauntlets set Brawn to at least 2: the Brawn check is +2,
    ``load`` (6 + Brawn) is 8, but Grit's maximum (4 + toughness + Brawn) stays 8."""
    member = who(TRAVELLER, [GAUNTLETS])
    record, _, _ = check(EMBER, member, [3, 3], skill="Brawn", dc="8")
    view = view_for(EMBER, member)
    assert (2, 8, 8, 8) == (record.modifier, record.total, view.derived("load"),
                            view.live.pools()["grit"][1])


BELT: Raw = {"id": "ox-belt", "label": "Ox belt", "item": {
    "category": "gear", "carried": {"abilities": {"brawn": {"add": 1}}}}}
YOKE: Raw = {"id": "yoke", "label": "Yoke", "item": {
    "category": "gear", "carried": {"abilities": {"brawn": {"add": -2, "set": 1}}}}}


def test_adds_first_then_the_highest_set_then_the_range() -> None:
    """ITM-CHECK-05: all adds, then the highest set as a floor, then the attribute's -1..3:
    Brawn 1 + 1 - 2 = 0, set 1 and the gauntlets' set 2 -> 2; Brawn 3 + 1 -> 4, held at 3."""
    rules = ruleset("ember-roads.json", [BELT, YOKE])
    worn = [GAUNTLETS, {"item": "outfitter/ox-belt"}, {"item": "outfitter/yoke"}]
    low = view_for(rules, who(TRAVELLER, worn))
    strong = copy.deepcopy(TRAVELLER)
    strong["sheet"]["build"]["abilities"]["brawn"] = 3
    high = view_for(rules, who(strong, [{"item": "outfitter/ox-belt"}]))
    assert (2, 3) == (low.score("brawn"), high.score("brawn"))


def test_items_feed_a_level_on_checks() -> None:
    """SHEET-COND-03/07: bulk carried of 10 or more reaches Ember Roads' level (-1 on Sneak);
    with the coat worn as well, Sneak is -2 from both sources."""
    arrows = {"item": "outfitter/arrows", "count": 7}
    member = who(TRAVELLER, [COAT, arrows])  # coat bulk 3 + 7 arrows = 10
    record, _, _ = check(EMBER, member, [4, 4], skill="Sneak", dc="10")
    assert (2, "-2", "Bulk carried 10, Leather coat") == (record.modifier, record.effects,
                                                          record.from_)


def test_each_card_reads_its_own_bag() -> None:
    """ITM-SHEET-09: Juno's coat is hers: the player beside her, with an empty bag, has no
    coat on Sneak and Guard 6 + Wits."""
    juno = Character.model_validate(JUNO)
    pell = who(TRAVELLER, [])
    state = GameState(ruleset=EMBER.id, party=(pell, juno))
    tag = Tag("skill_check", {"skill": "Sneak", "dc": "9"}, (), "[skill_check: ...]", 0, 18)
    mine = resolve_check(tag, state, Context(ruleset=EMBER, dice=Dice(1, script=[3, 3]))).record
    assert isinstance(mine, CheckRecord)
    assert (None, 8, 9) == (mine.from_, view_for(EMBER, pell).derived("guard"),
                            view_for(EMBER, juno).derived("guard"))
