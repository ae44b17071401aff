"""The rulesets bundled with the package load and are what the issue asks for.

Issue: "Bundle at least two rulesets written here (a 2d6 system and a d20 system with proficiency)";
issue 3: four more, one for each of the other check kinds (a d10 pool with explode, cancel, botch
and a standing spend; a dice-highest with a "two sixes" tier; a d100 roll-against with tens dice and
fraction tiers; a symbol pool with its own symbols and dice).
SHEET-FILE-06 / CHK-IMPORT: a bundled file passes every import check, like any other ruleset.
"""

from __future__ import annotations

import json

import pytest

from middleware.rules.kinds.dice_highest import DiceHighest
from middleware.rules.kinds.dice_pool import DicePool
from middleware.rules.kinds.dice_sum import DiceSum
from middleware.rules.kinds.roll_against import RollAgainst
from middleware.rules.kinds.symbol_pool import SymbolPool
from middleware.rules.load import validate_ruleset
from middleware.rules.registry import BUNDLED, bundled_ids, load_bundled

IDS = bundled_ids()
MAX_BYTES = 15 * 1024
"""Bundled examples stay small enough to read in one sitting."""


def test_both_bundled_systems_are_present() -> None:
    """The 2d6 and the d20 rulesets are bundled under their ids."""
    assert {"lantern-and-ledger", "tidemark-d20"} <= set(IDS)


def test_every_check_kind_has_a_bundled_ruleset() -> None:
    """CHK-COMMON-01, issue 3: the four new rulesets are bundled, and together the bundled files
    roll every ``resolution.kind``."""
    kinds = {load_bundled(i).resolution.kind for i in IDS}

    assert {"cinder-watch", "long-shadow", "dim-archive", "far-signal"} <= set(IDS)
    assert {"dice-sum", "dice-pool", "dice-highest", "roll-against", "symbol-pool"} == kinds


CAPABILITY = {"cinder-watch": (1, 37), "long-shadow": (1, 138), "dim-archive": (1, 139),
              "far-signal": (1, 150)}
"""checks.md capability table: pool ``explode.min`` 1.37; dice-highest 1.138; roll-against 1.139;
declaring ``allowOwnUpgrade`` 1.150 (above symbol-pool's 1.141)."""


@pytest.mark.parametrize("ruleset_id", sorted(CAPABILITY))
def test_packaged_kind_rulesets_declare_the_capability_they_need(ruleset_id: str) -> None:
    """checks.md "Capability API versions": a packaged ruleset declares at least the version of
    every feature it uses (compared as numbers, so 1.138 is above 1.37)."""
    declared = str(load_bundled(ruleset_id).capability_api)
    major, minor = (int(part) for part in declared.split("."))

    assert (major, minor) >= CAPABILITY[ruleset_id]


@pytest.mark.parametrize("ruleset_id", IDS)
def test_bundled_ruleset_loads_under_its_own_id(ruleset_id: str) -> None:
    """SPEC §4: ``"ruleset": "<id>"`` in a transcript names the file of that id."""
    assert ruleset_id == load_bundled(ruleset_id).id


@pytest.mark.parametrize("ruleset_id", IDS)
def test_bundled_ruleset_has_no_import_problem(ruleset_id: str) -> None:
    """CHK-IMPORT / SHEET-IMPORT: ``validate`` reports nothing for a bundled file."""
    assert [] == validate_ruleset(BUNDLED / f"{ruleset_id}.json")


@pytest.mark.parametrize("ruleset_id", IDS)
def test_bundled_ruleset_is_small_and_public_domain(ruleset_id: str) -> None:
    """Written here, CC0, and under 15 KB."""
    path = BUNDLED / f"{ruleset_id}.json"
    licence = json.loads(path.read_text(encoding="utf-8"))["license"]["spdx"]

    assert ("CC0-1.0", True) == (licence, path.stat().st_size < MAX_BYTES)


def test_lantern_and_ledger_is_2d6_with_tiers_by_margin() -> None:
    """CHK-SUM-01, CHK-OUT-02/04: 2d6 plus the sheet, three tiers read by margin, Harm penalises."""
    resolution = load_bundled("lantern-and-ledger").resolution
    assert isinstance(resolution, DiceSum) and resolution.outcomes is not None

    dice = (resolution.dice.count, resolution.dice.sides)
    tiers = [(t.label, t.at_least, t.success) for t in resolution.outcomes.tiers]
    assert ((2, 6), "margin", "harm") == (dice, resolution.outcomes.by, resolution.penalty_from)
    assert [("Clean success", 3, True), ("Success at a cost", 0, True), ("Miss", None, False)] \
        == tiers


def test_tidemark_is_d20_with_proficiency_and_naturals_on_checks_only() -> None:
    """CHK-COMMON-03/05/06, CHK-SUM-02/03, SPEC §10: 5e arithmetic; naturals on checks only."""
    ruleset = load_bundled("tidemark-d20")
    resolution = ruleset.resolution
    assert isinstance(resolution, DiceSum) and resolution.proficiency is not None

    multipliers = [t.multiplier for t in resolution.proficiency_tiers]
    assert ((1, 20), [0, 0.5, 1, 2], True) == (
        (resolution.dice.count, resolution.dice.sides), multipliers, resolution.advantage)
    assert ("both", "none") == (ruleset.naturals_for("check"), ruleset.naturals_for("save"))


