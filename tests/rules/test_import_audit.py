"""Refusals at import that the first pass left to the models or left out (checks.md §13).

Each test breaks one thing in a parsed copy of a real file or of a reference resolution of the
digest and asserts the exact list of JSON paths reported, so nothing else is blamed.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from middleware.rules import validate_ruleset
from tests.conftest import compat_json
from tests.rules.kind_examples import BLADES, CTHULHU, GENESYS, ruleset_with
from tests.rulesets import by_id, by_ids, entry, row_path

Raw = dict[str, Any]

EXWOD: Raw = {
    "kind": "dice-pool",
    "die": {"sides": 10},
    "abilityModifier": {"op": "identity"},
    "proficiencyTiers": [{"id": "rating_0", "label": "Untried"},
                         {"id": "rating_1", "label": "Shown once", "flat": 1}],
    "pool": {"min": 1, "max": 15, "abilityPlusAbility": True},
    "target": {"default": 7, "min": 5, "max": 9},
    "explode": {"from": 10, "min": 8},
    "cancel": {"upTo": 1},
    "botch": {"upTo": 1},
    "exceptional": {"successes": 5},
    "situationalDice": {"min": -3, "max": 3},
    "reroll": [{"id": "careful", "upTo": 6, "mode": "once"}],
    "difficultyLadder": [{"label": "Plain work", "successes": 1, "target": 6},
                         {"label": "Grim", "successes": 3, "target": 8}],
}
"""The digest's dice-pool reference resolution (checks.md §3)."""

CHARM = "<charms/grave-sight>.mechanics.check"
"""Gravewatch's "Grave sight" charm: ``{"explode": 8}``."""


def paths(raw: Raw) -> list[str]:
    """The JSON paths the loader blames, catalog entries named by id."""
    return [by_ids(raw, p.path) for p in validate_ruleset(raw)]


def grave() -> Raw:
    raw: Raw = compat_json("gravewatch.json")
    return raw


def kind(example: Raw, **changes: Any) -> Raw:
    """Lantern and Ledger's sheet with a reference resolution, ``changes`` applied at its top level."""
    raw = ruleset_with(example)
    raw["resolution"].update(copy.deepcopy(changes))
    return raw


# --- dice-pool: the rest of CHK-IMPORT-12 ----------------------------------------------------


def test_reference_pool_loads() -> None:
    """CHK-POOL: the digest's reference pool loads (the checks below break one thing each)."""
    assert [] == paths(kind(EXWOD))


def test_botch_rule_other_than_the_two() -> None:
    """CHK-IMPORT-12 / CHK-POOL-11: botch.rule is noSuccesses or halfOrMore."""
    assert ["$.resolution.botch.rule"] == paths(kind(EXWOD, botch={"upTo": 1, "rule": "often"}))


@pytest.mark.parametrize(("successes", "change", "ok"), [
    (30, {}, True),
    (31, {}, False),
    (60, {"double": {"from": 10}}, True),
    (61, {"double": {"from": 10}}, False),
    (15, {"explode": None}, True),
    (16, {"explode": None}, False),
])
def test_exceptional_beyond_what_a_roll_can_count(successes: int, change: Raw, ok: bool) -> None:
    """CHK-IMPORT-12 / CHK-POOL-12/20: ``exceptional`` needs no more successes than a roll can
    count: pool.max 15, doubled with explode (30), doubled again with double (60)."""
    raw = kind(EXWOD, exceptional={"successes": successes}, **change)
    assert ([] if ok else ["$.resolution.exceptional.successes"]) == paths(raw)


def test_rung_needing_more_successes_than_a_roll_counts() -> None:
    """CHK-IMPORT-12 / CHK-POOL-20 derived: the reference pool counts 1..30; a rung needing 31
    could never be met."""
    raw = kind(EXWOD)
    raw["resolution"]["difficultyLadder"][1]["successes"] = 31
    assert ["$.resolution.difficultyLadder[1].successes"] == paths(raw)


