"""Import checks of item catalogs and their entries, with JSON paths (ITM-IMPORT-06..09, -13, -14).

An item catalog holds items and feeds nothing (ITM-ENTRY-01); each item names only what the block
declares (ITM-ENTRY-03..07, -11), a service carries nothing that is carried or used (ITM-IMPORT-07),
a use keeps to its vocabulary (ITM-IMPORT-09), and a fake passes for a real item it could be taken
for (ITM-IMPORT-13/14).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from pydantic import BaseModel

from middleware.errors import Problem
from middleware.rules.catalogs import Catalog
from middleware.rules.item_entry import REFUSED_IN_USE, Item, ItemUse, StatRef
from middleware.rules.items import ItemsBlock, NumberStat
from middleware.rules.items_money import ItemFilter
from middleware.rules.ruleset import Ruleset

SERVICE_REFUSES = ("slots", "stack", "binds", "worn", "carried", "requires", "attack", "use",
                   "charges")
"""ITM-ENTRY-10 / ITM-IMPORT-07: the carrying and using keys a service may not have."""


@dataclass(frozen=True)
class Vocab:
    """The ids the block declares and the items the catalogs list, for cross-checks."""

    block: ItemsBlock | None
    items: dict[str, Item] = field(default_factory=dict)
    coins: set[str] = field(default_factory=set)
    tables: set[str] = field(default_factory=set)
    pools: set[str] = field(default_factory=set)
    health_pool: str | None = None
    ways: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, ruleset: Ruleset) -> Vocab:
        block = ruleset.items
        health = ruleset.combat.health if ruleset.combat is not None else None
        pool = health.get("pool") if isinstance(health, dict) else None
        return cls(
            block=block,
            items={f"{c.id}/{e.id}": e.item for c in ruleset.catalogs if c.holds_items
                   for e in c.entries if e.item is not None},
            coins={u.id for f in block.currencies for u in f.units} if block else set(),
            tables={t.id for t in block.loot_tables} if block else set(),
            pools=set(ruleset.sheet.by_id.pools),
            health_pool=pool if isinstance(pool, str) else None,
            ways={w.id for w in block.reveals_fakes} if block else set(),
        )

    def ids(self, key: str) -> set[str]:
        """Declared ``categories``, ``rarities``, ``tags`` or ``slots`` ids."""
        return {n.id for n in getattr(self.block, key, ())} if self.block else set()


def filter_problems(path: str, wanted: ItemFilter, vocab: Vocab) -> Iterator[Problem]:
    """A filter names only a declared rarity, category and tag (ITM-IMPORT-10/11)."""
    for key, plural in (("rarity", "rarities"), ("category", "categories"), ("tag", "tags")):
        value = getattr(wanted, key)
        if value is not None and value not in vocab.ids(plural):
            yield Problem(f"{path}.{key}", f"no {key} {value!r} in items.{plural}")


def check_entries(ruleset: Ruleset, vocab: Vocab) -> Iterator[Problem]:
    """ITM-ENTRY-01 and every item of every catalog (ITM-IMPORT-06..09, -13, -14)."""
    for i, catalog in enumerate(ruleset.catalogs):
        path = f"$.catalogs[{i}]"
        yield from _catalog_shape(path, catalog, vocab)
        for j, entry in enumerate(catalog.entries):
            if entry.item is not None and catalog.holds_items and vocab.block is not None:
                yield from _item(f"{path}.entries[{j}].item", entry.item, vocab)


def _catalog_shape(path: str, catalog: Catalog, vocab: Vocab) -> Iterator[Problem]:
    """ITM-BLOCK-01 / ITM-ENTRY-01: items live in item catalogs, which feed nothing."""
    if catalog.holds_items and vocab.block is None:
        yield Problem(f"{path}.holds", "an item catalog needs the top-level items block")
    if catalog.holds_items and catalog.feeds:
        yield Problem(f"{path}.feeds", "an item catalog feeds no sheet list")
    for j, entry in enumerate(catalog.entries):
        here = f"{path}.entries[{j}]"
        if catalog.holds_items:
            if entry.item is None:
                yield Problem(f"{here}.item", "an entry of an item catalog needs item")
            for key in ("rows", "creature", "mechanics"):
                if getattr(entry, key):
                    yield Problem(f"{here}.{key}", f"an item entry has no {key} (its effects "
                                                   "are written inside item)")
        elif entry.item is not None:
            yield Problem(f"{here}.item", 'item is allowed only in a catalog with '
                                          '"holds": "items"')


def _item(path: str, item: Item, vocab: Vocab) -> Iterator[Problem]:
    yield from _vocabulary(path, item, vocab)
    yield from _stats(path, item, vocab)
    yield from _carrying(path, item, vocab)
    if item.use is not None:
        yield from _use(f"{path}.use", item.use, item, vocab)
    yield from _fake(path, item, vocab)


def _vocabulary(path: str, item: Item, vocab: Vocab) -> Iterator[Problem]:
    """ITM-ENTRY-03/07: category, rarity and tags declared; a cost in a declared coin."""
    if item.category not in vocab.ids("categories"):
        yield Problem(f"{path}.category", f"no category {item.category!r} in items.categories")
    if item.rarity is not None and item.rarity not in vocab.ids("rarities"):
        yield Problem(f"{path}.rarity", f"no rarity {item.rarity!r} in items.rarities")
    for k, tag in enumerate(item.tags):
        if tag not in vocab.ids("tags"):
            yield Problem(f"{path}.tags[{k}]", f"no tag {tag!r} in items.tags")
    if item.cost is not None and item.cost.unit not in vocab.coins:
        yield Problem(f"{path}.cost.unit", f"no coin {item.cost.unit!r} in items.currencies")
    if item.sold is not None and item.sold.place is not None:
        market = vocab.block.market if vocab.block else None
        if market is None or item.sold.place not in {p.id for p in market.places}:
            yield Problem(f"{path}.sold.place", f"no place size {item.sold.place!r}")


def _stats(path: str, item: Item, vocab: Vocab) -> Iterator[Problem]:
    """ITM-ENTRY-04: each value legal for its declared stat."""
    for stat_id, value in item.stats.items():
        stat = vocab.block.stat(stat_id) if vocab.block else None
        if stat is None:
            yield Problem(f"{path}.stats.{stat_id}", f"no stat {stat_id!r} in items.stats")
        elif not stat.allows(value):
            yield Problem(f"{path}.stats.{stat_id}", f"not a legal value of {stat.type} stat "
                                                     f"{stat_id!r} (got {value!r})")


def _carrying(path: str, item: Item, vocab: Vocab) -> Iterator[Problem]:
    """ITM-ENTRY-05/06/09..11 / ITM-IMPORT-06..08: slots, stacks, binding, services, requires."""
    slots = {s.id: s.count for s in vocab.block.slots} if vocab.block else {}
    for slot, count in item.slots.items():
        if slot not in slots:
            yield Problem(f"{path}.slots.{slot}", f"no slot {slot!r} in items.slots")
        elif not 1 <= count <= slots[slot]:
            yield Problem(f"{path}.slots.{slot}",
                          f"must be 1 to {slots[slot]} (the {slot} slots a character has)")
    if item.binds is not None and (vocab.block is None or vocab.block.binding is None):
        yield Problem(f"{path}.binds", "binds needs a binding in the items block")
    if item.charges is not None and item.stack not in (None, 1):
        yield Problem(f"{path}.stack", "an item with charges sits in a stack of 1")
    if item.service:
        if item.cost is None:
            yield Problem(f"{path}.cost", "a service must have a cost")
        for key in _given(item, SERVICE_REFUSES):
            yield Problem(f"{path}.{key}", f"a service is never carried: no {key}")
    for k, need in enumerate(item.requires):
        if need.otherwise.abilities:
            yield Problem(f"{path}.requires[{k}].otherwise.abilities",
                          "an unmet requirement may not change an attribute")
    if item.charges is not None and isinstance(item.charges.max, StatRef):
        yield from _charge_stat(f"{path}.charges.max", item, item.charges.max, vocab)


def _given(model: BaseModel, keys: tuple[str, ...]) -> list[str]:
    """Which of ``keys`` (file names) the object wrote."""
    fields = type(model).model_fields
    names = {(f.alias or name): name for name, f in fields.items()}
    return [k for k in keys if names.get(k, k) in model.model_fields_set]


def _charge_stat(path: str, item: Item, ref: StatRef, vocab: Vocab) -> Iterator[Problem]:
    """ITM-USE-08: a charge capacity read from a number stat the item gives, at least 1."""
    stat = vocab.block.stat(ref.stat) if vocab.block else None
    value = item.stats.get(ref.stat)
    if not isinstance(stat, NumberStat):
        yield Problem(f"{path}.stat", f"no number stat {ref.stat!r} in items.stats")
    elif isinstance(value, int | float) and not isinstance(value, bool) and value < 1:
        yield Problem(f"{path}.stat", f"the item's {ref.stat} is below 1: it holds no charge")


def _use(path: str, use: ItemUse, item: Item, vocab: Vocab) -> Iterator[Problem]:
    """ITM-IMPORT-09 / ITM-USE-02/05/07: a use's vocabulary, restore, charges."""
    for key in _given(use, REFUSED_IN_USE):
        yield Problem(f"{path}.{key}", f"{key} belongs to sheet catalog entries, not to a use")
    if use.restore is not None:
        pool = use.restore.pool
        if use.kind not in ("heal", "buff"):
            yield Problem(f"{path}.restore", "restore is allowed only in a heal or buff use")
        if pool == vocab.health_pool:
            yield Problem(f"{path}.restore.pool", "restore may not name the health pool")
        elif pool not in vocab.pools:
            yield Problem(f"{path}.restore.pool", f"no pool {pool!r} in sheet.live.pools")
    if use.charges is not None and item.charges is None:
        yield Problem(f"{path}.charges", "the item declares no charges to spend")
    if use.charges is not None and use.consumes:
        yield Problem(f"{path}.consumes", "a use consumes the item or spends charges, not both")
    if use.gate is not None and isinstance(use.gate.difficulty, StatRef):
        stat = vocab.block.stat(use.gate.difficulty.stat) if vocab.block else None
        if not isinstance(stat, NumberStat):
            yield Problem(f"{path}.gate.difficulty.stat",
                          f"no number stat {use.gate.difficulty.stat!r} in items.stats")


