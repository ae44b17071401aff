"""The checks that may betray a fake: a fake's ``tells`` and a dishonest seller's ``manner``
(ITM-FAKE-14..16, -19, -22, -25, -28).

The Engine knows no check names: each tell names a skill, an attribute or a sheet value exactly as
a use ``gate`` does (ITM-FAKE-14). ``tries`` keeps, for one character, the tells they can attempt
at all (``needs``, ``needsAny``, ``carries``; an untrained skill the sheet refuses: ITM-FAKE-15)
with the number their sheet gives and the lean of ``advantageIf``/``disadvantageIf`` and of their
conditions and items. ``roll`` throws one through the ruleset's own check kind with the candidate's
dice (overrides included), as a ``[skill_check:]`` would.

- ``edge`` picks the best check (Ambiguity 23: value minus difficulty, advantage counted as +5);
- ``passive`` is ``passiveBase`` + value, +5 with advantage, -5 with disadvantage (ITM-FAKE-25).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from middleware.character.check import CheckSheet, assemble_check, view_for
from middleware.items.index import ItemIndex
from middleware.items.words import words_of
from middleware.names import normalize_name
from middleware.resolve import Context
from middleware.resolve.checks import KINDS
from middleware.resolve.checks.kind import Roll
from middleware.resolve.checks.overrides import roll_with_overrides
from middleware.resolve.checks.record import Ask, CheckRecord
from middleware.rules.items_money import GateCheck, Tell, Threshold
from middleware.rules.ruleset import Ruleset
from middleware.sheet.evaluate import SheetView
from middleware.sheet.numbers import whole
from middleware.sheet.roller import Roller
from middleware.state import Character, GameState

About = Literal["item", "seller"]
Lean = Literal["advantage", "disadvantage"]
LEAN_POINTS = 5
"""ITM-FAKE-25: advantage is worth +5 to a passive score, disadvantage -5."""


@dataclass(frozen=True, slots=True)
class Try:
    """One tell a character can attempt: what it reads, their number, and its lean."""

    tell: Tell
    about: About
    name: str
    sheet: CheckSheet
    number: int
    lean: Lean | None
    own: Lean | None = None
    """The tell's own lean (``advantageIf``/``disadvantageIf``): what a roll asks for; the kind
    adds the sheet's leans itself."""

    @property
    def points(self) -> int:
        """+5 with advantage, -5 with disadvantage, 0 otherwise."""
        return {"advantage": LEAN_POINTS, "disadvantage": -LEAN_POINTS}.get(self.lean or "", 0)

    @property
    def edge(self) -> int:
        """Ambiguity 23: how good a chance this check has (value - difficulty, lean counted)."""
        return self.number - self.tell.dc + self.points

    def passive(self, base: int) -> int:
        """ITM-FAKE-25: the score without rolling."""
        return base + self.number + self.points


def tells_for(index: ItemIndex, shown: str, real: str) -> list[Tell]:
    """ITM-FAKE-19/22: a fake's own tells; for a genuine item, the tells of every fake passing
    for it (so asking for a check betrays nothing)."""
    if shown != real:
        found = index.by_ref(real)
        return list(found.item.tells) if found is not None else []
    return [t for i in index.items if i.item.passes_for == shown for t in i.item.tells]


def tries(ruleset: Ruleset, state: GameState, at: int,
          asked: Sequence[tuple[Tell, About]]) -> list[Try]:
    """The tells party member ``at`` can attempt, in the order given (ITM-FAKE-15)."""
    character = state.party[at]
    view = view_for(ruleset, character, state=state)
    roller = Roller(at, character.name, character)
    out: list[Try] = []
    for tell, about in asked:
        if not can_attempt(view, character, tell):
            continue
        sheet = _sheet(ruleset, state, roller, view, tell.check)
        if sheet is not None:
            out.append(Try(tell, about, check_name(ruleset, tell.check), sheet,
                           _value(sheet), _lean(view, tell, sheet.leans),
                           _lean(view, tell, ())))
    return out


