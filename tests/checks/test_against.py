"""roll-against with scripted dice: one test per CHK-AGAINST requirement (checks.md §5), every
"Derived" example of the page, and the record end to end (CHK-REC-14, SPEC §6) on the page's Call
of Cthulhu resolution and an illustrative GURPS one."""

from __future__ import annotations

from typing import Any

from middleware.character.check import CheckSheet
from middleware.dice import Dice
from middleware.resolve import Context
from middleware.resolve.checks import resolve_check
from middleware.resolve.checks.outcome import outcomes_from
from middleware.resolve.checks.record import Ask, CheckRecord
from middleware.resolve.checks.roll_against.resolve import (
    Aim,
    against_check,
    pick_aim,
    read_tens,
    sheet_number,
    target_of,
)
from middleware.resolve.checks.roll_against.roll import (
    AgainstCheck,
    AgainstRules,
    CriticalRule,
    throw_against,
    verdict,
)
from middleware.rules.common import AgainstRung
from middleware.rules.common import Outcomes as OutcomesBlock
from middleware.rules.kinds.roll_against import RollAgainst
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.state import Character, GameState, Sheet
from tests.rules.kind_examples import CTHULHU, ruleset_with

GURPS: dict[str, Any] = {
    "kind": "roll-against",
    "dice": {"count": 3, "sides": 6},
    "abilityModifier": {"op": "identity"},
    "proficiencyTiers": [{"id": "base", "label": "Base"}],
    "against": "at-most",
    "criticalSuccess": [{"to": 4}, {"from": 5, "to": 5, "whenTarget": {"atLeast": 15}},
                        {"from": 6, "to": 6, "whenTarget": {"atLeast": 16}}],
    "criticalFailure": [{"from": 18}, {"from": 17, "to": 17, "whenTarget": {"below": 16}},
                        {"pastTarget": 10}],
    "difficultyLadder": [{"label": "Average", "dc": 0}, {"label": "Hard", "dc": -2}],
}

COC = RollAgainst.model_validate(CTHULHU)
D20 = AgainstRules(count=1, sides=20)


def coc(target: int, tens: int = 0) -> AgainstCheck:
    """The page's Call of Cthulhu check against ``target``."""
    return against_check(COC, target, tens)


def judged(check: AgainstCheck, *faces: int) -> tuple[int, bool, str | None, str | None]:
    """(kept roll, success, critical, tier label) of ``check`` thrown with exactly ``faces``."""
    dice = Dice(0, script=faces)
    thrown = throw_against(check, dice)
    assert dice.script_left == 0
    result = verdict(check, thrown.kept)
    return thrown.kept, result.success, result.critical, result.outcome


def tier(check: AgainstCheck, face: int) -> str | None:
    return judged(check, face)[3]


def test_sheet_number_is_the_target() -> None:
    """CHK-AGAINST-01/07: the sheet number is the target; the page's illustrative GURPS rule: a 5
    against 15 is a critical success, against 14 an ordinary one."""
    gurps = against_check(RollAgainst.model_validate(GURPS), 15)
    assert (5, True, "success") == judged(gurps, 1, 1, 3)[:3]
    lower = against_check(RollAgainst.model_validate(GURPS), 14)
    assert (5, True, None) == judged(lower, 1, 1, 3)[:3]


def test_dice_are_rolled_and_summed() -> None:
    """CHK-AGAINST-02: 3d6 shows every die and reads their sum; the default is one d100."""
    gurps = against_check(RollAgainst.model_validate(GURPS), 12)
    thrown = throw_against(gurps, Dice(0, script=[3, 4, 5]))
    default = RollAgainst.model_validate({"kind": "roll-against",
                                          "proficiencyTiers": [{"id": "b", "label": "B"}]})
    assert ((3, 4, 5), 12) == (thrown.rolls, thrown.kept)
    assert ("1d100", "at-most") == (against_check(default, 50).rules.label, default.against)


