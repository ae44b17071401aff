"""What a ``[sheet:]`` tag asks: the op, whose sheet, the amount, and the pool, track, condition,
state or text field it names, matched as the sheet digest says (SHEET-LIVE-05, SHEET-CHK-02).

Every reader answers a value or a refusal code; nothing here raises for anything a model writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from middleware.character.check import view_for
from middleware.names import normalize_name
from middleware.records import clean_value
from middleware.resolve import Context
from middleware.resolve.dice import ruleset_faces
from middleware.resolve.dice.notation import read_notation
from middleware.resolve.dice.throw import throw_notation
from middleware.resolve.sheet.record import SheetRecord, refused
from middleware.rules.live import Condition, LiveText, State, Track
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.sheet.evaluate import SheetView
from middleware.state import Character, GameState

MAX_AMOUNT = 100_000
"""The size of one amount (SHEET-LIVE-06: a spend is 1..100,000)."""


@dataclass(frozen=True, slots=True)
class Op:
    """One ``[sheet:]`` op on one party member: the tag, the op as read, the state, the member."""

    tag: Tag
    op: str
    state: GameState
    index: int
    character: Character
    ctx: Context

    def attr(self, *keys: str) -> str | None:
        value = self.tag.get(*keys)
        return value.strip() if value is not None and value.strip() else None

    def word(self, *words: str) -> bool:
        """Whether one of ``words`` is written bare (``remove``) or as ``action=``."""
        written = {normalize_name(w) for w in self.tag.words}
        written |= {normalize_name(self.attr("action") or "")}
        return any(normalize_name(w) in written for w in words)

    @property
    def view(self) -> SheetView:
        return view_for(self.ctx.ruleset, self.character, state=self.state)

    def refuse(self, reason: str, feedback: str, **fields: object) -> SheetRecord:
        return refused(self.op, reason, clean_value(feedback), self.tag.raw,
                       who=self.tag.get("who"), **fields)

    def done(self, feedback: str, **fields: object) -> SheetRecord:
        return SheetRecord.trusted(status="resolved", op=self.op, who=self.tag.get("who"),
                                   feedback=clean_value(feedback), source=self.tag.raw, **fields)

    def moved(self, character: Character) -> Op:
        return replace(self, character=character)


@dataclass(frozen=True, slots=True)
class Amount:
    """An amount as given (a whole number) or thrown (``roll`` and its ``rolls``)."""

    value: int
    roll: str | None = None
    rolls: tuple[int, ...] = ()

    def fields(self) -> dict[str, object]:
        return {"amount": self.value, "roll": self.roll,
                "rolls": list(self.rolls) if self.roll else None}


def read_amount(op: Op, default: int = 1) -> Amount | str:
    """``amount=`` as a whole number or a roll (``1d6+1``, thrown now), held to ±100,000; the
    default when absent; else ``bad-amount``."""
    written = op.attr("amount", "n", "count")
    if written is None:
        return Amount(default)
    number = _whole(written)
    if number is not None:
        return Amount(_held(number))
    notation = read_notation(written, ruleset_faces(op.ctx))
    if isinstance(notation, str):  # "2 points", "1d6 fire": the number or roll written first
        head = written.split()[0] if written.split() else ""
        number = _whole(head) if head != written else None
        if number is not None:
            return Amount(_held(number))
        notation = read_notation(head, ruleset_faces(op.ctx)) if head != written else notation
    if isinstance(notation, str):
        return "bad-amount"
    thrown = throw_notation(notation, op.ctx.dice)
    return Amount(_held(thrown.total), notation.text, thrown.rolls)


def _whole(text: str) -> int | None:
    cleaned = text.replace("−", "-").replace(" ", "")
    try:
        return int(cleaned)
    except ValueError:
        try:
            number = float(cleaned)
        except ValueError:
            return None
        return int(number) if number == number and abs(number) < 1e12 else None


def _held(number: int) -> int:
    return min(max(number, -MAX_AMOUNT), MAX_AMOUNT)


# --- names (SHEET-LIVE-05) ---------------------------------------------------------------------


def find_pool(view: SheetView, name: str) -> str:
    """SHEET-LIVE-05: the pool key ``name`` means, or ``unknown-pool`` / ``ambiguous-pool``: the
    exact key, then a declared pool the character has by id or label (any case), then a row pool
    by key or row name when exactly one answers."""
    pools = view.live.pools()
    if name in pools:
        return name
    wanted = normalize_name(name)
    declared = [p.id for p in view.ix.pools.values() if p.id in pools
                and wanted in (normalize_name(p.id), normalize_name(p.label))]
    if declared:
        return declared[0]
    rows = [r.key for r in view.live.row_pools().values()
            if wanted in (normalize_name(r.key), normalize_name(r.name))]
    if len(rows) > 1:
        return "ambiguous-pool"
    return rows[0] if rows else "unknown-pool"


def pool_label(view: SheetView, key: str) -> str:
    rows = view.live.row_pools()
    return rows[key].name if key in rows else view.ix.pools[key].label


class _Declared(Protocol):
    """A declared live thing: an id and a label."""

    @property
    def id(self) -> str: ...

    @property
    def label(self) -> str: ...


D = TypeVar("D", bound=_Declared)


def _named(items: Iterable[D], name: str) -> D | None:
    """The declared thing whose id or label is ``name`` (the id exactly first)."""
    wanted = normalize_name(name)
    listed = list(items)
    exact = [x for x in listed if x.id == name]
    loose = [x for x in listed if wanted in (normalize_name(x.id), normalize_name(x.label))]
    return next(iter(exact or loose), None)


def find_track(view: SheetView, name: str) -> Track | None:
    return _named(view.ix.tracks.values(), name)


def find_condition(view: SheetView, name: str) -> Condition | None:
    return _named(view.ix.conditions.values(), name)


def find_state(view: SheetView, name: str) -> State | None:
    return _named(view.ix.states.values(), name)


def find_text(view: SheetView, name: str | None) -> LiveText | None:
    """A live text field by id or label; with no name, the only one the sheet declares."""
    fields = list(view.rules.sheet.live.text)
    if name is None:
        return fields[0] if len(fields) == 1 else None
    return _named(fields, name)


def health_target(ruleset: Ruleset) -> tuple[str, str] | None:
    """What damage and healing land on when the tag names neither: ``combat.health``
    (``("pool", id)`` or ``("track", id)``), else the wound track whose penalty checks read
    (``resolution.penaltyFrom``)."""
    combat = getattr(ruleset, "combat", None)
    health = getattr(combat, "health", None)
    if isinstance(health, dict):
        for key in ("track", "pool"):
            if isinstance(health.get(key), str):
                return key, str(health[key])
    penalty_from = getattr(getattr(ruleset, "resolution", None), "penalty_from", None)
    return ("track", penalty_from) if isinstance(penalty_from, str) else None
