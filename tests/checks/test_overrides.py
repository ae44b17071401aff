"""Checks that roll their own way (checks.md §9, CHK-OVR-01..08): the override is found on the
roller's sheet and applied before the kind rolls; what it may set is checked at import.

End to end on the bundled Tidemark (a d20 dice-sum with 5e's sheet math and advantage), read here
without its own naturals so a natural 20 is plain arithmetic unless an override says otherwise,
with Vess, whose sheet gains the page's ``favored_athletics`` 0/1 field, and with scripted dice.
"""

from __future__ import annotations

from typing import Any

import pytest

from middleware.character.check import assemble_check, view_for
from middleware.dice import Dice
from middleware.resolve import Context
from middleware.resolve.checks import read_ask, resolve_check
from middleware.resolve.checks.overrides import effective_resolution
from middleware.resolve.checks.record import CheckRecord
from middleware.rules.kinds.dice_sum import DiceSum
from middleware.rules.load import load_ruleset, validate_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.sheet.roller import find_roller
from middleware.state import Character, GameState, Sheet
from tests.checks.pool_helpers import FIREFIGHTER, member, resolve
from tests.rules.kind_examples import BLADES, GENESYS, ruleset_with
from tests.rulesets import bundled_json

Raw = dict[str, Any]

FAVORED_FIELD: Raw = {"id": "favored_athletics", "label": "Favored athletics", "type": "number",
                      "min": 0, "max": 1, "default": 0, "section": "deck"}
WHEN_FAVORED: Raw = {"field": "favored_athletics"}
X_IN_6: Raw = {"id": "x_in_6", "label": "X-in-6", "skills": ["rigging"],
               "set": {"dice": {"count": 1, "sides": 6}}}


def vess(favored: int = 0, name: str = "Vess", player: bool = True) -> Character:
    """Deftness 14 (+2), Brawn 16 (+3), trained in Rigging and Hauling; PB +2 at level 1."""
    build: Raw = {"abilities": {"deft": 14, "brawn": 16},
                  "skills": {"rigging": "proficient", "haul": "proficient"}}
    if favored:
        build["fields"] = {"favored_athletics": favored}
    return Character(name=name, player=player, sheet=Sheet.model_validate({"v": 1,
                                                                            "build": build}))


def tidemark_raw(*overrides: Raw, **resolution: Any) -> Raw:
    raw = bundled_json("tidemark-d20")
    del raw["resolution"]["naturals"]
    raw["sheet"]["fields"].append(FAVORED_FIELD)
    raw["resolution"].update(resolution)
    raw["resolution"]["overrides"] = list(overrides)
    return raw


def tidemark(*overrides: Raw, **resolution: Any) -> Ruleset:
    return load_ruleset(tidemark_raw(*overrides, **resolution))


def check(ruleset: Ruleset, party: tuple[Character, ...], faces: list[int], **attrs: str) \
        -> CheckRecord:
    """Resolve one tag with exactly ``faces`` (all of them thrown, no more)."""
    tag = Tag("skill_check", attrs, (), "[skill_check: ...]", 0, 18)
    dice = Dice(1, script=faces)
    state = GameState(ruleset=ruleset.id, party=party)
    record = resolve_check(tag, state, Context(ruleset=ruleset, dice=dice)).record
    assert isinstance(record, CheckRecord)
    assert 0 == dice.script_left
    return record


def paths(raw: Raw) -> list[str]:
    return [p.path for p in validate_ruleset(raw)]


# --- CHK-OVR-01/02: the named checks roll with the set keys ------------------------------------


def test_named_skill_rolls_with_the_overridden_dice() -> None:
    """CHK-OVR-01/02: Rigging, named by the X-in-6 override, throws 1d6 instead of the d20:
    face 3 + 4 = 7 vs dc 7 succeeds, and the record says ``dice="1d6"``."""
    record = check(tidemark(X_IN_6), (vess(),), [3], skill="Rigging", dc="7")
    assert ("1d6", [3], 7, True) == (record.dice, record.rolls, record.total, record.success)


