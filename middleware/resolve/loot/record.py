"""The ``loot`` record and the tags it is written back as (SPEC §6, ITM-LOOT-11/14).

A drop is answered as the inventory adds it made, one ``[inventory: action="add" ...]`` per kind of
goods and bag, so chat UIs that draw the peer's inventory cards draw the loot too::

    [inventory: action="add" item="Shot and powder" count="4" who="Ada" result="ok" now="4"]

A drawing that drops nothing is ``[loot: table="…" who="…" result="nothing"]``; a refusal is
``[loot: table="…" result="refused" reason="…"]`` (``no-tables``, ``unknown-table``,
``unknown-character``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from middleware.records import Record
from middleware.resolve.inventory.record import InventoryRecord


class Fell(BaseModel):
    """Pieces of one item or coin: its name as the bag shows it, and what it is stored as."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    item: str
    count: int
    ref: str | None = None
    coins: str | None = None


class LootRecord(Record):
    """What a ``[loot:]`` drew and where it went (SPEC §6: what fell and into whose bag).

    ``table`` is the table's id (as written when no table answers to it); ``draws`` how many times
    it was drawn; ``fell`` every drop in draw order; ``parts`` the adds made, one per kind of goods
    and bag (a refused add when nobody could take any of it); ``left`` what stayed behind.
    """

    tag: str = "loot"
    table: str | None = None
    table_label: str | None = None
    draws: int | None = None
    fell: list[Fell] = Field(default_factory=list)
    parts: list[InventoryRecord] = Field(default_factory=list)
    left: list[Fell] = Field(default_factory=list)

    @property
    def result(self) -> str:
        """``ok`` when something fell, ``nothing`` when nothing did, else the status."""
        if self.status != "resolved":
            return self.status
        return "ok" if self.fell else "nothing"

    def written_as(self) -> str | None:
        """ITM-LOOT-14: a drop is written as the inventory adds it made."""
        return "inventory" if self.parts else None

    def tag_attrs(self) -> list[tuple[str, str]]:
        """``[loot: table who result]``, or ``[loot: table result reason]`` on a refusal."""
        attrs = [("table", self.table or "")]
        if self.status != "resolved":
            return [*attrs, ("result", self.result), ("reason", self.reason or "")]
        who = [("who", self.who)] if self.who else []
        return [*attrs, *who, ("result", self.result)]

    def tag_groups(self) -> list[list[tuple[str, str]]]:
        """One ``[inventory: action="add" ...]`` per add made, else the loot tag itself."""
        if self.parts:
            return [part.tag_attrs() for part in self.parts]
        return [self.tag_attrs()]


def refused_loot(reason: str, feedback: str, *, table: str | None = None,
                 who: str | None = None, source: str = "") -> LootRecord:
    """A refusal: nothing drawn, nothing changed."""
    return LootRecord(status="refused", reason=reason, feedback=feedback, table=table, who=who,
                      source=source)
