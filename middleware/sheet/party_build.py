"""Strict checks of a transcript build (SHEET-TRN-05, SHEET-BUILD-01)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from pydantic import JsonValue

from middleware.errors import Problem
from middleware.json_input import JsonObject
from middleware.rules.base import json_path
from middleware.rules.catalogs import Catalog
from middleware.rules.ruleset import Ruleset
from middleware.rules.sheet import SheetList
from middleware.rules.sheet_fields import (
    BooleanField,
    DiceField,
    EnumField,
    LongtextField,
    NumberField,
    SheetField,
    TextField,
)

BUILD_KEYS = {"abilities", "skills", "saves", "bonuses", "fields", "lists"}


@dataclass(frozen=True, slots=True)
class Ctx:
    """Where we are in the party JSON, and where problems go."""

    ruleset: Ruleset
    path: str
    problems: list[Problem]

    def at(self, key: str | int) -> Ctx:
        return Ctx(self.ruleset, self.path + json_path((key,))[1:], self.problems)

    def add(self, key: str | int, message: str) -> None:
        where = self.at(key).path if key != "" else self.path
        self.problems.append(Problem(where, message))


def _number(value: object) -> float | None:
    """A JSON number as a float, or None: not a number, or past any range (JSON holds integers
    of 400 digits, which no float does)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _obj(ctx: Ctx, build: JsonObject, key: str) -> JsonObject:
    value = build.get(key, {})
    if not isinstance(value, dict):
        ctx.add(key, "must be an object")
        return {}
    return value


def check_build(ctx: Ctx, build: JsonValue) -> None:
    """Unknown keys and ids, scores, tiers, bonuses, fields and list rows."""
    if not isinstance(build, dict):
        ctx.add("", "the build must be an object")
        return
    for key in build.keys() - BUILD_KEYS:
        ctx.add(key, "unknown key")
    ix = ctx.ruleset.sheet.by_id
    for ability_id, score in _obj(ctx, build, "abilities").items():
        ability = ix.abilities.get(ability_id)
        number = _number(score)
        if ability is None:
            ctx.at("abilities").add(ability_id, "no such ability")
        elif number is None or not ability.min <= number <= ability.max:
            ctx.at("abilities").add(ability_id, f"must be a number in {ability.min}..{ability.max}")
    _check_tiers(ctx, _obj(ctx, build, "skills"), "skills")
    _check_tiers(ctx, _obj(ctx, build, "saves"), "saves")
    _check_bonuses(ctx, _obj(ctx, build, "bonuses"))
    for field_id, value in _obj(ctx, build, "fields").items():
        field = ix.fields.get(field_id)
        if field is None:
            ctx.at("fields").add(field_id, "no such field")
        else:
            check_value(ctx.at("fields").at(field_id), field, value)
    for list_id, rows in _obj(ctx, build, "lists").items():
        sheet_list = ix.lists.get(list_id)
        if sheet_list is None:
            ctx.at("lists").add(list_id, "no such list")
        else:
            _check_rows(ctx.at("lists").at(list_id), sheet_list, rows)


def _check_tiers(ctx: Ctx, chosen: JsonObject, key: str) -> None:
    sheet = ctx.ruleset.sheet
    entries = sheet.by_id.saves if key == "saves" else sheet.by_id.skills
    tiers = [t.id for t in ctx.ruleset.resolution.proficiency_tiers]
    offered = (sheet.save_tiers if key == "saves" else sheet.skill_tiers) or tiers
    for entry_id, tier in chosen.items():
        if entry_id not in entries:
            ctx.at(key).add(entry_id, f"no such {key[:-1]}")
        elif tier not in tiers or tier not in offered:
            ctx.at(key).add(entry_id, f"tier must be one of {offered}")


def _check_bonuses(ctx: Ctx, bonuses: JsonObject) -> None:
    ix = ctx.ruleset.sheet.by_id
    low, high = ctx.ruleset.sheet.bonus_range.min, ctx.ruleset.sheet.bonus_range.max
    for entry_id, bonus in bonuses.items():
        number = _number(bonus)
        if entry_id not in ix.skills and entry_id not in ix.saves:
            ctx.at("bonuses").add(entry_id, "no such skill or save")
        elif number is None or not low <= number <= high:
            ctx.at("bonuses").add(entry_id, f"must be a number in {low}..{high}")


def check_value(ctx: Ctx, field: SheetField, value: JsonValue) -> None:
    """A field or cell value the field or column can hold (type, range, whole, length, enum)."""
    if isinstance(field, NumberField):
        number = _number(value)
        if number is None or not field.min <= number <= field.max:
            ctx.add("", f"must be a number in {field.min:g}..{field.max:g}")
        elif field.integer and not number.is_integer():
            ctx.add("", "must be a whole number")
    elif isinstance(field, BooleanField):
        if not isinstance(value, bool):
            ctx.add("", "must be true or false")
    elif isinstance(field, EnumField):
        if value not in field.values:
            ctx.add("", f"must be one of {field.values}")
    elif not isinstance(value, str):
        ctx.add("", "must be text")
    elif isinstance(field, TextField | LongtextField) and len(value) > field.max_length:
        ctx.add("", f"must be at most {field.max_length} characters")
    elif isinstance(field, DiceField) and len(value) > 40:
        ctx.add("", "must be at most 40 characters")


def _check_rows(ctx: Ctx, sheet_list: SheetList, rows: JsonValue) -> None:
    if not isinstance(rows, list):
        ctx.add("", "must be a list of rows")
        return
    if len(rows) > sheet_list.max_items:
        ctx.add("", f"at most {sheet_list.max_items} rows")
    for i, row in enumerate(rows):
        here = ctx.at(i)
        if not isinstance(row, dict):
            here.add("", "a row must be an object")
            continue
        for column_id, value in row.items():
            column = sheet_list.column(column_id)
            if column_id == "_catalog":
                _check_mark(here.at("_catalog"), sheet_list.id, value)
            elif column is None:
                here.add(column_id, "no such column")
            else:
                check_value(here.at(column_id), column, value)
        for column in sheet_list.columns:
            if column.required and column.id not in row:
                here.add(column.id, "a required cell is missing")


def _check_mark(ctx: Ctx, list_id: str, mark: JsonValue) -> None:
    """SHEET-TRN-05: ``<catalog>/<entry>``, a catalog that feeds this list, an existing entry."""
    catalog_id, _, entry_id = mark.partition("/") if isinstance(mark, str) else ("", "", "")
    catalog: Catalog | None = next((c for c in ctx.ruleset.catalogs if c.id == catalog_id), None)
    if catalog is None:
        ctx.add("", f"no catalog {catalog_id!r}")
    elif list_id not in catalog.feeds:
        ctx.add("", f"catalog {catalog_id!r} does not feed list {list_id!r}")
    elif not any(e.id == entry_id for e in catalog.entries):
        ctx.add("", f"no entry {entry_id!r} in catalog {catalog_id!r}")
