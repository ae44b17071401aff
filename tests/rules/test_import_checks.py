"""Rulesets refused at import: each rule, the exact JSON path it reports, and all at once.

Every test breaks one thing in a parsed copy of a bundled ruleset (Lantern and Ledger for 2d6,
Tidemark for a d20, Cinder Watch for a pool) and asserts the list of paths reported, so a refusal
also shows that nothing else was blamed.
"""

from __future__ import annotations

from typing import Any

import pytest

from middleware.errors import RulesetError
from middleware.rules import load_ruleset, validate_ruleset
from tests.peer import compat_json
from tests.rules.kind_examples import BLADES, CTHULHU, GENESYS, ruleset_with
from tests.rulesets import bundled_json, by_id, by_ids, entry, row_path

Raw = dict[str, Any]

MARGIN_TIERS: list[Raw] = [
    {"id": "critical_success", "label": "Critical success", "atLeast": 10, "success": True,
     "critical": True},
    {"id": "success", "label": "Success", "atLeast": 0, "success": True},
    {"id": "failure", "label": "Failure", "atLeast": -9},
    {"id": "critical_failure", "label": "Critical failure", "critical": True},
]


def paths(raw: Raw) -> list[str]:
    """The JSON paths the loader blames, catalog entries named by id."""
    return [by_ids(raw, p.path) for p in validate_ruleset(raw)]


def lantern() -> Raw:
    return bundled_json("lantern-and-ledger")


def tidemark() -> Raw:
    return bundled_json("tidemark-d20")


def cinder() -> Raw:
    return bundled_json("cinder-watch")


def with_outcomes(raw: Raw, **outcomes: Any) -> Raw:
    raw["resolution"]["outcomes"] = {"tiers": [dict(t) for t in MARGIN_TIERS], **outcomes}
    return raw


def tier(raw: Raw, tier_id: str) -> Raw:
    """The outcome tier ``tier_id`` of a parsed ruleset, to change in place."""
    return by_id(raw["resolution"]["outcomes"]["tiers"], tier_id)


# --- CHK-COMMON and the sheet math in resolution --------------------------------------------


def test_unknown_kind() -> None:
    """CHK-COMMON-01: a kind other than the five is refused at the kind itself."""
    raw = lantern()
    raw["resolution"]["kind"] = "dice-sun"
    assert ["$.resolution.kind"] == paths(raw)


def test_unknown_ability_modifier_op() -> None:
    """CHK-COMMON-02..04: abilityModifier is identity, floorHalfMinusTen or stepTable."""
    raw = lantern()
    raw["resolution"]["abilityModifier"] = {"op": "halve"}
    assert ["$.resolution.abilityModifier.op"] == paths(raw)


def test_step_table_not_ascending() -> None:
    """SHEET-ABL-04 / CHK-COMMON-04: step table thresholds must be strictly ascending."""
    raw = lantern()
    raw["resolution"]["abilityModifier"] = {"op": "stepTable", "table": [[1, 0], [1, 1], [3, 2]]}
    assert ["$.resolution.abilityModifier.table[1]"] == paths(raw)


def test_multiplier_tier_without_proficiency() -> None:
    """SHEET-TIER-04 / CHK-COMMON-06: every multiplying tier is refused without proficiency."""
    raw = tidemark()
    del raw["resolution"]["proficiency"]
    assert [f"$.resolution.proficiencyTiers[{i}].multiplier" for i in (1, 2, 3)] == paths(raw)


@pytest.mark.parametrize(("key", "value"), [("multiplier", 11), ("multiplier", -1),
                                            ("flat", 51), ("flat", -51), ("round", "sideways")])
def test_tier_values_out_of_range(key: str, value: Any) -> None:
    """SHEET-TIER-01: multiplier 0..10, flat -50..50, round down/up/nearest."""
    raw = tidemark()
    by_id(raw["resolution"]["proficiencyTiers"], "proficient")[key] = value
    assert [row_path(raw, f"$.resolution.proficiencyTiers[proficient].{key}")] == paths(raw)


