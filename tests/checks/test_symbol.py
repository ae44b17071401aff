"""symbol-pool checks with scripted dice: every CHK-SYM requirement and the page's Genesys vectors
(checks.md §6), end to end through ``resolve_check`` on the reference ruleset."""

from __future__ import annotations

import copy
from typing import Any

from middleware.dice import Dice
from middleware.resolve import Context
from middleware.resolve.checks import resolve_check
from middleware.resolve.checks.outcome import outcomes_from
from middleware.resolve.checks.record import CheckRecord
from middleware.resolve.checks.symbol_pool.odds import pool_odds
from middleware.resolve.checks.symbol_pool.pool import SymbolAsk, build_pool
from middleware.resolve.checks.symbol_pool.resolve import decode_details
from middleware.resolve.checks.symbol_pool.roll import read_symbols, symbol_rules_from
from middleware.rules.kinds.symbol_pool import SymbolPool
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.state import Character, GameState, PoolValue, Sheet
from tests.rules.kind_examples import GENESYS, ruleset_with

RANK_TWO = {"id": "rank_two", "label": "Rank 2", "flat": 2}


def genesys(**changes: Any) -> Ruleset:
    """The page's Genesys resolution (plus an illustrative Rank 2 tier) with ``changes``."""
    resolution = copy.deepcopy(GENESYS)
    resolution["proficiencyTiers"].append(RANK_TWO)
    resolution.update(changes)
    return load_ruleset(ruleset_with(resolution))


def member(name: str, eye: int, reckon: str | None = None, **build: Any) -> Character:
    skills = {"reckon": reckon} if reckon else {}
    return Character(name=name, player=True, sheet=Sheet.model_validate(
        {"v": 1, "build": {"abilities": {"eye": eye}, "skills": skills, **build}}))


KELL = member("Kell", eye=3, reckon="rank_one")       # characteristic 3, rank 1
IVO = member("Ivo", eye=3, reckon="rank_two")         # characteristic 3, rank 2


def check(ruleset: Ruleset, who: Character, faces: list[int],
          **attrs: str) -> tuple[CheckRecord, GameState]:
    """Resolve one tag with exactly ``faces``; the record and the state after it."""
    tag = Tag("skill_check", attrs, (), "[skill_check: ...]", 0, 18)
    dice = Dice(1, script=faces)
    state = GameState(ruleset=ruleset.id, party=(who,))
    resolution = resolve_check(tag, state, Context(ruleset=ruleset, dice=dice))
    assert isinstance(resolution.record, CheckRecord)
    assert 0 == dice.script_left, f"{dice.script_left} scripted faces left"
    return resolution.record, resolution.state


def thrown(ruleset: Ruleset, who: Character, **attrs: str) -> str:
    """The ``thrown=`` of a check whose dice are all seeded (only the pool's make-up matters)."""
    tag = Tag("skill_check", attrs, (), "[skill_check: ...]", 0, 18)
    state = GameState(ruleset=ruleset.id, party=(who,))
    record = resolve_check(tag, state, Context(ruleset=ruleset, dice=Dice(5))).record
    assert isinstance(record, CheckRecord)
    return record.thrown or ""


def res(ruleset: Ruleset) -> SymbolPool:
    assert isinstance(ruleset.resolution, SymbolPool)
    return ruleset.resolution


REF = genesys()
RULES = symbol_rules_from(res(REF))


def test_counts_adds_a_symbol_and_keeps_its_own() -> None:
    """CHK-SYM-02: a triumph adds a success and is still a triumph; a despair adds a failure."""
    assert (("s", 1), ("t", 1)) == read_symbols(RULES, [("t",)]).net
    assert (("f", 1), ("d", 1)) == read_symbols(RULES, [("d",)]).net


def test_cancels_pairs_symbols_one_for_one() -> None:
    """CHK-SYM-03: 3 s and 1 f → 2 s; 1 s and 3 f → 2 f; 2 a and 2 h → nothing left."""
    assert (("s", 2),) == read_symbols(RULES, [("s", "s"), ("s",), ("f",)]).net
    assert (("f", 2),) == read_symbols(RULES, [("s",), ("f", "f"), ("f",)]).net
    assert () == read_symbols(RULES, [("a", "a"), ("h",), ("h",)]).net


