"""``dice-highest`` end to end with scripted dice: Blades in the Dark (the checks.md §4 reference
ruleset) and Trophy Dark's dark dice (CHK-HIGH, CHK-OUT-07, CHK-SPEND for dice, CHK-REC-10..13).

The rulesets are the bundled Lantern and Ledger's sheet with the page's ``resolution`` blocks:
Reckon rolls Eye plus the skill's rating, so Ada (Eye 2, Reckon rated 1) throws three dice, Bo
(Eye 2, untrained) two and Cy (Eye 0) none.
"""

from __future__ import annotations

import copy
from typing import Any

from middleware.dice import Dice
from middleware.pipeline import resolve_reply
from middleware.resolve import Context
from middleware.resolve.checks import resolve_check
from middleware.resolve.checks.dice_highest.roll import HighestCheck, roll_highest
from middleware.resolve.checks.record import CheckRecord
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.state import Character, GameState, Live, PoolValue, Sheet
from tests.rules.kind_examples import BLADES, ruleset_with


def member(name: str, eye: int, rated: bool = False, live: Live | None = None) -> Character:
    skills = {"reckon": "rating_1"} if rated else {}
    sheet = Sheet.model_validate({"v": 1, "build": {"abilities": {"eye": eye},
                                                    "skills": skills}})
    return Character(name=name, player=True, sheet=sheet, live=live or Live())


ADA = member("Ada", 2, rated=True)
BO = member("Bo", 2)
CY = member("Cy", 0)


def blades(**changes: Any) -> Ruleset:
    """The reference Blades resolution, with top-level keys replaced (None removes one)."""
    resolution = copy.deepcopy(BLADES)
    for key, value in changes.items():
        if value is None:
            resolution.pop(key, None)
        else:
            resolution[key] = value
    return load_ruleset(ruleset_with(resolution))


def trophy(outcome: str = "all", **changes: Any) -> Ruleset:
    """Blades with Trophy Dark's dark dice (at most 3 per check)."""
    dark = {"label": "Dark", "max": 3, "text": "Mark a point of Ruin.", "outcome": outcome}
    return blades(dark=dark, **changes)


def check(ruleset: Ruleset, who: Character, faces: list[int], *words: str,
          party: tuple[Character, ...] = (), **attrs: str) -> tuple[CheckRecord, GameState]:
    """Resolve one Reckon check with exactly ``faces`` thrown; the record and the state after."""
    tag = Tag("skill_check", {"skill": "Reckon", **attrs}, words, "[skill_check: ...]", 0, 18)
    dice = Dice(1, script=faces)
    state = GameState(ruleset=ruleset.id, party=party or (who,))
    resolution = resolve_check(tag, state, Context(ruleset=ruleset, dice=dice))
    assert isinstance(resolution.record, CheckRecord)
    assert (0, faces) == (dice.script_left, dice.thrown)  # exactly these dice, no more
    return resolution.record, resolution.state


def reading(record: CheckRecord) -> tuple[int | None, str | None, str | None]:
    return record.total, record.outcome, record.result


# --- the reference example (CHK-HIGH-14, CHK-OUT-07) --------------------------------------------


def test_blades_reads_the_highest_die_into_the_tiers() -> None:
    """CHK-HIGH-14 (derived): 2, 6, 4 → 6, Full success; 3, 1, 2 → 3, Bad outcome; two dice 5, 3
    → 5, Partial success, whose text reaches the GM."""
    full, _ = check(blades(), ADA, [2, 6, 4])
    bad, _ = check(blades(), ADA, [3, 1, 2])
    partial, _ = check(blades(), BO, [5, 3])
    assert (6, "Full success", "success") == reading(full)
    assert (3, "Bad outcome", "failure") == reading(bad)
    assert (5, "Partial success", "success") == reading(partial)
    assert "You do it, with a consequence." in (partial.feedback or "")