def test_too_many_tiers() -> None:
    """SHEET-TIER-01: 1 to 12 proficiency tiers."""
    raw = lantern()
    raw["resolution"]["proficiencyTiers"] = [{"id": f"t{i}", "label": f"T{i}"} for i in range(13)]
    assert ["$.resolution.proficiencyTiers"] == paths(raw)


def test_penalty_from_unknown_track() -> None:
    """SHEET-IMPORT-18: penaltyFrom must name a declared track."""
    raw = cinder()
    raw["resolution"]["penaltyFrom"] = "bruises"
    assert ["$.resolution.penaltyFrom"] == paths(raw)


def test_penalty_from_plain_track() -> None:
    """SHEET-IMPORT-18 / SHEET-PEN-02: penaltyFrom must name a wound track, not a plain one."""
    raw = lantern()
    raw["resolution"]["penaltyFrom"] = "heat"
    assert ["$.resolution.penaltyFrom"] == paths(raw)


def test_adjust_unknown_ability() -> None:
    """SHEET-IMPORT-21: an adjust entry may name only declared abilities."""
    raw = lantern()
    raw["resolution"]["adjust"][0]["abilities"] = ["eye", "charm"]
    assert ["$.resolution.adjust[0].abilities[1]"] == paths(raw)


def test_more_than_eight_adjust_entries() -> None:
    """SHEET-IMPORT-21: at most 8 adjust entries."""
    raw = lantern()
    raw["resolution"]["adjust"] = [{"value": {"const": 1}}] * 9
    assert ["$.resolution.adjust"] == paths(raw)


def test_adjust_value_with_two_reference_keys() -> None:
    """SHEET-IMPORT-21 / SHEET-IMPORT-07: an adjust value is a reference with exactly one key."""
    raw = lantern()
    raw["resolution"]["adjust"][0]["value"] = {"const": 1, "derived": "burdened"}
    assert ["$.resolution.adjust[0].value"] == paths(raw)


def test_ladder_label_breaking_the_label_rule() -> None:
    """CHK-COMMON-08 / SHEET-FILE-04: a rung label is a prompt-safe label."""
    raw = lantern()
    raw["resolution"]["difficultyLadder"][2]["label"] = "Hard [x]"
    assert ["$.resolution.difficultyLadder[2].label"] == paths(raw)


# --- dice-sum (CHK-SUM, CHK-IMPORT-01..03, 43, 47) --------------------------------------------


def test_naturals_on_two_dice() -> None:
    """CHK-IMPORT-01 / CHK-SUM-04: a 2d6 system must use naturals none."""
    raw = lantern()
    raw["resolution"]["naturals"] = "both"
    assert ["$.resolution.naturals"] == paths(raw)


def test_naturals_for_saves_on_two_dice() -> None:
    """CHK-IMPORT-01 with SPEC §10's object form: the offending setting is named."""
    raw = lantern()
    raw["resolution"]["naturals"] = {"check": "none", "save": "max-only"}
    assert ["$.resolution.naturals.save"] == paths(raw)


def test_naturals_unknown_value() -> None:
    """CHK-SUM-03: naturals is none, both, max-only or min-only."""
    raw = tidemark()
    raw["resolution"]["naturals"] = "always"
    assert ["$.resolution.naturals"] == paths(raw)


def test_naturals_on_one_die_loads() -> None:
    """CHK-SUM-03: a single d20 may use naturals."""
    raw = tidemark()
    raw["resolution"]["naturals"] = {"check": "both", "save": "min-only"}
    assert [] == paths(raw)


def test_faces_count_differs_from_sides() -> None:
    """CHK-IMPORT-02 / CHK-SUM-05: one value per face."""
    raw = lantern()
    raw["resolution"]["dice"] = {"count": 4, "sides": 3, "faces": [-1, 0, 1, 2]}
    assert ["$.resolution.dice.faces"] == paths(raw)


def test_fate_dice_load() -> None:
    """CHK-SUM-05: the Fate example, 4 three-sided dice valued -1, 0, +1, loads."""
    raw = lantern()
    raw["resolution"]["dice"] = {"count": 4, "sides": 3, "faces": [-1, 0, 1]}
    assert [] == paths(raw)


