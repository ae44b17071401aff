"""dice-sum arithmetic with scripted dice: one test per CHK-SUM requirement (checks.md §2)."""

from __future__ import annotations

from middleware.dice import Dice
from middleware.resolve.checks import Ask, pick_difficulty
from middleware.resolve.checks.dice_sum.dice import (
    EffectDice,
    SumCheck,
    SumDice,
    roll_sum,
    settle_mode,
)
from middleware.resolve.checks.outcome import judge
from middleware.rules.common import DcRung

D20 = SumDice(count=1, sides=20)
TWO_D6 = SumDice(count=2, sides=6)
FATE = SumDice(count=4, sides=3, faces=(-1, 0, 1))
ROLEMASTER = SumDice(count=1, sides=100, open_high=96, open_low=5)


def roll(check: SumCheck, *faces: int) -> tuple[int, ...]:
    """(used, total) of ``check`` thrown with exactly ``faces``; fails if a face is left over."""
    dice = Dice(0, script=faces)
    result = roll_sum(check, dice)
    assert dice.script_left == 0
    return result.used, result.total


class Ladder:
    """A stand-in for a dice-sum resolution: only the ladder is read by ``pick_difficulty``."""

    difficulty_ladder = (DcRung(label="Easy", dc=6), DcRung(label="Hard", dc=10))


def test_sum_adds_dice_and_sheet_number_and_succeeds_at_dc() -> None:
    """CHK-SUM-01: 2d6 + 3 vs Hard (10): 3 + 4 = 7 → total 10 succeeds; 2 + 4 → 9 fails."""
    check = SumCheck(dice=TWO_D6, modifier=3, dc=10)
    first = roll_sum(check, Dice(0, script=[3, 4]))
    second = roll_sum(check, Dice(0, script=[2, 4]))
    assert ((3, 4), 7, 10, True) == (first.rolls, first.used, first.total,
                                      judge(None, total=first.total, needed=10).success)
    assert (9, False) == (second.total, judge(None, total=second.total, needed=10).success)


def test_advantage_throws_twice_and_keeps_the_better() -> None:
    """CHK-SUM-02: advantage keeps the higher throw, disadvantage the lower; both are in rolls."""
    advantage = roll_sum(SumCheck(dice=D20, modifier=2, dc=10, mode="advantage"),
                         Dice(0, script=[5, 17]))
    disadvantage = roll_sum(SumCheck(dice=D20, modifier=2, dc=10, mode="disadvantage"),
                            Dice(0, script=[5, 17]))
    assert ((5, 17), 17, 19) == (advantage.rolls, advantage.used, advantage.total)
    assert ((5, 17), 5, 7) == (disadvantage.rolls, disadvantage.used, disadvantage.total)


def test_advantage_on_several_dice_keeps_the_better_whole_throw() -> None:
    """CHK-SUM-02: on 2d6 a throw is both dice; the kept throw is the higher sum."""
    rolled = roll_sum(SumCheck(dice=TWO_D6, modifier=0, dc=7, mode="advantage"),
                      Dice(0, script=[6, 1, 4, 4]))
    assert ((6, 1, 4, 4), 8) == (rolled.rolls, rolled.used)


def test_leans_cancel_and_need_a_ruleset_that_rolls_twice() -> None:
    """CHK-SUM-02, SHEET-COND-06: any advantage with any disadvantage is normal; ``advantage:
    false`` rolls once whatever was asked."""
    assert "advantage" == settle_mode(("advantage", "advantage"), allowed=True)
    assert "disadvantage" == settle_mode(("disadvantage",), allowed=True)
    assert "normal" == settle_mode(("advantage", "disadvantage"), allowed=True)
    assert "normal" == settle_mode(("advantage",), allowed=False)


