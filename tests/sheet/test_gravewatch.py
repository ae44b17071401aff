"""Bram the Quiet, the Gravewatch worked example (SHEET-TRN-07..10)."""

from __future__ import annotations

import pytest

from middleware.character.check import assemble_check, pool_value, spend_pool, view_for
from middleware.sheet.effects import Modifier
from middleware.sheet.roller import find_roller
from tests.sheet.sheet_helpers import BRAM, ruleset, state_of

RULES = ruleset("gravewatch")
STATE = state_of("gravewatch", BRAM)


def bram_view():  # type: ignore[no-untyped-def]
    return view_for(RULES, STATE.party[0])


def test_evaluated_sheet() -> None:
    """SHEET-TRN-08: modifiers, dawn_resolve, resolve_max, Resolve, harm_left, light_nerve."""
    view = bram_view()
    actual = {
        "mods": [view.modifier(a) for a in ("sinew", "nerve", "warmth")],
        "dawn_resolve": view.derived("dawn_resolve"),
        "resolve_max": view.derived("resolve_max"),
        "resolve": view.live.pools()["resolve"],
        "harm_left": view.derived("harm_left"),
        "light_nerve": view.derived("light_nerve"),
        "lantern_hidden": view.hidden(view.ix.fields["lantern"].hide_when),
        "lantern": view.number_field("lantern"),
    }
    expected = {"mods": [3, 2 + 1, 2], "dawn_resolve": 1, "resolve_max": 6, "resolve": (4, 6),
                "harm_left": 3, "light_nerve": -1, "lantern_hidden": True, "lantern": 3}
    assert expected == actual


def test_harm_with_scar_level() -> None:
    """SHEET-TRN-08 / SHEET-WND-05: the scar inserts a Winded -1 level; 2 of 5 marked, -1."""
    wound = bram_view().live.wound("harm")
    assert wound is not None
    levels = [(lv.label, lv.penalty) for lv in wound.levels]
    assert levels == [("Scuffed", 0), ("Winded", -1), ("Winded", -1), ("Bleeding", -3),
            ("Down", -99)]
    assert (wound.length, wound.filled, wound.penalty) == (5, 2, -1)


# SHEET-TRN-10: (skill, with, sheet, adjust, penalty, effects, dice). The bound and equipped Dawn
# bell is worn: +1 die on Ward (SHEET-TRN-09); the spade's Sinew 3 requirement is met.
ROWS = [
    ("Ward", None, 7, -1, -1, 1, 6),
    ("Ward", "Sinew", 7, 0, -1, 1, 7),
    ("Dig", None, 5, 0, -1, 0, 4),
    ("Wrestle", None, 2, 0, -1, 0, 1),
    ("Listen", None, 4, -1, -1, 0, 2),
    ("Soothe", None, 3, 0, -1, 0, 2),
    ("Soothe", "Nerve", 4, -1, -1, 0, 2),
    ("Barter", None, 2, 0, -1, 0, 1),
    ("Steel save", None, 5, -1, -1, 0, 3),
    ("Nerve", None, 3, -1, -1, 0, 1),
    ("Nerve", "Warmth", 5, -1, -1, 0, 3),
]


@pytest.mark.parametrize(("skill", "with_", "sheet", "adjust", "penalty", "effects", "dice"),
                         ROWS)
def test_pool_rows(skill: str, with_: str | None, sheet: int, adjust: int, penalty: int,
                   effects: int, dice: int) -> None:
    """SHEET-TRN-09/10: sheet number, adjust, penalty and item effects per row, and the dice."""
    roller = find_roller(STATE, "Bram the Quiet")
    check = assemble_check(RULES, STATE, roller, skill, with_)
    flat = sum(m.flat for m in check.modifiers)
    size = max(1, min(15, check.number + check.adjust + check.penalty + flat))
    assert (sheet, adjust, penalty, effects, dice) == (check.number, check.adjust, check.penalty,
                                                       flat, size)


def test_dawn_bell_is_the_source_on_ward() -> None:
    """SHEET-TRN-09 / ITM-CHECK-02/11: the worn Dawn bell is named as the +1 on Ward."""
    check = assemble_check(RULES, STATE, find_roller(STATE, None), "Ward", None)
    assert (Modifier("Dawn bell", 1),) == check.modifiers