def test_a_check_the_override_does_not_name_keeps_the_ruleset_keys() -> None:
    """CHK-OVR-02: Hauling is not named by X-in-6 and still throws the d20: 15 + 5 = 20."""
    record = check(tidemark(X_IN_6), (vess(),), [15], skill="Haul", dc="7")
    assert ("1d20", [15], 20) == (record.dice, record.rolls, record.total)


def test_override_tells_the_gm_which_rule_applied() -> None:
    """CHK-OVR-01: the GM is told the check rolled by the override's label, with its text."""
    override = {**X_IN_6, "text": "Roll a d6: the number or lower opens it."}
    record = check(tidemark(override), (vess(),), [2], skill="Rigging", dc="3")
    assert record.feedback is not None
    assert record.feedback.endswith('Rolled as "X-in-6". Roll a d6: the number or lower opens it.')


def test_override_names_saves_and_abilities_apart_from_skills() -> None:
    """CHK-OVR-01: ``saves`` names a save and ``abilities`` an ability check; a skill of the
    same ability is not named by them."""
    ruleset = tidemark({"id": "d6", "label": "On a d6", "saves": ["deft_save"],
                        "abilities": ["brawn"], "set": {"dice": {"count": 1, "sides": 6}}})
    party = (vess(),)
    assert ["1d6", "1d6", "1d20"] == [
        check(ruleset, party, [4], skill="Deftness save", dc="5").dice,
        check(ruleset, party, [4], skill="Brawn", dc="5").dice,
        check(ruleset, party, [4], skill="Haul", dc="5").dice,
    ]


def test_override_naming_a_check_the_sheet_lacks_matches_the_written_name() -> None:
    """CHK-OVR-01 (our reading): an override may name a check the sheet does not declare, such as
    the page's ``open_doors``; the GM's "Open Doors" then rolls 1d6 with no sheet number."""
    ruleset = tidemark({"id": "x_in_6", "label": "X-in-6", "skills": ["open_doors", "listen"],
                      "set": {"dice": {"count": 1, "sides": 6}}})
    record = check(ruleset, (vess(),), [2], skill="Open Doors", dc="2")
    assert ("1d6", 2, True) == (record.dice, record.total, record.success)


# --- CHK-OVR-03: null removes a key -------------------------------------------------------------


def test_null_removes_a_key_for_the_named_checks() -> None:
    """CHK-OVR-03: ``"advantage": null`` takes the advantage away from Rigging only: a Rigging
    check asking for advantage throws once, a Tide-reading check still throws twice."""
    ruleset = tidemark({"id": "plain", "label": "No edge", "skills": ["rigging"],
                      "set": {"advantage": None}})
    rigging = check(ruleset, (vess(),), [9], skill="Rigging", dc="10", mode="advantage")
    tides = check(ruleset, (vess(),), [9, 14], skill="Tides", dc="10", mode="advantage")
    assert (("normal", [9]), ("advantage", [9, 14])) == (
        (rigging.mode, rigging.rolls), (tides.mode, tides.rolls))


# --- CHK-OVR-06/07: when, and the first override that holds ------------------------------------

FAVORED_NATURALS: Raw = {"id": "favored", "label": "Favored", "skills": ["haul"],
                         "when": WHEN_FAVORED, "set": {"naturals": "both"}}


def test_when_applies_the_override_only_while_the_value_is_not_zero() -> None:
    """CHK-OVR-06: a favored athlete's natural 20 succeeds against dc 30 (naturals "both");
    with ``favored_athletics`` 0 the same 20 + 5 = 25 fails."""
    ruleset = tidemark(FAVORED_NATURALS)
    favored = check(ruleset, (vess(favored=1),), [20], skill="Haul", dc="30")
    plain = check(ruleset, (vess(favored=0),), [20], skill="Haul", dc="30")
    assert ((True, "success"), (False, None)) == (
        (favored.success, favored.critical), (plain.success, plain.critical))


def test_when_reads_the_sheet_of_the_character_who_rolls() -> None:
    """CHK-OVR-06: ``when`` is read on the roller's sheet, not the player's."""
    party = (vess(favored=0), vess(favored=1, name="Oda", player=False))
    record = check(tidemark(FAVORED_NATURALS), party, [20], skill="Haul", dc="30", who="Oda")
    assert (True, "success") == (record.success, record.critical)


