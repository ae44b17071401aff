"""The limits an invented item is held to (ITM-PROPOSE-05, -09, -10, -15; ITM-BLOCK-20/21).

Applied to the finished item, so what ``like=`` passed on is held to them too:

- every number stat to its range and then to the rarity's cap;
- every worn/carried bonus (a flat modifier or an attribute raise) to the rarity's ``bonus``; at a
  rarity with ``bonus`` a dice bonus is dropped; a penalty is never capped;
- a worn defence change is dropped when the item gives a stat the ruleset's defence already sums;
- an item with neither slots nor binding is never worn, so it keeps no attack.
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import ValidationError

from middleware.items.propose_read import Change, cap_stat, clamp_number
from middleware.rules.combat import Modifier
from middleware.rules.item_entry import AbilityChange, ItemEffect, StatValue
from middleware.rules.items import ItemsBlock, NumberStat, RarityCap
from middleware.rules.refs import ValueRef
from middleware.rules.ruleset import Ruleset
from middleware.rules.sheet_refs import refs_of_derived


def cap_for(block: ItemsBlock, rarity: str | None) -> RarityCap | None:
    """The ``rarityCaps`` entry of a rarity, if the block has one."""
    return next((c for c in block.rarity_caps if c.rarity == rarity), None)


def held_stats(block: ItemsBlock, stats: dict[str, StatValue], cap: RarityCap | None,
               rarity: str) -> tuple[dict[str, StatValue], list[Change]]:
    """ITM-PROPOSE-09: number stats clamped to their range, then to the rarity's cap."""
    kept: dict[str, StatValue] = {}
    changes: list[Change] = []
    for stat_id, value in stats.items():
        stat = block.stat(stat_id)
        if isinstance(stat, NumberStat) and isinstance(value, int | float) \
                and not isinstance(value, bool):
            ranged, said = clamp_number(stat, float(value))
            value, capped = cap_stat(stat, ranged, cap, rarity)
            changes += said + capped
        kept[stat_id] = value
    return kept, changes


def held_effect(effect: ItemEffect | None, when: str, cap: RarityCap | None,
                rarity: str) -> tuple[ItemEffect | None, list[Change]]:
    """ITM-PROPOSE-10 / ITM-BLOCK-21: bonuses no larger than the rarity's ``bonus``."""
    if effect is None or cap is None or cap.bonus is None:
        return effect, []
    bonus = cap.bonus
    changes: list[Change] = []
    modifiers = [m for m in (_cap_modifier(m, bonus, when, rarity, changes)
                             for m in effect.modifiers) if m is not None]
    abilities = {}
    for ability, change in effect.abilities.items():
        if change.add is not None and change.add > bonus:
            changes.append(Change(f"{when}: +{change.add:g} {ability} is more than a {rarity} "
                                  f"item gives; made +{bonus}"))
            if not bonus and change.set is None:
                continue
            change = AbilityChange(set=change.set, add=bonus or None)
        abilities[ability] = change
    return _or_none(effect.model_copy(update={"modifiers": tuple(modifiers),
                                              "abilities": abilities})), changes


def _cap_modifier(mod: Modifier, bonus: int, when: str, rarity: str,
                  changes: list[Change]) -> Modifier | None:
    if mod.dice is not None and not mod.minus:
        changes.append(Change(f"{when}: +{mod.dice} on {_on(mod)} dropped; a {rarity} item's "
                              f"bonus cannot be dice"))
        return _without_dice(mod)
    if mod.flat is None or mod.flat <= bonus:
        return mod
    changes.append(Change(f"{when}: +{mod.flat} on {_on(mod)} is more than a {rarity} item gives; "
                          f"made +{bonus}"))
    try:
        return mod.model_copy(update={"flat": bonus}) if bonus else _without_flat(mod)
    except ValidationError:
        return None


def _on(mod: Modifier) -> str:
    narrowed = mod.skills or mod.saves
    return mod.to + (f" ({', '.join(narrowed)})" if narrowed else "")


def _without_dice(mod: Modifier) -> Modifier | None:
    if mod.flat is None and mod.mode is None:
        return None
    return mod.model_copy(update={"dice": None})


def _without_flat(mod: Modifier) -> Modifier | None:
    if mod.dice is None and mod.mode is None:
        return None
    return mod.model_copy(update={"flat": None})


def defence_stats(ruleset: Ruleset) -> set[str]:
    """ITM-PROPOSE-05: item stats the ruleset's defence already sums from worn items (Ember
    Roads' Guard reads ``itemStat guard`` worn), directly or through derived values."""
    defense = ruleset.combat.defense if ruleset.combat is not None else None
    try:
        ref = ValueRef.model_validate(defense) if isinstance(defense, dict) else None
    except ValidationError:
        return set()
    return {r.item_stat.stat for r in _reads(ruleset, ref, frozenset())
            if r.item_stat is not None and r.item_stat.stat is not None
            and r.item_stat.from_ in ("worn", "all")}


def _reads(ruleset: Ruleset, ref: ValueRef | None, seen: frozenset[str]) -> Iterator[ValueRef]:
    if ref is None:
        return
    yield ref
    derived = ruleset.sheet.by_id.derived.get(ref.derived or "")
    if derived is not None and derived.id not in seen:
        for _, inner in refs_of_derived(derived):
            yield from _reads(ruleset, inner, seen | {derived.id})


def without_defence(effect: ItemEffect | None) -> tuple[ItemEffect | None, bool]:
    """The worn effect with its defence changes dropped, and whether there were any."""
    if effect is None or not any(m.to == "defense" for m in effect.modifiers):
        return effect, False
    kept = tuple(m for m in effect.modifiers if m.to != "defense")
    return _or_none(effect.model_copy(update={"modifiers": kept})), True


def _or_none(effect: ItemEffect) -> ItemEffect | None:
    """An effect left with nothing in it is no effect."""
    return effect if effect.model_dump(exclude_defaults=True) else None
