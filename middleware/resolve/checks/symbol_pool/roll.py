"""Symbol dice: throw them, count and cancel their symbols, and roll them by name (CHK-SYM).

The core every symbol roll shares, in a check or outside one: ``SymbolRules`` (the ruleset's
symbols and dice as plain values), ``read_symbols`` (CHK-SYM-02/03/14/15: ``counts`` adds, then
pairs cancel one for one, the critical symbols are marked on any occurrence) and ``roll_symbols``
(CHK-SYM-19: ``2 ability 1 proficiency vs 2 difficulty`` thrown without the sheet, upgrades or the
ladder). A symbol die is thrown through the dice seam as a die with one side per face; its face
number (1-based) is what the record keeps (SPEC §5).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from middleware.dice import Dice
from middleware.names import normalize_name
from middleware.rules.kinds.symbol_pool import SymbolPool
from middleware.rules.ruleset import Ruleset

__all__ = ["MAX_NAMED_DICE", "Reading", "Side", "SymbolDie", "SymbolRoll", "SymbolRules", "ThrownDie",
           "read_symbols", "roll_symbols", "success_value", "symbol_rules_from", "throw_die"]

MAX_NAMED_DICE = 100
"""Our cap on the dice one roll by name may throw (SPEC §8: dice per throw are limited)."""

Side = Literal["roller", "opposing"]


@dataclass(frozen=True, slots=True)
class SymbolDie:
    """CHK-SYM-04: a named die; each face lists symbol ids (``()`` is blank, repeats count)."""

    id: str
    label: str
    faces: tuple[tuple[str, ...], ...]

    @property
    def sides(self) -> int:
        return len(self.faces)


@dataclass(frozen=True, slots=True)
class SymbolRules:
    """The ruleset's symbols and dice as plain values (CHK-SYM-01..04, 14, 15).

    ``cancels`` holds each cancelling pair once, in declaration order (CHK-SYM-03: declaring the
    reverse pairing as well changes nothing).
    """

    symbols: tuple[tuple[str, str], ...]
    counts: tuple[tuple[str, str], ...]
    cancels: tuple[tuple[str, str], ...]
    dice: tuple[SymbolDie, ...]
    success: str
    needed: int = 1
    critical_success: str | None = None
    critical_failure: str | None = None

    def die(self, name: str) -> SymbolDie | None:
        """CHK-SYM-19: the die a name means, by id or label, ignoring case and punctuation."""
        wanted = normalize_name(name)
        return next((d for d in self.dice
                     if wanted in (normalize_name(d.id), normalize_name(d.label))), None)

    def die_by_id(self, die_id: str) -> SymbolDie:
        return next(d for d in self.dice if d.id == die_id)

    @property
    def partner(self) -> str | None:
        """The symbol that cancels the success symbol (Genesys: failure), if any."""
        for one, other in self.cancels:
            if self.success in (one, other):
                return other if one == self.success else one
        return None


def symbol_rules_from(resolution: SymbolPool) -> SymbolRules:
    """``SymbolRules`` from the ruleset's symbol-pool resolution model."""
    pairs: list[tuple[str, str]] = []
    for symbol in resolution.symbols:
        if symbol.cancels is not None:
            pair = (symbol.id, symbol.cancels)
            if pair not in pairs and pair[::-1] not in pairs:
                pairs.append(pair)
    return SymbolRules(
        symbols=tuple((s.id, s.label) for s in resolution.symbols),
        counts=tuple((s.id, s.counts) for s in resolution.symbols if s.counts is not None),
        cancels=tuple(pairs),
        dice=tuple(SymbolDie(d.id, d.label, tuple(tuple(f) for f in d.faces))
                   for d in resolution.dice),
        success=resolution.success.symbol, needed=resolution.success.needed,
        critical_success=resolution.critical_success,
        critical_failure=resolution.critical_failure,
    )


