"""The checks.md audit: requirements no other test cited, or cited only inside a broad range.

Each test resolves real tags against real rulesets (Gravewatch, Ember Roads, the 5e example, or
the page's reference blocks on Ember Roads' sheet) with scripted dice, and asserts what the Game
Master and the chat would see.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from middleware.dice import Dice
from middleware.pipeline import resolve_reply
from middleware.resolve import Context
from middleware.resolve.checks import resolve_check
from middleware.resolve.checks.record import CheckRecord
from middleware.rules.load import load_ruleset, validate_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.state import Character, GameState, Live, Sheet
from tests.checks.pool_helpers import (
    FIREFIGHTER,
    WARDEN,
    attrs_of,
    bram,
    cinder,
    gravewatch,
    member,
    resolve,
)
from tests.rules.kind_examples import BLADES, GENESYS, ruleset_with
from tests.rulesets import bundled_json, ruleset

SHEET_MATH: dict[str, Any] = {
    "abilityModifier": {"op": "identity"},
    "proficiencyTiers": [{"id": "rating_0", "label": "0"},
                         {"id": "rating_1", "label": "1", "flat": 1}],
}
"""One sheet math for every kind (CHK-COMMON-01): Ada's Reckon is Eye 2 + rating 1 = 3."""

KINDS: dict[str, dict[str, Any]] = {
    "dice-sum": {"kind": "dice-sum", "dice": {"count": 2, "sides": 6}, **SHEET_MATH},
    "dice-pool": {"kind": "dice-pool", "die": {"sides": 6}, **SHEET_MATH,
                  "pool": {"min": 0, "max": 10}, "target": {"default": 4, "min": 4, "max": 4}},
    "dice-highest": {**copy.deepcopy(BLADES), **SHEET_MATH},
    "roll-against": {"kind": "roll-against", "dice": {"count": 1, "sides": 6}, **SHEET_MATH,
                     "against": "at-most"},
    "symbol-pool": {**copy.deepcopy(GENESYS), **SHEET_MATH},
}


def hero(build: dict[str, Any], name: str = "Ada") -> Character:
    return Character(name=name, player=True, sheet=Sheet.model_validate({"v": 1, "build": build}),
                     live=Live())


ADA = hero({"abilities": {"eye": 2}, "skills": {"reckon": "rating_1"}})


def check(ruleset: Ruleset, who: Character, faces: list[int],
          **attrs: str) -> tuple[CheckRecord, list[int]]:
    """One check with exactly ``faces`` thrown: the record and every face the engine threw."""
    dice = Dice(1, script=faces)
    tag = Tag("skill_check", attrs, (), "[skill_check: ...]", 0, 18)
    state = GameState(ruleset=ruleset.id, party=(who,))
    record = resolve_check(tag, state, Context(ruleset=ruleset, dice=dice)).record
    assert isinstance(record, CheckRecord)
    assert 0 == dice.script_left
    return record, list(dice.thrown)


def reply(text: str, party: tuple[Character, ...], faces: list[int],
          ruleset: Ruleset | None = None) -> tuple[str, list[CheckRecord], GameState]:
    """A whole reply resolved with ``faces`` first: rewritten text, check records, state after."""
    ruleset = ruleset or gravewatch()
    state = GameState(ruleset=ruleset.id, party=party)
    done = resolve_reply(text, state, Context(ruleset=ruleset, dice=Dice(3, script=faces)))
    return (done.text, [r for r in done.records if isinstance(r, CheckRecord)], done.state)


def pools(state: GameState, pool: str = "resolve") -> dict[str, int]:
    return {c.name: c.live.pools[pool].value for c in state.party}


def tidemark() -> Ruleset:
    return ruleset("tidemark-d20")


# --- CHK-COMMON -----------------------------------------------------------------------------


def test_one_sheet_number_means_what_each_kind_says() -> None:
    """CHK-COMMON-01/07: the same sheet (Reckon = 3) under each kind: dice-sum adds 3 to 2d6;
    dice-pool and dice-highest throw 3 dice; roll-against reads the roll against 3; symbol-pool
    keeps Eye 2 and rank 1 apart: 2 dice, 1 of them upgraded to Proficiency."""
    def read(kind: str, faces: list[int], **attrs: str) -> tuple[Any, ...]:
        record, thrown = check(load_ruleset(ruleset_with(KINDS[kind])), ADA, faces,
                               skill="Reckon", **attrs)
        return record.dice, record.total, record.dc, thrown

    assert ("2d6", 10, 9, [3, 4]) == read("dice-sum", [3, 4], dc="9")
    assert ("3d6", 2, 2, [5, 4, 1]) == read("dice-pool", [5, 4, 1], dc="2")
    assert ("3d6", 5, 4, [5, 4, 1]) == read("dice-highest", [5, 4, 1], dc="4")
    assert ("1d6", 4, 3, [4]) == read("roll-against", [4])
    symbols, _, _, thrown = read("symbol-pool", [2, 2, 1], dc="1")
    assert ("1 proficiency 1 ability vs 1 difficulty", [2, 2, 1]) == (symbols, thrown)


