"""What the Game Master asked on one ``[inventory:]`` tag, read tolerantly (SPEC §1b, §10).

- The action is ``action=`` or the first bare word (``[inventory: give item="Rope" to="Juno"]``);
  no action, or one we do not know, reads as ``add`` and the GM is told (SPEC §1b).
- ``item=`` or ``items=``: a comma list becomes one ask per item, in order (SPEC §1b).
- ``count=``, ``quantity=`` or ``qty=``: the first whole number, held to 1..10,000 (SPEC §8); the GM
  is told when it was clamped or unreadable; ``all`` means every piece held (remove, give).
- ``who=`` (default: the shared view for ``add``, the player for every other action, SPEC §10) and
  ``to=`` (the receiver of ``give``).

Values the model wrote as results (``result=``, ``now=`` ...) are never read (SPEC §3, §6).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from middleware.segments import Tag

COUNT_MIN, COUNT_MAX = 1, 10_000
"""SPEC §8: a count is bounded; outside these it is clamped and the GM told."""

ITEMLESS_ACTIONS = frozenset({"pay", "earn"})
"""Actions that name an amount, not an item (ITM-MONEY-07)."""

KNOWN_ACTIONS = frozenset({"add", "remove", "give", "equip", "unequip", "bind", "unbind", "use",
                           "pay", "earn", "buy", "sell", "inspect", "reveal"})


@dataclass(frozen=True, slots=True)
class ItemAsk:
    """One item of one inventory tag: what to do, with how many, to whom.

    ``count`` is None when the tag gave none (each action picks its default) and ``every`` is set
    for ``count="all"``. ``notes`` say what reading changed (a clamp, an action read as add).
    ``attrs`` holds every attribute (lowercased keys) for actions that read their own.
    """

    action: str
    item: str
    count: int | None = None
    every: bool = False
    who: str | None = None
    to: str | None = None
    notes: tuple[str, ...] = ()
    attrs: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Request:
    """The whole tag: its action and one ``ItemAsk`` per item named (one with ``item=""`` when
    the tag names none)."""

    action: str
    asks: tuple[ItemAsk, ...]


def read_request(tag: Tag) -> Request:
    """SPEC §1b: the action, then one ask per item of ``item=``/``items=``."""
    action, notes = read_action(tag)
    count, every, count_note = read_count(tag.get("count", "quantity", "qty"))
    notes += (count_note,) if count_note else ()
    who = _blank_none(tag.get("who"))
    to = _blank_none(tag.get("to"))
    names = item_names(tag) or [""]  # an action that names no item (pay, earn) still gets one ask
    names = names[:1] if action in ITEMLESS_ACTIONS else names  # one amount pays once
    asks = tuple(ItemAsk(action, name, count, every, who, to, notes, dict(tag.attrs))
                 for name in names)
    return Request(action, asks)


def read_action(tag: Tag) -> tuple[str, tuple[str, ...]]:
    """``action=`` or the first bare word, lowercased; unknown or missing reads as ``add``."""
    written = tag.get("action") or (tag.words[0] if tag.words else None)
    word = (written or "").strip().lower()
    if word in KNOWN_ACTIONS:
        return word, ()
    if not word:
        return "add", ()
    return "add", (f"Action {written} is not one we know: read as add.",)


def item_names(tag: Tag) -> list[str]:
    """The names of ``item=`` (or ``items=``), split on commas, blanks dropped."""
    written = tag.get("item", "items") or ""
    return [name.strip() for name in written.split(",") if name.strip()]


def read_count(text: str | None) -> tuple[int | None, bool, str | None]:
    """(count, every, note): the first whole number clamped to 1..10,000; ``all`` for every piece."""
    if text is None or not text.strip():
        return None, False, None
    if text.strip().lower() in {"all", "every", "everything"}:
        return None, True, None
    match = re.search(r"[-+]?\d+", text)
    if match is None:
        return None, False, f"Count {text.strip()} is not a number: read as 1."
    number = int(match.group())
    clamped = max(COUNT_MIN, min(COUNT_MAX, number))
    note = f"Count {number} clamped to {clamped}." if clamped != number else None
    return clamped, False, note


def _blank_none(text: str | None) -> str | None:
    return text.strip() or None if text is not None else None
