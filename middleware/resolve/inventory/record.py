"""The ``inventory`` record and the resolved tag it is written back as (SPEC §6).

One record per tag (the pipeline's contract). A tag that moved goods into several bags (the carry
rule splitting an add) or named several items (``items="Rope, Torch"``) keeps one ``InventoryRecord``
per item and bag in ``parts``; the record is then rewritten as those parts' tags, in order, joined by
a space::

    [inventory: action="add" item="Rope" count="1" who="Bram" result="ok" now="1"] [inventory: ...]

Each part's tag has exactly the attributes of a single-item tag, so a chat UI that draws the peer's
inventory cards draws one card per part.
"""

from __future__ import annotations

from pydantic import Field

from middleware.records import Record

ORDER = ("action", "item", "count", "who", "to", "level", "seller", "result", "reason", "now",
         "price", "note")
"""SPEC §6: ``[inventory: action item count who to level seller result now price note]``; a
refusal writes ``reason`` right after ``result`` (and no ``now``)."""


class InventoryRecord(Record):
    """What one inventory action did to one item in one bag (SPEC §6, ITM-BAG).

    ``count`` is what really moved (after clamping, splitting and leaving behind); ``now`` is how
    many pieces of the item the bag named by ``who`` holds afterwards (``to``'s bag for a give).
    ``raw`` is set only for an unreadable tag. ``parts`` holds one record per item and bag when the
    tag produced more than one; the parent then carries the overall status and feedback.
    """

    tag: str = "inventory"
    action: str = "add"
    item: str | None = None
    count: int | None = None
    to: str | None = None
    level: str | None = None
    seller: str | None = None
    now: int | None = None
    price: str | None = None
    note: str | None = None
    raw: str | None = None
    paid: dict[str, int] | None = None
    """ITM-MONEY-11: coins handed over by coin id, largest first (pay, buy)."""
    change: dict[str, int] | None = None
    """ITM-MONEY-10: coins given back by coin id, largest first (pay, buy)."""
    received: dict[str, int] | None = None
    """ITM-DAY-10: coins a sale paid in by coin id, largest first (sell)."""
    parts: list[InventoryRecord] = Field(default_factory=list)

    @property
    def result(self) -> str:
        """``ok`` for a resolved action, else the status (``refused`` ...)."""
        return "ok" if self.status == "resolved" else self.status

    def tag_attrs(self) -> list[tuple[str, str]]:
        """SPEC §6 order; ``[inventory: raw="…" result="refused" reason="unreadable"]`` when the
        tag could not be read. A record with parts renders its first part here."""
        if self.parts:
            return self.parts[0].tag_attrs()
        if self.raw is not None:
            return [("raw", self.raw), ("result", self.result), ("reason", self.reason or "")]
        values: dict[str, object | None] = {
            "action": self.action, "item": self.item, "count": self.count, "who": self.who,
            "to": self.to, "level": self.level, "seller": self.seller, "result": self.result,
            "reason": self.reason if self.status != "resolved" else None,
            "now": self.now if self.status == "resolved" else None,
            "price": self.price, "note": self.note}
        return [(key, str(values[key])) for key in ORDER if values[key] not in (None, "")]

    def tag_groups(self) -> list[list[tuple[str, str]]]:
        """One resolved tag per part (or just this record's), written side by side."""
        if self.parts:
            return [part.tag_attrs() for part in self.parts]
        return [self.tag_attrs()]


def refused(action: str, reason: str, feedback: str, *, item: str | None = None,
            who: str | None = None, to: str | None = None, source: str = "") -> InventoryRecord:
    """A refusal: nothing changed, ``reason`` is the code, ``feedback`` the line for the GM."""
    return InventoryRecord(status="refused", action=action, reason=reason, item=item, who=who,
                           to=to, feedback=feedback, note=feedback, source=source)


def combined(action: str, parts: list[InventoryRecord], source: str) -> InventoryRecord:
    """One record for a tag that gave several parts: resolved when any part moved something."""
    if len(parts) == 1:
        return parts[0].model_copy(update={"source": source})
    done = [p for p in parts if p.status == "resolved"]
    first = (done or parts)[0]
    feedback = " ".join(p.feedback for p in parts if p.feedback) or None
    return InventoryRecord(
        status=first.status, reason=None if done else first.reason, action=action,
        item=first.item, who=", ".join(dict.fromkeys(p.who for p in parts if p.who)) or None,
        count=sum(p.count or 0 for p in done) if done else None, feedback=feedback,
        source=source, parts=parts)
