"""``symbol-pool``: narrative dice whose faces carry symbols that count and cancel (CHK-SYM)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from middleware.rules.base import Id, Strict
from middleware.rules.common import DcRung, Label, ResolutionBase


class Symbol(Strict):
    """CHK-SYM-01..03: a named symbol; ``counts`` adds another, ``cancels`` pairs one for one."""

    id: Id
    label: Label
    text: str | None = Field(default=None, max_length=200)
    counts: str | None = None
    cancels: str | None = None


Face = Annotated[tuple[str, ...], Field(max_length=3)]
"""CHK-SYM-04 / CHK-IMPORT-25: a face carries at most three symbol ids; ``[]`` is blank."""


class SymbolDie(Strict):
    """CHK-SYM-04: a die of 2..20 faces, each a list of up to three symbol ids."""

    id: Id
    label: Label
    faces: tuple[Face, ...] = Field(min_length=2, max_length=20)


class SuccessRule(Strict):
    """CHK-SYM-14: passes when at least ``needed`` of ``symbol`` remain after cancelling."""

    symbol: str
    needed: int = Field(default=1, ge=1, le=20)


class SymbolPoolSize(Strict):
    """CHK-SYM-05: the roller's dice, built ``larger-upgraded`` or ``sum``, at most 12."""

    die: str
    upgrade: str | None = None
    max: int = Field(default=6, ge=1, le=12)
    build: Literal["larger-upgraded", "sum"] = "larger-upgraded"


class DifficultyDice(Strict):
    """CHK-SYM-08/09: the opposing dice, at most 12 (default 5)."""

    die: str
    upgrade: str | None = None
    max: int = Field(default=5, ge=0, le=12)


class ExtraDice(Strict):
    """CHK-SYM-10/11: boost or setback dice, at most 6 (default 3)."""

    die: str
    max: int = Field(default=3, ge=0, le=6)


class SymbolPool(ResolutionBase):
    """CHK-SYM-01..21: Genesys-style narrative dice."""

    kind: Literal["symbol-pool"]
    symbols: tuple[Symbol, ...] = Field(min_length=2, max_length=10)
    dice: tuple[SymbolDie, ...] = Field(min_length=2, max_length=8)
    success: SuccessRule
    pool: SymbolPoolSize
    difficulty: DifficultyDice
    boost: ExtraDice | None = None
    setback: ExtraDice | None = None
    critical_success: str | None = Field(default=None, alias="criticalSuccess")
    critical_failure: str | None = Field(default=None, alias="criticalFailure")
    allow_own_upgrade: bool = Field(default=False, alias="allowOwnUpgrade")
    difficulty_ladder: tuple[DcRung, ...] = Field(
        default=(), alias="difficultyLadder", max_length=40
    )