@dataclass(frozen=True, slots=True)
class ThrownDie:
    """One symbol die as it landed: which die, its face number (from 1) and whose side it is on."""

    die: SymbolDie
    face: int
    side: Side = "roller"

    @property
    def symbols(self) -> tuple[str, ...]:
        return self.die.faces[self.face - 1]


def throw_die(die: SymbolDie, dice: Dice, side: Side = "roller") -> ThrownDie:
    """SPEC §5: a symbol die throws its face index, a die with one side per face."""
    return ThrownDie(die, dice.throw(die.sides), side)


@dataclass(frozen=True, slots=True)
class Reading:
    """What the symbols came to (CHK-SYM-02/03/14/15, CHK-REC-16).

    ``net`` lists the symbols left after cancelling, in declaration order; ``total`` is the net
    successes, negative when failures remain (checks.md Ambiguity 17).
    """

    net: tuple[tuple[str, int], ...]
    total: int
    critical_success: bool = False
    critical_failure: bool = False

    @property
    def text(self) -> str:
        """CHK-REC-16: ``"1s 3a 1t"``: net count then symbol id; empty when nothing is left."""
        return " ".join(f"{count}{symbol}" for symbol, count in self.net)


def tally(rules: SymbolRules, faces: Iterable[tuple[str, ...]]) -> Counter[str]:
    """CHK-SYM-02/04: every symbol on the faces, plus one more of what a symbol ``counts``."""
    adds = dict(rules.counts)
    found: Counter[str] = Counter()
    for face in faces:
        for symbol in face:
            found[symbol] += 1
            if symbol in adds:
                found[adds[symbol]] += 1
    return found


def read_symbols(rules: SymbolRules, faces: Iterable[tuple[str, ...]]) -> Reading:
    """CHK-SYM-03/14/15: count, cancel the pairs one for one, mark the critical symbols."""
    found = tally(rules, faces)
    left = Counter(found)
    for one, other in rules.cancels:
        gone = min(left[one], left[other])
        left[one] -= gone
        left[other] -= gone
    partner = rules.partner
    total = found[rules.success] - (found[partner] if partner else 0)
    return Reading(
        net=tuple((s, left[s]) for s, _ in rules.symbols if left[s] > 0), total=total,
        critical_success=bool(rules.critical_success and found[rules.critical_success]),
        critical_failure=bool(rules.critical_failure and found[rules.critical_failure]),
    )


def success_value(rules: SymbolRules, face: tuple[str, ...]) -> int:
    """What one face adds to the net successes: successes minus their cancelling partner."""
    return read_symbols(rules, (face,)).total


# --- CHK-SYM-19: rolling the dice by name ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SymbolRoll:
    """The answer to a roll by name: the dice and their reading, or an error code and message.

    Error codes: ``not-symbol-pool`` (the ruleset has no symbol dice), ``no-dice`` (nothing to
    throw), ``unknown-die`` (a name no die answers to), ``too-many-dice`` (over
    ``MAX_NAMED_DICE``), ``unreadable`` (more than one ``vs``).
    """

    dice: tuple[ThrownDie, ...] = ()
    reading: Reading | None = None
    success: bool | None = None
    error: str | None = None
    message: str | None = None

    @property
    def symbols(self) -> str | None:
        return self.reading.text if self.reading else None

    @property
    def summary(self) -> str:
        """CHK-SYM-20: each die's face and symbols, then the net symbols (``nothing`` if none)."""
        if self.reading is None:
            return self.message or ""
        shown = ", ".join(f"{t.die.label} {t.face} ({' '.join(t.symbols) or 'blank'})"
                          for t in self.dice)
        return f"{shown} -> {self.reading.text or 'nothing'}"