def test_a_repeated_id_on_a_face_counts_twice() -> None:
    """CHK-SYM-04: Ability face 4 ``["s","s"]`` is two successes; a blank face is nothing."""
    assert (2, "2s") == (read_symbols(RULES, [("s", "s"), ()]).total,
                         read_symbols(RULES, [("s", "s"), ()]).text)


def test_larger_upgraded_and_sum_builds() -> None:
    """CHK-SYM-05: characteristic 3, rank 2 → 2 Proficiency + 1 Ability; ``build: sum`` → 5
    Ability; the pool is held to ``pool.max`` (6)."""
    ask = SymbolAsk(ability=3, rank=2, dc=0)
    summed = genesys(pool={"die": "ability", "upgrade": "proficiency", "build": "sum"})
    assert "proficiency|proficiency|ability" == thrown(REF, IVO, skill="Reckon", dc="0")
    assert (2, 1) == (build_pool(res(REF), ask).upgraded, build_pool(res(REF), ask).base)
    assert (0, 5) == (build_pool(res(summed), ask).upgraded, build_pool(res(summed), ask).base)
    big = build_pool(res(summed), SymbolAsk(ability=5, rank=4, dc=0))
    assert 6 == big.upgraded + big.base


def test_plain_characteristic_check_has_rank_zero() -> None:
    """CHK-SYM-06: a plain Eye check with 3 → 3 Ability dice, none upgraded."""
    assert "ability|ability|ability" == thrown(REF, KELL, skill="Eye", dc="0")


def test_with_changes_the_characteristic() -> None:
    """CHK-SYM-06, CHK-COMMON-10: Reckon ``with="Hand"`` (Hand 0, rank 1) → 1 Ability die,
    none upgraded (the smaller is 0); ``with=`` is recorded."""
    record, _ = check(REF, KELL, [7], skill="Reckon", dc="0", **{"with": "Hand"})
    assert ("ability", "Hand") == (record.thrown, record.with_)


def test_sheet_bonuses_become_boost_or_setback() -> None:
    """CHK-SYM-07/10: a sheet +1 on Reckon with ``bonus="-2"`` → net −1 → 1 Setback; the base
    pool (1 Proficiency + 2 Ability) is unchanged."""
    helped = member("Kell", eye=3, reckon="rank_one", bonuses={"reckon": 1})
    assert "proficiency|ability|ability|setback" == thrown(REF, helped, skill="Reckon", dc="0",
                                                           bonus="-2")
    assert "proficiency|ability|ability|boost" == thrown(REF, helped, skill="Reckon", dc="0")


def test_dc_counts_opposing_dice_and_is_clamped() -> None:
    """CHK-SYM-08: ``dc="2"`` → 2 Difficulty; ``difficulty="Hard"`` → 3; ``dc="7"`` → 5."""
    def opposing(**attrs: str) -> list[str]:
        return [d for d in thrown(REF, KELL, skill="Eye", **attrs).split("|") if "diff" in d]

    assert 2 == len(opposing(dc="2"))
    assert 3 == len(opposing(difficulty="Hard"))
    assert 5 == len(opposing(dc="7"))
    record, _ = check(REF, member("Nobody", eye=0), [1] * 5, skill="Eye", dc="7")
    assert 5 == record.dc
    assert "dc 7 held to 5 opposing dice." in (record.feedback or "")


def test_upgrade_replaces_opposing_dice_never_adds() -> None:
    """CHK-SYM-09: ``dc="2" upgrade="1"`` → 1 Challenge + 1 Difficulty; ``upgrade="3"`` → 2
    Challenge; ``dc="0" upgrade="1"`` → no opposing dice."""
    zero = member("Nobody", eye=0)
    assert "challenge|difficulty" == thrown(REF, zero, skill="Eye", dc="2", upgrade="1")
    assert "challenge|challenge" == thrown(REF, zero, skill="Eye", dc="2", upgrade="3")
    assert "" == thrown(REF, zero, skill="Eye", dc="0", upgrade="1")


