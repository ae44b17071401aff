"""The rulesets bundled with the package load and are what the issue asks for.

Issue: "Bundle at least two rulesets written here (a 2d6 system and a d20 system with proficiency)";
SHEET-FILE-06 / CHK-IMPORT: a bundled file passes every import check, like any other ruleset.
"""

from __future__ import annotations

import json

import pytest

from middleware.rules.kinds.sum import DiceSum
from middleware.rules.load import validate_ruleset
from middleware.rules.registry import BUNDLED, bundled_ids, load_bundled

IDS = bundled_ids()
MAX_BYTES = 15 * 1024
"""Bundled examples stay small enough to read in one sitting."""


def test_both_bundled_systems_are_present() -> None:
    """The 2d6 and the d20 rulesets are bundled under their ids."""
    assert {"lantern-and-ledger", "tidemark-d20"} <= set(IDS)


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