def test_cinder_watch_is_a_d10_pool_that_explodes_cancels_botches_and_spends_ember() -> None:
    """CHK-POOL-02/05/07/08/09/10, CHK-SPEND-02..08: d10s at target 7 (5..9), tens explode (a check
    may lower it to 9), ones cancel and botch; one Ember buys one success, two per check."""
    resolution = load_bundled("cinder-watch").resolution
    assert isinstance(resolution, DicePool) and resolution.explode is not None
    assert resolution.cancel is not None and resolution.botch is not None

    target = (resolution.target.default, resolution.target.min, resolution.target.max)
    rules = (resolution.die.sides, target, resolution.explode.from_, resolution.explode.min,
             resolution.cancel.up_to, resolution.botch.up_to, resolution.botch.rule)
    spend = [(e.pool, e.amount, e.successes, e.per_check) for e in resolution.spend]
    assert (10, (7, 5, 9), 10, 9, 1, 1, "noSuccesses") == rules
    assert [("ember", 1, 1, 2)] == spend


def test_long_shadow_reads_the_highest_d6_with_a_two_sixes_tier() -> None:
    """CHK-HIGH-01..05/14, CHK-OUT-07: up to six d6, keep the highest, zero dice throws two and
    keeps the lower; two sixes land in the critical tier placed above the single-six tier."""
    resolution = load_bundled("long-shadow").resolution
    assert isinstance(resolution, DiceHighest) and resolution.critical is not None
    assert resolution.outcomes is not None

    shape = (resolution.die.sides, resolution.pool.min, resolution.pool.max, resolution.keep,
             resolution.zero_dice, resolution.critical.count)
    tiers = [(t.label, t.on, t.at_least, t.success) for t in resolution.outcomes.tiers]
    assert (6, 0, 6, 1, "lowest-of-two", 2) == shape
    assert [("Two sixes", "critical-success", None, True), ("Clean job", None, 6, True),
            ("Done, at a cost", None, 4, True), ("It goes bad", None, None, False)] == tiers


def test_dim_archive_rolls_d100_under_with_tens_dice_and_fraction_tiers() -> None:
    """CHK-AGAINST-02..10: 1d100 at most the target, up to two tens dice, Hard halves and Extreme
    fifths the number; fraction tiers regular/hard/extreme, 01 critical, 100 (96+ under 50) fumble."""
    resolution = load_bundled("dim-archive").resolution
    assert isinstance(resolution, RollAgainst) and resolution.tens is not None
    assert resolution.outcomes is not None

    shape = ((resolution.dice.count, resolution.dice.sides), resolution.against,
             resolution.tens.max, resolution.outcomes.by)
    ladder = [(r.label, r.dc, r.divide) for r in resolution.difficulty_ladder]
    tiers = [(t.id, t.at_least) for t in resolution.outcomes.tiers]
    fumbles = [(r.from_, r.to, r.when_target.below if r.when_target else None)
               for r in resolution.critical_failure]
    assert ((1, 100), "at-most", 2, "fraction") == shape
    assert [("Regular", 0, None), ("Hard", 0, 2), ("Extreme", 0, 5)] == ladder
    assert [("critical", None), ("extreme", 5), ("hard", 2), ("regular", 1), ("failure", None),
            ("fumble", None)] == tiers
    assert [(100, 100, None), (96, None, 50)] == fumbles


def test_far_signal_counts_and_cancels_its_own_symbols_on_its_own_dice() -> None:
    """CHK-SYM-01..05/08/10/12/15/17: six symbols (two pairs that cancel, two marks that count),
    six dice, Tuned/Honed for the roller against Static/Storm, Lift and Jam, Focus buys dice."""
    resolution = load_bundled("far-signal").resolution
    assert isinstance(resolution, SymbolPool)

    symbols = [(s.id, s.counts, s.cancels) for s in resolution.symbols]
    dice = [(d.id, len(d.faces)) for d in resolution.dice]
    roles = (resolution.pool.die, resolution.pool.upgrade, resolution.difficulty.die,
             resolution.difficulty.upgrade, resolution.success.symbol,
             resolution.critical_success, resolution.critical_failure,
             resolution.allow_own_upgrade)
    assert [("c", None, None), ("n", None, "c"), ("e", None, None), ("d", None, "e"),
            ("b", "c", None), ("x", "n", None)] == symbols
    assert [("tuned", 6), ("honed", 10), ("static", 6), ("storm", 10), ("lift", 4),
            ("jam", 4)] == dice
    assert ("tuned", "honed", "static", "storm", "c", "b", "x", True) == roles
    assert [("focus", 1, 1)] == [(e.pool, e.amount, e.dice) for e in resolution.spend]