def test_at_most_and_at_least() -> None:
    """CHK-AGAINST-03: at-most succeeds on a roll ≤ the target, at-least on a roll ≥ it."""
    at_most = AgainstCheck(rules=D20, target=14)
    at_least = AgainstCheck(rules=AgainstRules(count=1, sides=20, against="at-least"), target=14)
    assert [True, False] == [judged(at_most, f)[1] for f in (14, 15)]
    assert [True, False] == [judged(at_least, f)[1] for f in (14, 13)]


def test_ladder_divides_then_shifts() -> None:
    """CHK-AGAINST-04, Ambiguity 15: a rung's ``divide`` divides the sheet number (rounding down)
    and its ``dc`` shifts it; the GM names the rung with ``difficulty=``."""
    ladder = (AgainstRung(label="Hard", dc=0, divide=2), AgainstRung(label="Push", dc=10, divide=5))
    hard = pick_aim(Ask(skill="Spot", difficulty="hard"), ladder)
    push = pick_aim(Ask(skill="Spot", difficulty="Push"), ladder)
    assert (30, 22, "Hard") == (target_of(60, hard), target_of(45, hard), hard.rung)
    assert 22 == target_of(60, push)


def test_dc_shifts_the_target_clamped() -> None:
    """CHK-AGAINST-05, CHK-COMMON-09/11: ``dc=`` shifts by −100..100 (150 → 100, with a note);
    with ``difficulty=`` too it replaces the rung's shift but the rung still divides."""
    ladder = (AgainstRung(label="Hard", dc=-5, divide=2),)
    assert 40 == target_of(60, pick_aim(Ask(skill="Spot", dc=-20), ladder))
    wide = pick_aim(Ask(skill="Spot", dc=150), ladder)
    assert (100, "dc 150 clamped to 100.") == (wide.shift, wide.note)
    both = pick_aim(Ask(skill="Spot", dc=5, difficulty="Hard"), ladder)
    assert (35, 25) == (target_of(60, both),
                        target_of(60, pick_aim(Ask(skill="Spot", difficulty="Hard"), ladder)))


def test_no_difficulty_reads_the_sheet_number_and_unknown_rungs_are_ignored() -> None:
    """CHK-COMMON-08: without ``dc=``/``difficulty=`` the target is the sheet number (a Regular
    roll); a rung name that matches nothing is ignored and the GM is told."""
    plain = pick_aim(Ask(skill="Spot"), COC.difficulty_ladder)
    odd = pick_aim(Ask(skill="Spot", difficulty="Heroic"), COC.difficulty_ladder)
    assert (Aim(), 60) == (plain, target_of(60, plain))
    assert (60, 'difficulty "Heroic" names no rung: ignored.') == (target_of(60, odd), odd.note)


def test_critical_rules_by_face_and_past_the_target() -> None:
    """CHK-AGAINST-06/07 (illustrative): ``pastTarget: 10`` with target 8 at-most: 18 is a
    critical failure, 17 an ordinary one; ``from`` alone leaves ``to`` open."""
    rules = AgainstRules(count=3, sides=6, critical_failure=(CriticalRule(past=10),))
    check = AgainstCheck(rules=rules, target=8)
    assert (18, False, "failure") == judged(check, 6, 6, 6)[:3]
    assert (17, False, None) == judged(check, 6, 6, 5)[:3]
    open_to = AgainstCheck(rules=AgainstRules(critical_failure=(CriticalRule(from_=96),)),
                           target=99)
    assert [None, "failure", "failure"] == [judged(open_to, f)[2] for f in (95, 96, 100)]


def test_past_target_on_an_at_least_roll_counts_downwards() -> None:
    """CHK-AGAINST-06: on at-least the failing side is below: target 15, ``pastTarget: 10`` →
    5 is a critical failure, 6 is not."""
    rules = AgainstRules(count=1, sides=20, against="at-least",
                         critical_failure=(CriticalRule(past=10),))
    check = AgainstCheck(rules=rules, target=15)
    assert ["failure", None] == [judged(check, f)[2] for f in (5, 6)]