def test_first_override_in_list_order_whose_when_holds_applies() -> None:
    """CHK-OVR-07: "favored" (1d12, when favored) comes before an unconditional 1d6 on
    Hauling: a favored roller throws the d12, anyone else falls through to the d6."""
    ruleset = tidemark(
        {"id": "favored", "label": "Favored", "skills": ["haul"], "when": WHEN_FAVORED,
         "set": {"dice": {"count": 1, "sides": 12}}},
        {"id": "x_in_6", "label": "X-in-6", "skills": ["haul"],
         "set": {"dice": {"count": 1, "sides": 6}}})
    favored = check(ruleset, (vess(favored=1),), [11], skill="Haul", dc="5")
    plain = check(ruleset, (vess(),), [5], skill="Haul", dc="5")
    assert ("1d12", "1d6") == (favored.dice, plain.dice)


def test_page_example_athletics_without_favored_has_no_override() -> None:
    """CHK-OVR-07 derived: with the page's three overrides, Hauling applies "favored" only when
    ``favored_athletics`` is not 0; otherwise no override applies and the ruleset's keys stand."""
    ruleset = tidemark(
        {"id": "thief", "label": "Thief skills", "skills": ["open_locks", "pick_pockets"],
         "set": {"dice": {"count": 1, "sides": 100}}},
        {"id": "x_in_6", "label": "X-in-6", "skills": ["open_doors", "listen"],
         "set": {"dice": {"count": 1, "sides": 6}}},
        FAVORED_NATURALS)
    state = GameState(ruleset=ruleset.id, party=(vess(),))
    ask = read_ask(Tag("skill_check", {"skill": "Haul", "dc": "30"}, (), "", 0, 0))
    assert ask is not None
    roller = find_roller(state, None)
    sheet = assemble_check(ruleset, state, roller, ask.skill, None)
    view = view_for(ruleset, roller.character)
    assert ruleset.resolution is effective_resolution(ruleset, sheet, ask, view)


def test_effective_resolution_replaces_whole_keys_and_drops_the_overrides() -> None:
    """CHK-OVR-02 / Ambiguity 24: ``set`` replaces a top-level key whole (no deep merge); the
    produced resolution keeps every other key and carries no overrides itself."""
    ruleset = tidemark(X_IN_6)
    state = GameState(ruleset=ruleset.id, party=(vess(),))
    ask = read_ask(Tag("skill_check", {"skill": "Rigging"}, (), "", 0, 0))
    assert ask is not None
    roller = find_roller(state, None)
    sheet = assemble_check(ruleset, state, roller, ask.skill, None)
    produced = effective_resolution(ruleset, sheet, ask, view_for(ruleset, roller.character))
    assert isinstance(produced, DiceSum)
    assert ((1, 6, None), True, ruleset.resolution.difficulty_ladder, ()) == (
        (produced.dice.count, produced.dice.sides, produced.dice.faces), produced.advantage,
        produced.difficulty_ladder, produced.overrides)


# --- CHK-OVR-04/05/08: refused at import ---------------------------------------------------------


@pytest.mark.parametrize(("key", "value"), [
    ("kind", "roll-against"),
    ("abilityModifier", {"op": "identity"}),
    ("proficiency", {"bonus": {"const": 2}}),
    ("proficiencyTiers", [{"id": "none", "label": "None"}]),
    ("penaltyFrom", None),
    ("spend", []),
    ("adjust", []),
    ("difficultyLadder", [{"label": "Easy", "dc": 5}]),
])
def test_set_may_not_touch_the_kind_the_sheet_math_or_the_ladder(key: str, value: Any) -> None:
    """CHK-OVR-04 / CHK-IMPORT-37: each locked key in ``set`` is refused at its own path."""
    raw = tidemark_raw({**X_IN_6, "set": {key: value}})
    assert [f"$.resolution.overrides[0].set.{key}"] == paths(raw)