def test_open_ended_on_two_dice() -> None:
    """CHK-IMPORT-03 / CHK-SUM-06: openEnded is a single-die feature."""
    raw = lantern()
    raw["resolution"]["openEnded"] = {"high": 6}
    assert ["$.resolution.openEnded"] == paths(raw)


def test_open_ended_low_not_below_high() -> None:
    """CHK-SUM-06: a low at or above high could never chain as written."""
    raw = tidemark()
    raw["resolution"]["openEnded"] = {"high": 10, "low": 10}
    assert ["$.resolution.openEnded.low"] == paths(raw)


def test_unmodified_on_two_dice() -> None:
    """CHK-IMPORT-03 / CHK-SUM-09: unmodified is a single-die feature."""
    raw = lantern()
    raw["resolution"]["unmodified"] = [12]
    assert ["$.resolution.unmodified", "$.resolution.unmodified[0]"] == paths(raw)


def test_unmodified_face_not_on_the_die() -> None:
    """CHK-SUM-09: a listed face the die cannot show could never trigger."""
    raw = tidemark()
    raw["resolution"]["unmodified"] = [20, 66]
    assert ["$.resolution.unmodified[1]"] == paths(raw)


def test_rolemaster_d100_loads() -> None:
    """CHK-SUM-06/09: open-ended d100 with unmodified 66 and 100 loads."""
    raw = tidemark()
    raw["resolution"]["dice"] = {"count": 1, "sides": 100}
    raw["resolution"]["openEnded"] = {"high": 96, "low": 5}
    raw["resolution"]["unmodified"] = [66, 100]
    assert [] == paths(raw)


def test_dice_count_zero() -> None:
    """CHK-SUM-01: a sum throws at least one die."""
    raw = lantern()
    raw["resolution"]["dice"]["count"] = 0
    assert ["$.resolution.dice.count"] == paths(raw)


def test_spend_on_dice_sum() -> None:
    """CHK-IMPORT-43 / CHK-SUM-11: a dice-sum ruleset may not declare spend."""
    raw = lantern()
    raw["resolution"]["spend"] = [{"pool": "pluck", "amount": 1, "dice": 1}]
    assert ["$.resolution.spend"] == paths(raw)


def test_mechanics_check_in_dice_sum() -> None:
    """CHK-IMPORT-47 / CHK-CHARM-08: a dice-sum ruleset cannot apply a catalog charm."""
    raw = compat_json("ember-roads.json")
    entry(raw, "knacks/road-sense")["mechanics"] = {"kind": "utility",
                                                  "check": {"successes": 1}}
    assert ["<knacks/road-sense>.mechanics.check"] == paths(raw)


# --- outcome tiers (CHK-OUT, CHK-IMPORT-30..35) -----------------------------------------------


def test_reference_tiers_with_shift_load() -> None:
    """CHK-OUT-04/08: the page's margin tiers with shift on a single d20 load."""
    raw = tidemark()
    del raw["resolution"]["naturals"]
    assert [] == paths(with_outcomes(raw, by="margin", naturals="shift"))


def test_one_tier_is_too_few() -> None:
    """CHK-IMPORT-30 / CHK-OUT-03: 2 to 8 tiers."""
    raw = with_outcomes(lantern())
    raw["resolution"]["outcomes"]["tiers"] = MARGIN_TIERS[-1:]
    assert ["$.resolution.outcomes.tiers"] == paths(raw)


def test_nine_tiers_are_too_many() -> None:
    """CHK-IMPORT-30 / CHK-OUT-03: 2 to 8 tiers."""
    raw = with_outcomes(lantern())
    tiers = [{"id": f"t{i}", "label": f"T{i}", "atLeast": 10 - i, "success": i < 4}
             for i in range(8)]
    raw["resolution"]["outcomes"]["tiers"] = [*tiers, {"id": "last", "label": "Last"}]
    assert ["$.resolution.outcomes.tiers"] == paths(raw)


