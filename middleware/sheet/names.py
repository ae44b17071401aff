"""What a check name means (SHEET-SKL-07, SHEET-ABL-05)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from middleware.cache import IdentityCache
from middleware.rules.sheet import Ability, SheetBlock, Skill

SAVE_WORDS = (" saving throw", " save")
CHECK_WORDS = (" ability check", " check")
_NOT_NAME = re.compile(r"[^a-z0-9]+")


def normalize_check(name: str) -> str:
    """Lowercase; every run of characters other than ASCII a-z and 0-9 becomes one space."""
    return _NOT_NAME.sub(" ", name.lower()).strip()


@dataclass(frozen=True, slots=True)
class Target:
    """What a check rolls: a skill, a save, an ability, or nothing the sheet knows."""

    kind: Literal["skill", "save", "ability", "unknown"]
    id: str | None = None
    label: str | None = None


UNKNOWN = Target("unknown")


def _names(entry: Skill | Ability) -> set[str]:
    names = {normalize_check(entry.id), normalize_check(entry.label)}
    if isinstance(entry, Ability) and entry.short:
        names.add(normalize_check(entry.short))
    return names


def find_ability(sheet: SheetBlock, name: str) -> Ability | None:
    """SHEET-ABL-05: an ability by id, label or short."""
    wanted = normalize_check(name)
    return next((a for a in sheet.abilities if wanted in _names(a)), None)


def _strip(request: str, words: tuple[str, ...]) -> str | None:
    return next((request[: -len(w)] for w in words if request.endswith(w)), None)


def _save_by_stem(sheet: SheetBlock, stem: str) -> Target | None:
    ability = find_ability(sheet, stem)
    if ability is not None:
        saves = [s for s in sheet.saves if s.ability == ability.id]
        if len(saves) == 1:
            return Target("save", saves[0].id, saves[0].label)
    save = next((s for s in sheet.saves if stem in _names(s)), None)
    return Target("save", save.id, save.label) if save else None


_MATCHED: IdentityCache[Target] = IdentityCache(2048)


def match_check(sheet: SheetBlock, name: str, is_save_hint: bool = False) -> Target:
    """SHEET-SKL-07, steps 1 to 5, in order. ``is_save_hint`` reads a bare name as a save first.

    Worked out once per (sheet block, name, hint): the answer depends on nothing else.
    """
    return _MATCHED.get((sheet,), (name, is_save_hint),
                          lambda: _match(sheet, name, is_save_hint))


def _match(sheet: SheetBlock, name: str, is_save_hint: bool) -> Target:
    request = normalize_check(name)
    save = next((s for s in sheet.saves if request in _names(s)), None)
    if save is not None:
        return Target("save", save.id, save.label)
    stem = _strip(request, SAVE_WORDS)
    if stem is not None:
        return _save_by_stem(sheet, stem) or UNKNOWN
    if is_save_hint:
        hinted = _save_by_stem(sheet, request)
        if hinted is not None:
            return hinted
    bare = _strip(request, CHECK_WORDS) or request
    skill = next((s for s in sheet.skills if request in _names(s) or bare in _names(s)), None)
    if skill is not None:
        return Target("skill", skill.id, skill.label)
    ability = find_ability(sheet, bare)
    return Target("ability", ability.id, ability.label) if ability else UNKNOWN
