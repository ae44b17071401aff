"""Condition and level effects on a check (SHEET-COND-01..06); items plug in later (SHEET-COND-07).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from middleware.rules.combat import ConditionEffect, LevelEffect
from middleware.sheet.names import Target

if TYPE_CHECKING:
    from middleware.sheet.evaluate import SheetView

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


def sources(view: SheetView) -> Iterator[tuple[str, ConditionEffect | LevelEffect]]:
    """SHEET-COND-01/03: active conditions (by their label), then every level reached."""
    combat = view.rules.combat
    if combat is None:
        return
    active = view.live.active_conditions()
    for effect in combat.conditions:
        if effect.condition in active:
            yield view.ix.conditions[effect.condition].label, effect
    for level in combat.levels:
        name, value = _level_reading(view, level)
        if value >= level.at:
            yield f"{name} {level.at:g}", level


def _level_reading(view: SheetView, level: LevelEffect) -> tuple[str, float]:
    if level.track is not None:
        track = view.ix.tracks.get(level.track)
        return (track.label if track else level.track), view.live.track_read(level.track, "value")
    derived = view.ix.derived.get(level.derived or "")
    return (derived.label if derived else str(level.derived)), view.derived(level.derived or "")


def _narrowed(target: Target, narrow: list[str] | None) -> bool:
    """A narrowing applies when absent, or when it lists this skill or save."""
    if narrow is None:
        return True
    return target.kind in ("skill", "save") and target.id in narrow


def effects_for(view: SheetView, target: Target) -> Effects:
    """SHEET-COND-02/04/05: modifiers, leans and an automatic failure for this check."""
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
