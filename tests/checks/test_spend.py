"""Standing spend on a pool check: ``spend="<pool>:<points>"`` under ``resolution.spend``
(checks.md §10, CHK-SPEND-01..16; SHEET-TRN-10 Bram vectors; SHEET-CHK-05/08)."""

from __future__ import annotations

from typing import Any

from middleware.dice import Dice
from middleware.pipeline import resolve_reply
from middleware.resolve import Context
from middleware.resolve.checks.record import CheckRecord
from middleware.state import Character, GameState
from tests.checks.pool_helpers import WARDEN, attrs_of, bram, gravewatch, member, resolve


def resolve_left(state: GameState) -> int:
    """Resolve left to the first party member (its maximum, 6, when nothing is stored)."""
    stored = state.party[0].live.pools.get("resolve")
    return stored.value if stored is not None else 6


def spend_rule(**rule: Any) -> list[dict[str, Any]]:
    return [{"pool": "resolve", "amount": 1, **rule}]


def test_bram_spends_one_resolve_for_one_success() -> None:
    """SHEET-TRN-10, CHK-SPEND-05/11/16: ``spend="resolve:1"`` pays 1 Resolve (4 → 3) and adds
    1 automatic success after counting; the record shows ``spend`` and ``auto``."""
    record, state = resolve(gravewatch(), (bram(),), [], skill="Ward", dc="2",
                            who="Bram the Quiet", spend="resolve:1")
    assert ({"spend": "resolve:1", "auto": "1"}, 3) == (attrs_of(record, "spend", "auto"),
                                                       resolve_left(state))
    assert record.total == (record.used or 0) + record.modifier
    assert record.modifier >= 1


def test_spend_past_per_check_is_clamped() -> None:
    """SHEET-TRN-10, CHK-SPEND-08/15: ``resolve:5`` is clamped to 2 purchases and pays 2."""
    record, state = resolve(gravewatch(), (bram(),), [], skill="Ward", dc="2",
                            spend="resolve:5")
    assert ("resolve:2", 2, 2) == (record.spend, record.auto, resolve_left(state))


def test_bought_successes_come_after_cancelling() -> None:
    """CHK-SPEND-05: 8, 1, 2, 3, 4 → 1 success cancelled by the 1 → 0, then +2 bought → 2."""
    record, _ = resolve(gravewatch(), (member(WARDEN),), [8, 1, 2, 3, 4], skill="Ward",
                        dc="2", spend="resolve:2")
    assert (1, 1, 2, True) == (record.used, record.modifier, record.total, record.success)


def test_all_or_nothing_when_the_pool_cannot_cover_it() -> None:
    """CHK-SPEND-13/16 derived: ``resolve:2`` with only 1 left → nothing bought or paid, and the
    roll is exactly what it would have been."""
    party = (member(WARDEN, live={"pools": {"resolve": {"value": 1}}}),)
    spent, state = resolve(gravewatch(), party, [8, 7, 2, 3, 4], skill="Ward", dc="2",
                           spend="resolve:2")
    plain, _ = resolve(gravewatch(), party, [8, 7, 2, 3, 4], skill="Ward", dc="2")
    assert (None, None, "insufficient", 1) == (spent.spend, spent.auto, spent.reason,
                                               resolve_left(state))
    assert plain.tag_attrs() == [a for a in spent.tag_attrs() if a[0] != "reason"]


