"""Checks that roll their own way: the resolution one check is rolled with (CHK-OVR-01..08).

``resolution.overrides`` names checks (``skills``, ``saves``, ``abilities``) whose ``set`` replaces
top-level resolution keys (CHK-OVR-02; Ambiguity 24: whole keys, no deep merge) or removes them
with ``null`` (CHK-OVR-03). The first override in list order that names the check and whose
``when`` holds on the roller's sheet applies (CHK-OVR-06/07). What ``set`` may touch (CHK-OVR-04)
and that the produced resolution is valid (CHK-OVR-05) is checked at import
(``middleware/rules/overrides.py``), so here an override only has to be found and applied, before
the kind rolls.

Matching: an override's names are the sheet's ids (or labels) of the check rolled; ``abilities``
name ability checks. A check the sheet does not know matches by the name the GM wrote (our
reading: an override may name a check the sheet leaves out).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from pydantic import TypeAdapter, ValidationError

from middleware.character.check import CheckSheet, current, view_for
from middleware.errors import RulesetError
from middleware.resolve.checks.kind import Kind, Roll, Rolled
from middleware.resolve.checks.record import Ask, CheckRecord
from middleware.rules.common import Override
from middleware.rules.overrides import merged_resolution
from middleware.rules.problems import validation_problems
from middleware.rules.refs import ValueRef
from middleware.rules.resolution import AnyResolution, ResolutionBlock
from middleware.sheet.evaluate import SheetView
from middleware.sheet.names import normalize_check

if TYPE_CHECKING:
    from middleware.rules.ruleset import Ruleset

__all__ = ["applying_override", "effective_resolution", "names_check", "produce",
           "roll_with_overrides", "when_holds"]

_GROUPS = {"skill": "skills", "save": "saves", "ability": "abilities"}
"""Which list of an override names a check of each sheet target."""

_PRODUCED: dict[tuple[int, int], tuple[object, Ruleset]] = {}
"""(id(ruleset), override index) -> the ruleset with that override applied, built once."""


def effective_resolution(ruleset: Ruleset, sheet: CheckSheet, ask: Ask,
                         view: SheetView) -> AnyResolution:
    """CHK-OVR-02/03/07: the resolution this check rolls with (the ruleset's own when no override
    names it, or none whose ``when`` holds)."""
    index = applying_override(ruleset.resolution.overrides, sheet, ask, view)
    return ruleset.resolution if index is None else _overridden(ruleset, index).resolution


def applying_override(overrides: tuple[Override, ...], sheet: CheckSheet, ask: Ask,
                      view: SheetView) -> int | None:
    """CHK-OVR-06/07: the index of the first override that names the check and whose ``when``
    holds, in list order; None when there is none."""
    for index, override in enumerate(overrides):
        if names_check(override, sheet, ask) and when_holds(override.when, view):
            return index
    return None


def names_check(override: Override, sheet: CheckSheet, ask: Ask) -> bool:
    """CHK-OVR-01: whether ``override`` names this check (by the sheet's id or label; a check the
    sheet does not know, by the name written on the tag, in any of the three lists)."""
    if sheet.target == "unknown":
        names = (*override.skills, *override.saves, *override.abilities)
        return normalize_check(ask.skill) in {normalize_check(n) for n in names}
    listed = getattr(override, _GROUPS[sheet.target])
    own = {normalize_check(n) for n in (sheet.id, sheet.label) if n}
    return any(normalize_check(name) in own for name in listed)


def when_holds(when: ValueRef | None, view: SheetView) -> bool:
    """CHK-OVR-06: no ``when`` always holds; otherwise the roller's value must not be 0."""
    return when is None or view.ref(when) != 0


def roll_with_overrides(kind: Kind, roll: Roll) -> Rolled:
    """Roll ``kind`` with the check's effective resolution (CHK-OVR-07: applied before the kind
    rolls); the GM is told which override applied, with its ``text`` (CHK-OVR-01)."""
    ruleset = roll.ctx.ruleset
    if not ruleset.resolution.overrides:
        return kind(roll)
    view = view_for(ruleset, current(roll.state, roll.roller), state=roll.state)
    index = applying_override(ruleset.resolution.overrides, roll.sheet, roll.ask, view)
    if index is None:
        return kind(roll)
    rolled = kind(roll._replace(ctx=replace(roll.ctx, ruleset=_overridden(ruleset, index))))
    return Rolled(_noted(rolled.record, ruleset.resolution.overrides[index]), rolled.state)


def _noted(record: CheckRecord, override: Override) -> CheckRecord:
    """The record with the override named in its feedback (the GM narrates by its rules)."""
    note = f'Rolled as "{override.label or override.id}".'
    if override.text:
        note = f"{note} {override.text}"
    return record.model_copy(update={"feedback": f"{record.feedback or ''} {note}".strip()})


def _overridden(ruleset: Ruleset, index: int) -> Ruleset:
    """The ruleset whose ``resolution`` is the one override ``index`` produces (cached per ruleset,
    so the sheet evaluator and the odds cache see one object per override)."""
    key = (id(ruleset), index)
    hit = _PRODUCED.get(key)
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    if len(_PRODUCED) > 256:
        _PRODUCED.clear()
    produced = ruleset.model_copy(update={"resolution": produce(ruleset.resolution, index)})
    _PRODUCED[key] = (ruleset, produced)
    return produced


def produce(res: AnyResolution, index: int) -> AnyResolution:
    """CHK-OVR-02/03: ``res`` with override ``index``'s ``set`` applied: each key replaced whole,
    a ``null`` removing it (the kind's default then applies); the produced resolution carries no
    overrides of its own. ``RulesetError`` if it is not a valid resolution (CHK-OVR-05: a loaded
    ruleset never gets here, import refused it)."""
    merged = merged_resolution(res, res.overrides[index])
    merged.pop("overrides", None)
    try:
        return _adapter().validate_python(merged)
    except ValidationError as exc:
        prefix = ("resolution", "overrides", index, "set")
        raise RulesetError(validation_problems(exc, merged, prefix)) from exc


@cache
def _adapter() -> TypeAdapter[AnyResolution]:
    return TypeAdapter(ResolutionBlock)
