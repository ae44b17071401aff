"""Every ``[sheet:]`` op on the bundled Lantern and Ledger, with scripted dice: as the ruleset stands
(what it has is changed, what it lacks is refused with its code), and on a parsed copy that adds
what the file does not declare (a temporary buffer on Pluck, a plain Smoke track, an Errand note, a
Knack with a cost), so the ops that need those run on a bundled ruleset too."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from tests.sheet_tag.helpers import WREN, attrs, bundled, lantern_state, one, party_state

AS_IS = [
    ('[sheet: op="damage" pool="pluck" amount="1d4"]', [2], "resolved", None),
    ('[sheet: op="heal" track="harm" amount="1"]', [], "resolved", None),
    ('[sheet: op="restore" pool="pluck" amount="1"]', [], "resolved", None),
    ('[sheet: op="temp" pool="pluck" amount="2"]', [], "refused", "no-temp"),
    ('[sheet: op="track" track="harm" mark]', [], "refused", "wrong-track"),
    ('[sheet: op="condition" name="Soaked"]', [], "resolved", None),
    ('[sheet: op="state" name="Lamp" value="Dark"]', [], "resolved", None),
    ('[sheet: op="note" text="fetch oil"]', [], "refused", "unknown-note"),
    ('[sheet: op="rest" rest="lamplight"]', [], "resolved", None),
    ('[sheet: op="use" name="Steady Step"]', [], "refused", "unknown-entry"),
    ('[sheet: op="spend" pool="pluck" amount="1"]', [], "refused", "spend-on-check"),
]


@pytest.mark.parametrize(("tag", "faces", "status", "reason"), AS_IS,
                         ids=[t[0].split('"')[1] for t in AS_IS])
def test_each_op_on_the_bundled_file(tag: str, faces: list[int], status: str,
                                     reason: str | None) -> None:
    """SHEET-LIVE-04..12, SHEET-WND-10/12, SHEET-REST, CHK-SPEND-12: each op on Wren as the file
    declares her sheet; a refusal leaves her exactly as she was."""
    rules, state = lantern_state()
    record, wren = one(rules, state, tag, *faces)
    assert (status, reason) == (record.status, record.reason)
    if status == "refused":
        assert state.party[0] == wren


@cache
def lantern_plus() -> Ruleset:
    """Lantern and Ledger with what the file does not declare, added to a parsed copy."""
    data: Any = copy.deepcopy(bundled("lantern-and-ledger").source)
    live = data["sheet"]["live"]
    live["pools"][0]["allowTemp"] = True
    live["tracks"].append({"id": "smoke", "label": "Smoke", "min": 0, "max": 3})
    live["text"] = [{"id": "errand", "label": "Errand", "maxLength": 20}]
    data["sheet"]["lists"] = [{"id": "knacks", "label": "Knacks", "section": "about", "maxItems": 4,
                               "columns": [{"id": "name", "label": "Knack", "type": "text",
                                            "maxLength": 60}]}]
    data["catalogs"].append({"id": "knacks", "label": "Knacks", "feeds": ["knacks"], "entries": [
        {"id": "steady-step", "label": "Steady Step",
         "rows": [{"list": "knacks", "values": {"name": "Steady Step"}}],
         "mechanics": {"kind": "utility", "cost": [{"pool": "pluck", "amount": 2}]}}]})
    return load_ruleset(data)


def plus_state(**live: Any) -> Any:
    wren = copy.deepcopy(WREN)
    wren["sheet"]["build"]["lists"] = {"knacks": [{"name": "Steady Step",
                                                   "_catalog": "knacks/steady-step"}]}
    if live:
        wren["live"] = live
    return party_state(lantern_plus(), wren)


def test_temp_buffer_soaks_damage_first() -> None:
    """SHEET-LIVE-04/06: a buffer of 2 on Pluck 3/4, then 3 damage: 2 soaked, Pluck 2."""
    rules, state = lantern_plus(), plus_state()
    record, wren = one(rules, state, '[sheet: op="temp" pool="pluck" amount="2"]')
    assert "2" == attrs(record)["temp"]
    record, wren = one(rules, state.with_character(0, wren),
                       '[sheet: op="damage" pool="pluck" amount="1d4"]', 3)
    assert (2, None) == (wren.live.pools["pluck"].value, wren.live.pools["pluck"].temp)


def test_plain_track_marks_and_clears() -> None:
    """SHEET-LIVE-07/08: Smoke 0..3 marked 2, then cleared 5 (held to 0, the entry dropped)."""
    rules, state = lantern_plus(), plus_state()
    _, wren = one(rules, state, '[sheet: op="track" track="Smoke" mark amount="2"]')
    assert 2 == wren.live.tracks["smoke"]
    record, wren = one(rules, state.with_character(0, wren),
                       '[sheet: op="track" track="smoke" clear amount="5"]')
    assert "smoke" not in wren.live.tracks and "held to 0..3" in (record.feedback or "")


def test_note_is_cut_to_its_field() -> None:
    """SHEET-LIVE-09: the only note field is the default; 20 characters kept."""
    rules, state = lantern_plus(), plus_state()
    _, wren = one(rules, state, '[sheet: op="note" text="fetch oil from the chandler on Mill Lane"]')
    assert "fetch oil from the c" == wren.live.text["errand"]


def test_use_pays_the_knacks_cost() -> None:
    """CHK-CHARM-09/12: Steady Step costs 2 Pluck: 3 -> 1; at 1 Pluck it is ``cannot-afford``."""
    rules, state = lantern_plus(), plus_state()
    record, wren = one(rules, state, '[sheet: op="cast" name="Steady Step"]')
    assert ("pluck:2", 1) == (attrs(record)["paid"], wren.live.pools["pluck"].value)
    record, after = one(rules, state.with_character(0, wren), '[sheet: op="use" name="steady step"]')
    assert "cannot-afford" == record.reason and after == wren
