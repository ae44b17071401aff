"""Outcome tiers (checks.md §8, CHK-OUT): one test per requirement that applies to dice-sum, plus
the kind-independent reading the next kinds reuse (CHK-OUT-11/12)."""

from __future__ import annotations

from middleware.dice import Dice
from middleware.resolve.checks.dice_sum.dice import SumCheck, SumDice, roll_sum
from middleware.resolve.checks.outcome import Outcomes, Tier, Verdict, judge, outcomes_from
from middleware.resolve.checks.record import CheckRecord

REFERENCE_JSON = {
    "by": "margin",
    "naturals": "shift",
    "tiers": [
        {"id": "critical_success", "label": "Critical success", "atLeast": 10, "success": True,
         "critical": True},
        {"id": "success", "label": "Success", "atLeast": 0, "success": True},
        {"id": "failure", "label": "Failure", "atLeast": -9},
        {"id": "critical_failure", "label": "Critical failure", "critical": True},
    ],
}
REFERENCE = outcomes_from(REFERENCE_JSON)
PLAIN = Outcomes(tiers=REFERENCE.tiers if REFERENCE else ())  # same tiers, no shift
WITH_ON = Outcomes(tiers=(
    Tier("crit", "Two sixes", success=True, critical=True, on="critical-success"),
    Tier("full", "Full", success=True, at_least=0),
    Tier("partial", "Partial", success=True, at_least=-2, text="You do it, at a cost."),
    Tier("miss", "Miss", success=False),
    Tier("disaster", "Disaster", success=False, critical=True, on="critical-failure"),
))


def label(verdict: Verdict) -> str | None:
    return verdict.outcome


def test_every_check_reports_its_tier() -> None:
    """CHK-OUT-01: with tiers, a check lands in one and the verdict names it."""
    assert "Success" == label(judge(PLAIN, total=17, needed=15))


def test_margin_and_total_readings() -> None:
    """CHK-OUT-02: ``margin`` reads total − dc; ``total`` reads the total whatever the dc."""
    by_total = Outcomes(tiers=PLAIN.tiers, by="total")
    assert "Failure" == label(judge(PLAIN, total=12, needed=15))
    assert "Critical success" == label(judge(by_total, total=12, needed=15))


def test_tiers_are_read_best_first() -> None:
    """CHK-OUT-03: the first tier (best) that the number reaches wins over later ones."""
    assert "Critical success" == label(judge(PLAIN, total=40, needed=15))


def test_reference_tiers_by_margin() -> None:
    """CHK-OUT-04: margin ≥10 Critical success, 0..9 Success, −9..−1 Failure, ≤−10 Critical
    failure; total 25 vs dc 15 → Critical success."""
    cases = {25: "Critical success", 24: "Success", 15: "Success", 14: "Failure", 6: "Failure",
             5: "Critical failure"}
    assert cases == {t: label(judge(PLAIN, total=t, needed=15)) for t in cases}


def test_tier_says_success_and_critical() -> None:
    """CHK-OUT-05: a critical tier is a critical of its kind; a plain tier is no critical."""
    top, bottom, middle = (judge(PLAIN, total=t, needed=15) for t in (25, 5, 16))
    assert (True, "success") == (top.success, top.critical)
    assert (False, "failure") == (bottom.success, bottom.critical)
    assert (True, None) == (middle.success, middle.critical)


def test_tier_text_reaches_the_verdict() -> None:
    """CHK-OUT-06: the tier's ``text`` travels with the tier for the GM."""
    verdict = judge(WITH_ON, total=9, needed=10)
    text = verdict.tier.text if verdict.tier else None
    assert ("Partial", "You do it, at a cost.") == (verdict.outcome, text)


def test_on_tiers_take_only_criticals() -> None:
    """CHK-OUT-07: a huge margin never lands in the ``on: critical-success`` tier; a forced
    success does; the remaining tiers read the number among themselves."""
    assert "Full" == label(judge(WITH_ON, total=99, needed=1))
    assert "Miss" == label(judge(WITH_ON, total=-99, needed=1))
    assert "Two sixes" == label(judge(WITH_ON, total=1, needed=50, forced="success"))


