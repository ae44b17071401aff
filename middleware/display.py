"""A resolved reply shown to people: one short readable line per tag in place of the record syntax.

The model keeps reading the engine's resolved tags (the stored text); a person reading the chat
sees, for ``[skill_check: skill="Climb" dc="7" rolls="4|3" ... result="success"]``::

    🎲 Climb 2d6 4+3 +1 = 8 vs 7: success at a cost
    🎒 Bram buys Rope for 2 shillings (now 1)

``for_people(text, records)`` is the reply as people read it; ``card_line(record)`` one tag's line
(None when the tag stays as the model wrote it: an ignored or failed tag writes no record syntax).
Pure: the proxy and the bot faces call it on a stored candidate's text and records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from middleware.records import Record
from middleware.resolve.checks.record import CheckRecord
from middleware.resolve.inventory.record import InventoryRecord
from middleware.resolve.loot.record import Fell, LootRecord
from middleware.resolve.place import PlaceRecord
from middleware.rewrite import render_tag, resolved_text
from middleware.segments import Tag

__all__ = ["Display", "card_line", "for_people", "shown_tag"]

Display = Literal["tags", "cards"]
"""What the chat is shown: the engine's resolved tags, or a card line per tag."""

_VERBS = {"add": "gets", "remove": "loses", "give": "gives", "equip": "equips",
          "unequip": "unequips", "bind": "binds", "unbind": "unbinds", "use": "uses",
          "pay": "pays", "earn": "earns", "buy": "buys", "sell": "sells",
          "inspect": "inspects", "reveal": "reveals"}


def for_people(text: str, records: Sequence[Record]) -> str:
    """``text`` (a stored candidate's resolved text) with each record's resolved tag replaced by
    its card line; a tag not found where expected leaves the rest as it is."""
    out: list[str] = []
    at = 0
    for record in records:
        line, written = card_line(record), _written(record)
        found = text.find(written, at) if line is not None and written else -1
        if found < 0:
            continue
        out.extend((text[at:found], line or ""))
        at = found + len(written)
    out.append(text[at:])
    return "".join(out)


def shown_tag(tag: Tag, record: Record) -> str:
    """What a person is shown in place of ``tag`` while a reply streams (as ``for_people``)."""
    line = card_line(record)
    return line if line is not None and _written(record) else resolved_text(tag, record)


def card_line(record: Record) -> str | None:
    """One tag's line for people, or None when the tag stays as written."""
    if record.status in ("ignored", "error"):
        return None
    for kind, line in _LINES:
        if isinstance(record, kind):
            return line(record)
    return f"• {record.tag}: {_words(record.reason) if record.reason else record.status}"


def _written(record: Record) -> str:
    """The record's resolved tag(s) as ``rewrite`` writes them into the stored text."""
    name = record.written_as() or record.tag
    return " ".join(render_tag(name, attrs) for attrs in record.tag_groups() if attrs)


def _check(record: Record) -> str:
    assert isinstance(record, CheckRecord)
    who = f"{record.who}: " if record.who else ""
    if record.status != "resolved":
        return f"🎲 {who}{record.skill}: not rolled ({_words(record.reason)})"
    verdict = record.tier_text or record.outcome or _words(record.result)
    return f"🎲 {who}{record.skill} {_throw(record)}: {verdict}"


def _throw(record: CheckRecord) -> str:
    """``2d6 4+3 +1 = 8 vs 7``; a pool shows its dice and successes; a kept die its choice."""
    rolls = [str(r) for r in record.rolls]
    if record.resolution == "successes":
        throw = f"{record.dice} {' '.join(rolls)} = {record.total} successes"
    else:
        summed = record.used == sum(record.rolls)
        throw = f"{record.dice} {'+'.join(rolls) if summed else '/'.join(rolls) + f' → {record.used}'}"
        if record.modifier:
            throw += f" {record.modifier:+d} = {record.total}"
        elif not summed or len(rolls) > 1:
            throw += f" = {record.total}"
    target = record.dc if record.dc is not None else record.difficulty or record.against
    return f"{throw} vs {target}" if target is not None else throw


def _inventory(record: Record) -> str:
    assert isinstance(record, InventoryRecord)
    parts = record.parts or [record]
    return "🎒 " + "; ".join(_goods(part) for part in parts)


def _goods(record: InventoryRecord) -> str:
    who = record.who or "the party"
    verb = _VERBS.get(record.action, record.action)
    count = f"{record.count} × " if record.count and record.count > 1 else ""
    item = f" {count}{record.item}" if record.item else ""
    if record.status != "resolved":
        return f"{who} cannot {record.action}{item}: {_words(record.reason)}"
    to = f" to {record.to}" if record.to else ""
    price = f" for {record.price}" if record.price and record.action in ("buy", "sell") else ""
    price = f" {record.price}" if record.price and not item else price
    now = f" (now {record.now})" if record.now is not None else ""
    return f"{who} {verb}{item}{price}{to}{now}"


def _loot(record: Record) -> str:
    assert isinstance(record, LootRecord)
    table = record.table_label or record.table or "loot"
    if record.status != "resolved":
        return f"🎁 {table}: {_words(record.reason)}"
    fell = ", ".join(_fell(f) for f in record.fell) or "nothing"
    who = f" → {record.who}" if record.who and record.fell else ""
    return f"🎁 {table}: {fell}{who}"


def _fell(fell: Fell) -> str:
    return f"{fell.count} × {fell.item}" if fell.count > 1 else fell.item


def _place(record: Record) -> str:
    assert isinstance(record, PlaceRecord)
    if record.status != "resolved":
        return f"📍 {record.name or 'place'}: {_words(record.reason)}"
    size = f" ({record.size_label or record.size})" if record.size_label or record.size else ""
    day = f", day {record.day}" if record.day is not None and record.market else ""
    return f"📍 {record.name}{size}{day}"


def _words(code: str | None) -> str:
    """A refusal code or result as words: ``cannot-afford`` -> ``cannot afford``."""
    return (code or "refused").replace("_", " ").replace("-", " ")


_LINES: tuple[tuple[type[Record], Callable[[Record], str]], ...] = (
    (CheckRecord, _check), (InventoryRecord, _inventory), (LootRecord, _loot),
    (PlaceRecord, _place))
