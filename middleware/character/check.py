"""What a check reads from the sheet, assembled in the order of SHEET-CHK-03.

``assemble_check`` gives the sheet number (SHEET-SKL-02/05/06), the untrained rule (SHEET-UNT),
``adjust`` (SHEET-ADJ), the wound penalty (SHEET-PEN) and the condition, level and item effects
(SHEET-COND, ITM-CHECK-01..14), the sheet read with the roller's bag as it stands at this tag.
The check kinds add their own dice on top. Pools are read and spent here too
(SHEET-LIVE-05/06) for ``spend=`` and ``use=``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from middleware.cache import IdentityCache
from middleware.items.effects import held_items
from middleware.rules.layers import removed_values
from middleware.rules.ruleset import Ruleset
from middleware.rules.sheet import UntrainedBy
from middleware.sheet.effects import Modifier, effects_for
from middleware.sheet.evaluate import SheetView
from middleware.sheet.names import Target, find_ability, match_check
from middleware.sheet.numbers import whole
from middleware.sheet.reading import ItemEffects
from middleware.sheet.roller import Roller
from middleware.sheet.rules_view import sheet_rules
from middleware.sheet.view import blank_of
from middleware.state import Character, GameState, Live, PoolValue

Lean = Literal["advantage", "disadvantage"]


@dataclass(frozen=True, slots=True)
class CheckSheet:
    """Everything the sheet gives one check (SHEET-CHK-03 steps 1 to 5)."""

    target: Literal["skill", "save", "ability", "unknown"]
    id: str | None
    label: str | None
    number: int
    ability: str | None = None
    second_ability: str | None = None
    with_used: str | None = None
    untrained: Literal["normal", "harder", "refuse"] = "normal"
    adjust: int = 0
    penalty: int = 0
    modifiers: tuple[Modifier, ...] = ()
    leans: tuple[tuple[Lean, str], ...] = ()
    fails_automatically: str | None = None


_VIEWS: IdentityCache[SheetView] = IdentityCache(512)
_CHECKS: IdentityCache[CheckSheet] = IdentityCache(1024)


def view_for(ruleset: Ruleset, character: Character | None,
             items: ItemEffects | None = None, state: GameState | None = None) -> SheetView:
    """SHEET-CHK-02 / SHEET-BLANK-04: the member's build (blank without a sheet), live state and
    what their own bag holds (ITM-SHEET-09/11; ``state`` adds the GM's invented items).

    Without ``items`` the view is evaluated once per (ruleset, character, invented items) and
    shared (SHEET-EVAL-01: a pure function of frozen inputs; every number it caches stays true).
    """
    if items is not None:
        return _new_view(ruleset, character, items, state)
    layers = state.layers if state is not None else ()
    return _VIEWS.get((ruleset, character, _invented(character, state)), layers,
                        lambda: _new_view(ruleset, character, None, state))


def _new_view(ruleset: Ruleset, character: Character | None, items: ItemEffects | None,
              state: GameState | None) -> SheetView:
    rules = sheet_rules(ruleset)
    removed = _removed_values(ruleset, state)
    if character is None:
        return SheetView(rules, blank_of(ruleset), None, items, removed)
    build = character.sheet.build if character.sheet else blank_of(ruleset)
    if items is None and character.bag:
        items = held_items(ruleset, character, state)
    return SheetView(rules, build, character.live, items, removed)


def _removed_values(ruleset: Ruleset, state: GameState | None) -> Mapping[str, frozenset[str]]:
    """SHEET-FLD-06: the enum values the game's chosen layers took out of the sheet's fields."""
    if state is None or not state.layers:
        return {}
    return removed_values(ruleset, state.layers)


def _invented(character: Character | None, state: GameState | None) -> object:
    """What of ``state`` a view reads: the invented items, and only when the bag holds anything."""
    return state.invented if state is not None and character is not None and character.bag \
        else None


def current(state: GameState, roller: Roller) -> Character | None:
    """SHEET-CHK-08: the roller as they stand in ``state`` (earlier tags may have changed them)."""
    if roller.index is not None and roller.index < len(state.party):
        return state.party[roller.index]
    return roller.character


def assemble_check(ruleset: Ruleset, state: GameState, roller: Roller, skill: str,
                   with_: str | None, is_save_hint: bool = False) -> CheckSheet:
    """SHEET-CHK-03: target and number, untrained rule, adjust, penalty, effects.

    Assembled once per (ruleset, member, invented items), layers and asked-for check: the name is
    matched (``match_check``) only when the sheet is assembled, not on every check. The layers are
    in the key as they are in ``view_for``'s (SHEET-FLD-06): two games may share a member object
    and play different layers.
    """
    if roller.stranger:
        target = match_check(ruleset.sheet, skill, is_save_hint)
        return CheckSheet(target.kind, target.id, target.label, 0)
    character = current(state, roller)
    return _CHECKS.get((ruleset, character, _invented(character, state)),
                       (state.layers, skill, is_save_hint, with_),
                       lambda: _assemble(view_for(ruleset, character, state=state),
                                         match_check(ruleset.sheet, skill, is_save_hint), with_))


def _assemble(view: SheetView, target: Target, with_: str | None) -> CheckSheet:
    base = _number(view, target, with_)
    if base.untrained == "refuse":
        return base
    rolled = frozenset(a for a in (base.ability, base.second_ability) if a)
    effects = effects_for(view, target)
    return CheckSheet(
        base.target, base.id, base.label, base.number, base.ability, base.second_ability,
        base.with_used, base.untrained, adjust=view.adjust_total(rolled),
        penalty=_penalty(view), modifiers=effects.modifiers, leans=effects.leans,
        fails_automatically=effects.fails)


def _number(view: SheetView, target: Target, with_: str | None) -> CheckSheet:
    """SHEET-SKL-02/05/06 and SHEET-UNT: the number before adjust and penalty."""
    swap = find_ability(view.rules.sheet, with_) if with_ else None
    if target.kind == "ability" and target.id:
        pair = swap is not None and view.rules.kind == "dice-pool" \
            and view.rules.ability_plus_ability
        number = view.modifier(target.id) + (view.modifier(swap.id) if pair and swap else 0)
        return CheckSheet("ability", target.id, target.label, whole(number), target.id,
                          swap.id if pair and swap else None,
                          swap.label if pair and swap else None)
    if target.kind in ("skill", "save") and target.id:
        is_save = target.kind == "save"
        entry = (view.ix.saves if is_save else view.ix.skills)[target.id]
        rule = view.untrained_rule(entry, is_save)
        untrained: Literal["normal", "harder", "refuse"] = \
            "normal" if rule is None or isinstance(rule, UntrainedBy) else rule
        number = view.entry_number(entry, is_save, swap.id if swap else None)
        return CheckSheet(target.kind, target.id, target.label, whole(number),
                          swap.id if swap else entry.ability, None,
                          swap.label if swap else None, untrained)
    return CheckSheet("unknown", None, None, 0)


def _penalty(view: SheetView) -> int:
    """SHEET-PEN-01/04: the penalty of ``penaltyFrom`` on the roller's own track (<= 0)."""
    track = view.rules.penalty_from
    wound = view.live.wound(track) if track else None
    return min(wound.penalty, 0) if wound else 0


def pool_value(ruleset: Ruleset, state: GameState, roller: Roller,
               pool_name: str) -> tuple[str, int] | None:
    """SHEET-LIVE-05: the pool a name means and what is left in it; None when no pool (or two
    row pools) answer. A stranger has no pools."""
    if roller.stranger:
        return None
    view = view_for(ruleset, current(state, roller), state=state)
    pools = view.live.pools()
    if pool_name in pools:
        return pool_name, pools[pool_name][0]
    wanted = pool_name.strip().lower()
    for pool in view.rules.sheet.live.pools:
        if pool.id in pools and wanted in (pool.id, pool.label.lower()):
            return pool.id, pools[pool.id][0]
    rows = [r for r in view.live.row_pools().values() if wanted in (r.key, r.name.lower())]
    return (rows[0].key, pools[rows[0].key][0]) if len(rows) == 1 else None


def spend_pool(ruleset: Ruleset, character: Character, key: str, n: int,
               state: GameState | None = None) -> Character | None:
    """SHEET-LIVE-06: value - n, or None (``insufficient``) when less than n is left.

    The stored entry is dropped when the value returns to its default (SHEET-STORE-02); the
    game's ``state`` lets a maximum read invented items (ITM-PROPOSE-13).
    """
    view = view_for(ruleset, character, state=state)
    pools = view.live.pools()
    if key not in pools or n < 0 or pools[key][0] < n:
        return None
    value, maximum = pools[key]
    declared = view.ix.pools.get(key)
    start = 0 if declared is not None and declared.start == "empty" else maximum
    return _store_pool(character, key, value - n, start)


def _store_pool(character: Character, key: str, value: int, start: int) -> Character:
    pools = dict(character.live.pools)
    old = pools.get(key)
    if value == start and (old is None or old.temp is None):
        pools.pop(key, None)
    else:
        pools[key] = PoolValue(value=value, temp=old.temp if old else None)
    live: Live = character.live.model_copy(update={"pools": pools})
    return character.model_copy(update={"live": live})
