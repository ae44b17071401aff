"""The ``dice`` record and the resolved tag it is written back as.

``[dice: roll="2d6+3" rolls="4|2" total="9"]``: the roll as read (clamped to the bounds), every
face value thrown in order joined by ``|``, ``kept`` when a group keeps the highest or lowest, the
``total``; a symbol roll writes its symbols (``symbols="2 success, 1 advantage"``) and its net
successes as the total. ``for`` echoes what the roll was for, as the Game Master wrote it.
"""

from __future__ import annotations

from middleware.records import Record


class DiceRecord(Record):
    """What one plain roll threw. No state changes with it."""

    tag: str = "dice"
    roll: str = ""
    rolls: list[int] | None = None
    kept: list[int] | None = None
    total: int | None = None
    symbols: str | None = None
    purpose: str | None = None

    def tag_attrs(self) -> list[tuple[str, str]]:
        values: list[tuple[str, object | None]] = [
            ("roll", self.roll), ("for", self.purpose), ("who", self.who),
            ("rolls", "|".join(str(r) for r in self.rolls) if self.rolls is not None else None),
            ("kept", "|".join(str(k) for k in self.kept) if self.kept is not None else None),
            ("symbols", self.symbols), ("total", self.total)]
        return [(key, str(value)) for key, value in values if value not in (None, "")]
