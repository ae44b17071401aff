"""Expectations on a replayed candidate (SPEC §4): ``text`` exact, ``records`` and ``state`` as
subset matches, with a readable diff when they do not hold."""

from __future__ import annotations

import json

from middleware.rules.base import json_path


def mismatches(expected: object, actual: object, loc: tuple[int | str, ...] = ()) -> list[str]:
    """Every place where ``expected`` is not a subset of ``actual``, as ``path: want X, got Y``.

    Dicts match when each expected key matches; lists match item by item and must be as long;
    anything else must be equal.
    """
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [_line(loc, expected, actual)]
        return [m for key, want in expected.items()
                for m in (mismatches(want, actual[key], (*loc, key)) if key in actual
                          else [f"{json_path((*loc, key))}: want {_show(want)}, got nothing"])]
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [_line(loc, expected, actual)]
        count = ([] if len(actual) == len(expected) else
                 [f"{json_path(loc)}: want {len(expected)} item(s), got {len(actual)}"])
        return count + [m for i, (want, got) in enumerate(zip(expected, actual, strict=False))
                        for m in mismatches(want, got, (*loc, i))]
    return [] if _same(expected, actual) else [_line(loc, expected, actual)]


def text_diff(expected: str, actual: str) -> list[str]:
    """Where two texts first differ, shown with a little context."""
    if expected == actual:
        return []
    at = next((i for i, (a, b) in enumerate(zip(expected, actual, strict=False)) if a != b),
              min(len(expected), len(actual)))
    start = max(0, at - 30)
    return [f"text differs at character {at}:",
            f"  want …{expected[start:at + 50]!r}", f"  got  …{actual[start:at + 50]!r}"]


def _same(expected: object, actual: object) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return bool(expected == actual)


def _line(loc: tuple[int | str, ...], want: object, got: object) -> str:
    return f"{json_path(loc)}: want {_show(want)}, got {_show(got)}"


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 200 else text[:197] + "..."