@pytest.mark.parametrize("key", ["symbols", "dice"])
def test_symbol_pool_override_may_not_replace_symbols_or_dice(key: str) -> None:
    """CHK-OVR-04 / CHK-SYM-21 / CHK-IMPORT-37: a symbol pool locks its symbols and dice."""
    raw = ruleset_with(GENESYS)
    raw["resolution"]["overrides"] = [{"id": "hard", "label": "Hard", "skills": ["reckon"],
                                       "set": {key: GENESYS[key]}}]
    assert [f"$.resolution.overrides[0].set.{key}"] == paths(raw)


def test_symbol_pool_override_may_change_its_other_rules() -> None:
    """CHK-SYM-21 / CHK-OVR-02: a symbol-pool override may set, say, how many successes pass."""
    raw = ruleset_with(GENESYS)
    raw["resolution"]["overrides"] = [{"id": "hard", "label": "Hard", "skills": ["reckon"],
                                       "set": {"success": {"symbol": "s", "needed": 2}}}]
    assert [] == paths(raw)


def test_override_whose_face_is_not_on_its_dice_is_refused() -> None:
    """CHK-OVR-05 / CHK-IMPORT-38: ``unmodified: [30]`` names a face a d20 does not have."""
    raw = tidemark_raw({**X_IN_6, "set": {"unmodified": [30]}})
    assert ["$.resolution.overrides[0].set.unmodified[0]"] == paths(raw)


def test_override_that_breaks_a_rule_it_does_not_set_is_refused() -> None:
    """CHK-OVR-05 / CHK-IMPORT-38: overriding a d20 with naturals to 2d6 is refused, because
    naturals need a single die; the problem is reported under the override's ``set``."""
    raw = tidemark_raw({**X_IN_6, "set": {"dice": {"count": 2, "sides": 6}}}, naturals="both")
    problems = validate_ruleset(raw)
    assert ["$.resolution.overrides[0].set"] == [p.path for p in problems]
    assert "$.resolution.naturals" in problems[0].message


def test_check_in_two_overrides_without_when_is_refused() -> None:
    """CHK-OVR-08 / CHK-IMPORT-39: a check in at most one override without ``when``."""
    raw = tidemark_raw(X_IN_6, {**X_IN_6, "id": "again"})
    assert ["$.resolution.overrides[1].skills[0]"] == paths(raw)


def test_check_in_several_overrides_with_when_loads() -> None:
    """CHK-OVR-07/08: overrides with ``when`` may share a check; the first that holds wins."""
    raw = tidemark_raw({**FAVORED_NATURALS, "id": "one"}, {**FAVORED_NATURALS, "id": "two"}, X_IN_6)
    assert [] == paths(raw)


# --- the other kinds: the override is applied before the kind rolls ----------------------------

OLD_SCHOOL: Raw = {
    "kind": "roll-against", "dice": {"count": 1, "sides": 20},
    "abilityModifier": {"op": "identity"}, "proficiencyTiers": [{"id": "base", "label": "Base"}],
    "against": "at-most",
    "overrides": [
        {"id": "thief", "label": "Thief skills", "skills": ["open_locks", "pick_pockets"],
         "set": {"dice": {"count": 1, "sides": 100}}},
        {"id": "x_in_6", "label": "X-in-6", "skills": ["open_doors", "listen"],
         "set": {"dice": {"count": 1, "sides": 6}}}],
}
"""The page's old-school game: a d20 under the number, thief skills on a d100, X-in-6 on a d6."""

ROGUE = Character(name="Ada", player=True, sheet=Sheet.model_validate({"v": 1, "build": {
    "abilities": {"eye": 2}, "bonuses": {"open_doors": 2, "pick_pockets": 35}}}))
"""Eye 2 (Reckon 2), Open Doors 2, Pick Pockets 35%."""


def old_school() -> Ruleset:
    raw = ruleset_with(OLD_SCHOOL)
    raw["sheet"]["skills"] += [{"id": "open_doors", "label": "Open Doors"},
                               {"id": "pick_pockets", "label": "Pick Pockets"}]
    raw["sheet"]["bonusRange"] = {"min": 0, "max": 100}
    return load_ruleset(raw)


def outcome(record: CheckRecord) -> tuple[str | None, int | None, list[int], bool | None]:
    return record.dice, record.dc, record.rolls, record.success