def test_when_target_limits_a_rule() -> None:
    """CHK-AGAINST-07: the page's 96+ fumble holds only below target 50 (target 45: 96 fumbles;
    target 60: 97 is a plain failure); GURPS 17 fails critically only below 16."""
    assert ("Fumble", "Failure") == (tier(coc(45), 96), tier(coc(60), 97))
    gurps = RollAgainst.model_validate(GURPS)
    assert [("failure"), None] == [judged(against_check(gurps, t), 6, 6, 5)[2] for t in (15, 16)]


def test_criticals_beat_the_comparison() -> None:
    """CHK-AGAINST-08: a critical success succeeds even above the target (GURPS 3 vs skill 2), a
    critical failure fails even within it (Call of Cthulhu 100 vs a skill of 120)."""
    gurps = against_check(RollAgainst.model_validate(GURPS), 2)
    assert (3, True, "success") == judged(gurps, 1, 1, 1)[:3]
    assert (100, False, "failure", "Fumble") == judged(coc(120), 100)


def test_tens_dice_keep_the_best_or_the_worst() -> None:
    """CHK-AGAINST-09 (derived, at-most, max 2): candidates 23 and 73: ``bonus="+1"`` → 23,
    ``"-1"`` → 73; each extra tens die is a d10 read as a tens digit."""
    assert ((23, 73), 23) == _tens_roll(coc(60, tens=1), 23, 7)
    assert ((23, 73), 73) == _tens_roll(coc(60, tens=-1), 23, 7)
    assert ((23, 3, 93), 3) == _tens_roll(coc(60, tens=2), 23, 10, 9)


def test_tens_dice_read_00_and_0_as_100() -> None:
    """CHK-AGAINST-09: a d100 of 100 is "00" and "0"; a tens die showing "00" with units 0 keeps
    it 100, another tens digit makes 30; on at-least the bonus keeps the highest."""
    assert ((100, 100, 30), 30) == _tens_roll(coc(60, tens=2), 100, 10, 3)
    at_least = AgainstCheck(rules=AgainstRules(against="at-least", tens_max=2), target=50, tens=1)
    assert ((23, 73), 73) == _tens_roll(at_least, 23, 7)


def test_bonus_is_clamped_to_tens_max_and_ignored_without_tens() -> None:
    """CHK-AGAINST-09, CHK-REC-02: ``bonus="+3"`` with max 2 throws 2 extra tens dice;
    a ruleset without ``tens`` (GURPS 3d6) ignores ``bonus=`` and says so."""
    rules = coc(60).rules
    assert (2, "bonus +3 clamped to +2 tens dice.") == read_tens(_bonus("+3"), rules)
    assert (-1, None) == read_tens(_bonus("-1"), rules)
    gurps = against_check(RollAgainst.model_validate(GURPS), 12).rules
    assert (0, "bonus= ignored: this ruleset throws no tens dice.") == \
        read_tens(_bonus("+1"), gurps)


def test_call_of_cthulhu_target_60() -> None:
    """CHK-AGAINST-10 (derived, target 60): 1 Critical; 10, 12 Extreme; 13, 30 Hard; 31, 60
    Regular; 61, 97 Failure (the 96+ rule needs a target below 50); 100 Fumble."""
    faces = (1, 10, 12, 13, 30, 31, 60, 61, 97, 100)
    expected = ["Critical", "Extreme success", "Extreme success", "Hard success", "Hard success",
                "Regular success", "Regular success", "Failure", "Failure", "Fumble"]
    assert expected == [tier(coc(60), f) for f in faces]


