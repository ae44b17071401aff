"""``[skill_check:]`` end to end on dice-sum rulesets (the bundled Hearth and Haul's 2d6, the peer's
5e d20): tag in, record and rewritten attributes out, with scripted dice (CHK-SUM, CHK-OUT,
CHK-REC, SHEET-CHK)."""

from __future__ import annotations

from typing import Any

import pytest

from middleware.dice import Dice
from middleware.resolve import Context, Resolution
from middleware.resolve.checks import KINDS, resolve_check
from middleware.resolve.checks.record import CheckRecord
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.state import Character, GameState, Live, Sheet
from tests.conftest import compat_json
from tests.rulesets import bundled_json, by_id, five_e, ruleset

JUNO = Character(name="Juno", player=True, sheet=Sheet.model_validate(
    {"v": 1, "build": {"abilities": {"wits": 2, "brawn": 1}, "skills": {"scout": "trained"}}}))
"""Scout is Wits 2 + trained 1 = +3 on Hearth and Haul (2d6; Easy 5, Risky 7, Hard 9)."""


def hearth() -> Ruleset:
    return ruleset("hearth-and-haul")
VESS = Character(name="Vess", player=True, sheet=Sheet.model_validate(
    {"v": 1, "build": {"abilities": {"dex": 14}, "skills": {"stealth": "proficient"}}}))


def fifth(**resolution: Any) -> Ruleset:
    """The 5e ruleset, with ``resolution`` keys changed in a parsed copy when given."""
    if not resolution:
        return five_e()
    data = compat_json("ruleset-5e-2014.example.json")
    data["resolution"].update(resolution)
    return load_ruleset(data)


def check(ruleset: Ruleset, party: tuple[Character, ...], faces: list[int], *words: str,
          **attrs: str) -> tuple[CheckRecord, Dice]:
    """Resolve one tag with exactly ``faces``; returns the record and the dice (to count throws)."""
    tag = Tag("skill_check", attrs, words, "[skill_check: ...]", 0, 18)
    dice = Dice(1, script=faces)
    state = GameState(ruleset=ruleset.id, party=party)
    resolution: Resolution = resolve_check(tag, state, Context(ruleset=ruleset, dice=dice))
    assert resolution.state == state  # a check changes no state
    assert isinstance(resolution.record, CheckRecord)
    assert dice.script_left == 0
    return resolution.record, dice


def test_a_2d6_check_rewrites_to_the_record_shape() -> None:
    """CHK-SUM-01/10, SPEC §6: Scout (Wits 2, trained +1) vs Hard (dc 9), dice 3 + 4 → total 10,
    success, with chance P(2d6 ≥ 6) = 26/36; the model's own ``rolls``/``total``/``result`` are
    discarded; attributes in order."""
    record, _ = check(hearth(), (JUNO,), [3, 4], skill="Scout", difficulty="Hard",
                      rolls="6|6", total="99", result="critical_success")
    assert [("skill", "Scout"), ("dc", "9"), ("rolls", "3|4"), ("used", "7"),
            ("modifier", "3"), ("total", "10"), ("result", "success"), ("mode", "normal"),
            ("resolution", "sum"), ("dice", "2d6"), ("difficulty", "Hard"),
            ("chance", "0.7222")] == record.tag_attrs()
    assert (True, 26 / 36) == (record.success, record.chance)


def test_a_2d6_failure_one_short() -> None:
    """CHK-SUM-01: dice 2 + 4 with +3 → 9 vs 10 fails."""
    record, _ = check(hearth(), (JUNO,), [2, 4], skill="Scout", dc="10")
    assert (9, False, "failure") == (record.total, record.success, record.result)


def test_advantage_is_ignored_where_the_ruleset_rolls_once() -> None:
    """CHK-SUM-02, SHEET-TRN-14: Hearth and Haul has ``advantage: false``: one throw, mode
    normal."""
    record, dice = check(hearth(), (JUNO,), [5, 5], "advantage", skill="Scout", dc="8",
                         mode="advantage")
    assert ("normal", [5, 5]) == (record.mode, dice.thrown)