def test_nerve_with_warmth_is_a_pair() -> None:
    """SHEET-SKL-06: in a dice-pool with abilityPlusAbility, with= adds the second ability."""
    check = assemble_check(RULES, STATE, find_roller(STATE, None), "Nerve", "Warmth")
    expected = ("ability", "nerve", "warmth", "Warmth")
    assert expected == (check.target, check.ability, check.second_ability, check.with_used)


def test_rattled_costs_soothe_and_barter_a_die() -> None:
    """SHEET-COND-08 / SHEET-TRN-10: rattled is -1 on Soothe and Barter, nothing on Ward (the
    bell's immunity to Rattled is a fight effect, ITM-CHECK-07)."""
    rattled = dict(BRAM, live=dict(BRAM["live"], conditions=["marked", "rattled"]))
    state = state_of("gravewatch", rattled)
    roller = find_roller(state, None)
    got = {s: assemble_check(RULES, state, roller, s, None).modifiers
           for s in ("Soothe", "Barter", "Ward")}
    minus = (Modifier("Rattled", -1),)
    assert {"Soothe": minus, "Barter": minus, "Ward": (Modifier("Dawn bell", 1),)} == got


def test_blank_warden_dig_is_refused_and_listen_harder() -> None:
    """SHEET-UNT-04/05, SHEET-TRN-10: a blank warden cannot Dig; Listen is 'harder'."""
    state = state_of("gravewatch", {"name": "Ada"})
    roller = find_roller(state, "ada")
    dig = assemble_check(RULES, state, roller, "Dig", None)
    listen = assemble_check(RULES, state, roller, "Listen", None)
    assert (dig.untrained, listen.untrained, listen.number) == ("refuse", "harder", 2)


def test_soothe_cap_follows_spent_resolve() -> None:
    """SHEET-SKL-03 / SHEET-CHK-08: spending Resolve lowers the Soothe cap at once."""
    state = STATE
    roller = find_roller(state, None)
    assert pool_value(RULES, state, roller, "Resolve") == ("resolve", 4)
    spent = spend_pool(RULES, state.party[0], "resolve", 2)
    assert spent is not None
    state = state.with_character(0, spent)
    check = assemble_check(RULES, state, roller, "Soothe", "Nerve")
    assert (pool_value(RULES, state, roller, "resolve")[1], check.number) == (2, 2)  # type: ignore[index]


def test_spend_refuses_more_than_left_and_stays_sparse() -> None:
    """SHEET-LIVE-06 / SHEET-STORE-02: insufficient is None; a full pool stores nothing."""
    ada = state_of("gravewatch", {"name": "Ada"}).party[0]
    assert spend_pool(RULES, ada, "resolve", 5) is None
    spent = spend_pool(RULES, ada, "resolve", 1)
    assert spent is not None and {k: v.value for k, v in spent.live.pools.items()} == {"resolve": 3}
    assert spend_pool(RULES, ada, "resolve", 0).live.pools == {}  # type: ignore[union-attr]


@pytest.mark.parametrize(("marks", "penalty"), [
    ([], 0), (["tear", "knock"], -1), (["tear", "tear", "knock"], -3),
    (["tear", "tear", "knock", "knock"], -99)])
def test_wound_penalties_without_scars(marks: list[str], penalty: int) -> None:
    """SHEET-WND-08: the lowest marked level counts, never a sum."""
    member = {"name": "Ada", "live": {"wounds": {"harm": {"marks": marks}}}}
    state = state_of("gravewatch", member)
    check = assemble_check(RULES, state, find_roller(state, None), "Ward", None)
    assert penalty == check.penalty


def test_stranger_rolls_unmodified() -> None:
    """SHEET-CHK-02 / SHEET-UNT-06: nobody by that name: number 0, no penalty, no rule."""
    check = assemble_check(RULES, STATE, find_roller(STATE, "Mother Hel"), "Dig", None)
    expected = ("skill", "dig", 0, 0, "normal")
    assert expected == (check.target, check.id, check.number, check.penalty, check.untrained)