def test_two_sixes_land_in_the_critical_tier() -> None:
    """CHK-HIGH-05/14, CHK-OUT-07: 6, 6, 3 → two sixes → "Critical", a critical success; a single
    six is only "Full success"."""
    critical, _ = check(blades(), ADA, [6, 6, 3])
    single, _ = check(blades(), ADA, [6, 5, 3])
    assert (6, "Critical", "critical_success") == reading(critical)
    assert (6, "Full success", "success") == reading(single)


def test_zero_dice_throw_two_and_keep_the_lower_never_critical() -> None:
    """CHK-HIGH-04/14, CHK-REC-11 (derived): no dice → throws 6, 6 → keeps 6 → "Full success",
    never "Critical", ``zeroDice="true"``; 6, 2 keeps the 2."""
    sixes, _ = check(blades(), CY, [6, 6])
    low, _ = check(blades(), CY, [6, 2])
    assert (6, "Full success", "success", True) == (*reading(sixes), sixes.zero_dice)
    assert (2, "Bad outcome") == (low.total, low.outcome)
    assert ("true", "0") == (dict(sixes.tag_attrs())["zeroDice"], dict(sixes.tag_attrs())["pool"])


def test_zero_dice_fail_rolls_nothing_and_lands_in_the_worst_tier() -> None:
    """CHK-HIGH-04, Ambiguity 13: ``zeroDice: "fail"`` fails without a die, in the worst tier;
    without tiers it is a plain failure."""
    tiered, _ = check(blades(zeroDice="fail"), CY, [])
    plain, _ = check(blades(zeroDice="fail", outcomes=None), CY, [], dc="1")
    assert ([], "Bad outcome", "failure", True) == (tiered.rolls, tiered.outcome, tiered.result,
                                                    tiered.zero_dice)
    assert (False, None, 0.0) == (plain.success, plain.critical, plain.chance)


def test_the_record_keeps_the_summed_shape() -> None:
    """CHK-REC-10, SPEC §6: ``resolution="sum"``, ``modifier="0"``, the kept die as used and
    total, ``highest="1"``, the tier label, the exact chance; attributes in the peer's order."""
    record, _ = check(blades(), ADA, [2, 6, 4], difficulty="Full")
    assert [("skill", "Reckon"), ("dc", "6"), ("rolls", "2|6|4"), ("used", "6"),
            ("modifier", "0"), ("total", "6"), ("result", "success"), ("mode", "normal"),
            ("resolution", "sum"), ("dice", "3d6"), ("pool", "3"), ("difficulty", "Full"),
            ("outcome", "Full success"), ("highest", "1"), ("chance", "0.8750")
            ] == record.tag_attrs()


# --- keep, critical.face, pool, ladder (CHK-HIGH-01/03/05/13) -----------------------------------


def test_keep_two_sums_the_two_highest() -> None:
    """CHK-HIGH-03 (derived): keep 2, dice 5, 3, 2 → total 8."""
    rolled = roll_highest(HighestCheck(sides=6, light=3, dc=8, keep=2), Dice(0, script=[5, 3, 2]))
    assert ((5, 3), 8) == (rolled.kept, rolled.total)


def test_lowest_of_two_keeps_one_die_even_with_keep_two() -> None:
    """CHK-HIGH-04, Ambiguity 13: lowest-of-two keeps one die whatever ``keep`` says."""
    rolled = roll_highest(HighestCheck(sides=6, light=0, dc=4, keep=2), Dice(0, script=[5, 3]))
    assert ((3,), 3, True) == (rolled.kept, rolled.total, rolled.zero)


def test_critical_face_counts_that_face_or_higher() -> None:
    """CHK-HIGH-05: ``critical: {count: 2, face: 5}``: 5, 6, 1 is a critical; 5, 4, 1 is not."""
    ruleset = blades(critical={"count": 2, "face": 5})
    critical, _ = check(ruleset, ADA, [5, 6, 1])
    plain, _ = check(ruleset, ADA, [5, 4, 1])
    assert ("Critical", "Partial success") == (critical.outcome, plain.outcome)


