"""dice-pool: the arithmetic with scripted dice, then end to end on Gravewatch (checks.md §3,
CHK-OUT for pools, CHK-REC for pools, SHEET-TRN-10)."""

from __future__ import annotations

from typing import Any

from middleware.dice import Dice
from middleware.resolve.checks.dice_pool.rules import (
    MAX_REROLLS,
    PoolCheck,
    PoolRoll,
    Reroll,
    pool_verdict,
    roll_pool,
)
from middleware.resolve.checks.outcome import Outcomes, Tier
from middleware.rules.load import load_ruleset
from tests.checks.pool_helpers import FIREFIGHTER, WARDEN, attrs_of, bram, cinder, gravewatch, member, resolve
from tests.conftest import compat_json
from tests.rulesets import bundled_json, entry

REFERENCE = PoolCheck(sides=10, dice=5, target=7, needed=2, explode=10, explode_cap=15,
                      cancel=1, botch=1, exceptional=5)
"""The digest's reference pool (checks.md §3) at its default target."""

LASERS_TIERS = Outcomes(by="total", tiers=(
    Tier("critical", "Critical success", True, True, at_least=3),
    Tier("well", "You do it well", True, at_least=2),
    Tier("barely", "You barely manage", True, at_least=1),
    Tier("miss", "Miss", False)))
"""CHK-OUT-12: the Lasers & Feelings tiers, read by total."""


def thrown(check: PoolCheck, *faces: int) -> PoolRoll:
    dice = Dice(0, script=faces)
    result = roll_pool(check, dice)
    assert 0 == dice.script_left
    return result


def with_(check: PoolCheck, **changes: Any) -> PoolCheck:
    return PoolCheck(**{**{f: getattr(check, f) for f in PoolCheck.__dataclass_fields__},
                        **changes})


# --- the arithmetic (pool_rules) -------------------------------------------------------------


def test_reference_example_counts_explodes_and_cancels() -> None:
    """CHK-POOL-26 derived: 10, 8, 7, 3, 1 at target 7 → 3 successes; the 10 explodes (4); the 1
    cancels one → 2 net vs dc 2: success with margin 0."""
    result = thrown(REFERENCE, 10, 8, 7, 3, 1, 4)
    verdict = pool_verdict(REFERENCE, result, None)
    assert ((10, 8, 7, 3, 1, 4), 3, 2, 1) == (result.rolls, result.successes, result.net,
                                               result.exploded)
    assert (True, None) == (verdict.success, verdict.critical)


def test_a_cancelled_only_success_fails_but_is_no_botch() -> None:
    """CHK-POOL-09/10 derived: 7, 1, 3 → one success cancelled by the 1 → 0 net, plain failure."""
    check = with_(REFERENCE, dice=3, needed=1)
    result = thrown(check, 7, 1, 3)
    assert (0, False, False) == (result.net, result.botch, pool_verdict(check, result,
                                                                          None).success)


def test_no_success_and_a_one_is_a_botch() -> None:
    """CHK-POOL-10 derived: 1, 3, 4, 2, 5 → no success and a 1 → critical failure (botch)."""
    result = thrown(REFERENCE, 1, 3, 4, 2, 5)
    verdict = pool_verdict(REFERENCE, result, None)
    assert (True, False, "failure") == (result.botch, verdict.success, verdict.critical)


def test_half_or_more_botch_rule() -> None:
    """CHK-POOL-11 derived (d10, target 7, botch upTo 1 halfOrMore, no cancel): 1, 1, 8, 3 →
    success stands with a complication; 1, 1, 4, 3 → botch; 1, 4, 3, 2 → plain failure."""
    check = PoolCheck(sides=10, dice=4, target=7, needed=1, botch=1, botch_rule="halfOrMore")
    stands, botched, plain = (thrown(check, 1, 1, 8, 3), thrown(check, 1, 1, 4, 3),
                              thrown(check, 1, 4, 3, 2))
    assert (1, False, True) == (stands.net, stands.botch, stands.complication)
    assert (True, False) == (botched.botch, botched.complication)
    assert (False, False, 0) == (plain.botch, plain.complication, plain.net)


