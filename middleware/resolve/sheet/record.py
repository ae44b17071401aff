"""The ``sheet`` record and the resolved tag it is written back as.

``[sheet: op="damage" who="Bram" track="harm" kind="knock" amount="1" result="ok" now="3" max="5"
level="Bleeding" penalty="-3"]``: the op and what it named, then ``result`` (``ok`` or
``refused`` with ``reason``), the value the pool or track holds now and its maximum, and, on a
wound track, the lowest marked level, the penalty in force and any overflow. A roll for the amount
(``amount="1d6"``) writes ``roll`` and ``rolls``.
"""

from __future__ import annotations

from middleware.records import Record

ORDER = ("op", "who", "pool", "track", "kind", "box", "name", "value", "rest", "amount", "roll",
         "rolls", "result", "reason", "now", "max", "temp", "overflow", "level", "penalty", "paid",
         "text")


class SheetRecord(Record):
    """What one ``[sheet:]`` op did to one character's live state (or why it did nothing)."""

    tag: str = "sheet"
    op: str = ""
    pool: str | None = None
    track: str | None = None
    kind: str | None = None
    box: int | None = None
    name: str | None = None
    value: str | None = None
    rest: str | None = None
    amount: int | None = None
    roll: str | None = None
    rolls: list[int] | None = None
    now: int | None = None
    max: int | None = None
    temp: int | None = None
    overflow: int | None = None
    level: str | None = None
    penalty: int | None = None
    paid: str | None = None
    text: str | None = None

    @property
    def result(self) -> str:
        """``ok`` for an op that applied, else the status (``refused`` ...)."""
        return "ok" if self.status == "resolved" else self.status

    def tag_attrs(self) -> list[tuple[str, str]]:
        values = self.model_dump(include=set(ORDER))
        values["result"] = self.result
        values["reason"] = self.reason if self.status != "resolved" else None
        values["who"] = self.who
        if self.rolls is not None:
            values["rolls"] = "|".join(str(r) for r in self.rolls)
        return [(key, str(values[key])) for key in ORDER if values.get(key) not in (None, "")]


def refused(op: str, reason: str, feedback: str, source: str, **fields: object) -> SheetRecord:
    """A refusal: nothing changed, ``reason`` is the code, ``feedback`` the line for the GM."""
    return SheetRecord(status="refused", op=op, reason=reason, feedback=feedback, source=source,
                       **fields)