def test_signed_bonus_adds_boost_or_setback_within_max() -> None:
    """CHK-SYM-10, CHK-REC-02: ``+1`` → 1 Boost; ``+5`` → 3 Boost (recorded +3); ``-2`` → 2
    Setback."""
    zero = member("Nobody", eye=0)
    assert "boost" == thrown(REF, zero, skill="Eye", dc="0", bonus="+1")
    record, _ = check(REF, zero, [1, 1, 1], skill="Eye", dc="0", bonus="+5")
    assert ("boost|boost|boost", ("bonus", "+3")) == (
        record.thrown, next(a for a in record.tag_attrs() if a[0] == "bonus"))
    assert "setback|setback" == thrown(REF, zero, skill="Eye", dc="0", bonus="-2")


def test_independent_setback_shares_the_setback_cap() -> None:
    """CHK-SYM-11, CHK-REC-18: ``bonus="2" setback="1"`` → 2 Boost and 1 Setback (``setback=1``);
    ``bonus="-2" setback="2"`` → capped at 3 Setback, ``setback="1"`` recorded."""
    zero = member("Nobody", eye=0)
    both, _ = check(REF, zero, [1, 1, 1], skill="Eye", dc="0", bonus="2", setback="1")
    capped, _ = check(REF, zero, [1, 1, 1], skill="Eye", dc="0", bonus="-2", setback="2")
    assert ("boost|boost|setback", 1) == (both.thrown, both.setback)
    assert ("setback|setback|setback", 1, -2) == (capped.thrown, capped.setback, capped.bonus)


def test_upgrade_own_upgrades_then_adds_dice() -> None:
    """CHK-SYM-12, CHK-REC-18: characteristic 3, rank 1 → 1 Proficiency + 2 Ability;
    ``upgradeOwn="1"`` → 2 Proficiency + 1 Ability; ``upgradeOwn="3"`` → 4 Proficiency, record
    ``upgradeOwn="3"``."""
    allowed = genesys(allowOwnUpgrade=True)
    assert "proficiency|ability|ability" == thrown(allowed, KELL, skill="Reckon", dc="0")
    assert "proficiency|proficiency|ability" == thrown(allowed, KELL, skill="Reckon", dc="0",
                                                       upgradeown="1")
    record, _ = check(allowed, KELL, [1, 1, 1, 1], skill="Reckon", dc="0", upgradeown="3")
    assert ("proficiency|proficiency|proficiency|proficiency", ("upgradeOwn", "3")) == (
        record.thrown, next(a for a in record.tag_attrs() if a[0] == "upgradeOwn"))


def test_upgrade_own_stays_within_pool_max_and_works_with_sum() -> None:
    """CHK-SYM-12, CHK-REC-18: from 1 Proficiency + 2 Ability, ``upgradeOwn="9"`` stops at 6
    Proficiency and records the 5 applied (2 upgrades, 3 added dice); with ``build: "sum"``
    5 Ability and ``upgradeOwn="2"`` → 2 Proficiency + 3 Ability."""
    allowed = genesys(allowOwnUpgrade=True)
    record, _ = check(allowed, KELL, [1] * 6, skill="Reckon", dc="0", upgradeown="9")
    assert (["proficiency"] * 6, 5) == ((record.thrown or "").split("|"), record.upgrade_own)
    summed = genesys(allowOwnUpgrade=True, pool={"die": "ability", "upgrade": "proficiency",
                                                 "build": "sum"})
    assert "proficiency|proficiency|ability|ability|ability" == thrown(
        summed, IVO, skill="Reckon", dc="0", upgradeown="2")


def test_upgrade_own_ignored_unless_allowed_and_upgrade_only_touches_difficulty() -> None:
    """CHK-SYM-13: without ``allowOwnUpgrade`` ``upgradeOwn`` is ignored (no record attribute);
    a negative value is ignored; ``upgrade=`` never touches the roller's dice."""
    record, _ = check(REF, KELL, [1, 1, 1], skill="Reckon", dc="0", upgradeown="2")
    assert ("proficiency|ability|ability", None) == (record.thrown, record.upgrade_own)
    assert "not offered" in (record.feedback or "")
    allowed = genesys(allowOwnUpgrade=True)
    assert "proficiency|ability|ability" == thrown(allowed, KELL, skill="Reckon", dc="0",
                                                   upgradeown="-2")
    assert "proficiency|ability|ability|challenge" == thrown(REF, KELL, skill="Reckon", dc="1",
                                                             upgrade="2")


