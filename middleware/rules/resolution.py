"""The ``resolution`` block: how every check and save is rolled (CHK-COMMON-01).

A discriminated union on ``kind``; each kind is a model of its own in ``rules/kinds/``. Shared keys
(ability modifier, tiers, proficiency, adjust, penaltyFrom, outcomes, overrides, spend) are in
``rules/common.py``.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from middleware.rules.common import (
    AbilityModifier,
    AdjustEntry,
    AgainstRung,
    DcRung,
    FloorHalfMinusTen,
    IdentityModifier,
    Outcomes,
    OutcomeTier,
    Override,
    PoolRung,
    Proficiency,
    ProficiencyTier,
    RerollRule,
    ResolutionBase,
    Rung,
    SpendEntry,
    StepTableModifier,
)
from middleware.rules.kinds.dice_highest import DiceHighest
from middleware.rules.kinds.dice_pool import DicePool
from middleware.rules.kinds.dice_sum import DiceSum, Naturals, NaturalsSetting
from middleware.rules.kinds.roll_against import RollAgainst
from middleware.rules.kinds.symbol_pool import SymbolPool

AnyResolution = DiceSum | DicePool | DiceHighest | RollAgainst | SymbolPool

ResolutionBlock = Annotated[AnyResolution, Field(discriminator="kind")]
"""CHK-COMMON-01: ``resolution`` as the file spells it, picked by ``kind``."""

__all__ = [
    "AbilityModifier",
    "AdjustEntry",
    "AgainstRung",
    "AnyResolution",
    "DcRung",
    "DiceHighest",
    "DicePool",
    "DiceSum",
    "FloorHalfMinusTen",
    "IdentityModifier",
    "Naturals",
    "NaturalsSetting",
    "OutcomeTier",
    "Outcomes",
    "Override",
    "PoolRung",
    "Proficiency",
    "ProficiencyTier",
    "RerollRule",
    "ResolutionBase",
    "ResolutionBlock",
    "RollAgainst",
    "Rung",
    "SpendEntry",
    "StepTableModifier",
    "SymbolPool",
]