@pytest.mark.parametrize(("score", "modifier"), [(10, 0), (11, 0), (15, 2), (8, -1), (3, -4)])
def test_five_e_ability_modifier_is_floor_of_half_the_score_less_ten(score: int,
                                                                     modifier: int) -> None:
    """CHK-COMMON-03 derived (the bundled Tidemark, 5e's floorHalfMinusTen): a Brawn check with
    Brawn 10 → +0, 11 → +0, 15 → +2, 8 → −1, 3 → −4 on the record's modifier."""
    ruleset = tidemark()
    record, _ = check(ruleset, hero({"abilities": {"brawn": score}}), [10], skill="Brawn",
                      dc="10")
    assert (modifier, 10 + modifier) == (record.modifier, record.total)


def test_identity_and_step_table_modifiers() -> None:
    """CHK-COMMON-02/04, SPEC §10: Lantern and Ledger (identity) adds Eye 2 itself; a step table
    [[0, -1], [2, 1], [3, 3]] gives Eye 2 → +1, Eye 3 → +3, and Eye −1 (below the first row)
    the first row's −1."""
    identity, _ = check(load_ruleset(bundled_json("lantern-and-ledger")),
                        hero({"abilities": {"eye": 2}}), [3, 4], skill="Eye", dc="8")
    data = bundled_json("lantern-and-ledger")
    data["resolution"]["abilityModifier"] = {"op": "stepTable",
                                             "table": [[0, -1], [2, 1], [3, 3]]}
    steps = load_ruleset(data)
    numbers = [check(steps, hero({"abilities": {"eye": eye}}), [3, 4], skill="Eye",
                     dc="8")[0].modifier for eye in (2, 3, -1)]
    assert (2, [1, 3, -1]) == (identity.modifier, numbers)


def test_first_tier_for_unlisted_skills_and_multiplier_times_the_bonus() -> None:
    """CHK-COMMON-05/06 (Tidemark, level 5 → proficiency bonus 3): Hauling trained with Brawn 15
    → +2 +3 = +5; expert at level 1 → +2 +2×2 = +6; half-trained at level 1 → +2 +1 = +3;
    Rigging, not listed, takes the first tier (×0): Deftness 14 → +2."""
    ruleset = tidemark()

    def modifier(skill: str, tier: str, level: int) -> int:
        build = {"abilities": {"brawn": 15, "deft": 14}, "skills": {"haul": tier},
                 "fields": {"level": level}}
        return check(ruleset, hero(build), [10], skill=skill, dc="10")[0].modifier

    assert [5, 6, 3, 2] == [modifier("Haul", "proficient", 5),
                            modifier("Haul", "expertise", 1),
                            modifier("Haul", "half", 1),
                            modifier("Rigging", "proficient", 5)]


def test_the_engine_throws_the_dice_and_discards_what_the_model_wrote() -> None:
    """CHK-COMMON-12, CHK-POOL-26: a tag carrying the model's own ``rolls``, ``used``, ``total``
    and ``result`` is rolled afresh: Sal's five dice 10, 8, 7, 3, 1 (+4 from the explosion) give
    2 net successes on Cinder Watch, and the model's critical success appears nowhere."""
    text, records, _ = reply(
        '[skill_check: skill="Douse" dc="2" who="Sal" rolls="10|10|10|10|10" used="5" '
        'total="5" result="critical_success"]', (member(FIREFIGHTER),), [10, 8, 7, 3, 1, 4],
        cinder())
    assert ([10, 8, 7, 3, 1, 4], 2, "success") == (records[0].rolls, records[0].total,
                                                   records[0].result)
    assert ('rolls="10|8|7|3|1|4"' in text, "critical_success" in text) == (True, False)


# --- CHK-SCOPE ------------------------------------------------------------------------------


def test_a_check_has_exactly_one_roller() -> None:
    """CHK-SCOPE-01: opposed pools are not modelled: ``opposed=``/``vs=`` naming Ash is
    ignored; only Sal's five dice (and one explosion) are thrown and only Sal is recorded."""
    text = '[skill_check: skill="Douse" dc="2" who="Sal" opposed="Ash the Tall" vs="Ash"]'
    ash = member(FIREFIGHTER, name="Ash the Tall", player=False)
    _, records, state = reply(text, (member(FIREFIGHTER), ash), [10, 8, 7, 3, 1, 4], cinder())
    assert (1, "Sal", 5, 6) == (len(records), records[0].who, records[0].pool,
                                len(records[0].rolls))
    assert {"Sal": 4, "Ash the Tall": 4} == pools(state, "ember")