def test_stance_naming_a_skill_the_sheet_lacks() -> None:
    """CHK-IMPORT-12 / CHK-POOL-18: a stance over a skill no sheet has could never apply."""
    raw = kind(EXWOD, stances=[{"id": "lasers", "label": "Lasers", "count": "below",
                                "skills": ["lore", "laser_work"]}])
    assert ["$.resolution.stances[0].skills[1]"] == paths(raw)


def test_target_from_on_a_fixed_target() -> None:
    """CHK-IMPORT-12 / CHK-POOL-17: ``target.from`` is clamped to min..max; on a fixed target it
    could never move anything."""
    raw = kind(EXWOD, target={"default": 7, "min": 7, "max": 7, "from": {"field": "standing"}},
               difficultyLadder=[{"label": "Plain work", "successes": 1}])
    assert ["$.resolution.target.from"] == paths(raw)


def test_situational_dice_of_nothing() -> None:
    """CHK-IMPORT-12 / CHK-POOL-13: situationalDice 0..0 would offer ``bonus=`` and never let it
    add or remove a die."""
    assert ["$.resolution.situationalDice"] == \
        paths(kind(EXWOD, situationalDice={"min": 0, "max": 0}))


# --- charms against the ruleset's limits (CHK-CHARM, CHK-IMPORT-08/12/45/46) -----------------


def test_gravewatch_charms_load() -> None:
    """CHK-CHARM-02/06: Steady hand (reroll 1s, +1 success) and Grave sight (explode 8) load."""
    assert [] == paths(grave())


@pytest.mark.parametrize(("check", "path"), [
    ({"threshold": 10}, f"{CHARM}.threshold"),   # CHK-CHARM-05: target 5..9
    ({"threshold": 4}, f"{CHARM}.threshold"),
    ({"explode": 7}, f"{CHARM}.explode"),        # CHK-CHARM-06: explode.min is 8
    ({"explode": 11}, f"{CHARM}.explode"),       # CHK-IMPORT-08: no 11 on a d10
    ({"double": 9}, f"{CHARM}.double"),          # no double rule to move
    ({"dice": 0}, f"{CHARM}.dice"),              # CHK-IMPORT-45: buys nothing
])
def test_charm_outside_the_ruleset_limits(check: Raw, path: str) -> None:
    """CHK-IMPORT-08/12 / CHK-CHARM-05/06: a charm's threshold stays in target.min..max, its
    explode or double moves a rule that has a ``min``, within min..die.sides."""
    raw = grave()
    entry(raw, "charms/grave-sight")["mechanics"]["check"] = check
    assert [path] == paths(raw)


def test_charm_explode_when_the_rule_has_no_min() -> None:
    """CHK-CHARM-06: "requires explode.min <= 8": without a min no check may move explode."""
    raw = grave()
    del raw["resolution"]["explode"]["min"]
    assert [f"{CHARM}.explode"] == paths(raw)


def test_charm_that_changes_nothing() -> None:
    """CHK-IMPORT-45 / CHK-CHARM-07: a mechanics.check with none of the six keys."""
    raw = grave()
    entry(raw, "charms/grave-sight")["mechanics"]["check"] = {}
    assert [CHARM] == paths(raw)


def test_charm_reroll_up_to_the_highest_face() -> None:
    """CHK-IMPORT-46 / CHK-CHARM-02: a charm's reroll.upTo must be below the die's 10."""
    raw = grave()
    entry(raw, "charms/steady-hand")["mechanics"]["check"]["reroll"]["upTo"] = 10
    assert ["<charms/steady-hand>.mechanics.check.reroll.upTo"] == paths(raw)


# --- dice-highest (CHK-IMPORT-14..16, CHK-HIGH-05/13) ------------------------------------------


@pytest.mark.parametrize("dark_max", [0, 11])
def test_dark_max_outside_one_to_ten(dark_max: int) -> None:
    """CHK-IMPORT-14 / CHK-HIGH-06: dark.max is 1..10."""
    raw = kind(BLADES, dark={"label": "Dark", "max": dark_max})
    assert ["$.resolution.dark.max"] == paths(raw)


def test_pool_allowing_more_than_twenty_dice() -> None:
    """CHK-IMPORT-15 / CHK-HIGH-01: at most 20 dice."""
    assert ["$.resolution.pool.max"] == paths(kind(BLADES, pool={"min": 0, "max": 21}))