def test_no_critical_rule_means_no_critical() -> None:
    """CHK-HIGH-05: ``critical`` is optional: without it two sixes are only a Full success."""
    record, _ = check(blades(critical=None), ADA, [6, 6, 1])
    assert ("Full success", None) == (record.outcome, record.critical)


def test_dc_is_held_to_one_to_keep_times_sides() -> None:
    """CHK-HIGH-13 (derived): keep 1, d6 → 1..6, so dc 9 is read as 6; keep 2 → 1..12, so dc 40
    is 12; dc 0 is 1. Without tiers the kept dice must reach it."""
    bare = blades(outcomes=None)
    high, _ = check(bare, ADA, [6, 5, 1], dc="9")
    low, _ = check(bare, ADA, [1, 1, 1], dc="0")
    kept_two, _ = check(blades(outcomes=None, keep=2), ADA, [6, 6, 6], dc="40")
    assert (6, True) == (high.dc, high.success)
    assert (1, True) == (low.dc, low.success)
    assert (12, True) == (kept_two.dc, kept_two.success)
    assert "dc 9 clamped to 6." in (high.feedback or "")


def test_ladder_rungs_give_the_dc() -> None:
    """CHK-HIGH-13, CHK-COMMON-08/09: ``difficulty="Full"`` is dc 6: a 5 fails without tiers;
    ``dc=`` wins over a named rung."""
    bare = blades(outcomes=None)
    full, _ = check(bare, ADA, [5, 1, 2], difficulty="Full")
    both, _ = check(bare, ADA, [5, 1, 2], difficulty="Full", dc="4")
    assert (6, False, "Full") == (full.dc, full.success, full.difficulty)
    assert (4, True) == (both.dc, both.success)


def test_bonus_dice_are_clamped_to_situational_dice() -> None:
    """CHK-HIGH-11, CHK-REC-02: ``bonus="+5"`` adds only 2 dice (5 thrown), ``bonus="-5"``
    removes only 1 (2 thrown); the record shows the bonus after the limits."""
    more, _ = check(blades(), ADA, [1, 2, 3, 4, 5], bonus="+5")
    fewer, _ = check(blades(), ADA, [1, 2], bonus="-5")
    assert (2, "+2", -1, "-1") == (more.bonus, dict(more.tag_attrs())["bonus"],
                                   fewer.bonus, dict(fewer.tag_attrs())["bonus"])


def test_bonus_is_ignored_without_situational_dice() -> None:
    """CHK-HIGH-11, CHK-COMMON-11: a ruleset with no ``situationalDice`` ignores ``bonus=``."""
    record, _ = check(blades(situationalDice=None), ADA, [1, 2, 3], bonus="+2")
    assert (None, 3) == (record.bonus, record.pool)
    assert 'bonus="+2" ignored' in (record.feedback or "")


def test_pool_bounds_the_dice() -> None:
    """CHK-HIGH-01: the dice are held to ``pool``: max 4 keeps 3 + 2 bonus dice at 4; a sheet
    number below ``pool.min`` 1 still throws one die (no zero-dice rule then)."""
    capped, _ = check(blades(pool={"min": 0, "max": 4}), ADA, [1, 2, 3, 4], bonus="+2")
    floored, _ = check(blades(pool={"min": 1, "max": 6}), CY, [5])
    assert (4, None) == (capped.pool, capped.zero_dice)
    assert (1, 5, None) == (floored.pool, floored.total, floored.zero_dice)


def test_mode_means_nothing_here() -> None:
    """CHK-COMMON-11: ``mode="advantage"`` is not offered by this kind: one throw, mode normal."""
    record, _ = check(blades(), ADA, [1, 2, 3], "advantage", mode="advantage")
    assert ("normal", 3) == (record.mode, record.total)