def test_call_of_cthulhu_target_45() -> None:
    """CHK-AGAINST-10 (derived, target 45): 9 Extreme (45/5); 10, 22 Hard (≤ 22.5); 23, 45
    Regular; 46 Failure; 96 and 100 Fumble."""
    faces = (9, 10, 22, 23, 45, 46, 96, 100)
    expected = ["Extreme success", "Hard success", "Hard success", "Regular success",
                "Regular success", "Failure", "Fumble", "Fumble"]
    assert expected == [tier(coc(45), f) for f in faces]


def test_tiers_decide_success_and_criticals() -> None:
    """CHK-OUT-07/09 on this kind: Critical is a critical success, Fumble a critical failure,
    Regular a plain success."""
    assert [(True, "success"), (True, None), (False, None), (False, "failure")] == \
        [judged(coc(60), f)[1:3] for f in (1, 60, 61, 100)]


def test_margin_and_total_tiers() -> None:
    """CHK-AGAINST-10, Ambiguity 15: ``margin`` is target − roll at-most and roll − target
    at-least; ``total`` reads the roll itself."""
    outcomes = outcomes_from(OutcomesBlock.model_validate({"tiers": [
        {"id": "great", "label": "Great", "atLeast": 10, "success": True},
        {"id": "ok", "label": "Ok", "atLeast": 0, "success": True},
        {"id": "no", "label": "No"}]}))
    at_most = AgainstCheck(rules=D20, target=15, outcomes=outcomes, by="margin")
    at_least = AgainstCheck(rules=AgainstRules(count=1, sides=20, against="at-least"), target=8,
                            outcomes=outcomes, by="margin")
    total = AgainstCheck(rules=D20, target=15, outcomes=outcomes, by="total")
    assert ["Great", "Ok", "No"] == [tier(at_most, f) for f in (5, 6, 16)]
    assert ["Great", "Ok", "No"] == [tier(at_least, f) for f in (18, 17, 7)]
    assert ["Great", "Ok"] == [tier(total, f) for f in (10, 9)]


def test_sheet_adjustments_favour_the_roller_either_way() -> None:
    """Our reading: a penalty lowers an at-most target and raises an at-least one; a bonus the
    other way round, so a penalty always makes the check harder."""
    sheet = CheckSheet("skill", "spot", "Spot", 60, penalty=-10, adjust=5)
    assert 55 == sheet_number(sheet, AgainstRules())
    assert 65 == sheet_number(sheet, AgainstRules(against="at-least"))


# --- end to end: the [skill_check:] tag on a roll-against ruleset ------------------------------


def coc_ruleset() -> Ruleset:
    """Lantern and Ledger with the page's Call of Cthulhu resolution and percentage skills (no ability)."""
    raw = ruleset_with(CTHULHU)
    raw["sheet"]["skills"].append({"id": "spot_hidden", "label": "Spot Hidden"})
    raw["sheet"]["bonusRange"] = {"min": 0, "max": 100}
    return load_ruleset(raw)


def gurps_ruleset() -> Ruleset:
    raw = ruleset_with(GURPS)
    raw["sheet"]["bonusRange"] = {"min": 0, "max": 100}
    return load_ruleset(raw)


ADA = Character(name="Ada", player=True, sheet=Sheet.model_validate(
    {"v": 1, "build": {"abilities": {"eye": 2}, "bonuses": {"spot_hidden": 60, "reckon": 12}}}))


def check(ruleset: Ruleset, faces: list[int], *words: str, **attrs: str) -> CheckRecord:
    """Resolve one tag for Ada with exactly ``faces``."""
    tag = Tag("skill_check", attrs, words, "[skill_check: ...]", 0, 18)
    dice = Dice(1, script=faces)
    state = GameState(ruleset=ruleset.id, party=(ADA,))
    resolution = resolve_check(tag, state, Context(ruleset=ruleset, dice=dice))
    assert resolution.state == state  # a roll-against check changes no state
    assert isinstance(resolution.record, CheckRecord)
    assert dice.script_left == 0
    return resolution.record