@pytest.mark.parametrize(("change", "path"), [
    ({"zeroDice": "reroll"}, "$.resolution.zeroDice"),
    ({"dark": {"label": "Dark", "max": 1, "outcome": "dark"}}, "$.resolution.dark.outcome"),
])
def test_zero_dice_or_dark_outcome_unknown(change: Raw, path: str) -> None:
    """CHK-IMPORT-16 / CHK-HIGH-04/07: zeroDice lowest-of-two or fail; dark.outcome all or light."""
    assert [path] == paths(kind(BLADES, **change))


@pytest.mark.parametrize(("keep", "dc", "ok"), [(1, 6, True), (1, 7, False), (2, 12, True),
                                                (2, 13, False), (1, 0, False)])
def test_highest_rung_dc_within_what_the_kept_dice_reach(keep: int, dc: int, ok: bool) -> None:
    """CHK-HIGH-13 derived: keep 1 on d6 → dc 1..6; keep 2 → 1..12; a rung outside is refused."""
    raw = kind(BLADES, keep=keep)
    raw["resolution"]["difficultyLadder"][1]["dc"] = dc
    assert ([] if ok else ["$.resolution.difficultyLadder[1].dc"]) == paths(raw)


@pytest.mark.parametrize(("change", "ok"), [
    ({"critical": {"count": 7}}, False),
    ({"critical": {"count": 7}, "dark": {"label": "Dark", "max": 1}}, True),
    ({"critical": {"count": 7}, "dark": {"label": "Dark", "max": 1, "outcome": "light"}}, False),
])
def test_critical_needing_more_dice_than_a_check_throws(change: Raw, ok: bool) -> None:
    """CHK-HIGH-05/08: seven sixes cannot show on at most six dice; a dark die read with the
    others (``"all"``) makes seven, one read apart (``"light"``) does not."""
    assert ([] if ok else ["$.resolution.critical.count"]) == paths(kind(BLADES, **change))


# --- roll-against (CHK-IMPORT-18/19, CHK-AGAINST-06/07) ----------------------------------------


@pytest.mark.parametrize("divide", [1, 11])
def test_rung_divide_outside_two_to_ten(divide: int) -> None:
    """CHK-IMPORT-18 / CHK-AGAINST-04: a rung's divide is 2..10."""
    raw = kind(CTHULHU)
    raw["resolution"]["difficultyLadder"][1]["divide"] = divide
    assert ["$.resolution.difficultyLadder[1].divide"] == paths(raw)


@pytest.mark.parametrize("key", ["criticalSuccess", "criticalFailure"])
def test_more_than_six_critical_rules(key: str) -> None:
    """CHK-IMPORT-19 / CHK-AGAINST-06: at most six rules of each."""
    raw = kind(CTHULHU, **{key: [{"from": n, "to": n} for n in range(1, 8)]})
    assert [f"$.resolution.{key}"] == paths(raw)


def test_critical_rule_no_roll_reaches() -> None:
    """CHK-AGAINST-06: a 101 is not on a d100, so that rule could never trigger."""
    raw = kind(CTHULHU)
    raw["resolution"]["criticalFailure"].append({"from": 101})
    assert ["$.resolution.criticalFailure[2]"] == paths(raw)


def test_when_target_no_target_satisfies() -> None:
    """CHK-AGAINST-07: ``whenTarget`` at least 50 and below 50 matches no target."""
    raw = kind(CTHULHU)
    raw["resolution"]["criticalFailure"][1]["whenTarget"] = {"atLeast": 50, "below": 50}
    assert ["$.resolution.criticalFailure[1].whenTarget"] == paths(raw)


# --- symbol-pool (CHK-IMPORT-22, 24, 25, 27, 29, CHK-SYM-08/14/15) -----------------------------


def test_eleven_symbols() -> None:
    """CHK-IMPORT-22 / CHK-SYM-01: 2 to 10 symbols."""
    extra = [{"id": f"x{i}", "label": f"Extra {i}"} for i in range(5)]
    assert ["$.resolution.symbols"] == paths(kind(GENESYS, symbols=[*GENESYS["symbols"], *extra]))