def best(found: Sequence[Try]) -> Try | None:
    """Ambiguity 23: the check with the best chance; the first listed on a tie."""
    return max(found, key=lambda t: t.edge, default=None)


def can_attempt(view: SheetView, character: Character, tell: Tell) -> bool:
    """ITM-FAKE-15: every ``needs`` met, one of ``needsAny`` if given, a ``carries`` item held."""
    if not all(_met(view, need) for need in tell.needs):
        return False
    if tell.needs_any and not any(_met(view, need) for need in tell.needs_any):
        return False
    if tell.carries is None:
        return True
    held = {s.really or s.item for s in character.bag if s.item}
    return any(ref in held for ref in tell.carries.any_of)


def roll(ctx: Context, state: GameState, at: int, attempt: Try) -> CheckRecord | None:
    """ITM-FAKE-19/28: the check thrown with the ruleset's kind and the candidate's dice; None when
    the ruleset has no check kind to roll it."""
    entry = KINDS.get(str(getattr(ctx.ruleset.resolution, "kind", "")))
    if entry is None:
        return None
    character = state.party[at]
    dc = attempt.tell.dc
    attrs = {"skill": attempt.name, "dc": str(dc), "who": character.name}
    leans: tuple[str, ...] = ()
    if attempt.own is not None:
        attrs["mode"] = attempt.own
        leans = (attempt.own,)
    ask = Ask(skill=attempt.name, who=character.name, dc=dc, leans=leans, attrs=attrs)
    roller = Roller(at, character.name, character)
    return roll_with_overrides(entry.roll, Roll(ask, attempt.sheet, ctx, state, roller)).record


def check_name(ruleset: Ruleset, check: GateCheck) -> str:
    """The check's name as the sheet labels it (a skill, an attribute, a derived value)."""
    words = words_of(ruleset)
    if check.skill:
        return words.say("skills", check.skill)
    if check.ability:
        return words.say("abilities", check.ability)
    derived = ruleset.sheet.by_id.derived.get(check.value.derived or "") if check.value else None
    return derived.label if derived is not None else "Sheet"


def way_key(name: str) -> str:
    """How ``with=`` names a way to see through fakes (Ambiguity 27: id or label)."""
    return normalize_name(name)


def _sheet(ruleset: Ruleset, state: GameState, roller: Roller, view: SheetView,
           check: GateCheck) -> CheckSheet | None:
    """The sheet a check reads; None when the sheet refuses an untrained attempt."""
    if check.value is not None:
        base = assemble_check(ruleset, state, roller, check_name(ruleset, check), None)
        return replace(base, number=whole(view.ref(check.value)))
    sheet = assemble_check(ruleset, state, roller, check.skill or check.ability or "", None)
    if sheet.target == "unknown" or sheet.untrained == "refuse" or sheet.fails_automatically:
        return None
    return sheet


def _value(sheet: CheckSheet) -> int:
    """The number a passive score adds: the sheet number with adjust, penalty and flat effects."""
    flats = sum(-m.flat if m.minus else m.flat for m in sheet.modifiers)
    return sheet.number + sheet.adjust + sheet.penalty + flats


def _lean(view: SheetView, tell: Tell,
          sheet_leans: Sequence[tuple[str, str]]) -> Lean | None:
    """``advantageIf``/``disadvantageIf`` with the sheet's own leans; both cancel out."""
    ups = any(_met(view, t) for t in tell.advantage_if) or \
        any(lean == "advantage" for lean, _ in sheet_leans)
    downs = any(_met(view, t) for t in tell.disadvantage_if) or \
        any(lean == "disadvantage" for lean, _ in sheet_leans)
    if ups == downs:
        return None
    return "advantage" if ups else "disadvantage"


def _met(view: SheetView, threshold: Threshold) -> bool:
    return view.ref(threshold.value) >= threshold.at_least