def test_exceptional_makes_a_critical_success_without_tiers() -> None:
    """CHK-POOL-12 derived: 5 net successes on a passed check are critical; 4 are plain."""
    five = thrown(with_(REFERENCE, explode=None), 9, 9, 8, 7, 7)
    four = thrown(with_(REFERENCE, explode=None), 9, 9, 8, 7, 2)
    assert ("success", None) == (pool_verdict(REFERENCE, five, None).critical,
                                 pool_verdict(REFERENCE, four, None).critical)


def test_tiers_read_net_successes_and_a_botch_lands_in_the_worst() -> None:
    """CHK-OUT-02/11/12: by total, 2 successes → "You do it well"; a botch lands in the worst
    tier (no ``on`` tier here) and stays critical."""
    check = PoolCheck(sides=6, dice=3, target=4, needed=1, botch=1)
    well = pool_verdict(check, thrown(check, 5, 6, 2), LASERS_TIERS)
    botch = pool_verdict(check, thrown(check, 1, 2, 3), LASERS_TIERS)
    assert ("You do it well", True) == (well.outcome, well.success)
    assert ("Miss", "failure") == (botch.outcome, botch.critical)


def test_margin_tiers_read_net_minus_needed() -> None:
    """CHK-OUT-02: ``margin`` is net successes minus the successes needed (3 - 2 = 1)."""
    tiers = Outcomes(by="margin", tiers=(Tier("great", "Great", True, at_least=1),
                                          Tier("ok", "Ok", True, at_least=0),
                                          Tier("no", "No", False)))
    check = PoolCheck(sides=10, dice=3, target=7, needed=2)
    assert "Great" == pool_verdict(check, thrown(check, 7, 8, 9), tiers).outcome


def test_double_counts_high_faces_twice() -> None:
    """CHK-POOL-06: with ``double`` from 10, a 10 counts as two successes."""
    assert 3 == thrown(PoolCheck(sides=10, dice=2, target=7, double=10), 10, 7).net


def test_explosions_chain_and_stop_at_the_cap() -> None:
    """CHK-POOL-07: an exploding die throws one more, which may explode again; the extra dice
    stop at the cap (``pool.max``): with cap 2, three 10s add only two dice."""
    chained = thrown(PoolCheck(sides=10, dice=1, target=7, explode=10, explode_cap=15),
                     10, 10, 3)
    capped = thrown(PoolCheck(sides=10, dice=3, target=7, explode=10, explode_cap=2),
                    10, 10, 10, 10, 10)
    assert ((10, 10, 3), 2) == (chained.rolls, chained.net)
    assert (2, 5) == (capped.exploded, capped.net)


def test_free_reroll_once_keeps_the_new_faces() -> None:
    """CHK-POOL-14 derived: "careful" (upTo 6, once) on 3, 9, 6, 10 → the 3 and the 6 are thrown
    once more and their new faces kept, whatever they are."""
    check = PoolCheck(sides=10, dice=4, target=7, reroll=Reroll(6, "once", "careful"))
    result = thrown(check, 3, 9, 6, 10, 2, 8)
    assert ((2, 9, 8, 10), 2, 3) == (result.faces, result.rerolled, result.net)


def test_reroll_until_stops_after_a_hundred_rethrows() -> None:
    """CHK-POOL-14: ``until`` throws again until above upTo, but stops after 100 re-throws."""
    check = PoolCheck(sides=10, dice=2, target=7, reroll=Reroll(6, "until"))
    result = thrown(check, 1, 2, *([3] * MAX_REROLLS))
    assert (MAX_REROLLS, (3, 2)) == (result.rerolled, result.faces)


def test_one_reroll_per_check_reaches_more_faces_until_on_a_tie() -> None:
    """CHK-POOL-15: upTo 6 beats upTo 1; on the same upTo ``until`` beats ``once``."""
    careful, entry = Reroll(6, "once", "careful"), Reroll(1, "once")
    assert (True, False) == (careful.beats(entry), entry.beats(careful))
    assert (True, False) == (Reroll(6, "until").beats(careful), careful.beats(Reroll(6, "until")))


