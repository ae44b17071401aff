"""Pydantic's validation errors as ``Problem``s with JSON paths into the file (SPEC §8).

The one place a pydantic error is read: its ``loc`` is walked along the file itself, so the tags
pydantic adds for unions (``dice-sum``, ``function-after[...]``) never show in a path.

Also ``repeats``, which every import check of unique ids reads (SHEET-IMPORT-03, ITM-IMPORT-02,
CHK-IMPORT): each check words its own ``Problem``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from pydantic import JsonValue, ValidationError
from pydantic_core import ErrorDetails

from middleware.errors import Problem
from middleware.rules.base import json_path


def validation_problems(exc: ValidationError, raw: JsonValue, prefix: tuple[int | str, ...] = ()) \
        -> list[Problem]:
    """Every error of ``exc``, once per path: a union's complaints about one value read as one."""
    by_path: dict[str, list[str]] = {}
    # Unknown keys are listed after the other problems whatever the pydantic release (2.13 lists
    # them first, 2.14 last), so the order a user reads does not depend on what else is installed.
    errors = sorted(exc.errors(include_url=False), key=lambda e: e["type"] == "extra_forbidden")
    for error in errors:
        problem = _problem(error, raw, prefix)
        messages = by_path.setdefault(problem.path, [])
        if problem.message not in messages:
            messages.append(problem.message)
    return [Problem(path, " / ".join(messages)) for path, messages in by_path.items()]


def _problem(error: ErrorDetails, raw: JsonValue, prefix: tuple[int | str, ...]) -> Problem:
    loc = prefix + file_loc(raw, error["loc"], missing=error["type"] == "missing")
    if error["type"] in ("union_tag_invalid", "union_tag_not_found"):
        # Name the discriminating key itself (``$.resolution.kind``), not the object holding it.
        loc += (str(error.get("ctx", {}).get("discriminator", "")).strip("'"),)
    if error["type"] == "extra_forbidden":
        return Problem(json_path(loc), "unknown key (only $comment may be added)")
    message = error["msg"].removeprefix("Value error, ")
    value = error.get("input")
    if error["type"] != "missing" and isinstance(value, str | int | float | bool):
        message += f" (got {_brief(value)})"
    return Problem(json_path(loc), message)


def file_loc(raw: JsonValue, loc: tuple[int | str, ...], *, missing: bool = False) \
        -> tuple[int | str, ...]:
    """The part of pydantic's ``loc`` that is a path in ``raw``, without union tags."""
    node, out = raw, []
    for index, part in enumerate(loc):
        last = index == len(loc) - 1
        child = _child(node, part)
        if child:
            node = child[0]
        elif not (last and missing and isinstance(node, dict) and isinstance(part, str)):
            continue
        out.append(part)
    return tuple(out)


def repeats(values: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Each value that was already seen earlier in ``values``, with its index."""
    seen: set[str] = set()
    for i, value in enumerate(values):
        if value in seen:
            yield i, value
        seen.add(value)


def _child(node: JsonValue, part: int | str) -> tuple[JsonValue, ...]:
    """``(node[part],)`` when the file has that key or index, else ``()``."""
    if isinstance(node, dict):
        return (node[part],) if isinstance(part, str) and part in node else ()
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return (node[part],)
    return ()


def _brief(value: str | int | float | bool) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


RESOLUTION = "$.resolution"
"""The JSON path of the ``resolution`` block, where every kind's problems are found."""


def face_problem(face: int, sides: int, path: str) -> Iterator[Problem]:
    if not 1 <= face <= sides:
        yield Problem(path, f"face {face} is not on a {sides}-sided die")


def duplicate_ids(ids: list[str], path: str, key: str) -> Iterator[Problem]:
    for i, one in repeats(ids):
        yield Problem(f"{path}[{i}].{key}", f"{key} {one!r} is declared twice")