def test_success_needs_that_many_net_successes() -> None:
    """CHK-SYM-14: with ``needed`` 2, one net success fails; two pass."""
    ruleset = genesys(success={"symbol": "s", "needed": 2})
    one, _ = check(ruleset, KELL, [2, 1, 1], skill="Reckon", dc="0")       # s, -, -
    two, _ = check(ruleset, KELL, [4, 1, 1], skill="Reckon", dc="0")       # ss, -, -
    assert ((1, False), (2, True)) == ((one.total, one.success), (two.total, two.success))


def test_genesys_triumph_vector_passes_with_a_critical_success() -> None:
    """CHK-SYM-15, CHK-REC-16: Proficiency 12 [t], Ability 7 [s a], Ability 8 [a a], Difficulty
    2 [f] → 1s 3a 1t, passes, critical success; ``rolls="12|7|8|2"``."""
    record, _ = check(REF, KELL, [12, 7, 8, 2], skill="Reckon", dc="1")
    attrs = dict(record.tag_attrs())
    assert ("1s 3a 1t", "12|7|8|2", "critical_success", "1", "sum") == (
        attrs["symbols"], attrs["rolls"], attrs["result"], attrs["total"], attrs["resolution"])
    assert "proficiency|ability|ability|difficulty" == attrs["thrown"]


def test_genesys_cancelled_triumph_fails_but_stays_marked() -> None:
    """CHK-SYM-15: Proficiency 12 [t], Ability 7 [s a], Difficulty 8 [f h], Difficulty 2 [f]
    → ``symbols="1t"``, fails (0 < 1), the critical success still marked."""
    one_ability = member("Kell", eye=2, reckon="rank_one")   # 1 Proficiency + 1 Ability
    record, _ = check(REF, one_ability, [12, 7, 8, 2], skill="Reckon", dc="2")
    details = decode_details(record.symbol_details or "")
    assert ("1t", 0, False, "failure") == (record.symbols, record.total, record.success,
                                           record.result)
    assert (True, False) == (details["criticalSuccess"], details["criticalFailure"])
    assert "Triumph rolled" in (record.feedback or "")


def test_both_marks_on_one_check() -> None:
    """CHK-SYM-15: a Triumph and a Despair mark both; neither changes the net result."""
    record, _ = check(REF, KELL, [12, 1, 1, 12], skill="Reckon", dc="1", upgrade="1")
    details = decode_details(record.symbol_details or "")
    assert ("1t 1d", 0, False) == (record.symbols, record.total, record.success)
    assert (True, True) == (details["criticalSuccess"], details["criticalFailure"])
    assert "failure" == record.critical


TIERS = [{"id": "great", "label": "Great", "atLeast": 2, "success": True},
         {"id": "ok", "label": "Made it", "atLeast": 1, "success": True},
         {"id": "miss", "label": "Missed"}]


def test_tiers_read_total_or_margin() -> None:
    """CHK-SYM-16: 1 net success with needed 1 → total 1, margin 1 (``Made it``); 0 net →
    margin 0 (``Missed``); with needed 2 by margin 1 net is 0 (Missed), by total 1 (Made it);
    the Triumph stays marked."""
    by_margin = genesys(outcomes={"by": "margin", "tiers": TIERS})
    by_total = genesys(outcomes={"by": "total", "tiers": TIERS},
                       success={"symbol": "s", "needed": 2})
    needs_two = genesys(outcomes={"by": "margin", "tiers": TIERS},
                        success={"symbol": "s", "needed": 2})
    one, _ = check(by_margin, KELL, [2, 1, 1], skill="Reckon", dc="0")
    none, _ = check(by_margin, KELL, [1, 1, 1], skill="Reckon", dc="0")
    assert ("Made it", True) == (one.outcome, one.success)
    assert ("Missed", False) == (none.outcome, none.success)
    assert "Missed" == check(needs_two, KELL, [2, 1, 1], skill="Reckon", dc="0")[0].outcome
    assert "Made it" == check(by_total, KELL, [2, 1, 1], skill="Reckon", dc="0")[0].outcome
    marked, _ = check(by_margin, KELL, [12, 1, 1], skill="Reckon", dc="0")
    assert (True, "Made it") == (decode_details(marked.symbol_details or "")["criticalSuccess"],
                                 marked.outcome)