def test_per_check_from_the_sheet() -> None:
    """CHK-SPEND-08 derived: ``perCheck: {"abilityScore": "nerve"}`` with Nerve 0 buys and pays
    nothing; with Nerve 3, ``resolve:4`` buys 3."""
    ruleset = gravewatch(spend=spend_rule(successes=1, perCheck={"abilityScore": "nerve"}))
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
    dice before wounds and bonus dice: an untrained Wrestle (Sinew 2 − 1) allows 1."""
    ruleset = gravewatch(spend=spend_rule(successes=1, perCheck="pool"))
    record, state = resolve(ruleset, (member(WARDEN),), [2], skill="Wrestle", dc="1",
                            spend="resolve:3", bonus="-1")
    assert ("resolve:1", 3) == (record.spend, resolve_left(state))


def test_points_short_of_a_purchase_buy_nothing_and_are_not_paid() -> None:
    """CHK-SPEND-14, Ambiguity 20 derived: ``amount`` 2, ``spend="resolve:3"`` → 1 purchase, 2
    paid; the odd point is kept. ``resolve:1`` buys nothing."""
    ruleset = gravewatch(spend=[{"pool": "resolve", "amount": 2, "successes": 1,
                                 "perCheck": 3}])
    one, state = resolve(ruleset, (member(WARDEN),), [2] * 5, skill="Ward", dc="1",
                         spend="resolve:3")
    short, short_state = resolve(ruleset, (member(WARDEN),), [2] * 5, skill="Ward", dc="1",
                                 spend="resolve:1")
    assert ("resolve:2", 1, 2) == (one.spend, one.auto, resolve_left(state))
    assert (None, 4) == (short.spend, resolve_left(short_state))


def test_bought_dice_are_thrown_with_the_pool_within_its_limits() -> None:
    """CHK-SPEND-06, Ambiguity 5: 2 bought dice join a 5-die pool (7 dice); with ``pool.max`` 6
    the pool holds at 6."""
    rule = spend_rule(dice=2, perCheck=1)
    record, _ = resolve(gravewatch(spend=rule), (member(WARDEN),), [2] * 7, skill="Ward",
                        dc="1", spend="resolve:1")
    held, _ = resolve(gravewatch(spend=rule, pool={"min": 1, "max": 6}, difficultyLadder=[]),
                      (member(WARDEN),), [2] * 6, skill="Ward", dc="1", spend="resolve:1")
    assert (7, "resolve:1", None, 6) == (record.pool, record.spend, record.auto, held.pool)


def test_a_bought_until_reroll_beats_careful_and_hides_reroll() -> None:
    """CHK-SPEND-07, CHK-POOL-15 derived: a spend's reroll (upTo 6, until) beside "careful"
    (upTo 6, once) is the one rolled, and the record carries no ``reroll=``."""
    ruleset = gravewatch(spend=spend_rule(reroll={"upTo": 6, "mode": "until"}, perCheck=1))
    record, _ = resolve(ruleset, (member(WARDEN),), [3, 9, 8, 9, 8, 5, 7], skill="Ward",
                        dc="1", reroll="careful", spend="resolve:1")
    assert (None, 2, [3, 9, 8, 9, 8, 5, 7]) == (record.reroll, record.rerolled, record.rolls)


def test_a_pool_without_a_spend_rule_is_ignored() -> None:
    """CHK-SPEND-11, CHK-COMMON-11: ``spend=`` naming a pool no rule takes buys nothing."""
    record, state = resolve(gravewatch(), (member(WARDEN),), [2] * 5, skill="Ward", dc="1",
                            spend="grit:1")
    assert (None, 4) == (record.spend, resolve_left(state))
    assert "nothing spent" in (record.feedback or "")


def test_spend_names_the_pool_by_label() -> None:
    """SHEET-LIVE-05: ``Resolve`` (the label, any case) names the ``resolve`` pool."""
    record, _ = resolve(gravewatch(), (member(WARDEN),), [2] * 5, skill="Ward", dc="1",
                        spend="Resolve : 1")
    assert "resolve:1" == record.spend


def test_a_stranger_has_nothing_to_spend() -> None:
    """SHEET-LIVE-05: a stranger has no pools; nothing is bought and the party is unchanged."""
    record, state = resolve(gravewatch(), (member(WARDEN),), [2], skill="Ward", dc="1",
                            who="Nobody", spend="resolve:1")
    assert (None, 4) == (record.spend, resolve_left(state))


def test_spends_chain_across_checks_in_one_reply() -> None:
    """SPEC §3, SHEET-CHK-08: the second check spends from what the first left: 4 → 2 → 0, and
    a third finds nothing (``insufficient``)."""
    ruleset = gravewatch()
    state = GameState(ruleset=ruleset.id, party=(bram(),))
    tag = '[skill_check: skill="Dig" dc="1" spend="resolve:2"]'
    reply = resolve_reply(f"{tag} then {tag} and {tag}", state,
                          Context(ruleset=ruleset, dice=Dice(5)))
    records = [r for r in reply.records if isinstance(r, CheckRecord)]
    assert ["resolve:2", "resolve:2", None] == [r.spend for r in records]
    assert ("insufficient", 0) == (records[2].reason, resolve_left(reply.state))


def test_the_state_changes_only_the_roller() -> None:
    """CHK-SPEND-13: paying touches only the roller's own pool."""
    other = member(WARDEN, name="Ash", player=False)
    record, state = resolve(gravewatch(), (bram(), other), [], skill="Ward", dc="1",
                            who="Bram the Quiet", spend="resolve:1")
    assert (3, other) == (resolve_left(state), state.party[1])
    assert isinstance(state.party[0], Character)
    assert "resolve:1" == record.spend