def test_stances_count_below_or_above_and_exact_dice() -> None:
    """CHK-POOL-18/19 derived (Number 4): Lasers (below) 2, 4, 6 → 2 successes, exact 1;
    Feelings (above) 5, 4, 1 → 2 successes, exact 1; 2 successes is "you do it well"."""
    lasers = PoolCheck(sides=6, dice=3, target=4, count="below", exact_counts=True)
    feelings = with_(lasers, count="above")
    below, above = thrown(lasers, 2, 4, 6), thrown(feelings, 5, 4, 1)
    assert (2, 1, 2, 1) == (below.net, below.exact, above.net, above.exact)
    assert "You do it well" == pool_verdict(lasers, below, LASERS_TIERS).outcome


def test_exact_that_does_not_count_is_still_reported() -> None:
    """CHK-POOL-19, Ambiguity 9: with ``counts: false`` the exact die counts nothing."""
    result = thrown(PoolCheck(sides=6, dice=2, target=4, exact_counts=False), 4, 5)
    assert (1, 1) == (result.net, result.exact)


def test_an_empty_pool_fails_without_a_throw() -> None:
    """CHK-POOL-03: a pool of 0 dice (``pool.min`` 0) fails without rolling."""
    result = thrown(PoolCheck(sides=10, dice=0, target=7), )
    assert ((), 0) == (result.rolls, result.net)


# --- end to end on the bundled Cinder Watch (Gravewatch where only it has the rule) ----------


def test_the_reference_check_rewrites_to_a_pool_record() -> None:
    """CHK-POOL-26, CHK-REC-01, SPEC §6: Douse dc 2, five dice 10, 8, 7, 3, 1 (+4 from the
    explosion) → 2 net successes, success; ``resolution="successes"``, the target as
    ``threshold``, the dice as ``pool``; the model's own results are discarded."""
    record, _ = resolve(cinder(), (member(FIREFIGHTER),), [10, 8, 7, 3, 1, 4], skill="Douse",
                        dc="2", rolls="9|9", total="9", result="critical_success")
    assert [("skill", "Douse"), ("dc", "2"), ("rolls", "10|8|7|3|1|4"), ("used", "3"),
            ("modifier", "-1"), ("total", "2"), ("result", "success"), ("mode", "normal"),
            ("resolution", "successes"), ("dice", "5d10"), ("threshold", "7"),
            ("pool", "5")] == record.tag_attrs()[:12]


def test_pool_size_follows_the_sheet_vectors() -> None:
    """CHK-POOL-01/04, SHEET-TRN-10: Bram's Dig throws 4 dice (5 − 1 wound); Nerve with Warmth
    (abilityPlusAbility) throws 3 and records ``with="Warmth"``; Wrestle untrained throws 1."""
    dig, _ = resolve(gravewatch(), (bram(),), [2, 2, 2, 2], skill="Dig", dc="1")
    pair, _ = resolve(gravewatch(), (bram(),), [2, 2, 2], skill="Nerve", dc="1",
                      **{"with": "Warmth"})
    wrestle, _ = resolve(gravewatch(), (bram(),), [2], skill="Wrestle", dc="1")
    assert (4, 3, "Warmth", 1) == (dig.pool, pair.pool, pair.with_, wrestle.pool)


def test_pool_min_keeps_one_die_for_a_stranger() -> None:
    """CHK-POOL-03 derived: with ``pool.min`` 1 a sheet number of 0 still throws one die."""
    record, _ = resolve(cinder(), (member(FIREFIGHTER),), [8], skill="Douse", dc="1", who="Nobody")
    assert (1, True) == (record.pool, record.success)