# --- Trophy Dark's dark dice (CHK-HIGH-06..10, CHK-REC-11..13) ----------------------------------


def test_dark_dice_read_with_the_light_ones_under_all() -> None:
    """CHK-HIGH-07/10 (derived): light 4, 2 and ``dark="1"`` showing 5 → kept 5, "Partial
    success", ``darkHighest="true"``; ``dark="1"`` recorded, the dark die last in ``rolls``."""
    record, _ = check(trophy("all"), BO, [4, 2, 5], dark="1")
    attrs = dict(record.tag_attrs())
    assert (5, "Partial success") == (record.total, record.outcome)
    assert ("4|2|5", "1", "true", None) == (attrs["rolls"], attrs["dark"], attrs["darkHighest"],
                                            attrs.get("darkOutcome"))
    assert "Mark a point of Ruin." in (record.feedback or "")


def test_only_light_dice_decide_under_light() -> None:
    """CHK-HIGH-08/10, CHK-REC-13 (derived): with ``"light"`` the same dice keep the 4 →
    "Partial success", ``darkHighest="true"``, ``darkOutcome="light"``, rolls end with the 5."""
    record, _ = check(trophy("light"), BO, [4, 2, 5], dark="1")
    attrs = dict(record.tag_attrs())
    assert (4, "Partial success") == (record.total, record.outcome)
    assert ("4|2|5", "true", "light") == (attrs["rolls"], attrs["darkHighest"],
                                          attrs["darkOutcome"])


def test_a_tied_dark_die_is_not_highest() -> None:
    """CHK-HIGH-10 (derived): light 6, dark 6 → no ``darkHighest`` (not strictly higher)."""
    record, _ = check(trophy("all"), BO, [6, 1, 6], dark="1")
    assert None is record.dark_highest


def test_dark_dice_make_no_critical_under_light() -> None:
    """CHK-HIGH-07/08: light 6, 2 with a dark 6: two sixes under ``"all"`` (Critical), one light
    six under ``"light"`` (Full success)."""
    together, _ = check(trophy("all"), BO, [6, 2, 6], dark="1")
    light, _ = check(trophy("light"), BO, [6, 2, 6], dark="1")
    assert ("Critical", "Full success") == (together.outcome, light.outcome)


def test_no_light_dice_under_light_apply_zero_dice_to_the_light_side() -> None:
    """CHK-HIGH-09/10 (derived): ``"light"``, no light dice, lowest-of-two: light 3 and 5 → kept
    3; a dark 4 does not beat the 5; a dark 6 does."""
    beaten, _ = check(trophy("light"), CY, [3, 5, 4], dark="1")
    beating, _ = check(trophy("light"), CY, [3, 5, 6], dark="1")
    assert (3, True, None) == (beaten.total, beaten.zero_dice, beaten.dark_highest)
    assert (3, True) == (beating.total, beating.dark_highest)


def test_failing_without_light_dice_still_throws_the_dark_ones() -> None:
    """CHK-HIGH-09/10: ``"light"`` with ``zeroDice: "fail"``: the dark die is thrown, the check
    fails, and with no light die at all the dark die counts as highest."""
    record, _ = check(trophy("light", zeroDice="fail"), CY, [2], dark="1")
    assert ([2], False, True, True) == (record.rolls, record.success, record.dark_highest,
                                        record.zero_dice)


def test_dark_dice_alone_are_read_under_all() -> None:
    """CHK-HIGH-07 (our reading): under ``"all"`` a check with no light dice but dark ones reads
    the dark dice; zeroDice applies only when nothing at all is thrown."""
    record, _ = check(trophy("all"), CY, [5, 2], dark="2")
    assert (5, None, True) == (record.total, record.zero_dice, record.dark_highest)