def test_at_least_not_strictly_decreasing() -> None:
    """CHK-IMPORT-31 / CHK-OUT-04: each atLeast lower than the tier above."""
    raw = with_outcomes(lantern())
    tier(raw, "success")["atLeast"] = 10
    assert [row_path(raw, "$.resolution.outcomes.tiers[success].atLeast")] == paths(raw)


def test_last_tier_with_at_least() -> None:
    """CHK-IMPORT-31: the last tier catches everything below and has no atLeast."""
    raw = with_outcomes(lantern())
    raw["resolution"]["outcomes"]["tiers"][3]["atLeast"] = -20
    assert ["$.resolution.outcomes.tiers[3].atLeast"] == paths(raw)


def test_earlier_tier_without_at_least() -> None:
    """CHK-IMPORT-31: every number-read tier but the last needs atLeast."""
    raw = with_outcomes(lantern())
    del tier(raw, "success")["atLeast"]
    assert [row_path(raw, "$.resolution.outcomes.tiers[success]")] == paths(raw)


def test_no_failing_tier() -> None:
    """CHK-IMPORT-32 / CHK-OUT-05: at least one tier succeeds and one fails."""
    raw = with_outcomes(lantern())
    for tier in raw["resolution"]["outcomes"]["tiers"]:
        tier["success"] = True
    assert ["$.resolution.outcomes.tiers"] == paths(raw)


def test_tier_text_over_200_characters() -> None:
    """CHK-IMPORT-33 / CHK-OUT-06: a tier text is at most 200 characters."""
    raw = with_outcomes(lantern())
    tier(raw, "critical_success")["text"] = "x" * 201
    assert [row_path(raw, "$.resolution.outcomes.tiers[critical_success].text")] == paths(raw)


def test_on_tier_with_at_least() -> None:
    """CHK-IMPORT-34 / CHK-OUT-07: an on tier has no atLeast."""
    raw = ruleset_with(BLADES)
    tier(raw, "critical")["atLeast"] = 12
    assert [row_path(raw, "$.resolution.outcomes.tiers[critical].atLeast")] == paths(raw)


def test_critical_success_tier_that_fails() -> None:
    """CHK-IMPORT-34: an on: critical-success tier must be a success."""
    raw = ruleset_with(BLADES)
    tier(raw, "critical")["success"] = False
    assert [row_path(raw, "$.resolution.outcomes.tiers[critical].success")] == paths(raw)


def test_critical_failure_tier_that_succeeds() -> None:
    """CHK-IMPORT-34: an on: critical-failure tier is not a success."""
    raw = ruleset_with(CTHULHU)
    tier(raw, "fumble")["success"] = True
    assert [row_path(raw, "$.resolution.outcomes.tiers[fumble].success")] == paths(raw)


def test_two_tiers_on_the_same_critical() -> None:
    """CHK-IMPORT-34: at most one tier per on value."""
    raw = ruleset_with(CTHULHU)
    tiers = raw["resolution"]["outcomes"]["tiers"]
    tiers.insert(5, {"id": "fumble_too", "label": "Fumble too", "on": "critical-failure"})
    assert ["$.resolution.outcomes.tiers[6].on"] == paths(raw)


def test_shift_on_two_dice() -> None:
    """CHK-IMPORT-35 / CHK-OUT-08: naturals shift needs a single die."""
    assert ["$.resolution.outcomes.naturals"] == paths(with_outcomes(lantern(), naturals="shift"))


def test_shift_with_resolution_naturals_set() -> None:
    """CHK-IMPORT-35 / SPEC §10: with shift, resolution.naturals must be none for both."""
    raw = with_outcomes(tidemark(), naturals="shift")
    raw["resolution"]["naturals"] = {"check": "none", "save": "both"}
    assert ["$.resolution.naturals"] == paths(raw)


def test_shift_on_a_pool() -> None:
    """CHK-IMPORT-35: a pool has no single die to shift by."""
    raw = with_outcomes(cinder(), naturals="shift")
    del raw["resolution"]["exceptional"]
    assert ["$.resolution.outcomes.naturals"] == paths(raw)