def _fake(path: str, item: Item, vocab: Vocab) -> Iterator[Problem]:
    """ITM-IMPORT-13/14 / ITM-FAKE-02: a fake passes for a real, saleable item like it."""
    if item.passes_for is None:
        for key in ("tells", "foolsReveal"):
            if key in _given(item, (key,)):
                yield Problem(f"{path}.{key}", f"{key} is only for a fake (passesFor)")
    else:
        yield from _target(f"{path}.passesFor", item, vocab.items.get(item.passes_for))
    for k, tell in enumerate(item.tells):
        for m, ref in enumerate(tell.carries.any_of if tell.carries else ()):
            if ref not in vocab.items:
                yield Problem(f"{path}.tells[{k}].carries.anyOf[{m}]", f"no ruleset item {ref!r}")
    for k, way in enumerate(item.fools_reveal):
        if way not in vocab.ways:
            yield Problem(f"{path}.foolsReveal[{k}]", f"no way {way!r} in items.revealsFakes")


def _target(path: str, fake: Item, real: Item | None) -> Iterator[Problem]:
    if real is None:
        yield Problem(path, f"no ruleset item {fake.passes_for!r}")
    elif real.is_fake:
        yield Problem(path, "a fake must pass for a real item, not another fake")
    elif real.category != fake.category:
        yield Problem(path, "a fake passes only for an item of its own category")
    elif real.cost is None or real.service:
        yield Problem(path, "a fake passes only for an item that can be sold")
    elif real.slots != fake.slots:
        yield Problem(path, "a fake is worn in the same slots as the item it passes for")
    elif fake.binds is not None and real.binds is None:
        yield Problem(path, "a fake that binds passes only for an item that binds")
