"""The dispatch table: tag name -> resolver (STYLE habit 5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import JsonValue, ValidationError

from middleware.records import ErrorRecord, IgnoredRecord, Record, model_json
from middleware.resolve import Resolver
from middleware.resolve.branch import BranchRecord
from middleware.resolve.checks import resolve_check
from middleware.resolve.checks.record import CheckRecord
from middleware.resolve.dice import DiceRecord, resolve_dice
from middleware.resolve.inventory import resolve_inventory
from middleware.resolve.inventory.record import InventoryRecord
from middleware.resolve.loot import LootRecord, resolve_loot
from middleware.resolve.place import PlaceRecord, resolve_place
from middleware.resolve.sheet import SheetRecord, resolve_sheet

RESOLVERS: dict[str, Resolver] = {
    "skill_check": resolve_check,
    "inventory": resolve_inventory,
    "place": resolve_place,
    "loot": resolve_loot,
    "sheet": resolve_sheet,
    "dice": resolve_dice,
}

READS_UNREADABLE = frozenset({"inventory"})
"""Families whose resolver answers an unreadable tag itself (SPEC §6: ``reason="unreadable"``)."""

RECORDS: dict[str, type[Record]] = {
    "skill_check": CheckRecord,
    "inventory": InventoryRecord,
    "place": PlaceRecord,
    "loot": LootRecord,
    "sheet": SheetRecord,
    "dice": DiceRecord,
    "branch": BranchRecord,  # a branch block's record: no tag of its own, read back all the same
}


STORED_AS = "record"
"""The key naming a stored record's class: an ignored or refused tag of a family is a plain
``Record``/``IgnoredRecord``/``ErrorRecord``, not the family's record."""

_KINDS: tuple[type[Record], ...] = (Record, IgnoredRecord, ErrorRecord, *RECORDS.values())
_BY_NAME: dict[str, type[Record]] = {kind.__name__: kind for kind in _KINDS}


def records_json(records: Sequence[Record]) -> str:
    """The records as the JSON list a store keeps, each written by pydantic in one pass.

    Each names its class (``STORED_AS``), so it reads back as the record it was; fields that do
    not apply (None) are left out: a check record has fifty fields and uses a dozen, and every
    field of a record that may be None defaults to None, so the rest of the text is a third.
    """
    return "[" + ",".join([f'{{"{STORED_AS}":"{type(r).__name__}",'
                           + model_json(r, exclude_none=True)[1:] for r in records]) + "]"


def record_from_json(data: Mapping[str, JsonValue]) -> Record:
    """A stored record back as its typed model: the class it names, else (a record stored without
    one) the family's record when it fits, else ``Record``."""
    named = _BY_NAME.get(str(data.get(STORED_AS)))
    if named is not None:
        return named.model_validate(data)
    kind = RECORDS.get(str(data.get("tag")), Record)
    try:
        return kind.model_validate(data)
    except ValidationError:
        return Record.model_validate(data)