def roll_symbols(ruleset: Ruleset, text: str, dice: Dice) -> SymbolRoll:
    """CHK-SYM-19: throw ``2 ability 1 proficiency vs 2 difficulty`` and read the symbols.

    Each die by id or label (any case, plurals such as ``abilities`` too); a missing count means
    one; ``vs`` separates the opposing dice, which are thrown after the roller's. Counting and
    cancelling are a check's; no sheet, upgrade or ladder is read. Never raises for bad text.
    """
    resolution = ruleset.resolution
    if not isinstance(resolution, SymbolPool):
        return SymbolRoll(error="not-symbol-pool",
                          message=f"{ruleset.id} has no symbol dice to roll by name.")
    rules = symbol_rules_from(resolution)
    wanted = named_dice(rules, text)
    if isinstance(wanted, SymbolRoll):
        return wanted
    thrown = tuple(throw_die(die, dice, side) for die, side in wanted)
    reading = read_symbols(rules, (t.symbols for t in thrown))
    return SymbolRoll(dice=thrown, reading=reading, success=reading.total >= rules.needed)


def named_dice(rules: SymbolRules, text: str) -> list[tuple[SymbolDie, Side]] | SymbolRoll:
    """The dice ``text`` names, in throw order, or the error ``SymbolRoll``."""
    halves = re.split(r"\b(?:vs|versus|against)\b\.?", text, flags=re.IGNORECASE)
    if len(halves) > 2:
        return SymbolRoll(error="unreadable", message='Write "vs" at most once.')
    wanted: list[tuple[SymbolDie, Side]] = []
    sides: tuple[Side, Side] = ("roller", "opposing")
    for half, side in zip(halves, sides, strict=False):
        found = _read_half(rules, half, side)
        if isinstance(found, SymbolRoll):
            return found
        wanted.extend(found)
        if len(wanted) > MAX_NAMED_DICE:
            return SymbolRoll(error="too-many-dice",
                              message=f"At most {MAX_NAMED_DICE} dice can be rolled at once.")
    if not wanted:
        return SymbolRoll(error="no-dice", message="Name the dice to roll, e.g. " + _example(rules))
    return wanted


def _read_half(rules: SymbolRules, text: str, side: Side) \
        -> list[tuple[SymbolDie, Side]] | SymbolRoll:
    """One side of ``vs``: ``[N] name`` groups; a name may be several words (a label)."""
    words = re.findall(r"\d+|[^\s\d,+&]+", text)
    words = [w for w in words if w.lower() != "and"]
    out: list[tuple[SymbolDie, Side]] = []
    count: int | None = None
    at = 0
    while at < len(words):
        if words[at].isdigit():
            count = int(words[at])
            if count > MAX_NAMED_DICE:
                return SymbolRoll(error="too-many-dice",
                                  message=f"At most {MAX_NAMED_DICE} dice can be rolled at once.")
            at += 1
            continue
        die, at_next = _longest_name(rules, words, at)
        if die is None:
            return SymbolRoll(error="unknown-die",
                              message=f'No die is called "{words[at]}"; the dice are '
                                      f'{", ".join(d.label for d in rules.dice)}.')
        out.extend([(die, side)] * (1 if count is None else count))
        count, at = None, at_next
    return out


def _longest_name(rules: SymbolRules, words: list[str], at: int) -> tuple[SymbolDie | None, int]:
    """The die named by the most words from ``at`` (labels may have spaces), plurals allowed."""
    for end in range(len(words), at, -1):
        name = " ".join(words[at:end])
        for form in _singulars(name):
            die = rules.die(form)
            if die is not None:
                return die, end
    return None, at + 1


def _singulars(name: str) -> tuple[str, ...]:
    """The name as written, then without a plural ending (abilities, boosts, challenges)."""
    forms = [name]
    for plural, singular in (("ies", "y"), ("es", ""), ("s", "")):
        if name.lower().endswith(plural):
            forms.append(name[: -len(plural)] + singular)
    return tuple(forms)


def _example(rules: SymbolRules) -> str:
    first, second = rules.dice[0], rules.dice[-1]
    return f"2 {first.id} vs 1 {second.id}."