def test_fraction_outside_roll_against() -> None:
    """CHK-IMPORT-21 / CHK-AGAINST-10: by fraction only on an at-most roll-against."""
    assert ["$.resolution.outcomes.by"] == paths(with_outcomes(lantern(), by="fraction"))


def test_fraction_on_an_at_least_roll() -> None:
    """CHK-IMPORT-21: by fraction is refused on an at-least roll."""
    raw = ruleset_with(CTHULHU)
    raw["resolution"]["against"] = "at-least"
    assert ["$.resolution.outcomes.by"] == paths(raw)


# --- several problems at once -----------------------------------------------------------------


def test_every_problem_is_listed() -> None:
    """SPEC §8: a bad ruleset is refused whole, with every problem and its path."""
    raw = with_outcomes(lantern(), by="fraction")
    raw["resolution"]["naturals"] = "both"
    raw["resolution"]["spend"] = [{"pool": "pluck", "dice": 1}]
    raw["resolution"]["penaltyFrom"] = "heat"
    raw["resolution"]["adjust"][0]["abilities"] = ["charm"]
    with pytest.raises(RulesetError) as caught:
        load_ruleset(raw)
    assert {"$.resolution.naturals", "$.resolution.spend", "$.resolution.penaltyFrom",
            "$.resolution.adjust[0].abilities[0]", "$.resolution.outcomes.by"} == \
        {p.path for p in caught.value.problems}


def test_every_shape_problem_is_listed() -> None:
    """SPEC §8: shape errors in different blocks are all reported, not just the first."""
    raw = lantern()
    raw["resolution"]["dice"]["sides"] = 1
    raw["resolution"]["advantage"] = "yes"
    raw["version"] = 0
    raw["colour"] = "red"
    assert ["$.version", "$.resolution.dice.sides", "$.resolution.advantage", "$.colour"] == \
        paths(raw)


# --- the other kinds: cheap CHK-IMPORT rules enforced now -------------------------------------


@pytest.mark.parametrize("example", [BLADES, CTHULHU, GENESYS], ids=["blades", "coc", "genesys"])
def test_reference_examples_of_the_other_kinds_load(example: Raw) -> None:
    """CHK-HIGH / CHK-AGAINST / CHK-SYM: the page's reference resolutions load."""
    assert [] == paths(ruleset_with(example))


@pytest.mark.parametrize(("change", "path"), [
    ({"die": {"sides": 101}}, "$.resolution.die.sides"),                   # CHK-IMPORT-04
    ({"pool": {"min": 1, "max": 101}}, "$.resolution.pool.max"),           # CHK-IMPORT-05
    ({"double": {"from": 8, "min": 9}}, "$.resolution.double.from"),       # CHK-IMPORT-06
    ({"cancel": {"upTo": 5}}, "$.resolution.cancel.upTo"),                 # CHK-IMPORT-07
    ({"double": {"from": 11}}, "$.resolution.double.from"),                # CHK-IMPORT-08
    ({"reroll": [{"id": "careful", "upTo": 10}]}, "$.resolution.reroll[0].upTo"),  # CHK-IMPORT-09
    ({"botch": {"upTo": 1, "rule": "always"}}, "$.resolution.botch.rule"),  # CHK-IMPORT-12
    ({"double": {}}, "$.resolution.double"),                               # CHK-IMPORT-12
])
def test_pool_rules_that_could_never_trigger(change: Raw, path: str) -> None:
    """CHK-IMPORT-04..09, 12: pool rules on faces the die lacks or that can never apply.

    ``double`` rather than ``explode`` for the rule faces, as in the tests of the peer's files,
    where breaking explode would also put a charm's explode out of bounds."""
    raw = cinder()
    raw["resolution"].update(change)
    assert [path] == paths(raw)


def test_pool_rung_target_outside_the_target_range() -> None:
    """CHK-IMPORT-10 / CHK-POOL-16: a rung target within target.min..max."""
    raw = cinder()
    raw["resolution"]["difficultyLadder"][2]["target"] = 10
    assert ["$.resolution.difficultyLadder[2].target"] == paths(raw)


