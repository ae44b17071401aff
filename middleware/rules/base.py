"""The base every ruleset model shares: strict keys, ``$comment`` allowed, frozen once loaded.

SHEET-FILE-06 / SHEET-IMPORT-01: any unknown key refuses the whole file, except ``$comment`` on any
object (and ``$schema`` at the root), because a partly understood ruleset would silently change the
arithmetic.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StringConstraints

from middleware.json_input import JsonObject

ID_PATTERN = r"^[a-z][a-z0-9_]*$"

Id = Annotated[str, StringConstraints(pattern=ID_PATTERN, max_length=40)]
"""SHEET-FILE-03: lowercase letters, digits and underscores, starting with a letter, ≤ 40 chars."""

_LABEL_BAD = re.compile(r"[\x00-\x1f\x7f\[\]]|\{\{|\}\}")


def label_problem(value: str, max_length: int = 80) -> str | None:
    """Why ``value`` is not a prompt-safe label (SHEET-FILE-04), or None when it is."""
    if not 1 <= len(value) <= max_length:
        return f"must be 1 to {max_length} characters"
    if _LABEL_BAD.search(value):
        return "may not contain control characters, '[', ']', '{{' or '}}'"
    return None


def one_line_descriptions(schema: JsonObject) -> None:
    """Docstrings wrapped to fit the source read as one paragraph each in an editor's tooltip."""
    properties = schema.get("properties")
    for holder in (schema, *(properties.values() if isinstance(properties, dict) else ())):
        text = holder.get("description") if isinstance(holder, dict) else None
        if isinstance(text, str):
            holder["description"] = " ".join(text.split())


MODEL_CONFIG = ConfigDict(extra="forbid", frozen=True, populate_by_name=True,
                          use_attribute_docstrings=True, json_schema_extra=one_line_descriptions)
"""Every ruleset model's settings; a field's docstring is its description in the JSON Schema."""


class Strict(BaseModel):
    """A ruleset object: unknown keys refused, ``$comment`` kept aside, immutable."""

    model_config = MODEL_CONFIG

    comment: JsonValue = Field(default=None, alias="$comment", exclude=True)
    """A note for whoever reads the file; allowed on any object and ignored by the rules."""


def json_path(loc: tuple[int | str, ...]) -> str:
    """``("resolution", "dice", 0)`` -> ``$.resolution.dice[0]``."""
    out = "$"
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", part):
            out += f".{part}"
        else:
            out += f"[{part!r}]"
    return out
