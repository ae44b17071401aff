"""``symbol-pool``: narrative dice whose faces carry symbols that count and cancel (CHK-SYM)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

from pydantic import Field

from middleware.errors import Problem
from middleware.rules.base import Id, Strict
from middleware.rules.combat import CombatBlock
from middleware.rules.common import DcRung, Label, ResolutionBase
from middleware.rules.problems import RESOLUTION, duplicate_ids


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

    def audit(self, combat: CombatBlock | None) -> Iterator[Problem]:
        """CHK-IMPORT: the problems only this kind can have, each with its JSON path."""
        return check_symbol(self, combat)


def check_symbol(res: SymbolPool, combat: CombatBlock | None) -> Iterator[Problem]:
    """CHK-IMPORT-23/24/26/28/29: symbol and die references, counts, cancels, upgrades, combat."""
    symbols = {s.id for s in res.symbols}
    dice = {d.id for d in res.dice}
    yield from duplicate_ids([s.id for s in res.symbols], f"{RESOLUTION}.symbols", "id")
    yield from duplicate_ids([d.id for d in res.dice], f"{RESOLUTION}.dice", "id")
    yield from _symbol_links(res, symbols)
    for i, die in enumerate(res.dice):
        for j, face in enumerate(die.faces):
            for k, symbol in enumerate(face):
                yield from _known(symbol, symbols, f"{RESOLUTION}.dice[{i}].faces[{j}][{k}]", "symbol")
    for path, die_id in _named_dice(res):
        yield from _known(die_id, dice, path, "die")
    for path, symbol_id in (("success.symbol", res.success.symbol),
                            ("criticalSuccess", res.critical_success),
                            ("criticalFailure", res.critical_failure)):
        if symbol_id is not None:
            yield from _known(symbol_id, symbols, f"{RESOLUTION}.{path}", "symbol")
    if res.allow_own_upgrade and res.pool.upgrade is None:
        yield Problem(f"{RESOLUTION}.allowOwnUpgrade", "allowOwnUpgrade needs pool.upgrade (CHK-IMPORT-28)")
    combat_kind = combat.kind if combat is not None else None
    if combat_kind is not None and combat_kind != "symbol-pool":
        yield Problem("$.combat.kind", "a symbol-pool ruleset's combat must be symbol-pool "
                                       "(CHK-IMPORT-29)")


def _symbol_links(res: SymbolPool, symbols: set[str]) -> Iterator[Problem]:
    """CHK-IMPORT-23/24: no ``counts`` chains or self-reference; one ``cancels`` partner each."""
    counting = {s.id for s in res.symbols if s.counts is not None}
    partners: dict[str, set[str]] = {}
    for s in res.symbols:
        if s.cancels is not None:
            partners.setdefault(s.id, set()).add(s.cancels)
            partners.setdefault(s.cancels, set()).add(s.id)
    for i, s in enumerate(res.symbols):
        path = f"{RESOLUTION}.symbols[{i}]"
        if s.counts is not None:
            yield from _known(s.counts, symbols, f"{path}.counts", "symbol")
            if s.counts == s.id or s.counts in counting:
                yield Problem(f"{path}.counts", "counts may not name itself or a symbol that "
                                                "counts (CHK-IMPORT-23)")
        if s.cancels is not None:
            yield from _known(s.cancels, symbols, f"{path}.cancels", "symbol")
        if len(partners.get(s.id, ())) > 1:
            yield Problem(f"{path}.cancels", f"symbol {s.id!r} has more than one cancels partner "
                                             "(CHK-IMPORT-24)")


def _named_dice(res: SymbolPool) -> Iterator[tuple[str, str]]:
    yield f"{RESOLUTION}.pool.die", res.pool.die
    if res.pool.upgrade is not None:
        yield f"{RESOLUTION}.pool.upgrade", res.pool.upgrade
    yield f"{RESOLUTION}.difficulty.die", res.difficulty.die
    if res.difficulty.upgrade is not None:
        yield f"{RESOLUTION}.difficulty.upgrade", res.difficulty.upgrade
    for name in ("boost", "setback"):
        extra = getattr(res, name)
        if extra is not None:
            yield f"{RESOLUTION}.{name}.die", extra.die


def _known(name: str, known: set[str], path: str, what: str) -> Iterator[Problem]:
    if name not in known:
        yield Problem(path, f"unknown {what} {name!r} (CHK-IMPORT-26)")