def test_record_of_a_call_of_cthulhu_roll() -> None:
    """CHK-REC-14/15, SPEC §6, CHK-AGAINST-01: Spot Hidden 60 % (its bonus, no ability) rolls 10:
    Extreme success; ``dc`` is the target, ``against`` and the exact ``chance`` are on the tag;
    the model's own ``rolls``/``result`` are discarded."""
    record = check(coc_ruleset(), [10], skill="Spot Hidden", rolls="99", result="failure")
    assert [("skill", "Spot Hidden"), ("dc", "60"), ("rolls", "10"), ("used", "10"),
            ("modifier", "0"), ("total", "10"), ("result", "success"), ("mode", "normal"),
            ("resolution", "sum"), ("dice", "1d100"), ("outcome", "Extreme success"),
            ("against", "at-most"), ("chance", "0.6000")] == record.tag_attrs()


def test_record_of_a_hard_roll() -> None:
    """CHK-AGAINST-10 (derived), CHK-REC-01: ``difficulty="Hard"`` with a sheet number of 60 →
    target 60 / 2 + 0 = 30 → ``dc="30"``; a roll of 31 fails."""
    record = check(coc_ruleset(), [31], skill="Spot Hidden", difficulty="Hard")
    attrs = dict(record.tag_attrs())
    assert ("30", "failure", "Hard", "Failure") == (
        attrs["dc"], attrs["result"], attrs["difficulty"], attrs["outcome"])


def test_record_of_a_bonus_die() -> None:
    """CHK-AGAINST-09, CHK-REC-02: ``bonus="+3"`` throws the 2 dice the ruleset allows: the d100
    73 and tens dice 2 and 9 → candidates 73, 23, 93, 23 kept; the tag says ``bonus="+2"``."""
    record = check(coc_ruleset(), [73, 2, 9], skill="Spot Hidden", bonus="+3")
    attrs = dict(record.tag_attrs())
    assert ("73|23|93", "23", "+2", "Hard success") == (
        attrs["rolls"], attrs["total"], attrs["bonus"], attrs["outcome"])
    assert "bonus +3 clamped to +2 tens dice." in (record.feedback or "")


def test_advantage_does_not_apply_and_the_gm_is_told() -> None:
    """CHK-COMMON-11: ``mode="advantage"`` is ignored on this kind (one d100, mode normal); the GM
    is pointed at ``bonus=``."""
    record = check(coc_ruleset(), [40], skill="Spot Hidden", mode="advantage")
    assert ("normal", [40]) == (record.mode, record.rolls)
    assert 'write bonus="+1"' in (record.feedback or "")


def test_gurps_skill_is_attribute_plus_bonus() -> None:
    """CHK-AGAINST-01/02/06: Reckon = Eye 2 + bonus 12 = 14 on 3d6; 6+6+6 = 18 is a critical
    failure; ``difficulty="Hard"`` shifts to 12 and 13 fails."""
    rolled = check(gurps_ruleset(), [6, 6, 6], skill="Reckon")
    hard = check(gurps_ruleset(), [6, 6, 1], skill="Reckon", difficulty="Hard")
    assert (14, "critical_failure", "3d6", [6, 6, 6]) == (
        rolled.dc, rolled.result, rolled.dice, rolled.rolls)
    assert (12, 13, False) == (hard.dc, hard.total, hard.success)


def test_dc_on_the_tag_is_a_shift() -> None:
    """CHK-AGAINST-05: ``dc="-20"`` on Spot Hidden 60 reads the roll against 40."""
    record = check(coc_ruleset(), [41], skill="Spot Hidden", dc="-20")
    assert (40, False) == (record.dc, record.success)


def _tens_roll(check: AgainstCheck, *faces: int) -> tuple[tuple[int, ...], int]:
    dice = Dice(0, script=faces)
    thrown = throw_against(check, dice)
    assert dice.script_left == 0
    return thrown.rolls, thrown.kept


def _bonus(text: str) -> Ask:
    return Ask(skill="Spot Hidden", attrs={"bonus": text})