def test_naturals_make_the_highest_face_win_and_the_lowest_lose() -> None:
    """CHK-SUM-03: ``both``: a natural 20 succeeds against dc 30, a natural 1 fails at +30; both
    critical. ``max-only``/``min-only`` enable one side; ``none`` is plain arithmetic."""
    def verdict(naturals: str, face: int, modifier: int, dc: int) -> tuple[bool, str | None]:
        check = SumCheck(dice=D20, modifier=modifier, dc=dc, naturals=naturals)  # type: ignore[arg-type]
        rolled = roll_sum(check, Dice(0, script=[face]))
        result = judge(None, total=rolled.total, needed=dc, forced=rolled.forced)
        return result.success, result.critical

    assert (True, "success") == verdict("both", 20, 0, 30)
    assert (False, "failure") == verdict("both", 1, 30, 10)
    assert (True, "success") == verdict("max-only", 20, 0, 30)
    assert (True, None) == verdict("max-only", 1, 30, 10)
    assert (False, None) == verdict("min-only", 20, 0, 30)
    assert (False, "failure") == verdict("min-only", 1, 30, 10)
    assert (False, None) == verdict("none", 20, 0, 30)


def test_naturals_need_a_single_die() -> None:
    """CHK-SUM-04: on 2d6 (refused at import with naturals) double six forces nothing."""
    rolled = roll_sum(SumCheck(dice=TWO_D6, modifier=0, dc=20, naturals="both"),
                      Dice(0, script=[6, 6]))
    assert (None, None) == (rolled.natural, rolled.forced)


def test_fate_faces_are_summed_as_values() -> None:
    """CHK-SUM-05: Fate dice ``faces`` [-1, 0, 1]: faces 3, 3, 2, 1 → +1 +1 +0 −1 = +1, then the
    sheet number is added; rolls show the values."""
    rolled = roll_sum(SumCheck(dice=FATE, modifier=2, dc=3), Dice(0, script=[3, 3, 2, 1]))
    assert ((1, 1, 0, -1), 1, 3) == (rolled.rolls, rolled.used, rolled.total)


def test_open_ended_percentile_chains_up_and_down() -> None:
    """CHK-SUM-06 (Rolemaster {high 96, low 5}): 45 → 45; 97, 99, 12 → 208; 96, 42 → 138;
    03, 60 → −57; 03, 97, 20 → −114 (chained dice after a low roll subtract)."""
    check = SumCheck(dice=ROLEMASTER, modifier=0, dc=100)
    assert (45, 45) == roll(check, 45)
    assert (208, 208) == roll(check, 97, 99, 12)
    assert (138, 138) == roll(check, 96, 42)
    assert (-57, -57) == roll(check, 3, 60)
    assert (-114, -114) == roll(check, 3, 97, 20)


def test_open_ended_low_only_opens_on_the_first_die() -> None:
    """CHK-SUM-06, checks.md Ambiguity 7: a chained die showing ≤ low does not chain again."""
    check = SumCheck(dice=ROLEMASTER, modifier=0, dc=100)
    assert (97 + 3, 97 + 3) == roll(check, 97, 3)


def test_open_ended_roll_throws_at_most_twenty_dice() -> None:
    """CHK-SUM-07: twenty 100s in a row stop the chain at 20 dice."""
    dice = Dice(0, script=[100] * 25)
    rolled = roll_sum(SumCheck(dice=ROLEMASTER, modifier=0, dc=100), dice)
    assert (20, 2000, 5) == (len(rolled.rolls), rolled.used, dice.script_left)


def test_open_ended_naturals_and_shift_read_the_first_die() -> None:
    """CHK-SUM-08: in 97, 99, 12 the first die (97) is read: no natural; 100 then 50 is a natural
    100 whatever follows; a chained 1 is not a natural."""
    d100 = SumDice(count=1, sides=100, open_high=96, open_low=5)
    check = SumCheck(dice=d100, modifier=0, dc=500, naturals="both")
    high = roll_sum(check, Dice(0, script=[100, 50]))
    chained_one = roll_sum(check, Dice(0, script=[97, 1]))
    assert ("max", "success", 150) == (high.natural, high.forced, high.total)
    assert (None, None) == (chained_one.natural, chained_one.forced)


