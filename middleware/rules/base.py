"""The base every ruleset model shares: strict keys, ``$comment`` allowed, frozen once loaded.

SHEET-FILE-06 / SHEET-IMPORT-01: any unknown key refuses the whole file, except ``$comment`` on any
object (and ``$schema`` at the root), because a partly understood ruleset would silently change the
arithmetic.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import re
import sys
from functools import cache
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


def one_line_descriptions(schema: JsonObject, model: type[BaseModel]) -> None:
    """A model's JSON Schema: each field's docstring is its description (unless the field gives
    one), and every description reads as one paragraph in an editor's tooltip.

    The docstrings are read from the source here, when a schema is asked for, rather than by
    pydantic when each class is made (``use_attribute_docstrings``), which read the source of
    every ruleset model on import, a large share of importing them.
    """
    found = schema.get("properties")
    properties = found if isinstance(found, dict) else {}
    for name, field in model.model_fields.items():
        key = field.alias if field.alias in properties else name
        doc = _declared_docstrings(model).get(name)
        held = properties.get(key)
        if isinstance(held, dict) and field.description is None and doc:
            _describe(held, doc)
    for holder in (schema, *properties.values()):
        text = holder.get("description") if isinstance(holder, dict) else None
        if isinstance(holder, dict) and isinstance(text, str):
            holder["description"] = " ".join(text.split())


def _describe(holder: JsonObject, text: str) -> None:
    """Give ``holder`` its description where pydantic writes one: just before its title (the
    keys are sorted after, except in a property called ``default``)."""
    items = list(holder.items())
    at = next((i for i, (key, _) in enumerate(items) if key == "title"), len(items))
    holder.clear()
    holder.update([*items[:at], ("description", text), *items[at:]])


def _declared_docstrings(model: type[BaseModel]) -> dict[str, str]:
    """Each field's docstring, from the class that declares the field last (a field declared
    again without one has none, as pydantic reads them)."""
    found: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        declared = inspect.get_annotations(cls)
        if declared and issubclass(cls, BaseModel) and cls is not BaseModel:
            own = _class_docstrings(cls)
            found = {k: v for k, v in found.items() if k not in declared} | own
    return found


@cache
def _class_docstrings(cls: type) -> dict[str, str]:
    """``name: T`` followed by a string in the class body: the string, cleaned, by name."""
    node = _class_nodes(cls.__module__).get(cls.__qualname__)
    docs: dict[str, str] = {}
    for first, then in itertools.pairwise(node.body if node else ()):
        if (isinstance(first, ast.AnnAssign) and isinstance(first.target, ast.Name)
                and isinstance(then, ast.Expr) and isinstance(then.value, ast.Constant)
                and isinstance(then.value.value, str)):
            docs[first.target.id] = inspect.cleandoc(then.value.value)
    return docs


@cache
def _class_nodes(module: str) -> dict[str, ast.ClassDef]:
    """Every class statement of a module, by qualified name (``Outer.Inner``)."""
    found: dict[str, ast.ClassDef] = {}

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                found[prefix + node.name] = node
                walk(node.body, f"{prefix}{node.name}.")

    walk(ast.parse(inspect.getsource(sys.modules[module])).body, "")
    return found


MODEL_CONFIG = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True,
                          json_schema_extra=one_line_descriptions)
"""Every ruleset model's settings: the JSON Schema described by each field's docstring, and the
validator built when the model is first used (``defer_build``), not when it is imported."""


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