def test_naturals_shift_moves_one_tier() -> None:
    """CHK-OUT-08 (d20): natural 20 margin 5 → Critical success; natural 1 margin 0 → Failure;
    natural 20 already critical stays; natural 1 at the bottom stays."""
    assert "Critical success" == label(judge(REFERENCE, total=20, needed=15, natural="max"))
    assert "Failure" == label(judge(REFERENCE, total=15, needed=15, natural="min"))
    assert "Critical success" == label(judge(REFERENCE, total=30, needed=15, natural="max"))
    assert "Critical failure" == label(judge(REFERENCE, total=1, needed=15, natural="min"))


def test_shift_reads_the_rolled_die() -> None:
    """CHK-OUT-08, CHK-SUM-08: a thrown natural 20 shifts through the roll's ``natural``."""
    check = SumCheck(dice=SumDice(1, 20), modifier=0, dc=15)
    rolled = roll_sum(check, Dice(0, script=[20]))
    verdict = judge(REFERENCE, total=rolled.total, needed=15, natural=rolled.natural)
    assert ("Critical success", True, "success") == (verdict.outcome, verdict.success,
                                                     verdict.critical)


def test_tier_decides_not_the_bare_comparison() -> None:
    """CHK-OUT-09: 9 vs dc 10 misses the bare comparison but lands in a succeeding tier."""
    verdict = judge(WITH_ON, total=9, needed=10)
    assert (True, "Partial") == (verdict.success, verdict.outcome)


def test_natural_automatic_results_land_in_critical_tiers() -> None:
    """CHK-OUT-10: a forced success lands in the ``on`` tier, else the best tier; a forced
    failure in the ``on`` tier, else the worst; it stays critical even in a plain tier."""
    plain_best = Outcomes(tiers=(Tier("ok", "Made it", True, at_least=0), Tier("no", "Not", False)))
    top = judge(WITH_ON, total=0, needed=30, forced="success")
    assert ("Two sixes", "success") == (top.outcome, top.critical)
    assert "Disaster" == label(judge(WITH_ON, total=50, needed=3, forced="failure"))
    best = judge(plain_best, total=0, needed=30, forced="success")
    worst = judge(plain_best, total=50, needed=3, forced="failure")
    assert ("Made it", True, "success") == (best.outcome, best.success, best.critical)
    assert ("Not", False, "failure") == (worst.outcome, worst.success, worst.critical)


def test_a_forced_failure_is_read_the_same_for_any_kind() -> None:
    """CHK-OUT-11: a pool's botch, passed as a forced failure, lands like a natural does."""
    without_on = Outcomes(tiers=WITH_ON.by_number)
    assert "Miss" == label(judge(without_on, total=3, needed=1, forced="failure"))


def test_tiers_by_total_express_a_fixed_difficulty() -> None:
    """CHK-OUT-12 (Lasers & Feelings): 3+ successes critical, 2 well, 1 barely, 0 a miss."""
    lasers = Outcomes(by="total", tiers=(
        Tier("crit", "Critical success", True, critical=True, at_least=3),
        Tier("well", "You do it well", True, at_least=2),
        Tier("barely", "You barely manage", True, at_least=1),
        Tier("miss", "Miss", False)))
    seen = {n: label(judge(lasers, total=n, needed=1)) for n in (4, 3, 2, 1, 0)}
    assert {4: "Critical success", 3: "Critical success", 2: "You do it well",
            1: "You barely manage", 0: "Miss"} == seen


def test_record_names_the_tier_by_label() -> None:
    """CHK-OUT-13, CHK-REC-15: the record carries ``outcome="Critical success"`` and the result
    word follows the tier."""
    verdict = judge(REFERENCE, total=25, needed=15)
    record = CheckRecord(status="resolved", skill="Athletics", dc=15, rolls=[20], used=20,
                         modifier=5, total=25, success=verdict.success, critical=verdict.critical,
                         outcome=verdict.outcome, dice="1d20")
    attrs = dict(record.tag_attrs())
    assert ("Critical success", "critical_success") == (attrs["outcome"], attrs["result"])


def test_no_tiers_means_the_bare_comparison() -> None:
    """CHK-SUM-01 without CHK-OUT: total ≥ dc succeeds, no outcome label."""
    assert (True, None) == (judge(None, total=10, needed=10).success, judge(None, total=10,
                                                                            needed=10).outcome)