def test_one_symbol() -> None:
    """CHK-IMPORT-22: fewer than 2 symbols is refused."""
    assert ["$.resolution.symbols"] == paths(kind(GENESYS, symbols=GENESYS["symbols"][:1]))


def test_symbol_with_two_cancels_partners() -> None:
    """CHK-IMPORT-24 / CHK-SYM-03: with Threat cancelling Success, Success has two partners
    (Failure and Threat); the problem is reported on Success."""
    raw = kind(GENESYS)
    by_id(raw["resolution"]["symbols"], "h")["cancels"] = "s"
    assert [row_path(raw, "$.resolution.symbols[s].cancels")] == paths(raw)


@pytest.mark.parametrize(("change", "path"), [
    (lambda r: r["dice"].__setitem__(slice(1, None), []), "$.resolution.dice"),
    (lambda r: r["dice"].extend(copy.deepcopy(r["dice"][:3])), "$.resolution.dice"),
    (lambda r: by_id(r["dice"], "boost").update(faces=[[]]), "$.resolution.dice[boost].faces"),
    (lambda r: by_id(r["dice"], "boost").update(faces=[[]] * 21),
     "$.resolution.dice[boost].faces"),
    (lambda r: by_id(r["dice"], "ability")["faces"][3].extend(["s", "a"]),
     "$.resolution.dice[ability].faces[3]"),
])
def test_dice_and_faces_out_of_range(change: Any, path: str) -> None:
    """CHK-IMPORT-25 / CHK-SYM-04: 2 to 8 dice; 2 to 20 faces a die; at most 3 ids a face."""
    raw = kind(GENESYS)
    change(raw["resolution"])
    assert [row_path(raw, path)] == paths(raw)


@pytest.mark.parametrize(("block", "value"), [("pool", 13), ("difficulty", 13), ("boost", 7),
                                              ("setback", 7)])
def test_symbol_maxima(block: str, value: int) -> None:
    """CHK-IMPORT-27 / CHK-SYM-05/08/10: pool and difficulty at most 12, boost and setback 6."""
    raw = kind(GENESYS)
    raw["resolution"][block]["max"] = value
    assert [f"$.resolution.{block}.max"] == paths(raw)


def test_symbol_pool_with_another_kind_of_combat() -> None:
    """CHK-IMPORT-29 / CHK-SYM-18: a symbol-pool ruleset's combat is of kind symbol-pool."""
    raw = kind(GENESYS)
    raw["combat"] = {"kind": "dice-sum"}
    assert ["$.combat.kind"] == paths(raw)


@pytest.mark.parametrize(("dc", "ok"), [(0, True), (5, True), (6, False)])
def test_symbol_rung_dc_within_the_difficulty_dice(dc: int, ok: bool) -> None:
    """CHK-SYM-08 derived: 0..difficulty.max (5) opposing dice; a rung of 6 is refused."""
    raw = kind(GENESYS)
    raw["resolution"]["difficultyLadder"][2]["dc"] = dc
    assert ([] if ok else ["$.resolution.difficultyLadder[2].dc"]) == paths(raw)


@pytest.mark.parametrize(("change", "path"), [
    ({"criticalSuccess": "x"}, "$.resolution.criticalSuccess"),
    ({"success": {"symbol": "x"}}, "$.resolution.success.symbol"),
])
def test_symbol_no_face_can_show(change: Raw, path: str) -> None:
    """CHK-SYM-14/15: a success or critical symbol that no face shows (nor counts) could never
    count; a symbol only counted (Success from Triumph) is enough."""
    raw = kind(GENESYS, symbols=[*GENESYS["symbols"], {"id": "x", "label": "Omen"}], **change)
    assert [path] == paths(raw)


def test_success_symbol_reached_only_by_counts_loads() -> None:
    """CHK-SYM-02/14: Success shows on no face but Triumph counts one: the rule can trigger."""
    raw = kind(GENESYS)
    for die in raw["resolution"]["dice"]:
        die["faces"] = [[s for s in face if s != "s"] for face in die["faces"]]
    assert [] == paths(raw)


