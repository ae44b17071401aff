"""Import checks for the sheet, rests and the sheet references of ``resolution`` (SHEET-IMPORT).

Each rule yields ``Problem``s with the JSON path of the offending key. Shapes and one-object ranges
are the models' job (SHEET-IMPORT-01/02/04/07/11/20 in part); here live the rules that compare keys
with one another. SHEET-TIER-04, SHEET-IMPORT-18 and -21 are enforced by ``checks_resolution``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from middleware.errors import Problem
from middleware.rules.problems import repeats
from middleware.rules.refs import ValueRef
from middleware.rules.sheet import EnumTable, SheetBlock
from middleware.rules.sheet_fields import EnumField, NumberField, TextField
from middleware.rules.sheet_refs import RefGraph, refs_of_derived


def check_sheet(ruleset: Any) -> Iterable[Problem]:
    """Every SHEET-IMPORT problem of ``ruleset`` with its path."""
    sheet: SheetBlock = ruleset.sheet
    res = _file_form(ruleset.resolution)
    yield from _duplicates(sheet)
    yield from _sections(sheet)
    yield from _skills(sheet, res)
    yield from _refs(sheet, res)
    yield from _tracks(sheet)
    yield from _lists(sheet)
    yield from _rests(sheet, ruleset.rests or [])


def _dupes(path: str, ids: list[str]) -> Iterator[Problem]:
    for i, item_id in repeats(ids):
        yield Problem(f"{path}[{i}].id", f"duplicate id {item_id!r}")


def _duplicates(sheet: SheetBlock) -> Iterator[Problem]:
    """SHEET-IMPORT-03."""
    live = sheet.live
    for name, items in (("sections", sheet.sections), ("abilities", sheet.abilities),
                        ("skills", sheet.skills), ("saves", sheet.saves),
                        ("fields", sheet.fields), ("derived", sheet.derived),
                        ("lists", sheet.lists)):
        yield from _dupes(f"$.sheet.{name}", [x.id for x in items])
    for name, things in (("pools", live.pools), ("tracks", live.tracks), ("text", live.text),
                         ("conditions", live.conditions), ("states", live.states)):
        yield from _dupes(f"$.sheet.live.{name}", [x.id for x in things])
    for i, sheet_list in enumerate(sheet.lists):
        yield from _dupes(f"$.sheet.lists[{i}].columns", [c.id for c in sheet_list.columns])
    skills = {s.id for s in sheet.skills}
    fields = {f.id for f in sheet.fields}
    tracks = {t.id for t in live.tracks}
    for i, save in enumerate(sheet.saves):
        if save.id in skills:
            yield Problem(f"$.sheet.saves[{i}].id", f"a save may not share skill id {save.id!r}")
    for i, derived in enumerate(sheet.derived):
        if derived.id in fields:
            yield Problem(f"$.sheet.derived[{i}].id", "a derived value may not share a field id")
    for i, pool in enumerate(live.pools):
        if pool.id in tracks:
            yield Problem(f"$.sheet.live.pools[{i}].id", "a pool may not share a track id")


def _sections(sheet: SheetBlock) -> Iterator[Problem]:
    """SHEET-IMPORT-05 and SHEET-IMPORT-09 (hideWhen names a field)."""
    declared = {s.id for s in sheet.sections}
    for name in ("abilities", "skills", "saves", "fields", "derived", "lists"):
        for i, item in enumerate(getattr(sheet, name)):
            section = getattr(item, "section", None)
            if section is not None and section not in declared:
                yield Problem(f"$.sheet.{name}[{i}].section", f"no section {section!r}")
    holders: list[tuple[str, list[Any]]] = [
        ("fields", sheet.fields), ("derived", sheet.derived), ("lists", sheet.lists),
        ("live.pools", sheet.live.pools), ("live.tracks", sheet.live.tracks),
        ("live.states", sheet.live.states)]
    fields = sheet.by_id.fields
    for name, items in holders:
        for i, item in enumerate(items):
            hide = getattr(item, "hide_when", None)
            if hide is not None and hide.field not in fields:
                yield Problem(f"$.sheet.{name}[{i}].hideWhen.field", f"no field {hide.field!r}")


def _skills(sheet: SheetBlock, res: dict[str, Any]) -> Iterator[Problem]:
    """SHEET-IMPORT-06 and -15."""
    tiers = {t.get("id") for t in res.get("proficiencyTiers") or ()}
    for key, offered in (("skillTiers", sheet.skill_tiers), ("saveTiers", sheet.save_tiers)):
        for i, tier in enumerate(offered or ()):
            if tier not in tiers:
                yield Problem(f"$.sheet.{key}[{i}]", f"no tier {tier!r}")
    target: dict[str, Any] = res["target"] if isinstance(res.get("target"), dict) else {}
    movable = res.get("kind") == "dice-pool" and target.get("min", 0) < target.get("max", 0)
    for name in ("skills", "saves"):
        for i, entry in enumerate(getattr(sheet, name)):
            if entry.ability is not None and entry.ability not in sheet.by_id.abilities:
                yield Problem(f"$.sheet.{name}[{i}].ability", f"no ability {entry.ability!r}")
            if entry.untrained == "harder" and not movable:
                yield Problem(f"$.sheet.{name}[{i}].untrained", _HARDER)
    for i, section in enumerate(sheet.sections):
        if section.untrained == "harder" and not movable:
            yield Problem(f"$.sheet.sections[{i}].untrained", _HARDER)


_HARDER = "'harder' needs a dice-pool resolution whose target can move (target.min < target.max)"


def _refs(sheet: SheetBlock, res: dict[str, Any]) -> Iterator[Problem]:
    """SHEET-IMPORT-08/10/11/12/13/14: references resolve; derived order; live reads in maxima;
    skill numbers in caps and the proficiency bonus."""
    graph = RefGraph(sheet)
    for i, derived in enumerate(sheet.derived):
        path = f"$.sheet.derived[{i}]"
        for sub, ref in refs_of_derived(derived):
            yield from graph.target_problems(f"{path}{sub}", ref, before=i)
        if isinstance(derived, EnumTable):
            yield from graph.enum_table_problems(path, derived)
    for name in ("skills", "saves"):
        for i, entry in enumerate(getattr(sheet, name)):
            if entry.cap is not None:
                path = f"$.sheet.{name}[{i}].cap"
                yield from graph.target_problems(path, entry.cap)
                if graph.reads_skill(entry.cap):
                    yield Problem(path, "a cap may not read a skill or save number")
    for i, pool in enumerate(sheet.live.pools):
        yield from graph.static_problems(f"$.sheet.live.pools[{i}].max", pool.max)
    for i, track in enumerate(sheet.live.tracks):
        if isinstance(track.max, ValueRef):
            yield from graph.static_problems(f"$.sheet.live.tracks[{i}].max", track.max)
    bonus = (res.get("proficiency") or {}).get("bonus")
    if isinstance(bonus, dict):
        ref = ValueRef.model_validate(bonus)
        yield from graph.static_problems("$.resolution.proficiency.bonus", ref)
        if graph.reads_skill(ref):
            yield Problem("$.resolution.proficiency.bonus",
                          "the proficiency bonus may not read a skill or save number")
    for i, entry in enumerate(res.get("adjust") or ()):
        if isinstance(entry, dict) and isinstance(entry.get("value"), dict):
            ref = ValueRef.model_validate(entry["value"])
            yield from graph.target_problems(f"$.resolution.adjust[{i}].value", ref)


def _tracks(sheet: SheetBlock) -> Iterator[Problem]:
    """SHEET-IMPORT-17."""
    for i, t in enumerate(sheet.live.tracks):
        path = f"$.sheet.live.tracks[{i}]"
        high = t.max if isinstance(t.max, int) else None
        if high is not None and t.min > high:
            yield Problem(f"{path}.min", "min is above max")
        if t.default is not None and (t.default < t.min or (high is not None and t.default > high)):
            yield Problem(f"{path}.default", "default is outside min..max")
        if t.kinds is None:
            for key, value in (("levels", t.levels), ("boxes", t.boxes), ("extra", t.extra),
                               ("fill", t.fill), ("onFull", t.on_full)):
                if value is not None:
                    yield Problem(f"{path}.{key}", f"'{key}' needs 'kinds' (a wound track)")
            continue
        yield from _wound(path, t, sheet)


def _wound(path: str, t: Any, sheet: SheetBlock) -> Iterator[Problem]:
    if (t.levels is None) == (t.boxes is None):
        yield Problem(path, "a wound track declares exactly one of levels, boxes")
    if t.levels is not None:
        if t.min != 0 or t.max != len(t.levels):
            yield Problem(f"{path}.max", "a track with levels has min 0 and max = its levels")
        for j in range(1, len(t.levels)):
            if t.levels[j].penalty > t.levels[j - 1].penalty:
                yield Problem(f"{path}.levels[{j}].penalty", "levels may not get kinder")
    if t.default not in (None, 0):
        yield Problem(f"{path}.default", "a wound track's default is 0")
    if t.hide_when is not None:
        yield Problem(f"{path}.hideWhen", "a wound track cannot be hidden")
    yield from _dupes(f"{path}.kinds", [k.id for k in t.kinds])
    if len({k.severity for k in t.kinds}) != len(t.kinds):
        yield Problem(f"{path}.kinds", "severities must be distinct")
    if t.fill == "indexed" and t.on_full != "refuse":
        yield Problem(f"{path}.onFull", "an indexed track says onFull: 'refuse'")
    if t.extra is not None:
        yield from _extra(f"{path}.extra", t, sheet)


def _extra(path: str, t: Any, sheet: SheetBlock) -> Iterator[Problem]:
    if t.boxes is not None:
        yield Problem(path, "'extra' adds levels, so it needs named levels")
    sheet_list = sheet.by_id.lists.get(t.extra.list)
    if sheet_list is None:
        yield Problem(f"{path}.list", f"no list {t.extra.list!r}")
        return
    for key, column_id in (("countColumn", t.extra.count_column),
                           ("penaltyColumn", t.extra.penalty_column)):
        if not isinstance(sheet_list.column(column_id), NumberField):
            yield Problem(f"{path}.{key}", f"{column_id!r} is not a number column of the list")


def _lists(sheet: SheetBlock) -> Iterator[Problem]:
    """SHEET-IMPORT-16."""
    for i, sheet_list in enumerate(sheet.lists):
        pools = sheet_list.pools
        if pools is None:
            continue
        path = f"$.sheet.lists[{i}].pools"
        if not isinstance(sheet_list.column(pools.name_column), TextField):
            yield Problem(f"{path}.nameColumn", "must name a text column")
        if not isinstance(sheet_list.column(pools.max_column), NumberField):
            yield Problem(f"{path}.maxColumn", "must name a number column")
        if pools.recharge_column is not None and \
                not isinstance(sheet_list.column(pools.recharge_column), EnumField):
            yield Problem(f"{path}.rechargeColumn", "must name an enum column")


def _rests(sheet: SheetBlock, rests: list[Any]) -> Iterator[Problem]:
    """SHEET-IMPORT-22 (targets, to/by, kinds, recharge, state values) and -03 for rest ids."""
    yield from _dupes("$.rests", [r.id for r in rests])
    ix = sheet.by_id
    groups = {p.group for p in sheet.live.pools if p.group}
    for i, rest in enumerate(rests):
        for j, step in enumerate(rest.restore):
            yield from _rest_step(f"$.rests[{i}].restore[{j}]", step, ix, groups)
        clear = rest.clear
        for k, text_id in enumerate(clear.text if clear else ()):
            if text_id not in ix.text:
                yield Problem(f"$.rests[{i}].clear.text[{k}]", f"no live text {text_id!r}")
        if clear and isinstance(clear.conditions, list):
            for k, cid in enumerate(clear.conditions):
                if cid not in ix.conditions:
                    yield Problem(f"$.rests[{i}].clear.conditions[{k}]", f"no condition {cid!r}")


def _rest_step(path: str, step: Any, ix: Any, groups: set[str]) -> Iterator[Problem]:
    if len(step.targets) != 1:
        yield Problem(path, "a step names exactly one of pool, poolGroup, listPools, track, state")
        return
    if (step.to is None) == (step.by is None):
        yield Problem(path, "a step has exactly one of to, by")
    known = {"pool": ix.pools, "poolGroup": groups, "listPools": ix.lists, "track": ix.tracks,
             "state": ix.states}
    key = step.targets[0]
    name = {"pool": step.pool, "poolGroup": step.pool_group, "listPools": step.list_pools,
            "track": step.track, "state": step.state}[key]
    if name not in known[key]:
        yield Problem(f"{path}.{key}", f"no {key} {name!r}")
        return
    if key == "state" and step.to is not None and step.to != "default" \
            and step.to not in ix.states[name].values:
        yield Problem(f"{path}.to", "a state step goes 'to' 'default' or one of its values")
    if key != "state" and isinstance(step.to, str) and step.to not in ("max", "min"):
        yield Problem(f"{path}.to", "'to' is 'max', 'min' or a whole number")
    if step.kind is not None and (key != "track" or ix.tracks[name].kinds is None
                                  or step.kind not in {k.id for k in ix.tracks[name].kinds}):
        yield Problem(f"{path}.kind", f"no kind {step.kind!r} on this track")
    if step.recharge is not None:
        yield from _recharge(path, step, key, ix.lists.get(name))


def _recharge(path: str, step: Any, key: str, sheet_list: Any) -> Iterator[Problem]:
    pools = sheet_list.pools if sheet_list is not None and key == "listPools" else None
    column = sheet_list.column(pools.recharge_column) if pools and pools.recharge_column else None
    if not isinstance(column, EnumField):
        yield Problem(f"{path}.recharge", "recharge needs listPools on a list with rechargeColumn")
        return
    for k, value in enumerate(step.recharge):
        if value not in column.values:
            yield Problem(f"{path}.recharge[{k}]", f"{value!r} is not a value of the column")


def _file_form(value: Any) -> Any:
    """The resolution as the file spells it: a model dumped by its file keys, or the raw dict the
    first pass hands over before the models are built."""
    if hasattr(value, "model_dump"):
        return value.model_dump(by_alias=True, exclude_none=True)
    return value or {}