def test_difficulty_ladder_gives_successes_and_target() -> None:
    """CHK-POOL-16/23, CHK-REC-01: dc 3 → Blazing → target 8; dc 1 → Routine → 6; dc 2 →
    Tough has no target → 7; ``difficulty="Blazing"`` → dc 3, threshold 8 on the record."""
    party = (member(FIREFIGHTER),)
    faces = [2, 2, 2, 2, 2]
    found = [resolve(cinder(), party, faces, skill="Douse", dc=dc)[0].threshold
             for dc in ("3", "1", "2")]
    grim, _ = resolve(cinder(), party, faces, skill="Douse", difficulty="Blazing")
    assert [8, 6, 7] == found
    assert {"dc": "3", "threshold": "8", "difficulty": "Blazing"} == attrs_of(
        grim, "dc", "threshold", "difficulty")


def test_dc_and_threshold_win_over_the_named_rung() -> None:
    """CHK-COMMON-09, CHK-POOL-23: ``dc=`` wins for the number, ``threshold=`` for the target."""
    record, _ = resolve(cinder(), (member(FIREFIGHTER),), [2] * 5, skill="Douse",
                        difficulty="Blazing", dc="1", threshold="6")
    assert (1, 6, "Blazing") == (record.dc, record.threshold, record.difficulty)


def test_dc_is_clamped_to_what_a_roll_could_count() -> None:
    """CHK-POOL-20 derived: max 12 with explode → 1..24, so dc 40 → 24; with double too → 48."""
    plain, _ = resolve(cinder(), (member(FIREFIGHTER),), [2] * 5, skill="Douse", dc="40")
    doubled, _ = resolve(cinder(double={"from": 10}), (member(FIREFIGHTER),), [2] * 5,
                         skill="Douse", dc="90")
    assert (24, 48) == (plain.dc, doubled.dc)


def test_threshold_is_clamped_to_the_target_range() -> None:
    """CHK-POOL-21 derived: threshold 8 → 8; 12 → 9; 3 → 5."""
    found = [resolve(cinder(), (member(FIREFIGHTER),), [2] * 5, skill="Douse", dc="1",
                     threshold=t)[0].threshold for t in ("8", "12", "3")]
    assert [8, 9, 5] == found


def test_threshold_is_ignored_when_the_target_is_fixed() -> None:
    """CHK-POOL-05/21: with min = max = default the target cannot move."""
    data = bundled_json("cinder-watch")
    data["resolution"].update(target={"default": 7, "min": 7, "max": 7}, difficultyLadder=[])
    fixed = load_ruleset(data)
    record, _ = resolve(fixed, (member(FIREFIGHTER),), [2] * 5, skill="Douse", dc="1", threshold="5")
    assert 7 == record.threshold


def test_bonus_dice_are_clamped_to_situational_dice() -> None:
    """CHK-POOL-22, CHK-REC-02 derived (situationalDice −2..2): ``bonus="-2"`` on 5 dice → 3;
    ``bonus="-5"`` → −2, so 3 dice, recorded as −2."""
    minus_two, _ = resolve(cinder(), (member(FIREFIGHTER),), [2] * 3, skill="Douse", dc="1",
                           bonus="-2")
    minus_five, _ = resolve(cinder(), (member(FIREFIGHTER),), [2] * 3, skill="Douse", dc="1",
                            bonus="-5")
    assert (3, 3, "-2") == (minus_two.pool, minus_five.pool,
                            attrs_of(minus_five, "bonus")["bonus"])


def test_bonus_is_ignored_without_situational_dice() -> None:
    """CHK-POOL-22: ``bonus=`` is offered only when ``situationalDice`` is declared."""
    record, _ = resolve(cinder(situationalDice=None), (member(FIREFIGHTER),), [2] * 5,
                        skill="Douse", dc="1", bonus="+2")
    assert (5, None) == (record.pool, record.bonus)


