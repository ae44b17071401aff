"""What changed a check, as the record states it (ITM-CHECK-15, CHK-REC, SPEC §6).

``effects="-1"`` is the numeric change the engine already applied from conditions, levels and
items (the flat sum, then any effect dice a summed check threw: ``"+1d4"``, ``"-1-1d6"``);
``from="Leather coat"`` names every source that changed the roll, each once, in the sheet's order;
``automatic="true"`` marks a save failed without a roll (set where it is settled). The Game Master
reads these on the next turn knowing they are already applied, so he must not add them again.

One place for every kind: ``resolve_check`` runs ``mark_changes`` on what the kind recorded.
"""

from __future__ import annotations

from typing import Any

from middleware.cache import IdentityCache
from middleware.character.check import CheckSheet
from middleware.resolve.checks.record import CheckRecord
from middleware.sheet.effects import Modifier

THROWS_EFFECT_DICE = frozenset({"dice-sum"})
"""Kinds that throw a modifier's ``dice`` (SHEET-COND-05); the others read only ``flat``."""


def mark_changes(record: CheckRecord, sheet: CheckSheet, resolution: Any) -> CheckRecord:
    """ITM-CHECK-15: ``effects=`` and ``from=`` on a rolled check; a settled one keeps its own.

    A kind that already wrote the same two values (``changes_of``) gets its record back as is.
    """
    update = changed_fields(record, sheet, resolution)
    return record.model_copy(update=update) if update else record


def changed_fields(record: CheckRecord, sheet: CheckSheet, resolution: Any) -> dict[str, Any]:
    """What ``mark_changes`` would change on ``record``: nothing on a settled or refused check,
    else ``effects``/``from_`` where the record does not already say the same."""
    if record.status != "resolved" or record.automatic:
        return {}
    effects, sources = changes_of(sheet, resolution)
    if record.effects == effects and record.from_ == sources:
        return {}  # the kind wrote them already (dice-sum always does)
    return {name: value for name, value in (("effects", effects), ("from_", sources))
            if getattr(record, name) != value}


def marks(sheet: CheckSheet, resolution: Any) -> dict[str, str | None]:
    """ITM-CHECK-15: a kind's record fields ``effects`` (the numeric change) and ``from_`` (its
    sources), ready to pass to ``CheckRecord``."""
    effects, sources = changes_of(sheet, resolution)
    return {"effects": effects, "from_": sources}


_CHANGES: IdentityCache[tuple[str | None, str | None]] = IdentityCache(1024)


def changes_of(sheet: CheckSheet, resolution: Any) -> tuple[str | None, str | None]:
    """ITM-CHECK-15: the ``effects=`` and ``from=`` values of a rolled check on ``sheet``.

    Worked out once per (sheet, resolution) objects: every check reads them twice (the kind's
    record, then ``resolve_check``'s ``changed_fields``).
    """
    if not sheet.modifiers and not sheet.leans:
        return None, None  # nothing changed the check: the usual case, answered at once
    return _CHANGES.get((sheet, resolution), None, lambda: _changes(sheet, resolution))


def _changes(sheet: CheckSheet, resolution: Any) -> tuple[str | None, str | None]:
    kind = str(getattr(resolution, "kind", ""))
    applied = [m for m in sheet.modifiers if m.flat or (m.dice and kind in THROWS_EFFECT_DICE)]
    tilting = sheet.leans if _rolls_twice(resolution) else ()
    names = [m.source for m in applied] + [source for _, source in tilting]
    sources = ", ".join(dict.fromkeys(n for n in names if n)) or None
    return effects_text(applied, kind), sources


def effects_text(modifiers: list[Modifier], kind: str) -> str | None:
    """The numeric change: the signed flat sum, then each thrown dice term; None when none."""
    if not modifiers:
        return None
    flat = sum(m.flat for m in modifiers)
    dice = [f"{'-' if m.minus else '+'}{m.dice}" for m in modifiers
            if m.dice and kind in THROWS_EFFECT_DICE]
    if flat == 0 and dice:
        return "".join(dice)
    return ("0" if flat == 0 else f"{flat:+d}") + "".join(dice)


def _rolls_twice(resolution: Any) -> bool:
    """ITM-CHECK-13: leans tilt only a ruleset that rolls twice at all (``advantage``)."""
    return bool(getattr(resolution, "advantage", False))
