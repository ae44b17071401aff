"""The items block and item catalogs of the real files load into models, nothing dropped (ITM-BLOCK,
ITM-ENTRY)."""

from __future__ import annotations

import pytest

from middleware.rules.items import EnumStat, NumberStat
from middleware.rules.items_money import ItemFilter
from tests.rulesets import compat_ruleset as ruleset


def test_ember_roads_block() -> None:
    """ITM-BLOCK reference example: Ember Roads' categories, stats, slots, carry, caps, coins."""
    block = ruleset("ember-roads.json").items
    assert block is not None
    assert ["weapon", "armor", "ammunition", "provisions", "gear"] == \
        [c.id for c in block.categories]
    bulk = block.stat("bulk")
    assert isinstance(bulk, NumberStat)
    assert (0, 10, 0, True) == (bulk.min, bulk.max, bulk.default, bulk.integer)
    swing = block.stat("swing")
    assert isinstance(swing, EnumStat)
    assert ("Rolls with", ("brawn", "wits", "heart"), "brawn") == \
        (swing.label, swing.values, swing.default)
    assert [("body", 1), ("hands", 2)] == [(s.id, s.count) for s in block.slots]
    assert block.carry is not None
    assert ("bulk", "load", 12) == (block.carry.stat, block.carry.encumbered_above.derived,
                                    block.carry.limit.const if block.carry.limit else None)
    assert [("common", {"guard": 1}, 1), ("uncommon", {"guard": 2}, 1),
            ("storied", {"guard": 3}, 2)] == \
        [(c.rarity, c.stats, c.bonus) for c in block.rarity_caps]


def test_switch_defaults() -> None:
    """ITM-BLOCK-22..24/26: propose and native default to true, freeform to plain, passiveBase 10."""
    block = ruleset("ember-roads.json").items
    assert block is not None
    assert (True, True, "plain", 10, "passive") == \
        (block.propose, block.native, block.freeform, block.passive_base, block.warn_by)


def test_currencies_and_coins() -> None:
    """ITM-BLOCK-14..18: two families exchanging within themselves; a coin found by id."""
    block = ruleset("ember-roads.json").items
    assert block is not None
    assert [("coin", 100, ["bit", "mark", "sovereign"]), ("salt", 10, ["pinch", "cake"])] == \
        [(f.id, f.per_weight, [u.id for u in f.units]) for f in block.currencies]
    found = block.coin("cake")
    assert found is not None
    assert ("salt", 20, "pinch") == (found[0].id, found[1].value, found[0].smallest.id)
    assert None is block.coin("crown")


def test_gravewatch_market_and_loot() -> None:
    """ITM-MARKET / ITM-LOOT reference examples: prices, places, sold rules, sellers, table."""
    block = ruleset("gravewatch.json").items
    assert block is not None and block.market is not None
    market = block.market
    assert "fair" == market.default_level.id
    assert ["hamlet", "village", "town", "city"] == [p.id for p in market.places]
    assert (ItemFilter(rarity="rare"), "town") == (market.sold[0].filter, market.sold[0].place)
    chapel = market.sellers[2]
    assert ("town", 3, "wardens of Nerve 3 or more") == \
        (chapel.place, chapel.only.at_least if chapel.only else None,
         chapel.only.label if chapel.only else None)
    table = block.loot_tables[0]
    assert ("1d2", 5) == (table.rolls, len(table.entries))
    assert ("kit/shot-and-powder", 4, "1d4") == \
        (table.entries[0].item, table.entries[0].weight, table.entries[0].count)
    assert ("shilling", 3) == (table.entries[4].coins, table.entries[1].weight)


def test_gravewatch_items() -> None:
    """ITM-ENTRY / ITM-USE reference examples: the Dawn bell's binding, worn effect and charges."""
    kit = next(c for c in ruleset("gravewatch.json").catalogs if c.id == "kit")
    assert kit.holds_items
    bell = kit.entry("dawn-bell")
    assert bell is not None and bell.item is not None
    item = bell.item
    assert ({"worn": 1}, 1, "Only a warden of the dawn watch can bind it.") == \
        (item.slots, item.stack, item.binds.restriction if item.binds else None)
    assert item.worn is not None
    assert (["ward"], 1, ("rattled",)) == \
        (item.worn.modifiers[0].skills, item.worn.modifiers[0].flat,
         item.worn.condition_immunities)
    assert item.charges is not None and item.charges.breaks_on is not None
    assert (3, ("vigil",), 20, 1) == \
        (item.charges.max, item.charges.recharge.rests if item.charges.recharge else None,
         item.charges.breaks_on.die, item.charges.breaks_on.at_most)
    page = kit.entry("litany-page")
    assert page is not None and page.item is not None and page.item.use is not None
    gate = page.item.use.gate
    assert gate is not None
    assert ("ward", 2, "nerve") == (gate.check.skill, gate.difficulty,
                                    gate.unless.value.ability_score if gate.unless else None)
    bed = kit.entry("watch-house-bed")
    assert bed is not None and bed.item is not None and bed.item.service


def test_charm_mechanics_keep_their_check() -> None:
    """CHK-CHARM: a sheet catalog entry's ``mechanics.check`` is read as a model."""
    charms = next(c for c in ruleset("gravewatch.json").catalogs if c.id == "charms")
    steady = charms.entry("steady-hand")
    assert steady is not None and steady.mechanics is not None
    check = steady.mechanics.check
    assert check is not None and check.reroll is not None
    assert (1, "once", 1, True) == (check.reroll.up_to, check.reroll.mode, check.successes,
                                    check.changes_roll)
    assert [("resolve", 1)] == [(c.pool, c.amount) for c in steady.mechanics.cost]
    assert None is charms.entry("no-such-charm")


@pytest.mark.parametrize("name", ["gravewatch.json", "ember-roads.json"])
def test_every_item_catalog_entry_is_an_item(name: str) -> None:
    """ITM-ENTRY-01: each entry of an item catalog carries an item and no rows or mechanics."""
    for catalog in ruleset(name).catalogs:
        if catalog.holds_items:
            assert all(e.item is not None and e.mechanics is None and not e.rows
                       for e in catalog.entries)