def test_roll_against_page_example() -> None:
    """CHK-OVR-02 derived (base roll-against at-most): Open Doors with a sheet number of 2 rolls
    1d6 and succeeds on 1 or 2; Pick Pockets rolls 1d100 against its 35%; Reckon keeps the d20."""
    ruleset = old_school()
    party = (ROGUE,)
    assert [("1d6", 2, [2], True), ("1d6", 2, [3], False), ("1d100", 35, [35], True),
            ("1d100", 35, [36], False), ("1d20", 2, [2], True)] == [
        outcome(check(ruleset, party, [2], skill="Open Doors")),
        outcome(check(ruleset, party, [3], skill="Open Doors")),
        outcome(check(ruleset, party, [35], skill="Pick Pockets")),
        outcome(check(ruleset, party, [36], skill="Pick Pockets")),
        outcome(check(ruleset, party, [2], skill="Reckon")),
    ]


def test_dice_pool_favored_ones_do_not_cancel() -> None:
    """CHK-OVR-03/06, CHK-POOL-09: exwod's favored attribute, ``"cancel": null`` while
    ``favored_douse`` is not 0: Douse on 10, 8, 7, 3, 1 (+ the 10's 4) nets 2 successes, or 3 for
    a favored firefighter whose 1 cancels nothing."""
    raw = bundled_json("cinder-watch")
    raw["sheet"]["fields"].append({**FAVORED_FIELD, "id": "favored_douse", "section": "about"})
    raw["resolution"]["overrides"] = [{"id": "favored", "label": "Favored", "skills": ["douse"],
                                       "when": {"field": "favored_douse"},
                                       "set": {"cancel": None}}]
    ruleset = load_ruleset(raw)
    favored = member(FIREFIGHTER, sheet={"v": 1, "build": {
        **FIREFIGHTER["sheet"]["build"], "fields": {"favored_douse": 1}}})
    faces = [10, 8, 7, 3, 1, 4]
    plain, _ = resolve(ruleset, (member(FIREFIGHTER),), faces, skill="Douse", dc="2")
    helped, _ = resolve(ruleset, (favored,), faces, skill="Douse", dc="2")
    assert (2, 3) == (plain.total, helped.total)


def test_dice_highest_override_keeps_two() -> None:
    """CHK-OVR-02, CHK-HIGH-03 derived: Reckon overridden to ``keep: 2`` sums 5 + 3 = 8 of
    5, 3, 2; a Eye check, not named, keeps the 5."""
    raw = ruleset_with(BLADES)
    raw["resolution"]["overrides"] = [{"id": "duel", "label": "Duel", "skills": ["reckon"],
                                       "set": {"keep": 2}}]
    ruleset = load_ruleset(raw)
    kell = Character(name="Kell", player=True, sheet=Sheet.model_validate(
        {"v": 1, "build": {"abilities": {"eye": 3}}}))
    reckon = check(ruleset, (kell,), [5, 3, 2], skill="Reckon", dc="4")
    eye = check(ruleset, (kell,), [5, 3, 2], skill="Eye", dc="4")
    assert ((8, "Full success"), (5, "Partial success")) == (
        (reckon.total, reckon.outcome), (eye.total, eye.outcome))


def test_symbol_pool_override_changes_successes_needed() -> None:
    """CHK-OVR-02, CHK-SYM-14/21: the CHK-SYM-15 triumph vector (12, 7, 8 against 2) nets 1
    success: a pass by the page's rules, a failure where an override needs 2 for Reckon."""
    kell = Character(name="Kell", player=True, sheet=Sheet.model_validate(
        {"v": 1, "build": {"abilities": {"eye": 3}, "skills": {"reckon": "rank_one"}}}))
    raw = ruleset_with(GENESYS)
    base = load_ruleset(raw)
    raw["resolution"]["overrides"] = [{"id": "hard", "label": "Hard going", "skills": ["reckon"],
                                       "set": {"success": {"symbol": "s", "needed": 2}}}]
    hard = load_ruleset(raw)
    faces = [12, 7, 8, 2]
    assert (("1s 3a 1t", True), ("1s 3a 1t", False)) == tuple(
        (r.symbols, r.success) for r in (check(base, (kell,), faces, skill="Reckon", dc="1"),
                                         check(hard, (kell,), faces, skill="Reckon", dc="1")))
