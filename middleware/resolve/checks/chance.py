"""The exact odds of a check before it is rolled (SPEC §5, §6 ``chance``; the API and CLI face).

``check_chance(ruleset, state, '[skill_check: skill="Ward" dc="2"]')`` answers the chance of
success and of each outcome tier (best first) of that check as the engine would roll it now: the
same roller, sheet, override (CHK-OVR), ladder, spend and used entry, through the kind's own
planning and its exact odds (``KINDS[kind].odds``). Nothing is thrown or paid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from middleware.character.check import assemble_check
from middleware.dice import Dice
from middleware.errors import GMError
from middleware.parse import parse
from middleware.resolve import Context
from middleware.resolve.checks import read_ask
from middleware.resolve.checks.kind import Roll, Rolled
from middleware.resolve.checks.kinds import KINDS
from middleware.resolve.checks.odds import Odds
from middleware.resolve.checks.overrides import roll_with_overrides
from middleware.resolve.checks.record import CheckRecord
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.sheet.roller import find_roller
from middleware.state import GameState

__all__ = ["CheckChance", "Odds", "OddsError", "check_chance"]


class OddsError(GMError):
    """The check could not be read: no ``[skill_check:]`` tag, or no ``skill=``."""


@dataclass(frozen=True, slots=True)
class CheckChance:
    """The odds of one check and what they were worked for (``odds`` None: not computable)."""

    skill: str
    who: str | None
    kind: str
    odds: Odds | None
    note: str | None = None


def check_chance(ruleset: Ruleset, state: GameState | None,
                 tag: str | Mapping[str, str], who: str | None = None) -> Odds | None:
    """The odds of the check ``tag`` (tag text or its attributes) for ``who`` (default: the
    tag's ``who=``, else the player) against ``state``; None when the kind cannot work them out."""
    return chance_of(ruleset, state, tag, who).odds


def chance_of(ruleset: Ruleset, state: GameState | None,
              tag: str | Mapping[str, str], who: str | None = None) -> CheckChance:
    """``check_chance`` with the check it was worked for (the CLI's table reads this)."""
    read = _tag(tag, who)
    ask = read_ask(read)
    if ask is None:
        raise OddsError("the check names no skill=")
    state = state or GameState(ruleset=str(ruleset.id))
    kind = str(ruleset.resolution.kind)
    roller = find_roller(state, ask.who)
    sheet = assemble_check(ruleset, state, roller, ask.skill, ask.with_, ask.save_hint)
    if sheet.untrained == "refuse" or sheet.fails_automatically:
        # SHEET-UNT-05 / SHEET-CHK-06: nothing would be rolled and it cannot succeed.
        note = "refused untrained" if sheet.untrained == "refuse" else "fails automatically"
        return CheckChance(ask.skill, ask.who, kind, Odds(success=Fraction(0)), note)
    entry = KINDS.get(kind)
    if entry is None:
        return CheckChance(ask.skill, ask.who, kind, None, f"no odds for kind {kind}")
    found: list[Odds | None] = []

    def probe(roll: Roll) -> Rolled:
        found.append(entry.odds(roll))
        return roll.unchanged(CheckRecord.trusted(status="resolved", skill=ask.skill))

    ctx = Context(ruleset=ruleset, dice=Dice(0))
    roll_with_overrides(probe, Roll(ask, sheet, ctx, state, roller))
    return CheckChance(ask.skill, ask.who, kind, found[0])


def _tag(tag: str | Mapping[str, str], who: str | None) -> Tag:
    """The ``[skill_check:]`` tag of ``tag``: its text, its bare body, or its attributes."""
    if isinstance(tag, str):
        text = tag if "[" in tag else f"[skill_check: {tag}]"
        found = [s for s in parse(text) if isinstance(s, Tag) and s.name == "skill_check"]
        if not found:
            raise OddsError(f"no [skill_check: ...] tag in {tag!r}")
        read = found[0]
    else:
        attrs = {str(k).lower(): str(v) for k, v in tag.items()}
        read = Tag(name="skill_check", attrs=attrs, words=(), raw="", start=0, end=0)
    if who is not None:
        read = Tag(name=read.name, attrs={**read.attrs, "who": who}, words=read.words,
                   raw=read.raw, start=read.start, end=read.end, problems=read.problems)
    return read