def test_a_wild_die_pool_is_no_kind_of_ours() -> None:
    """CHK-SCOPE-02: a summed pool with a wild die would need its own kind: a ``kind`` outside
    the five, or a ``wildDie`` key on a dice-pool, is refused at import at its JSON path."""
    unknown = bundled_json("cinder-watch")
    unknown["resolution"]["kind"] = "wild-die"
    wild = bundled_json("cinder-watch")
    wild["resolution"]["wildDie"] = {"sides": 6}
    assert (["$.resolution.kind"], ["$.resolution.wildDie"]) == (
        [p.path for p in validate_ruleset(unknown)], [p.path for p in validate_ruleset(wild)])


def test_free_reroll_standing_spend_and_a_chosen_charm_are_paid_differently() -> None:
    """CHK-SCOPE-03: the system's free ``reroll="careful"`` costs nothing; the standing
    ``resolution.spend`` pays Resolve; Steady Hand, Bram's chosen charm, pays its own cost."""
    free, _, free_state = reply('[skill_check: skill="Ward" dc="2" who="Wren" reroll="careful"]',
                                (member(WARDEN),), [9, 9, 9, 3, 2, 9, 9])
    _, _, spent = reply('[skill_check: skill="Ward" dc="2" who="Wren" spend="resolve:1"]',
                        (member(WARDEN),), [9, 9, 9, 3, 2])
    _, charm, charmed = reply(
        '[skill_check: skill="Dig" dc="1" who="Bram the Quiet" use="Steady Hand"]',
        (bram(),), [1, 2, 2, 2, 2])
    assert ('reroll="careful"' in free, 4) == (True, pools(free_state)["Wren"])
    assert (3, 3) == (pools(spent)["Wren"], pools(charmed)["Bram the Quiet"])
    assert ("Steady Hand", 1) == (charm[0].use, charm[0].rerolled)


# --- CHK-SPEND and CHK-CHARM cited only inside ranges -----------------------------------------


def test_amount_is_the_price_of_one_purchase() -> None:
    """CHK-SPEND-03: ``amount`` 2 and ``spend="ember:4"`` make 2 purchases (+2 successes)
    and pay 4."""
    ruleset = cinder(spend=[{"pool": "ember", "amount": 2, "successes": 1, "perCheck": 3}])
    record, state = resolve(ruleset, (member(FIREFIGHTER),), [2] * 5, skill="Douse", dc="1",
                            spend="ember:4")
    assert ("ember:4", 2, 0) == (record.spend, record.auto, pools(state, "ember")["Sal"])


def test_one_purchase_buys_everything_the_entry_names() -> None:
    """CHK-SPEND-04: an entry buying ``successes`` 1 and ``dice`` 1: one point adds a sixth die
    to Sal's five and one success after counting."""
    ruleset = cinder(spend=[{"pool": "ember", "amount": 1, "successes": 1, "dice": 1,
                             "perCheck": 1}])
    record, state = resolve(ruleset, (member(FIREFIGHTER),), [2] * 6, skill="Douse", dc="1",
                            spend="ember:1")
    assert (6, 1, 1, 3) == (record.pool, record.auto, record.total,
                            pools(state, "ember")["Sal"])


def test_a_sheet_command_spends_nothing_the_check_spends() -> None:
    """CHK-SPEND-12, CHK-CHARM-11: a ``[sheet:]`` spend is refused (``spend-on-check``) and pays
    nothing; the spend and the entry written on the check itself are what pays (4 → 3 Resolve)."""
    text, records, state = reply(
        '[sheet: op="spend" pool="resolve" amount="1" who="Bram the Quiet"] '
        '[skill_check: skill="Dig" dc="1" who="Bram the Quiet" use="Steady Hand" '
        'spend="resolve:1"]', (bram(),), [2, 2, 2, 2])
    assert text.startswith('[sheet: op="spend" who="Bram the Quiet" result="refused" '
                           'reason="spend-on-check"] [skill_check:')
    assert (1, "Steady Hand", 3) == (len(records), records[0].use, pools(state)["Bram the Quiet"])