def test_unmodified_faces_mark_the_first_die() -> None:
    """CHK-SUM-09 (``unmodified`` [66, 100]): first die 66 → 66; 100 → 100; 65 → none."""
    check = SumCheck(dice=ROLEMASTER, modifier=-20, dc=50, unmodified=(66, 100))
    assert 66 == roll_sum(check, Dice(0, script=[66])).unmodified
    assert 100 == roll_sum(check, Dice(0, script=[100, 30])).unmodified
    assert None is roll_sum(check, Dice(0, script=[65])).unmodified


def test_ladder_names_the_dc() -> None:
    """CHK-SUM-10, CHK-COMMON-08: ``difficulty="Hard"`` means dc 10, ``"easy"`` dc 6; the record
    names the rung."""
    hard = pick_difficulty(Ask(skill="Tinker", difficulty="Hard"), Ladder, 7)
    easy = pick_difficulty(Ask(skill="Tinker", difficulty="easy"), Ladder, 7)
    assert (10, "Hard") == (hard.dc, hard.rung)
    assert (6, "Easy") == (easy.dc, easy.rung)


def test_written_dc_wins_over_the_rung() -> None:
    """CHK-COMMON-09, CHK-REC-01: ``dc="12" difficulty="Hard"`` reads 12 and names no rung."""
    both = pick_difficulty(Ask(skill="Tinker", dc=12, difficulty="Hard"), Ladder, 7)
    assert (12, None) == (both.dc, both.rung)


def test_unknown_or_shared_rung_is_ignored() -> None:
    """CHK-COMMON-08: a label no rung has (or two share) is ignored: our default applies and the
    GM is told."""

    class Shared:
        difficulty_ladder = (DcRung(label="Hard", dc=10), DcRung(label="hard", dc=12))

    unknown = pick_difficulty(Ask(skill="Tinker", difficulty="Grim"), Ladder, 7)
    shared = pick_difficulty(Ask(skill="Tinker", difficulty="Hard"), Shared, 7)
    assert (6, "Easy") == (unknown.dc, unknown.rung)
    assert "Grim" in (unknown.note or "")
    assert 10 == shared.dc  # the middle rung of two is the first; the name itself matched none


def test_out_of_range_dc_is_clamped() -> None:
    """CHK-COMMON-11: a dc beyond ±1000 (the rung range) is clamped and the GM is told."""
    far = pick_difficulty(Ask(skill="Tinker", dc=5000), Ladder, 7)
    assert (1000, "dc 5000 clamped to 1000.") == (far.dc, far.note)


def test_no_ladder_and_no_dc_reads_the_mean_throw() -> None:
    """Our choice (SPEC preamble): no dc and no ladder → the mean of the dice, rounded up."""

    class Bare:
        difficulty_ladder = ()

    assert 7 == pick_difficulty(Ask(skill="Tinker"), Bare, 7).dc


def test_effect_dice_are_thrown_after_the_check_and_may_subtract() -> None:
    """SHEET-COND-05: a ``1d4`` bonus adds, a ``minus`` one subtracts; thrown after the check."""
    check = SumCheck(dice=D20, modifier=1, dc=10,
                     effects=(EffectDice(1, 4), EffectDice(1, 4, minus=True)))
    rolled = roll_sum(check, Dice(0, script=[10, 4, 1]))
    assert ((10, 4, 1), 10, 3, 14) == (rolled.rolls, rolled.used, rolled.effect, rolled.total)


def test_effect_dice_text_is_read_tolerantly_and_capped() -> None:
    """SHEET-COND-05, SPEC §8: ``"1d4"``, ``"d6"`` read; ``"99d4"`` held to 20; junk ignored."""
    assert EffectDice(1, 4) == EffectDice.parse("1d4")
    assert EffectDice(1, 6, minus=True) == EffectDice.parse("d6", minus=True)
    assert EffectDice(20, 4) == EffectDice.parse("99d4")
    assert None is EffectDice.parse("lots")
