"""The dispatch table: tag name -> resolver (STYLE habit 5)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from middleware.records import Record
from middleware.resolve import Resolver
from middleware.resolve.checks import resolve_check
from middleware.resolve.checks.record import CheckRecord
from middleware.resolve.inventory import resolve_inventory
from middleware.resolve.inventory.record import InventoryRecord
from middleware.resolve.loot import LootRecord, resolve_loot
from middleware.resolve.place import PlaceRecord, resolve_place

RESOLVERS: dict[str, Resolver] = {
    "skill_check": resolve_check,
    "inventory": resolve_inventory,
    "place": resolve_place,
    "loot": resolve_loot,
}

READS_UNREADABLE = frozenset({"inventory"})
"""Families whose resolver answers an unreadable tag itself (SPEC §6: ``reason="unreadable"``)."""

RECORDS: dict[str, type[Record]] = {
    "skill_check": CheckRecord,
    "inventory": InventoryRecord,
    "place": PlaceRecord,
    "loot": LootRecord,
}


def record_from_json(data: dict[str, Any]) -> Record:
    """A stored record back as its typed model (the family's record when it fits, else Record)."""
    kind = RECORDS.get(str(data.get("tag")), Record)
    try:
        return kind.model_validate(data)
    except ValidationError:
        return Record.model_validate(data)
