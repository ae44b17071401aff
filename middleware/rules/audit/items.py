"""Import checks of the ``items`` block, with JSON paths (ITM-IMPORT-02..04, -10..12, -14).

Shapes and per-object limits are the models' (``items.py``, ``items_money.py``); here each key is
compared with the others: a ``carry.stat`` that is a number stat, coins that exchange, a market whose
places and tables exist. Item entries are checked in ``checks_item_entries.py``; ``check_items``
runs both and is the one function in ``CHECKERS``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from middleware.errors import Problem
from middleware.rules.audit.item_entries import Vocab, check_entries, filter_problems
from middleware.rules.items import ItemsBlock, NumberStat
from middleware.rules.items_money import Currency, LootTable, Market
from middleware.rules.problems import repeats
from middleware.rules.ruleset import Ruleset
from middleware.rules.sheet_refs import RefGraph

BLOCK = "$.items"


def check_items(ruleset: Ruleset) -> Iterable[Problem]:
    """Every ITM-IMPORT problem of the block and the item catalogs."""
    vocab = Vocab.of(ruleset)
    block = ruleset.items
    if block is not None:
        yield from _duplicates(block)
        yield from _carry(block, ruleset)
        yield from _rarity_caps(block)
        yield from _currencies(block.currencies)
        yield from _loot(block.loot_tables, vocab)
        if block.market is not None:
            yield from _market(block.market, vocab)
        yield from _gear(block, vocab)
        yield from _gear_fits(block, ruleset)
        yield from _reveals(block, vocab)
    yield from check_entries(ruleset, vocab)


def _dupes(path: str, ids: list[str]) -> Iterator[Problem]:
    for i, value in repeats(ids):
        yield Problem(f"{path}[{i}].id", f"the id {value!r} is declared twice")


def _duplicates(block: ItemsBlock) -> Iterator[Problem]:
    for key, named in (("categories", block.categories), ("rarities", block.rarities),
                       ("tags", block.tags), ("stats", block.stats), ("slots", block.slots),
                       ("lootTables", block.loot_tables)):
        yield from _dupes(f"{BLOCK}.{key}", [n.id for n in named])


def _carry(block: ItemsBlock, ruleset: Ruleset) -> Iterator[Problem]:
    """ITM-IMPORT-03 / ITM-BLOCK-10/11/19 / ITM-SHEET-07: weight, and no current state read."""
    graph = RefGraph(ruleset.sheet)
    if block.binding is not None:
        yield from graph.static_problems(f"{BLOCK}.binding.max", block.binding.max)
    carry = block.carry
    if carry is None:
        for i, family in enumerate(block.currencies):
            if family.per_weight is not None:
                yield Problem(f"{BLOCK}.currencies[{i}].perWeight",
                              "perWeight is allowed only with carry (ITM-BLOCK-19)")
        return
    stat = block.stat(carry.stat)
    if not isinstance(stat, NumberStat) or stat.min is None or stat.min < 0:
        yield Problem(f"{BLOCK}.carry.stat",
                      "carry.stat must name a number stat whose min is 0 or more")
    yield from graph.static_problems(f"{BLOCK}.carry.encumberedAbove", carry.encumbered_above)
    if carry.limit is not None:
        yield from graph.static_problems(f"{BLOCK}.carry.limit", carry.limit)


def _rarity_caps(block: ItemsBlock) -> Iterator[Problem]:
    """ITM-IMPORT-02 / ITM-BLOCK-20: one cap per rarity, each inside its number stat's range."""
    rarities = {r.id for r in block.rarities}
    seen: set[str] = set()
    for i, cap in enumerate(block.rarity_caps):
        path = f"{BLOCK}.rarityCaps[{i}]"
        if cap.rarity not in rarities:
            yield Problem(f"{path}.rarity", f"no rarity {cap.rarity!r} in items.rarities")
        elif cap.rarity in seen:
            yield Problem(f"{path}.rarity", f"a second cap for rarity {cap.rarity!r}")
        seen.add(cap.rarity)
        for stat_id, value in cap.stats.items():
            stat = block.stat(stat_id)
            here = f"{path}.stats.{stat_id}"
            if not isinstance(stat, NumberStat):
                yield Problem(here, f"no number stat {stat_id!r} in items.stats")
            elif not stat.allows(value):
                yield Problem(here, "a cap must be a legal value of its stat (inside its range,"
                                    " whole for an integer stat)")


def _currencies(families: tuple[Currency, ...]) -> Iterator[Problem]:
    """ITM-IMPORT-04 / ITM-BLOCK-15/17: smallest coin 1, values distinct, ids unique overall."""
    seen: set[str] = set()
    yield from _dupes(f"{BLOCK}.currencies", [f.id for f in families])
    for i, family in enumerate(families):
        path = f"{BLOCK}.currencies[{i}]"
        if min(u.value for u in family.units) != 1:
            yield Problem(f"{path}.units", "the smallest coin of a family must be worth 1")
        values: set[int] = set()
        for j, unit in enumerate(family.units):
            if unit.value in values:
                yield Problem(f"{path}.units[{j}].value",
                              f"two coins of family {family.id!r} are worth {unit.value}")
            if unit.id in seen:
                yield Problem(f"{path}.units[{j}].id",
                              f"the coin id {unit.id!r} is used twice (ids are unique across "
                              "all families)")
            values.add(unit.value)
            seen.add(unit.id)


