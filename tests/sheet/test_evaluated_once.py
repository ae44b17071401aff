"""A character's sheet is evaluated once per (ruleset, character, invented items) and reused, and
never read stale: a changed character, another ruleset or another state is worked out afresh
(SHEET-EVAL-01, SHEET-CHK-08, CHK-SUM-01)."""

from __future__ import annotations

import pytest

from middleware.character.check import view_for
from middleware.dice import Dice
from middleware.resolve import Context
from middleware.resolve.checks import resolve_check
from middleware.resolve.checks.record import CheckRecord
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.state import Build, Character, GameState, Sheet
from tests.conftest import compat_json, compat_path

TINKER = Tag("skill_check", {"skill": "Tinker", "dc": "10"}, (), '[skill_check: skill="Tinker" '
             'dc="10"]', 0, 34)


def juno(wits: int) -> Character:
    """Wits ``wits``, Tinker trained (+1)."""
    return Character(name="Juno", player=True, sheet=Sheet(v=1, build=Build(
        abilities={"wits": wits, "brawn": 1}, skills={"tinker": "trained"})))


@pytest.fixture(scope="module")
def ember() -> Ruleset:
    return load_ruleset(compat_path("ember-roads.json"))


def tinker(ruleset: Ruleset, state: GameState, faces: list[int]) -> CheckRecord:
    record = resolve_check(TINKER, state, Context(ruleset=ruleset,
                                                  dice=Dice(1, script=faces))).record
    assert isinstance(record, CheckRecord)
    return record


def test_a_check_reads_the_character_as_the_state_holds_them(ember: Ruleset) -> None:
    """SHEET-CHK-08: the same tag on Juno with Wits 2, then Wits 4, then Wits 2 again: modifiers
    3, 5, 3 (a sheet evaluated for one state is never read for another character)."""
    before = GameState(ruleset=ember.id, party=(juno(2),))
    after = before.with_character(0, juno(4))
    modifiers = [tinker(ember, state, [3, 4]).modifier for state in (before, after, before)]
    assert [3, 5, 3] == modifiers


def test_one_evaluation_serves_every_read_of_the_same_character(ember: Ruleset) -> None:
    """SHEET-EVAL-01: reading the same character twice in one state gives the one evaluated
    sheet; a changed character gets their own."""
    state = GameState(ruleset=ember.id, party=(juno(2), juno(4).model_copy(update={
        "name": "Ada", "player": False})))
    first, again = view_for(ember, state.party[0], state=state), \
        view_for(ember, state.party[0], state=state)
    other = view_for(ember, state.party[1], state=state)
    assert (True, False) == (first is again, first is other)
    assert (2.0, 4.0) == (first.modifier("wits"), other.modifier("wits"))


def test_each_ruleset_rolls_its_own_dice(ember: Ruleset) -> None:
    """CHK-SUM-01: Ember Roads throws 2d6; a copy with four dice throws 4d6; the two read in
    turn each keep their own dice (what a ruleset gives a check is worked out per ruleset)."""
    raw = compat_json("ember-roads.json")
    raw["resolution"]["dice"]["count"] = 4
    four = load_ruleset(raw)
    state = GameState(ruleset=ember.id, party=(juno(2),))
    records = [tinker(ember, state, [3, 4]), tinker(four, state, [1, 2, 3, 4]),
               tinker(ember, state, [6, 6])]
    assert [("2d6", 10), ("4d6", 13), ("2d6", 15)] == [(r.dice, r.total) for r in records]
