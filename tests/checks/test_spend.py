"""Standing spend on a pool check: ``spend="<pool>:<points>"`` under ``resolution.spend``
(checks.md §10, CHK-SPEND-01..16; SHEET-TRN-10's vectors on a firefighter; SHEET-CHK-05/08).

The bundled Cinder Watch spends Ember as Gravewatch spends Resolve (1 point a success, 2 a
check); its firefighter has 4 (1 + Voice 3). Only the ability-score ``perCheck`` stays on
Gravewatch, whose Nerve may be 0."""

from __future__ import annotations

from typing import Any

from middleware.dice import Dice
from middleware.pipeline import resolve_reply
from middleware.resolve import Context
from middleware.resolve.checks.record import CheckRecord
from middleware.state import Character, GameState
from tests.checks.pool_helpers import FIREFIGHTER, WARDEN, attrs_of, cinder, gravewatch, member, resolve


def left(state: GameState, pool: str = "ember", maximum: int = 4) -> int:
    """What the first party member has left of ``pool`` (its ``maximum`` when nothing is
    stored): Ember by default, whose maximum is 1 + Voice, 4 for the firefighter."""
    stored = state.party[0].live.pools.get(pool)
    return stored.value if stored is not None else maximum


def resolve_left(state: GameState) -> int:
    """Resolve left to a warden (its maximum, 6, when nothing is stored)."""
    return left(state, "resolve", 6)


def spend_rule(pool: str = "ember", **rule: Any) -> list[dict[str, Any]]:
    return [{"pool": pool, "amount": 1, **rule}]


def test_bram_spends_one_resolve_for_one_success() -> None:
    """SHEET-TRN-10, CHK-SPEND-05/11/16: ``spend="ember:1"`` pays 1 Ember (4 → 3) and adds
    1 automatic success after counting; the record shows ``spend`` and ``auto``."""
    record, state = resolve(cinder(), (member(FIREFIGHTER),), [], skill="Douse", dc="2",
                            who="Sal", spend="ember:1")
    assert ({"spend": "ember:1", "auto": "1"}, 3) == (attrs_of(record, "spend", "auto"),
                                                       left(state))
    assert record.total == (record.used or 0) + record.modifier
    assert record.modifier >= 1


def test_spend_past_per_check_is_clamped() -> None:
    """SHEET-TRN-10, CHK-SPEND-08/15: ``ember:5`` is clamped to 2 purchases and pays 2."""
    record, state = resolve(cinder(), (member(FIREFIGHTER),), [], skill="Douse", dc="2",
                            spend="ember:5")
    assert ("ember:2", 2, 2) == (record.spend, record.auto, left(state))


def test_bought_successes_come_after_cancelling() -> None:
    """CHK-SPEND-05: 8, 1, 2, 3, 4 → 1 success cancelled by the 1 → 0, then +2 bought → 2."""
    record, _ = resolve(cinder(), (member(FIREFIGHTER),), [8, 1, 2, 3, 4], skill="Douse",
                        dc="2", spend="ember:2")
    assert (1, 1, 2, True) == (record.used, record.modifier, record.total, record.success)


def test_all_or_nothing_when_the_pool_cannot_cover_it() -> None:
    """CHK-SPEND-13/16 derived: ``ember:2`` with only 1 left → nothing bought or paid, and the
    roll is exactly what it would have been."""
    party = (member(FIREFIGHTER, live={"pools": {"ember": {"value": 1}}}),)
    spent, state = resolve(cinder(), party, [8, 7, 2, 3, 4], skill="Douse", dc="2",
                           spend="ember:2")
    plain, _ = resolve(cinder(), party, [8, 7, 2, 3, 4], skill="Douse", dc="2")
    assert (None, None, "insufficient", 1) == (spent.spend, spent.auto, spent.reason,
                                               left(state))
    assert plain.tag_attrs() == [a for a in spent.tag_attrs() if a[0] != "reason"]


def test_per_check_from_the_sheet() -> None:
    """CHK-SPEND-08 derived: ``perCheck: {"abilityScore": "nerve"}`` with Nerve 0 buys and pays
    nothing; with Nerve 3, ``resolve:4`` buys 3."""
    ruleset = gravewatch(spend=spend_rule("resolve", successes=1,
                                          perCheck={"abilityScore": "nerve"}))
    timid = member(WARDEN, sheet={"v": 1, "build": {"abilities": {"nerve": 0, "sinew": 5},
                                                    "fields": {"watch": "dawn"}}})
    none, none_state = resolve(ruleset, (timid,), [2] * 5, skill="Sinew", dc="1",
                               spend="resolve:1")
    three, state = resolve(ruleset, (member(WARDEN),), [2] * 5, skill="Ward", dc="3",
                           spend="resolve:4")
    assert (None, None, 4) == (none.spend, none.auto, resolve_left(none_state))
    assert ("resolve:3", 3, 1) == (three.spend, three.auto, resolve_left(state))


def test_per_check_pool_is_the_sheet_number() -> None:
    """CHK-SPEND-08, SHEET-CHK-05: ``perCheck: "pool"`` allows as many purchases as the check's
    dice before wounds and bonus dice: an untrained Climb (Grip 3) allows 3 though a bonus die
    is taken off (2 thrown), so ``ember:3`` buys 3 and leaves 1 of 4."""
    ruleset = cinder(spend=spend_rule(successes=1, perCheck="pool"))
    record, state = resolve(ruleset, (member(FIREFIGHTER),), [2, 2], skill="Climb", dc="1",
                            spend="ember:3", bonus="-1")
    assert ("ember:3", 1) == (record.spend, left(state))