def _loot(tables: tuple[LootTable, ...], vocab: Vocab) -> Iterator[Problem]:
    """ITM-IMPORT-11: entries name real items, declared filter ids and declared coins."""
    for i, table in enumerate(tables):
        for j, entry in enumerate(table.entries):
            path = f"{BLOCK}.lootTables[{i}].entries[{j}]"
            if entry.item is not None and entry.item not in vocab.items:
                yield Problem(f"{path}.item", f"no ruleset item {entry.item!r}")
            if entry.coins is not None and entry.coins not in vocab.coins:
                yield Problem(f"{path}.coins", f"no coin {entry.coins!r}")
            if entry.filter is not None:
                yield from filter_problems(f"{path}.filter", entry.filter, vocab)


def _market(market: Market, vocab: Vocab) -> Iterator[Problem]:
    """ITM-IMPORT-10 / ITM-MARKET-02/08/09, ITM-DAY-07/09: levels, places, tables, coins."""
    path = f"{BLOCK}.market"
    if sum(p.default for p in market.prices) != 1:
        yield Problem(f"{path}.prices", "exactly one price level must be the default")
    places = [p.id for p in market.places]
    yield from _dupes(f"{path}.prices", [p.id for p in market.prices])
    yield from _dupes(f"{path}.places", places)
    yield from _dupes(f"{path}.sellers", [s.id for s in market.sellers])
    for i, size in enumerate(market.places):
        if size.purse is not None and size.purse.unit not in vocab.coins:
            yield Problem(f"{path}.places[{i}].purse.unit", f"no coin {size.purse.unit!r}")
    for i, rule in enumerate(market.sold):
        yield from filter_problems(f"{path}.sold[{i}].filter", rule.filter, vocab)
        if rule.place is not None and rule.place not in places:
            yield Problem(f"{path}.sold[{i}].place", f"no place size {rule.place!r}")
    for i, seller in enumerate(market.sellers):
        here = f"{path}.sellers[{i}]"
        for j, sells in enumerate(seller.sells):
            yield from filter_problems(f"{here}.sells[{j}]", sells, vocab)
        if seller.place is not None and seller.place not in places:
            yield Problem(f"{here}.place", f"no place size {seller.place!r}")
        if seller.stock is not None and seller.stock.table not in vocab.tables:
            yield Problem(f"{here}.stock.table", f"no loot table {seller.stock.table!r}")
    for i, unsold in enumerate(market.unsold):
        yield from filter_problems(f"{path}.unsold[{i}]", unsold, vocab)


def _gear_fits(block: ItemsBlock, ruleset: Ruleset) -> Iterator[Problem]:
    """ITM-GEAR-08/12: a kit's ``fits`` reads the sheet without live state or items."""
    graph = RefGraph(ruleset.sheet)
    for i, kit in enumerate(block.starting_gear):
        if kit.fits is not None:
            yield from graph.static_problems(f"{BLOCK}.startingGear[{i}].fits.value",
                                             kit.fits.value)


def _gear(block: ItemsBlock, vocab: Vocab) -> Iterator[Problem]:
    """ITM-IMPORT-12: every item, coin and plain name of a kit exists; never a service."""
    for i, kit in enumerate(block.starting_gear):
        lines = [(f"{BLOCK}.startingGear[{i}].lines[{j}]", line)
                 for j, line in enumerate(kit.lines)]
        lines += [(f"{BLOCK}.startingGear[{i}].choices[{c}].options[{o}].lines[{j}]", line)
                  for c, choice in enumerate(kit.choices)
                  for o, option in enumerate(choice.options)
                  for j, line in enumerate(option.lines)]
        for path, line in lines:
            refs = [("item", line.item)] if line.item else []
            refs += [(f"oneOf[{k}]", ref) for k, ref in enumerate(line.one_of or ())]
            for key, ref in refs:
                found = vocab.items.get(ref)
                if found is None:
                    yield Problem(f"{path}.{key}", f"no ruleset item {ref!r}")
                elif found.service:
                    yield Problem(f"{path}.{key}", "a service is never starting gear")
            if line.coins is not None and line.coins not in vocab.coins:
                yield Problem(f"{path}.coins", f"no coin {line.coins!r}")
            if line.name is not None and block.freeform == "refuse":
                yield Problem(f"{path}.name", "plain items are refused (freeform: refuse)")


def _reveals(block: ItemsBlock, vocab: Vocab) -> Iterator[Problem]:
    """ITM-IMPORT-14: ``revealsFakes.items`` are ruleset items that are fakes."""
    for i, way in enumerate(block.reveals_fakes):
        for j, ref in enumerate(way.items):
            found = vocab.items.get(ref)
            if found is None or not found.is_fake:
                yield Problem(f"{BLOCK}.revealsFakes[{i}].items[{j}]",
                              f"{ref!r} is not a fake ruleset item")
