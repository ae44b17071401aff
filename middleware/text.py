"""Text is valid Unicode everywhere, and bounded: the one boundary for lone surrogates and for a
reply's length (SPEC §8).

JSON may carry ``"\\ud800"``, an escape of half a UTF-16 pair, and ``json.loads`` gives it back as
a lone surrogate: a ``str`` that no UTF-8 encoder, SQLite or PostgreSQL accepts. Text from outside
(a request, a model's reply, a stored row) passes ``clean_text`` once where it comes in: a pair
written as two escapes becomes the character it spells, every lone half becomes U+FFFD (the
replacement character), and the caller is told how many were replaced so it can say so.
"""

from __future__ import annotations

import re
from typing import Final

from pydantic import JsonValue

REPLACEMENT = "\ufffd"
"""What a lone surrogate becomes."""

MAX_CANDIDATE_CHARS: Final = 100_000
"""The longest reply a candidate keeps (characters, as the model wrote it): a longer one is cut
there (``bounded``) and its record says so. A Continue adds at most what is left (``room``)."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> tuple[str, int]:
    """``text`` with surrogate pairs joined and lone surrogates replaced; how many were replaced.

    Text with no surrogate at all (nearly all of it) is returned as it is, after one scan in C."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text, 0
    joined = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return joined, joined.count(REPLACEMENT) - text.count(REPLACEMENT)


def clean(text: str) -> str:
    """``clean_text`` without the count, for a column that has no record to tell."""
    return clean_text(text)[0]


def clean_json(value: JsonValue) -> JsonValue:
    """A JSON value with every string in it (keys too) cleaned; walked in a loop, never recursion,
    so a value nested thousands deep is cleaned like a flat one."""
    top = _cleaned(value)
    stack = [top]
    while stack:  # each container on the stack is a fresh copy whose children are not cleaned yet
        node = stack.pop()
        if isinstance(node, dict):
            for key, child in node.items():
                node[key] = _cleaned(child)
            stack.extend(node.values())
        elif isinstance(node, list):
            node[:] = [_cleaned(child) for child in node]
            stack.extend(node)
    return top


def _cleaned(value: JsonValue) -> JsonValue:
    """One level of ``clean_json``: a string cleaned, an object or array copied (an object's keys
    cleaned, the first of two keys that clean alike kept), anything else as it is."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, dict):
        copy: dict[str, JsonValue] = {}
        for key, child in value.items():
            copy.setdefault(clean(key), child)
        return copy
    if isinstance(value, list):
        return list(value)
    return value


def surrogates_line(count: int) -> str:
    """What a record says when ``count`` lone surrogates were replaced."""
    plural = "s" if count != 1 else ""
    return f"{count} lone surrogate{plural} (half a UTF-16 pair) replaced by U+FFFD"


def bounded(text: str, limit: int = MAX_CANDIDATE_CHARS) -> tuple[str, bool]:
    """``text`` cut to ``limit`` characters, and whether it was."""
    return (text[: max(limit, 0)], True) if len(text) > limit else (text, False)


def room(reply: str) -> int:
    """How many characters a Continue may add to a candidate whose reply is ``reply``."""
    return max(MAX_CANDIDATE_CHARS - len(reply), 0)


def cut_line(limit: int) -> str:
    """What a record says when a reply was cut at ``limit`` characters."""
    return (f"the reply was longer than {limit} characters (the longest a candidate keeps): "
            "the rest was dropped")