def test_dark_is_clamped_to_its_max_and_ignored_without_dark() -> None:
    """CHK-HIGH-06, CHK-COMMON-11: ``dark="9"`` throws ``dark.max`` 3 dark dice; Blades has no
    ``dark``, so ``dark="2"`` throws none and says so."""
    clamped, _ = check(trophy("all"), BO, [1, 1, 2, 2, 2], dark="9")
    ignored, _ = check(blades(), BO, [1, 1], dark="2")
    assert (3, None) == (clamped.dark, ignored.dark)
    assert 'dark="2" ignored' in (ignored.feedback or "")


# --- spending for dice (CHK-HIGH-12, CHK-SPEND) -------------------------------------------------

LUCK_SPEND = [{"pool": "pluck", "amount": 1, "dice": 1, "perCheck": 2}]


def test_spend_buys_dice_and_pays_the_pool() -> None:
    """CHK-HIGH-12, CHK-SPEND-06/11/16: ``spend="pluck:1"`` throws a fourth die with the pool and
    takes 1 Pluck (3 → 2); the record shows ``spend="pluck:1"``."""
    record, state = check(blades(spend=LUCK_SPEND), ADA, [1, 2, 3, 6], spend="pluck:1")
    assert (4, 6, "pluck:1") == (record.pool, record.total, dict(record.tag_attrs())["spend"])
    assert {"pluck": PoolValue(value=2)} == state.party[0].live.pools


def test_spend_is_clamped_to_per_check() -> None:
    """CHK-SPEND-15: ``spend="pluck:3"`` with ``perCheck`` 2 buys and pays only 2 dice."""
    record, state = check(blades(spend=LUCK_SPEND), ADA, [1, 2, 3, 4, 5], spend="pluck:3")
    assert (5, "pluck:2", 1) == (record.pool, record.spend, state.party[0].live.pools["pluck"].value)


def test_spend_is_all_or_nothing() -> None:
    """CHK-SPEND-13: with 1 Pluck left, ``spend="pluck:2"`` buys nothing, pays nothing, and the
    roll is the plain three dice."""
    poor = member("Ada", 2, rated=True, live=Live(pools={"pluck": PoolValue(value=1)}))
    record, state = check(blades(spend=LUCK_SPEND), poor, [1, 2, 3], spend="pluck:2")
    assert (3, None, 1) == (record.pool, record.spend, state.party[0].live.pools["pluck"].value)


def test_a_reply_rewrites_the_tag_and_two_spends_chain() -> None:
    """SPEC §3/§6, CHK-SPEND-11/13: in one reply the first ``spend="pluck:2"`` pays 2 of 3 Pluck,
    so the second finds 1 left and buys nothing; the tags are rewritten in the record shape and
    the model's own ``rolls=`` is discarded."""
    ruleset = blades(spend=LUCK_SPEND)
    reply = ('You slip past. [skill_check: skill="Reckon" spend="pluck:2" rolls="6|6"] Then again: '
             '[skill_check: skill="Reckon" spend="pluck:2" dark="1"]')
    dice = Dice(1, script=[1, 2, 3, 4, 5, 6, 6, 1])
    done = resolve_reply(reply, GameState(ruleset=ruleset.id, party=(ADA,)),
                         Context(ruleset=ruleset, dice=dice))
    first, second = done.records
    assert isinstance(first, CheckRecord) and isinstance(second, CheckRecord)
    assert ((1, 2, 3, 4, 5), "pluck:2", "Partial success") == (tuple(first.rolls), first.spend,
                                                               first.outcome)
    assert ((6, 6, 1), None, "Critical") == (tuple(second.rolls), second.spend, second.outcome)
    assert 1 == done.state.party[0].live.pools["pluck"].value
    assert done.text.startswith('You slip past. [skill_check: skill="Reckon" dc="4" '
                                'rolls="1|2|3|4|5" used="5" modifier="0" total="5" '
                                'result="success" mode="normal" resolution="sum" dice="5d6" '
                                'pool="5" spend="pluck:2" ')
