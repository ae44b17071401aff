"""The dispatch table: tag name -> resolver (STYLE habit 5)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from middleware.records import Record
from middleware.resolve import Resolver
from middleware.resolve.checks import resolve_check
from middleware.resolve.checks.record import CheckRecord

RESOLVERS: dict[str, Resolver] = {
    "skill_check": resolve_check,
}

RECORDS: dict[str, type[Record]] = {
    "skill_check": CheckRecord,
}


def record_from_json(data: dict[str, Any]) -> Record:
    """A stored record back as its typed model (the family's record when it fits, else Record)."""
    kind = RECORDS.get(str(data.get("tag")), Record)
    try:
        return kind.model_validate(data)
    except ValidationError:
        return Record.model_validate(data)
