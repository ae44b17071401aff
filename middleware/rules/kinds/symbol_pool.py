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
    """The symbol's id, as dice faces name it (``s``, ``a``, ``t``)."""
    label: Label
    """The symbol's name (``Success``, ``Advantage``, ``Triumph``)."""
    text: str | None = Field(default=None, max_length=200)
    """What the symbol means, told to the Game Master (up to 200 characters)."""
    counts: str | None = None
    """Another symbol this one also adds one of before cancelling (a triumph adds a success)."""
    cancels: str | None = None
    """The symbol this one cancels one for one (a failure cancels a success)."""


Face = Annotated[tuple[str, ...], Field(max_length=3)]
"""CHK-SYM-04 / CHK-IMPORT-25: a face carries at most three symbol ids; ``[]`` is blank."""


class SymbolDie(Strict):
    """CHK-SYM-04: a die of 2..20 faces, each a list of up to three symbol ids."""

    id: Id
    """The die's id, as ``pool``, ``difficulty``, ``boost`` and ``setback`` name it."""
    label: Label
    """The die's name (``Ability``, ``Proficiency``)."""
    faces: tuple[Face, ...] = Field(min_length=2, max_length=20)
    """Its faces (2 to 20), each a list of up to three symbol ids; ``[]`` is a blank face."""


class SuccessRule(Strict):
    """CHK-SYM-14: passes when at least ``needed`` of ``symbol`` remain after cancelling."""

    symbol: str
    """The symbol that makes a success (a symbol id)."""
    needed: int = Field(default=1, ge=1, le=20)
    """How many of it must remain after cancelling for the check to pass (1 by default)."""


class SymbolPoolSize(Strict):
    """CHK-SYM-05: the roller's dice, built ``larger-upgraded`` or ``sum``, at most 12."""

    die: str
    """The roller's base die (a die id)."""
    upgrade: str | None = None
    """The die the base die is upgraded to by training (a die id)."""
    max: int = Field(default=6, ge=1, le=12)
    """The most dice the roller throws (1 to 12; 6 by default)."""
    build: Literal["larger-upgraded", "sum"] = "larger-upgraded"
    """``larger-upgraded`` (default): the larger of ability and rank in dice, the smaller of them
    upgraded; ``sum``: ability plus rank, none upgraded."""


class DifficultyDice(Strict):
    """CHK-SYM-08/09: the opposing dice, at most 12 (default 5)."""

    die: str
    """The opposing die a ``dc=`` counts (a die id)."""
    upgrade: str | None = None
    """The die ``upgrade=`` turns opposing dice into (a die id)."""
    max: int = Field(default=5, ge=0, le=12)
    """The most opposing dice (0 to 12; 5 by default)."""


class ExtraDice(Strict):
    """CHK-SYM-10/11: boost or setback dice, at most 6 (default 3)."""

    die: str
    """The die added (a die id)."""
    max: int = Field(default=3, ge=0, le=6)
    """The most of them one check throws (0 to 6; 3 by default)."""


class SymbolPool(ResolutionBase):
    """CHK-SYM-01..21: Genesys-style narrative dice."""

    kind: Literal["symbol-pool"]
    """``symbol-pool``: narrative dice whose faces carry symbols that count and cancel."""
    symbols: tuple[Symbol, ...] = Field(min_length=2, max_length=10)
    """The symbols the faces carry (2 to 10)."""
    dice: tuple[SymbolDie, ...] = Field(min_length=2, max_length=8)
    """The dice (2 to 8), each with its faces."""
    success: SuccessRule
    """Which symbol makes a success and how many are needed."""
    pool: SymbolPoolSize
    """How the roller's dice are built from ability and rank."""
    difficulty: DifficultyDice
    """The opposing dice a ``dc=`` throws."""
    boost: ExtraDice | None = None
    """The dice ``bonus="+N"`` adds."""
    setback: ExtraDice | None = None
    """The dice ``bonus="-N"`` and ``setback=`` add."""
    critical_success: str | None = Field(default=None, alias="criticalSuccess")
    """A symbol whose every showing marks a critical success (a symbol id)."""
    critical_failure: str | None = Field(default=None, alias="criticalFailure")
    """A symbol whose every showing marks a critical failure (a symbol id)."""
    allow_own_upgrade: bool = Field(default=False, alias="allowOwnUpgrade")
    """Whether ``upgradeOwn=`` may upgrade more of the roller's own dice (needs
    ``pool.upgrade``)."""
    difficulty_ladder: tuple[DcRung, ...] = Field(
        default=(), alias="difficultyLadder", max_length=40
    )
    """The difficulties the Game Master chooses from by name, each with its number of opposing
    dice."""

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