def test_5e_advantage_keeps_the_higher_d20() -> None:
    """CHK-SUM-02: ``mode="advantage"`` on 5e throws two d20 and keeps 17; both in ``rolls``."""
    record, _ = check(fifth(), (VESS,), [5, 17], skill="Stealth", dc="15", mode="advantage")
    assert ("advantage", [5, 17], 17, 21, True) == (
        record.mode, record.rolls, record.used, record.total, record.success)


def test_bare_disadvantage_word_and_condition_leans() -> None:
    """SPEC §1b, SHEET-COND-06: a bare ``disadvantage`` word leans the check; poisoned plus
    ``mode="advantage"`` cancel to a single throw; poisoned alone is disadvantage, named in
    ``from=`` with no numeric ``effects=`` (ITM-CHECK-15)."""
    poisoned = VESS.model_copy(update={"live": Live(conditions=("poisoned",))})
    bare, _ = check(fifth(), (VESS,), [15, 6], "disadvantage", skill="Stealth", dc="10")
    cancelled, _ = check(fifth(), (poisoned,), [15], skill="Stealth", dc="10", mode="advantage")
    leaned, _ = check(fifth(), (poisoned,), [15, 6], skill="Stealth", dc="10")
    assert ("disadvantage", 6) == (bare.mode, bare.used)
    assert ("normal", 15) == (cancelled.mode, cancelled.used)
    assert ("disadvantage", 6, "Poisoned", None) == (leaned.mode, leaned.used, leaned.from_,
                                                      leaned.effects)


def test_skill_inside_a_name_is_not_a_lean() -> None:
    """SPEC §1b: ``skill="Press the advantage"`` is a name, never the advantage flag."""
    record, _ = check(fifth(), (VESS,), [9], skill="Press the advantage", dc="10")
    assert "normal" == record.mode


def test_naturals_apply_to_checks_and_saves_separately() -> None:
    """CHK-SUM-03, SPEC §10: naturals {check: both, save: none}: a natural 20 Stealth check beats
    dc 30 as a critical success; a natural 20 Dexterity save does not."""
    ruleset = fifth(naturals={"check": "both", "save": "none"})
    on_check, _ = check(ruleset, (VESS,), [20], skill="Stealth", dc="30")
    on_save, _ = check(ruleset, (VESS,), [20], skill="Dexterity save", dc="30")
    assert ("critical_success", "failure") == (on_check.result, on_save.result)


def test_tiers_and_shift_on_the_record() -> None:
    """CHK-OUT-08/13, CHK-REC-15: reference tiers with ``shift``: natural 20 margin 5 is a
    Critical success on the record; the tier's text reaches the GM."""
    outcomes = {"by": "margin", "naturals": "shift", "tiers": [
        {"id": "critical_success", "label": "Critical success", "atLeast": 10, "success": True,
         "critical": True, "text": "Something extra happens."},
        {"id": "success", "label": "Success", "atLeast": 0, "success": True},
        {"id": "failure", "label": "Failure", "atLeast": -9},
        {"id": "critical_failure", "label": "Critical failure", "critical": True}]}
    ruleset = fifth(outcomes=outcomes)
    record, _ = check(ruleset, (VESS,), [20], skill="Stealth", dc="19")  # 20 + 4 = 24, margin 5
    attrs = dict(record.tag_attrs())
    assert ("Critical success", "critical_success") == (attrs["outcome"], attrs["result"])
    assert "Something extra happens." in (record.feedback or "")


def test_spend_and_use_are_not_offered_on_a_sum() -> None:
    """CHK-SUM-11, CHK-COMMON-11: ``spend=`` and ``use=`` on dice-sum are ignored; it rolls."""
    record, _ = check(hearth(), (JUNO,), [3, 4], skill="Scout", dc="10", spend="grit:2",
                      use="Potence")
    attrs = dict(record.tag_attrs())
    assert (10, None, None) == (record.total, attrs.get("spend"), attrs.get("use"))


def test_untrained_refuse_rolls_nothing() -> None:
    """SHEET-UNT-05: an untrained ``refuse`` skill is not rolled: ``reason="untrained"``."""
    data = bundled_json("hearth-and-haul")
    by_id(data["sheet"]["skills"], "scout")["untrained"] = "refuse"
    blank = Character(name="Ada", player=True)
    record, dice = check(load_ruleset(data), (blank,), [], skill="Scout", dc="8")
    assert ("refused", "untrained", []) == (record.status, record.reason, dice.thrown)
    assert [("skill", "Scout"), ("dc", "8"), ("reason", "untrained")] == record.tag_attrs()