def test_explode_on_the_tag_moves_the_face_within_min() -> None:
    """CHK-POOL-24, CHK-REC-04 derived (explode.min 9): ``explode="9"`` → a 9 explodes;
    ``explode="7"`` → clamped to 9; the record shows the face only when the check moved it."""
    nine, _ = resolve(cinder(), (member(FIREFIGHTER),), [9, 2, 2, 2, 2, 3], skill="Douse",
                      dc="1", explode="9")
    seven, _ = resolve(cinder(), (member(FIREFIGHTER),), [9, 2, 2, 2, 2, 3], skill="Douse",
                       dc="1", explode="7")
    plain, _ = resolve(cinder(), (member(FIREFIGHTER),), [9, 2, 2, 2, 2], skill="Douse", dc="1")
    assert (9, 9, None) == (nine.explode, seven.explode, plain.explode)


def test_explode_with_only_min_is_off_unless_asked() -> None:
    """CHK-POOL-08: ``"explode": {"min": 8}`` (no ``from``) is inactive unless the check asks
    for it."""
    ruleset = cinder(explode={"min": 8})
    off, _ = resolve(ruleset, (member(FIREFIGHTER),), [10, 2, 2, 2, 2], skill="Douse", dc="1")
    on, _ = resolve(ruleset, (member(FIREFIGHTER),), [10, 2, 2, 2, 2, 2], skill="Douse", dc="1",
                    explode="10")
    assert (5, 6) == (len(off.rolls), len(on.rolls))


def test_named_reroll_shows_only_when_it_rethrew() -> None:
    """CHK-POOL-25, CHK-REC-05: ``reroll="careful"`` (declared here: up to 6, once) re-throws
    dice ≤ 6 and the record names it; an unknown name is ignored; a re-roll that re-threw
    nothing is not recorded."""
    party = (member(FIREFIGHTER),)
    rules = cinder(reroll=[{"id": "careful", "upTo": 6, "mode": "once"}])
    careful, _ = resolve(rules, party, [3, 9, 6, 10, 8, 2, 8, 4], skill="Douse", dc="1",
                         reroll="careful")
    unknown, _ = resolve(rules, party, [3, 9, 6, 10, 8, 4], skill="Douse", dc="1",
                         reroll="lucky")
    idle, _ = resolve(rules, party, [7, 9, 8, 9, 8], skill="Douse", dc="1",
                      reroll="careful")
    assert ("careful", 2) == (careful.reroll, careful.rerolled)
    assert (None, None) == (unknown.reroll, unknown.rerolled)
    assert (None, None) == (idle.reroll, idle.rerolled)


def test_untrained_harder_raises_the_target_by_one() -> None:
    """SHEET-UNT-04, SHEET-TRN-10: Listen by an untrained warden counts from 8 (7 + 1), and
    never past ``target.max`` (threshold 9 stays 9)."""
    untrained = member(WARDEN, sheet={"v": 1, "build": {"abilities": {"nerve": 3},
                                                        "fields": {"watch": "dawn"}}})
    record, _ = resolve(gravewatch(), (untrained,), [2, 2, 2], skill="Listen", dc="2")
    clamped, _ = resolve(gravewatch(), (untrained,), [2, 2, 2], skill="Listen", dc="2",
                         threshold="9")
    assert (8, 9) == (record.threshold, clamped.threshold)


def test_advantage_is_ignored_on_a_pool() -> None:
    """CHK-POOL-26: a pool has no advantage; ``mode="advantage"`` throws the pool once."""
    record, _ = resolve(cinder(), (member(FIREFIGHTER),), [2] * 5, skill="Douse", dc="1",
                        mode="advantage")
    assert ("normal", 5) == (record.mode, len(record.rolls))


def test_botch_and_exceptional_on_the_record() -> None:
    """CHK-POOL-10/12 end to end: no success and a 1 → ``critical_failure``; 5 net on a pass →
    ``critical_success``."""
    botch, _ = resolve(cinder(), (member(FIREFIGHTER),), [1, 2, 3, 4, 5], skill="Douse", dc="1")
    great, _ = resolve(cinder(), (member(FIREFIGHTER),), [9, 9, 8, 7, 7], skill="Douse", dc="1")
    assert ("critical_failure", "critical_success") == (botch.result, great.result)


