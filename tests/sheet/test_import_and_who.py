"""Sheet import refusals with their paths (SHEET-IMPORT) and who= matching (SHEET-CHK-01/02)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from middleware.rules.audit.sheet import check_sheet
from middleware.rules.sheet import SheetBlock
from middleware.sheet.roller import find_roller
from tests.rulesets import by_id, index_of, row_path
from tests.sheet.sheet_helpers import BRAM, raw, ruleset, state_of


@pytest.mark.parametrize("name", ["gravewatch", "ember", "5e"])
def test_compat_sheets_pass(name: str) -> None:
    """compat/README: the three files load and report nothing."""
    assert list(check_sheet(ruleset(name))) == []


def problems_after(name: str, change: Callable[[Any], None]) -> list[str]:
    data = raw(name)
    change(data)
    return [p.path for p in check_sheet(ruleset(name, data))]


def row(d: Any, where: str, wanted: str) -> Any:
    """The row ``wanted`` of the list at ``where`` (``sheet.skills``, ``rests``...), to change."""
    rows = d
    for key in where.split("."):
        rows = rows[key]
    return by_id(rows, wanted)


@pytest.mark.parametrize(("name", "change", "path"), [
    ("cinder-watch", lambda d: row(d, "sheet.skills", "douse").update(section="cellar"),
     "$.sheet.skills[douse].section"),  # SHEET-IMPORT-05
    ("cinder-watch", lambda d: row(d, "sheet.skills", "climb").update(ability="luck"),
     "$.sheet.skills[climb].ability"),  # SHEET-IMPORT-06
    ("cinder-watch", lambda d: d["sheet"]["skills"].append(dict(row(d, "sheet.skills", "douse"))),
     "$.sheet.skills[6].id"),  # SHEET-IMPORT-03: the copy, after the file's six skills
    ("gravewatch", lambda d: row(d, "sheet.derived", "resolve_max")["of"].append(
        {"derived": "harm_left"}), "$.sheet.derived[resolve_max].of[3]"),  # SHEET-IMPORT-10
    ("gravewatch", lambda d: row(d, "sheet.live.pools", "resolve").update(
        max={"derived": "harm_left"}), "$.sheet.live.pools[resolve].max"),  # SHEET-IMPORT-13
    ("cinder-watch", lambda d: row(d, "sheet.skills", "calm").update(cap={"skillMod": "douse"}),
     "$.sheet.skills[calm].cap"),  # SHEET-IMPORT-14
    ("lantern-and-ledger", lambda d: row(d, "sheet.skills", "climb").update(untrained="harder"),
     "$.sheet.skills[climb].untrained"),  # SHEET-IMPORT-15
    ("ember", lambda d: row(d, "sheet.lists", "tricks")["pools"].update(maxColumn="name"),
     "$.sheet.lists[tricks].pools.maxColumn"),  # SHEET-IMPORT-16
    ("cinder-watch", lambda d: row(d, "sheet.live.tracks", "scorch").update(max=5),
     "$.sheet.live.tracks[scorch].max"),  # SHEET-IMPORT-17
    ("ember", lambda d: row(d, "sheet.live.tracks", "strain").pop("onFull"),
     "$.sheet.live.tracks[strain].onFull"),  # SHEET-IMPORT-17 (Reading)
    ("gravewatch", lambda d: row(d, "sheet.derived", "light_nerve")["table"].update(dim=-1),
     "$.sheet.derived[light_nerve].table['dim']"),  # SHEET-IMPORT-11
    ("gravewatch", lambda d: row(d, "rests", "breather")["restore"][0].update(kind="bite"),
     "$.rests[breather].restore[0].kind"),  # SHEET-IMPORT-22
    ("ember", lambda d: row(d, "rests", "camp")["restore"][3].update(recharge=["dawn"]),
     "$.rests[camp].restore[3].recharge[0]"),  # SHEET-IMPORT-22
    ("5e", lambda d: row(d, "sheet.derived", "proficiency_bonus").update(
        **{"from": {"skillMod": "arcana"}}), "$.resolution.proficiency.bonus"),  # SHEET-IMPORT-12
])
def test_refusals(name: str, change: Callable[[Any], None], path: str) -> None:
    """SHEET-IMPORT: one broken rule is reported at its JSON path (rows named by id here, printed
    by position)."""
    assert row_path(raw(name), path) in problems_after(name, change)


def test_unknown_key_is_refused_by_the_model() -> None:
    """SHEET-IMPORT-01: a typo key anywhere in the sheet refuses it, with its location."""
    data = raw("gravewatch")["sheet"]
    by_id(data["abilities"], "sinew")["deafult"] = 2
    with pytest.raises(ValidationError) as caught:
        SheetBlock.model_validate(data)
    where = index_of(data["abilities"], "sinew")
    assert caught.value.errors()[0]["loc"] == ("abilities", where, "deafult")


def party() -> Any:
    return state_of("gravewatch", {"name": "Ada"}, BRAM, {"name": "Édith Marsh"},
                    {"name": "edith  marsh!"})


@pytest.mark.parametrize(("who", "index", "stranger"), [
    (None, 1, False),            # SHEET-CHK-01: the entry marked player
    ("BRAM the quiet", 1, False),
    ("ada", 0, False),           # a member without a sheet is not a stranger
    ("Mother Hel", None, True),  # nobody: a stranger
    ("Edith Marsh", None, True),  # two entries share the name: ambiguous, a stranger
])
def test_who_matching(who: str | None, index: int | None, stranger: bool) -> None:
    """SHEET-CHK-01/02: who= by normalized name (accents, case, punctuation ignored)."""
    roller = find_roller(party(), who)
    assert (index, stranger, who) == (roller.index, roller.stranger, roller.written)


def test_player_keeps_a_shared_name() -> None:
    """SHEET-CHK-02: the player keeps a name another entry shares."""
    state = state_of("gravewatch", {"name": "Ada"}, {"name": "ADA", "player": True})
    assert find_roller(state, "ada").index == 1


def test_empty_party_rolls_blank_player() -> None:
    """SHEET-CHK-01: with nobody in the party the player is the blank build, not a stranger."""
    roller = find_roller(state_of("gravewatch"), None)
    assert (roller.index, roller.character, roller.stranger) == (None, None, False)