def spender(pluck: int) -> Character:
    return member("Kell", eye=3, reckon="rank_one",
                  ).model_copy(update={"live": KELL.live.model_copy(
                      update={"pools": {"pluck": PoolValue(value=pluck)}})})


SPEND = [{"pool": "pluck", "amount": 1, "dice": 1, "perCheck": 2}]


def test_spend_buys_base_dice_and_pays() -> None:
    """CHK-SYM-17, CHK-SPEND-13/15: ``spend="pluck:1"`` adds an Ability die and pays 1 Pluck;
    ``pluck:5`` is clamped to 2; with 1 Pluck left ``pluck:2`` buys and pays nothing."""
    ruleset = genesys(spend=SPEND)
    one, after = check(ruleset, spender(3), [1] * 4, skill="Reckon", dc="0", spend="pluck:1")
    assert ("proficiency|ability|ability|ability", "pluck:1") == (one.thrown, one.spend)
    assert 2 == after.party[0].live.pools["pluck"].value
    two, after = check(ruleset, spender(3), [1] * 5, skill="Reckon", dc="0", spend="pluck:5")
    assert ("pluck:2", 1) == (two.spend, after.party[0].live.pools["pluck"].value)
    broke, after = check(ruleset, spender(1), [1] * 3, skill="Reckon", dc="0", spend="pluck:2")
    assert (None, 1) == (broke.spend, after.party[0].live.pools["pluck"].value)


def test_spend_stays_within_pool_max() -> None:
    """CHK-SYM-17: a pool one short of ``pool.max`` buys one die and pays one point only."""
    ruleset = genesys(spend=SPEND, pool={"die": "ability", "upgrade": "proficiency", "max": 4})
    record, after = check(ruleset, spender(3), [1] * 4, skill="Reckon", dc="0", spend="pluck:2")
    assert (4, "pluck:1", 2) == (len(record.rolls), record.spend,
                                after.party[0].live.pools["pluck"].value)


def test_empty_result_names_no_symbols() -> None:
    """CHK-SYM-20, CHK-REC-19: all blanks → ``symbols=""`` on the tag; the GM hears so."""
    record, _ = check(REF, KELL, [1, 1, 1, 1], skill="Reckon", dc="1")
    assert ("symbols", "") in record.tag_attrs()
    assert "no symbols left" in (record.feedback or "")


def test_record_carries_details_and_the_exact_chance() -> None:
    """CHK-REC-16/17, SPEC §6: ``symbolDetails`` decodes to each die's label, face and symbols;
    ``dice=`` names the pool as a roll by name reads it; ``chance`` is the exact odds."""
    record, _ = check(REF, KELL, [12, 7, 8, 2], skill="Reckon", dc="1")
    details = decode_details(record.symbol_details or "")
    assert {"die": "proficiency", "label": "Proficiency", "face": 12, "symbols": ["t"],
            "side": "roller"} == details["dice"][0]
    assert "1 proficiency 2 ability vs 1 difficulty" == record.dice
    plan = (("proficiency", 1, "roller"), ("ability", 2, "roller"), ("difficulty", 1, "opposing"))
    assert pool_odds(RULES, plan, outcomes_from(None)).chance == record.chance
    assert all(c not in (record.symbol_details or "") for c in '"[]')


def test_overrides_may_change_the_rules_but_not_the_dice() -> None:
    """CHK-SYM-21, CHK-OVR-02: an override that needs two successes on Reckon applies to it."""
    ruleset = genesys(overrides=[{"id": "hard", "label": "Hard reckoning", "skills": ["reckon"],
                                  "set": {"success": {"symbol": "s", "needed": 2}}}])
    record, _ = check(ruleset, KELL, [2, 1, 1], skill="Reckon", dc="0")
    assert (1, False) == (record.total, record.success)