def test_tiers_leave_out_exceptional_and_catch_a_botch() -> None:
    """CHK-OUT-11: with tiers, 5 net successes are read by the tiers, not ``exceptional``; a
    botch lands in the ``on: critical-failure`` tier."""
    outcomes = {"by": "margin", "tiers": [
        {"id": "good", "label": "Good", "atLeast": 0, "success": True},
        {"id": "bad", "label": "Bad"},
        {"id": "dire", "label": "Dire", "on": "critical-failure", "critical": True}]}
    ruleset = cinder(outcomes=outcomes)
    great, _ = resolve(ruleset, (member(FIREFIGHTER),), [9, 9, 8, 7, 7], skill="Douse", dc="1")
    botch, _ = resolve(ruleset, (member(FIREFIGHTER),), [1, 2, 3, 4, 5], skill="Douse", dc="1")
    assert ("success", "Good") == (great.result, great.outcome)
    assert ("critical_failure", "Dire") == (botch.result, botch.outcome)


def test_half_or_more_complication_on_the_record() -> None:
    """CHK-REC-06: a ``halfOrMore`` botch that goes wrong beside a result that stands."""
    ruleset = cinder(botch={"upTo": 1, "rule": "halfOrMore"}, cancel=None)
    record, _ = resolve(ruleset, (member(FIREFIGHTER),), [1, 1, 1, 8, 3], skill="Douse", dc="1")
    assert ("success", "true") == (record.result, attrs_of(record, "complication")
                                   ["complication"])


def lasers_ruleset() -> Any:
    """Gravewatch turned into Lasers & Feelings: d6, Number read by ``target.from``, stances."""
    data = compat_json("gravewatch.json")
    data["resolution"].update({
        "die": {"sides": 6}, "pool": {"min": 1, "max": 3},
        "target": {"default": 4, "min": 2, "max": 5, "from": {"abilityScore": "nerve"}},
        "stances": [{"id": "lasers", "label": "Lasers", "count": "below", "skills": ["ward"]},
                    {"id": "feelings", "label": "Feelings", "count": "above",
                     "skills": ["soothe"]}],
        "exact": {"label": "LASER FEELINGS", "text": "Ask the GM a question."},
        "outcomes": {"by": "total", "tiers": [
            {"id": "crit", "label": "Critical success", "atLeast": 3, "success": True,
             "critical": True},
            {"id": "well", "label": "You do it well", "atLeast": 2, "success": True},
            {"id": "barely", "label": "You barely manage", "atLeast": 1, "success": True},
            {"id": "miss", "label": "Miss"}]},
        "difficultyLadder": [], "reroll": [], "situationalDice": None})
    for key in ("explode", "cancel", "botch", "exceptional", "situationalDice"):
        data["resolution"].pop(key, None)
    data.pop("layers", None)
    # Grave sight's explode 8 could never apply without explode on a d6 (CHK-CHARM-06, import).
    entry(data, "charms/grave-sight")["mechanics"].pop("check")
    return load_ruleset(data)


def test_lasers_and_feelings_end_to_end() -> None:
    """CHK-POOL-17/18/19, CHK-REC-07/08 derived: Number 4 from the sheet; Lasers 2, 4, 6 → 2
    successes, ``exact="1"``, "You do it well"; ``threshold=`` on the tag cannot move it."""
    crew = member(WARDEN, sheet={"v": 1, "build": {
        "abilities": {"nerve": 4, "warmth": 3, "sinew": 1},
        "skills": {"ward": "rating_0", "soothe": "rating_0"}, "fields": {"watch": "dawn"}}})
    record, _ = resolve(lasers_ruleset(), (crew,), [2, 4, 6], skill="Ward", dc="1",
                        threshold="2")
    assert {"threshold": "4", "exact": "1", "outcome": "You do it well", "total": "2"} == \
        attrs_of(record, "threshold", "exact", "outcome", "total")
    assert "LASER FEELINGS x1. Ask the GM a question." in (record.feedback or "")
