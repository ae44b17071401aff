"""A transcript's ``party`` entries, validated strictly (SHEET-TRN-01..05).

Every problem is collected with its JSON path; one ``TranscriptError`` lists them all. The bag is
checked against the ruleset's catalogs and ``items`` block (SHEET-TRN-05): each stack is one known
item, coin or plain item within its limits.
"""

from __future__ import annotations

from pydantic import JsonValue, ValidationError

from middleware.errors import Problem, TranscriptError
from middleware.json_input import JsonObject
from middleware.names import normalize_name
from middleware.rules.base import json_path
from middleware.rules.ruleset import Ruleset
from middleware.sheet.party_build import Ctx, check_build
from middleware.sheet.party_live import check_bag, check_live
from middleware.state import Character

ENTRY_KEYS = {"name", "player", "sheet", "live", "bag"}
MAX_PARTY = 64
"""SHEET-STORE-04: a game's live state covers at most 64 characters."""


def read_party(ruleset: Ruleset, party_json: JsonValue, *,
               line: int | None = None) -> tuple[Character, ...]:
    """SHEET-TRN-01..05: the party, or ``TranscriptError`` naming every problem and its path."""
    problems: list[Problem] = []
    if not isinstance(party_json, list):
        raise TranscriptError("party must be a list", line, "$.party")
    seen: dict[str, int] = {}
    players = 0
    for i, entry in enumerate(party_json):
        ctx = Ctx(ruleset, f"$.party[{i}]", problems)
        _check_entry(ctx, entry)
        if isinstance(entry, dict) and isinstance(name := entry.get("name"), str):
            key = normalize_name(name)
            if key in seen:
                ctx.add("name", f"same name as $.party[{seen[key]}]")
            seen.setdefault(key, i)
            players += entry.get("player") is True
    if players > 1:
        problems.append(Problem("$.party", "at most one entry may have player: true"))
    if len(party_json) > MAX_PARTY:
        problems.append(Problem("$.party", f"at most {MAX_PARTY} characters; "
                                           f"got {len(party_json)}"))
    characters = () if problems else _characters(party_json, problems)
    if problems:
        text = "; ".join(str(p) for p in problems)
        raise TranscriptError(f"{len(problems)} problem(s) in party: {text}", line,
                              problems[0].path)
    return characters


def _characters(party_json: list[JsonValue], problems: list[Problem]) -> tuple[Character, ...]:
    """The entries as characters; what the models refuse that the checks above let through (a
    key a wound track does not have, say) goes to ``problems`` with its JSON path: still the
    transcript's fault, never a crash."""
    characters = []
    for i, entry in enumerate(party_json):
        try:
            characters.append(Character.model_validate(entry))
        except ValidationError as exc:
            problems += [Problem(json_path(("party", i, *e["loc"])), e["msg"])
                         for e in exc.errors()]
    return tuple(characters)


def _check_entry(ctx: Ctx, entry: JsonValue) -> None:
    if not isinstance(entry, dict):
        ctx.add("", "a party entry must be an object")
        return
    for key in entry.keys() - ENTRY_KEYS:
        ctx.add(key, "unknown key")
    name = entry.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 100 or not normalize_name(name):
        ctx.add("name", "a name of 1 to 100 characters is required")
    if "player" in entry and not isinstance(entry["player"], bool):
        ctx.add("player", "must be true or false")
    build = check_sheet_envelope(ctx.at("sheet"), entry.get("sheet"))
    check_live(ctx.at("live"), entry.get("live", {}), build)
    check_bag(ctx.at("bag"), entry.get("bag", []))


def check_sheet_envelope(ctx: Ctx, sheet: JsonValue) -> JsonObject:
    """SHEET-BUILD-02: ``{v, build}``; returns the build (empty when absent or broken)."""
    if sheet is None:
        return {}
    if not isinstance(sheet, dict):
        ctx.add("", "the sheet must be an object {v, build}")
        return {}
    for key in sheet.keys() - {"v", "build"}:
        ctx.add(key, "unknown key")
    v = sheet.get("v")
    if not isinstance(v, int) or isinstance(v, bool) or v < 1:
        ctx.add("v", "a whole number >= 1 is required")
    build = sheet.get("build", {})
    check_build(ctx.at("build"), build)
    return build if isinstance(build, dict) else {}