def test_the_record_shows_what_spending_and_the_entry_did() -> None:
    """CHK-REC-20, CHK-CHARM-12: Steady Hand on Dig, 1, 1, 7, 3 → the two 1s thrown again (8, 2):
    the rewritten tag shows what was paid, the entry, the success added and the dice re-thrown."""
    _, records, _ = reply(
        '[skill_check: skill="Dig" dc="1" who="Bram the Quiet" use="Steady Hand" '
        'spend="resolve:1"]', (bram(),), [1, 1, 7, 3, 8, 2])
    assert {"spend": "resolve:1", "auto": "1", "use": "Steady Hand", "rerolled": "2"} == \
        attrs_of(records[0], "spend", "auto", "use", "rerolled")


# --- CHK-HIGH and CHK-REC cited only inside ranges --------------------------------------------


def blades(**changes: Any) -> Ruleset:
    resolution = {**copy.deepcopy(BLADES), **changes}
    return load_ruleset(ruleset_with(resolution))


def test_die_sides_give_every_die_its_faces() -> None:
    """CHK-HIGH-02: Blades on d8s: Ada throws 3d8; 7, 2, 1 → 7 "Full success"; two 8s are the
    highest face → "Critical"; ``dc="12"`` is clamped to 8 (keep 1 × 8 sides)."""
    seven, _ = check(blades(die={"sides": 8}), ADA, [7, 2, 1], skill="Reckon", dc="12")
    eights, _ = check(blades(die={"sides": 8}), ADA, [8, 8, 1], skill="Reckon")
    assert ("3d8", 7, "Full success", 8) == (seven.dice, seven.total, seven.outcome, seven.dc)
    assert ("Critical", "critical_success") == (eights.outcome, eights.result)


def test_dark_highest_only_when_a_dark_die_strictly_beats_the_light() -> None:
    """CHK-REC-12, CHK-HIGH-10: Bo's light 4, 2 with a dark 5 → ``darkHighest="true"``; light 6
    and 2 with a dark 6 → no ``darkHighest``."""
    trophy = blades(dark={"label": "Dark", "max": 3, "outcome": "all"})
    bo = hero({"abilities": {"eye": 2}}, name="Bo")
    beaten, _ = check(trophy, bo, [4, 2, 5], skill="Reckon", dark="1")
    tied, _ = check(trophy, bo, [6, 2, 6], skill="Reckon", dark="1")
    assert ({"darkHighest": "true", "dark": "1"}, {"dark": "1"}) == (
        attrs_of(beaten, "darkHighest", "dark"), attrs_of(tied, "darkHighest", "dark"))


# --- derived examples tested only below the resolver until now --------------------------------


def test_lantern_sums_two_dice_and_the_sheet_number_against_a_rung() -> None:
    """CHK-SUM-01/10 derived, end to end on Lantern and Ledger: Eye 2 (identity) + apprentice
    (+1) = 3; ``difficulty="Hard"`` → dc 9; 3 + 4 → total 10, success; 2 + 3 → 8, failure;
    ``"Easy"`` → dc 5."""
    ruleset = load_ruleset(bundled_json("lantern-and-ledger"))
    ada = hero({"abilities": {"eye": 2}, "skills": {"reckon": "apprentice"}})
    hard, _ = check(ruleset, ada, [3, 4], skill="Reckon", difficulty="Hard")
    short, _ = check(ruleset, ada, [2, 3], skill="Reckon", difficulty="Hard")
    easy, _ = check(ruleset, ada, [2, 4], skill="Reckon", difficulty="Easy")
    assert [(9, 3, 10, "success"), (9, 3, 8, "failure"), (5, 3, 9, "success")] == [
        (r.dc, r.modifier, r.total, r.result) for r in (hard, short, easy)]


def test_bram_wards_with_sinew_two_dice_fewer_at_target_eight() -> None:
    """CHK-POOL-26 derived (first vector): ``threshold="8" bonus="-2" with="Sinew"`` → Bram rolls
    Ward on Sinew (the shuttered lantern's Nerve adjustment no longer applies), 2 fewer dice, 8 to
    succeed; 9, 8, 7, 3, 2 → 2 successes vs dc 2; the record shows dc, threshold, −2 and Sinew."""
    sinew = {"with": "Sinew"}
    record, _ = resolve(gravewatch(), (bram(),), [9, 8, 7, 3, 2], skill="Ward", dc="2",
                        who="Bram the Quiet", threshold="8", bonus="-2", **sinew)
    plain, _ = resolve(gravewatch(), (bram(),), [9, 8, 7, 3, 2, 2, 2], skill="Ward", dc="2",
                       who="Bram the Quiet", threshold="8", **sinew)
    assert {"dc": "2", "threshold": "8", "bonus": "-2", "with": "Sinew", "pool": "5"} == \
        attrs_of(record, "dc", "threshold", "bonus", "with", "pool")
    assert (2, "success", 7) == (record.total, record.result, plain.pool)