def test_points_short_of_a_purchase_buy_nothing_and_are_not_paid() -> None:
    """CHK-SPEND-14, Ambiguity 20 derived: ``amount`` 2, ``spend="ember:3"`` → 1 purchase, 2
    paid; the odd point is kept. ``ember:1`` buys nothing."""
    ruleset = cinder(spend=[{"pool": "ember", "amount": 2, "successes": 1, "perCheck": 3}])
    one, state = resolve(ruleset, (member(FIREFIGHTER),), [2] * 5, skill="Douse", dc="1",
                         spend="ember:3")
    short, short_state = resolve(ruleset, (member(FIREFIGHTER),), [2] * 5, skill="Douse", dc="1",
                                 spend="ember:1")
    assert ("ember:2", 1, 2) == (one.spend, one.auto, left(state))
    assert (None, 4) == (short.spend, left(short_state))


def test_bought_dice_are_thrown_with_the_pool_within_its_limits() -> None:
    """CHK-SPEND-06, Ambiguity 5: 2 bought dice join a 5-die pool (7 dice); with ``pool.max`` 6
    the pool holds at 6."""
    rule = spend_rule(dice=2, perCheck=1)
    record, _ = resolve(cinder(spend=rule), (member(FIREFIGHTER),), [2] * 7, skill="Douse",
                        dc="1", spend="ember:1")
    held, _ = resolve(cinder(spend=rule, pool={"min": 1, "max": 6}, difficultyLadder=[]),
                      (member(FIREFIGHTER),), [2] * 6, skill="Douse", dc="1", spend="ember:1")
    assert (7, "ember:1", None, 6) == (record.pool, record.spend, record.auto, held.pool)


def test_a_bought_until_reroll_beats_careful_and_hides_reroll() -> None:
    """CHK-SPEND-07, CHK-POOL-15 derived: a spend's reroll (upTo 6, until) beside "careful"
    (upTo 6, once) is the one rolled, and the record carries no ``reroll=``."""
    ruleset = cinder(spend=spend_rule(reroll={"upTo": 6, "mode": "until"}, perCheck=1),
                     reroll=[{"id": "careful", "upTo": 6, "mode": "once"}])
    record, _ = resolve(ruleset, (member(FIREFIGHTER),), [3, 9, 8, 9, 8, 5, 7], skill="Douse",
                        dc="1", reroll="careful", spend="ember:1")
    assert (None, 2, [3, 9, 8, 9, 8, 5, 7]) == (record.reroll, record.rerolled, record.rolls)


def test_a_pool_without_a_spend_rule_is_ignored() -> None:
    """CHK-SPEND-11, CHK-COMMON-11: ``spend=`` naming a pool no rule takes buys nothing."""
    record, state = resolve(cinder(), (member(FIREFIGHTER),), [2] * 5, skill="Douse", dc="1",
                            spend="grit:1")
    assert (None, 4) == (record.spend, left(state))
    assert "nothing spent" in (record.feedback or "")


def test_spend_names_the_pool_by_label() -> None:
    """SHEET-LIVE-05: ``Ember`` (the label, any case) names the ``ember`` pool."""
    record, _ = resolve(cinder(), (member(FIREFIGHTER),), [2] * 5, skill="Douse", dc="1",
                        spend="Ember : 1")
    assert "ember:1" == record.spend


def test_a_stranger_has_nothing_to_spend() -> None:
    """SHEET-LIVE-05: a stranger has no pools; nothing is bought and the party is unchanged."""
    record, state = resolve(cinder(), (member(FIREFIGHTER),), [2], skill="Douse", dc="1",
                            who="Nobody", spend="ember:1")
    assert (None, 4) == (record.spend, left(state))


def test_spends_chain_across_checks_in_one_reply() -> None:
    """SPEC §3, SHEET-CHK-08: the second check spends from what the first left: 4 → 2 → 0, and
    a third finds nothing (``insufficient``)."""
    ruleset = cinder()
    state = GameState(ruleset=ruleset.id, party=(member(FIREFIGHTER),))
    tag = '[skill_check: skill="Douse" dc="1" spend="ember:2"]'
    reply = resolve_reply(f"{tag} then {tag} and {tag}", state,
                          Context(ruleset=ruleset, dice=Dice(5)))
    records = [r for r in reply.records if isinstance(r, CheckRecord)]
    assert ["ember:2", "ember:2", None] == [r.spend for r in records]
    assert ("insufficient", 0) == (records[2].reason, left(reply.state))


def test_the_state_changes_only_the_roller() -> None:
    """CHK-SPEND-13: paying touches only the roller's own pool."""
    other = member(FIREFIGHTER, name="Ash", player=False)
    record, state = resolve(cinder(), (member(FIREFIGHTER), other), [], skill="Douse", dc="1",
                            who="Sal", spend="ember:1")
    assert (3, other) == (left(state), state.party[1])
    assert isinstance(state.party[0], Character)
    assert "ember:1" == record.spend