# --- overrides produce the same checks (CHK-IMPORT-38) ------------------------------------------


def test_override_setting_a_rule_no_roll_reaches() -> None:
    """CHK-IMPORT-38 / CHK-OVR-05: an override's own critical rule must be reachable on its dice."""
    raw = kind(CTHULHU, overrides=[{"id": "doors", "label": "Open doors", "skills": ["scrap"],
                                    "set": {"criticalSuccess": [{"from": 101}]}}])
    assert ["$.resolution.overrides[0].set.criticalSuccess[0]"] == paths(raw)


def test_override_to_a_d6_keeps_base_criticals_it_does_not_name() -> None:
    """CHK-OVR-02 derived (our reading of CHK-IMPORT-38): X-in-6 on a d100 roll-under loads; the
    d100 criticals simply cannot happen on those checks."""
    raw = kind(CTHULHU, overrides=[{"id": "x_in_6", "label": "X-in-6", "skills": ["scrap"],
                                    "set": {"dice": {"count": 1, "sides": 6}}}])
    del raw["resolution"]["tens"]
    assert [] == paths(raw)


# --- ladders swapped in by layers (CHK-IMPORT-10, CHK-COMMON-08) --------------------------------


def test_compat_layers_load() -> None:
    """CHK-POOL-16 / CHK-SUM-10: Gravewatch's pool-shaped and Ember Roads' dc-shaped layer
    ladders load."""
    assert ([], []) == (paths(grave()), paths(compat_json("ember-roads.json")))


def test_layer_rung_target_outside_the_target_range() -> None:
    """CHK-IMPORT-10 in a layer: the long night's rung target must be in target 5..9."""
    raw = grave()
    by_id(raw["layers"], "long_night")["difficultyLadder"][2]["target"] = 10
    assert [row_path(raw, "$.layers[long_night].difficultyLadder[2].target")] == paths(raw)


def test_layer_rung_needing_more_successes_than_a_roll_counts() -> None:
    """CHK-IMPORT-12 / CHK-POOL-20 in a layer: Gravewatch counts at most 30 successes."""
    raw = grave()
    by_id(raw["layers"], "long_night")["difficultyLadder"][3]["successes"] = 31
    assert [row_path(raw, "$.layers[long_night].difficultyLadder[3].successes")] == paths(raw)


def test_layer_ladder_in_another_kinds_shape() -> None:
    """CHK-COMMON-08: a layer swaps the ladder in its ruleset's own kind: a dc rung in a pool
    ruleset lacks successes and names an unknown key."""
    raw = grave()
    by_id(raw["layers"], "long_night")["difficultyLadder"][0] = {"label": "Plain work", "dc": 7}
    rung = row_path(raw, "$.layers[long_night].difficultyLadder[0]")
    assert [f"{rung}.successes", f"{rung}.dc"] == paths(raw)


@pytest.mark.parametrize("ladder", [[], "harsher", [{"label": "Easy", "dc": 7}] * 41])
def test_layer_ladder_that_is_no_ladder(ladder: Any) -> None:
    """CHK-COMMON-08: a layer's ladder is a list of 1 to 40 rungs."""
    raw: Raw = compat_json("ember-roads.json")
    by_id(raw["layers"], "hard_winter")["difficultyLadder"] = ladder
    assert [row_path(raw, "$.layers[hard_winter].difficultyLadder")] == paths(raw)


def test_layer_rung_divide_and_dc_ranges() -> None:
    """CHK-IMPORT-18 / CHK-HIGH-13 in layers: a roll-against rung divides by 2..10; a Blades rung
    stays within 1..6."""
    coc = kind(CTHULHU)
    coc["layers"] = [{"id": "pulp", "label": "Pulp", "difficultyLadder": [
        {"label": "Hard", "dc": 0, "divide": 11}]}]
    blades = kind(BLADES)
    blades["layers"] = [{"id": "grim", "label": "Grim", "difficultyLadder": [
        {"label": "Full", "dc": 7}]}]
    assert (["$.layers[0].difficultyLadder[0].divide"], ["$.layers[0].difficultyLadder[0].dc"]) \
        == (paths(coc), paths(blades))
