"""Condition, level and item effects on a check (SHEET-COND-01..07, ITM-CHECK-01..14).

Every source speaks the same vocabulary (``EffectSource``): a condition, a level reached, an
item's ``worn``/``carried`` effect and the ``otherwise`` of an unmet requirement (SHEET-COND-07).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from middleware.rules.combat import LevelEffect
from middleware.sheet.names import Target
from middleware.sheet.reading import EffectSource, SheetReader

Lean = Literal["advantage", "disadvantage"]


@dataclass(frozen=True, slots=True)
class Modifier:
    """SHEET-COND-05: ``flat`` and/or ``dice`` ("1d4"; subtracted when ``minus``) by ``source``."""

    source: str
    flat: int = 0
    dice: str | None = None
    minus: bool = False


@dataclass(frozen=True, slots=True)
class Effects:
    modifiers: tuple[Modifier, ...] = ()
    leans: tuple[tuple[Lean, str], ...] = ()
    fails: str | None = None


def sources(view: SheetReader) -> Iterator[tuple[str, EffectSource]]:
    """SHEET-COND-01/03/07: active conditions (by their label), every level reached, then the
    items the roller holds (by name, each once)."""
    combat = view.rules.combat
    if combat is not None:
        active = view.live.active_conditions()
        for effect in combat.conditions:
            if effect.condition in active:
                yield view.ix.conditions[effect.condition].label, effect
        for level in combat.levels:
            name, value = _level_reading(view, level)
            if value >= level.at:
                yield f"{name} {level.at:g}", level
    if view.items is not None:
        yield from view.items.sources(view)


def _level_reading(view: SheetReader, level: LevelEffect) -> tuple[str, float]:
    if level.track is not None:
        track = view.ix.tracks.get(level.track)
        return (track.label if track else level.track), view.live.track_read(level.track, "value")
    derived = view.ix.derived.get(level.derived or "")
    return (derived.label if derived else str(level.derived)), view.derived(level.derived or "")


def _narrowed(target: Target, narrow: Sequence[str] | None) -> bool:
    """A narrowing applies when absent, or when it lists this skill or save."""
    if narrow is None:
        return True
    return target.kind in ("skill", "save") and target.id in narrow


def effects_for(view: SheetReader, target: Target) -> Effects:
    """SHEET-COND-02/04/05, ITM-CHECK-03/11/12/14: modifiers, leans and an automatic failure."""
    is_save = target.kind == "save"
    word, to = ("saves", "saves") if is_save else ("checks", "checks")
    modifiers: list[Modifier] = []
    leans: list[tuple[Lean, str]] = []
    fails: str | None = None
    for name, source in sources(view):
        own = source.saves if is_save else source.skills
        if is_save and fails is None and target.id in source.fails_saves:
            fails = name
        for lean in ("advantage", "disadvantage"):
            if f"own-{word}-{lean}" in source.effects and _narrowed(target, own):
                leans.append((lean, name))
        for mod in source.modifiers:
            narrow = (mod.saves if is_save else mod.skills)
            if mod.to != to or not _narrowed(target, narrow if narrow is not None else own):
                continue
            if mod.mode is not None:
                leans.append((mod.mode, name))
            if mod.flat or mod.dice:
                modifiers.append(Modifier(name, mod.flat or 0, mod.dice, mod.minus))
    return Effects(tuple(modifiers), tuple(leans), fails)