def test_pool_rung_target_when_the_target_is_fixed() -> None:
    """CHK-IMPORT-10: no rung target when target.min = target.max."""
    raw = cinder()
    raw["resolution"]["target"] = {"default": 7, "min": 7, "max": 7}
    assert ["$.resolution.difficultyLadder[0].target",
            "$.resolution.difficultyLadder[2].target"] == paths(raw)


def test_skill_in_two_stances() -> None:
    """CHK-IMPORT-11 / CHK-POOL-18: a skill belongs to at most one stance."""
    raw = cinder()
    raw["resolution"]["stances"] = [
        {"id": "lasers", "label": "Lasers", "count": "below", "skills": ["douse"]},
        {"id": "feelings", "label": "Feelings", "count": "above", "skills": ["climb", "douse"]}]
    assert ["$.resolution.stances[1].skills[1]"] == paths(raw)


@pytest.mark.parametrize(("entry", "path"), [
    ({"pool": "gold", "successes": 1}, "$.resolution.spend[0].pool"),  # CHK-IMPORT-40
    ({"pool": "ember", "amount": 1}, "$.resolution.spend[0]"),           # CHK-IMPORT-41
    ({"pool": "ember", "successes": 1, "perCheck": 11}, "$.resolution.spend[0].perCheck"),
    ({"pool": "ember", "reroll": {"upTo": 10}}, "$.resolution.spend[0].reroll.upTo"),
])
def test_bad_spend_entry(entry: Raw, path: str) -> None:
    """CHK-IMPORT-40..42: a spend names a live pool, buys something, perCheck 1..10 or a ref."""
    raw = cinder()
    raw["resolution"]["spend"] = [entry]
    assert [path] == paths(raw)


def test_two_spend_entries_on_one_pool() -> None:
    """CHK-IMPORT-44 / CHK-SPEND-10: no two entries name the same pool."""
    raw = cinder()
    raw["resolution"]["spend"].append({"pool": "ember", "dice": 1})
    assert ["$.resolution.spend[1].pool"] == paths(raw)


def test_dice_highest_spend_buying_successes() -> None:
    """CHK-IMPORT-43 / CHK-SPEND-09: dice-highest may buy only dice."""
    raw = ruleset_with(BLADES)
    raw["resolution"]["spend"] = [{"pool": "pluck", "successes": 1}]
    assert ["$.resolution.spend[0].successes"] == paths(raw)


def test_dice_highest_with_combat() -> None:
    """CHK-IMPORT-17 / CHK-HIGH-15: dice-highest has no combat of its own."""
    raw = ruleset_with(BLADES)
    raw["combat"] = {"kind": "dice-pool"}
    assert ["$.combat"] == paths(raw)


def test_dice_highest_keep_four() -> None:
    """CHK-IMPORT-13: keep is 1..3."""
    raw = ruleset_with(BLADES)
    raw["resolution"]["keep"] = 4
    assert ["$.resolution.keep"] == paths(raw)


def test_tens_on_three_d6() -> None:
    """CHK-IMPORT-20 / CHK-AGAINST-09: tens needs a single d100."""
    raw = ruleset_with(CTHULHU)
    raw["resolution"]["dice"] = {"count": 3, "sides": 6}
    # Criticals a 3d6 can roll (GURPS), so only tens is at fault (CHK-AGAINST-06).
    raw["resolution"]["criticalSuccess"] = [{"from": 3, "to": 4}]
    raw["resolution"]["criticalFailure"] = [{"from": 18}]
    assert ["$.resolution.tens"] == paths(raw)


def test_past_target_in_a_critical_success() -> None:
    """CHK-IMPORT-19: pastTarget belongs to critical failures only."""
    raw = ruleset_with(CTHULHU)
    raw["resolution"]["criticalSuccess"][0]["pastTarget"] = 10
    assert ["$.resolution.criticalSuccess[0].pastTarget"] == paths(raw)