def test_automatic_save_failure_rolls_nothing() -> None:
    """SHEET-CHK-06, SHEET-COND-08: a paralyzed character fails a Dexterity save unrolled."""
    paralyzed = VESS.model_copy(update={"live": Live(conditions=("paralyzed",))})
    record, dice = check(fifth(), (paralyzed,), [], skill="Dexterity save", dc="10")
    attrs = dict(record.tag_attrs())
    assert (False, [], "true", "failure") == (record.success, dice.thrown, attrs["automatic"],
                                              attrs["result"])


def test_stranger_rolls_unmodified_and_keeps_who_as_written() -> None:
    """SHEET-CHK-02, SHEET-UNT-06: ``who`` naming nobody rolls sheetless; who kept as written."""
    record, _ = check(hearth(), (JUNO,), [6, 5], skill="Scout", dc="8", who="Old Bram")
    attrs = dict(record.tag_attrs())
    assert (0, "Old Bram") == (record.modifier, attrs["who"])
    assert "not in the party" in (record.feedback or "")


def test_unknown_skill_rolls_with_no_sheet_number() -> None:
    """SHEET-SKL-07, SHEET-CHK-04: a name the ruleset does not know rolls with number 0."""
    record, _ = check(hearth(), (JUNO,), [6, 5], skill="Juggling", dc="8")
    assert (0, 11, True) == (record.modifier, record.total, record.success)


def test_with_swaps_the_ability_and_is_recorded() -> None:
    """CHK-COMMON-10, CHK-REC-03: Scout ``with="Brawn"`` uses Brawn 1 and says so."""
    record, _ = check(hearth(), (JUNO,), [3, 3], skill="Scout", dc="8", **{"with": "Brawn"})
    attrs = dict(record.tag_attrs())
    assert "Brawn" == attrs["with"]
    assert "with" not in dict(check(hearth(), (JUNO,), [3, 3], skill="Scout", dc="8")[0]
                              .tag_attrs())


def test_rung_named_in_dc_and_missing_difficulty() -> None:
    """CHK-COMMON-08/11: ``dc="Hard"`` is read as the rung (9); no dc at all takes the middle
    of the three rungs (Risky, 7) and the GM is told."""
    named, _ = check(hearth(), (JUNO,), [3, 4], skill="Scout", dc="Hard")
    missing, _ = check(hearth(), (JUNO,), [3, 4], skill="Scout")
    assert (9, "Hard") == (named.dc, named.difficulty)
    assert (7, "Risky") == (missing.dc, missing.difficulty)
    assert "No difficulty given" in (missing.feedback or "")


def test_huge_dc_is_clamped() -> None:
    """CHK-COMMON-11: ``dc="99999"`` is clamped to 1000; the check still resolves."""
    record, _ = check(hearth(), (JUNO,), [6, 6], skill="Scout", dc="99999")
    assert (1000, False, 0.0) == (record.dc, record.success, record.chance)


def test_tag_without_skill_is_ignored() -> None:
    """SPEC §8: a check naming no skill is an ``ignored`` record and stays as written."""
    tag = Tag("skill_check", {"dc": "10"}, (), "[skill_check: dc=10]", 0, 20)
    rules = hearth()
    resolution = resolve_check(tag, GameState(ruleset=rules.id),
                               Context(ruleset=rules, dice=Dice(1)))
    assert ("ignored", []) == (resolution.record.status, resolution.record.tag_attrs())


def test_other_kinds_are_an_error_record_for_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """STYLE habit 5: a kind not in ``KINDS`` (dice-pool taken out here) yields
    ``status="error"`` and the tag stays as written."""
    monkeypatch.delitem(KINDS, "dice-pool")
    pool = ruleset("cinder-watch")
    tag = Tag("skill_check", {"skill": "Douse", "dc": "2"}, (), "[skill_check: ...]", 0, 18)
    resolution = resolve_check(tag, GameState(ruleset=pool.id),
                               Context(ruleset=pool, dice=Dice(1)))
    assert ("error", []) == (resolution.record.status, resolution.record.tag_attrs())