def test_symbol_counts_chain() -> None:
    """CHK-IMPORT-23 / CHK-SYM-02: counts may not name a symbol that counts."""
    raw = ruleset_with(GENESYS)
    by_id(raw["resolution"]["symbols"], "t")["counts"] = "d"
    assert [row_path(raw, "$.resolution.symbols[t].counts")] == paths(raw)


def test_unknown_symbol_on_a_face() -> None:
    """CHK-IMPORT-26 / CHK-SYM-04: every face symbol is declared."""
    raw = ruleset_with(GENESYS)
    by_id(raw["resolution"]["dice"], "ability")["faces"][1] = ["x"]
    assert [row_path(raw, "$.resolution.dice[ability].faces[1][0]")] == paths(raw)


def test_own_upgrade_without_pool_upgrade() -> None:
    """CHK-IMPORT-28 / CHK-SYM-12: allowOwnUpgrade needs pool.upgrade."""
    raw = ruleset_with(GENESYS)
    raw["resolution"]["allowOwnUpgrade"] = True
    del raw["resolution"]["pool"]["upgrade"]
    assert ["$.resolution.allowOwnUpgrade"] == paths(raw)


# --- overrides (CHK-OVR, CHK-IMPORT-36..39) ---------------------------------------------------

THIEF: Raw = {"id": "thief", "label": "Thief skills", "skills": ["open_locks"],
              "set": {"dice": {"count": 1, "sides": 100}}}


def test_override_loads() -> None:
    """CHK-OVR-01/02: an override replacing the dice loads."""
    raw = ruleset_with(CTHULHU)
    raw["resolution"]["overrides"] = [THIEF]
    assert [] == paths(raw)


def test_override_naming_no_check() -> None:
    """CHK-IMPORT-36: an override names skills, saves or abilities."""
    raw = ruleset_with(CTHULHU)
    raw["resolution"]["overrides"] = [{**THIEF, "skills": []}]
    assert ["$.resolution.overrides[0]"] == paths(raw)


def test_override_setting_a_locked_key() -> None:
    """CHK-IMPORT-37 / CHK-OVR-04: set may not touch the ladder."""
    raw = ruleset_with(CTHULHU)
    raw["resolution"]["overrides"] = [{**THIEF, "set": {"difficultyLadder": []}}]
    assert ["$.resolution.overrides[0].set.difficultyLadder"] == paths(raw)


def test_override_producing_a_bad_resolution() -> None:
    """CHK-IMPORT-38 / CHK-OVR-05: tens on the overridden d6 is refused for those checks."""
    raw = ruleset_with(CTHULHU)
    raw["resolution"]["overrides"] = [{**THIEF, "set": {"dice": {"count": 1, "sides": 6}}}]
    problems = validate_ruleset(raw)
    assert ["$.resolution.overrides[0].set"] == [p.path for p in problems]
    assert "$.resolution.tens" in problems[0].message


def test_check_in_two_unconditional_overrides() -> None:
    """CHK-IMPORT-39 / CHK-OVR-08: a check in at most one override without when."""
    raw = ruleset_with(CTHULHU)
    raw["resolution"]["overrides"] = [THIEF, {**THIEF, "id": "again"}]
    assert ["$.resolution.overrides[1].skills[0]"] == paths(raw)


# --- numbers a game can carry -----------------------------------------------------------------


def test_whole_number_past_64_bits_is_refused_at_its_path() -> None:
    """SHEET-IMPORT-01: a whole number past 64 bits, where no range applies (a ``const``, the
    free ``gm`` block), refuses the file at its path. It loaded, and creating a game on it then
    raised ``TypeError: Integer exceeds 64-bit range`` (the game's ruleset is digested as JSON)."""
    raw = bundled_json("hearth-and-haul")
    by_id(raw["sheet"]["derived"], "load")["of"][0] = {"const": 2**64}
    raw["gm"] = {"note": -(2**63) - 1, "fine": [2**63 - 1, -(2**63)]}
    assert [row_path(raw, "$.sheet.derived[load].of[0].const"), "$.gm.note"] == paths(raw)
