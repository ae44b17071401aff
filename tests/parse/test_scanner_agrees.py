"""The scanner finds the tags the grammar's quoting says are there (SPEC §1b, issue 16 #5).

``scan.py`` decides where a tag body ends (the first ``]`` outside a quoted value) without the
grammar; ``grammar/tags.lark`` decides what a quoted value is. Here a reference finder walks each
body with the grammar's own ``QUOTED`` terminal, read from the grammar file: a quote opens a value
at the start of a body or after whitespace or "=", and skips to where the terminal ends. Over
mixes of quotes, colons, "=", brackets and headers, the scanner and the reference find the same
tags. (They disagreed on a quote after a ":" inside a body, which hid the next tag.)
"""

from __future__ import annotations

import re
from functools import cache

from hypothesis import example, given, settings
from hypothesis import strategies as st
from lark import Lark

from middleware.parse import _grammar_path
from middleware.scan import find_tags

HEADER = re.compile(r"\[[ \t]{0,8}(skill_check|inventory|place|loot)[ \t]{0,8}:",
                    re.IGNORECASE | re.ASCII)
OPENERS = "\"'“‘„«"


@cache
def quoted() -> re.Pattern[str]:
    """The grammar's ``QUOTED`` terminal, with its look-behind (a body's start or whitespace or
    "=" before the quote) left to the walker, which knows where the body starts."""
    grammar = Lark(_grammar_path().read_text(encoding="utf-8"), parser="lalr", lexer="basic")
    terminal = next(t for t in grammar.terminals if t.name == "QUOTED")
    return re.compile(terminal.pattern.to_regexp().replace(r"(?<![^\s=])", ""))


def body_end(text: str, at: int) -> int | None:
    """Where the body starting at ``at`` ends by the grammar's quoting; None if never."""
    p = at
    while p < len(text):
        char = text[p]
        if char == "]":
            return p
        if char in OPENERS and (p == at or text[p - 1].isspace() or text[p - 1] == "="):
            found = quoted().match(text, p)
            if found is not None:
                p = found.end()
                continue
        p += 1
    return None


def reference_tags(text: str) -> list[tuple[int, int]]:
    """(start, closing bracket) of every tag, headers inside an earlier tag skipped."""
    tags, prose_from = [], 0
    for header in HEADER.finditer(text):
        if header.start() < prose_from:
            continue
        end = body_end(text, header.end())
        if end is not None:
            tags.append((header.start(), end))
            prose_from = end + 1
    return tags


PIECES = ["[skill_check: ", "[loot:", "[Inventory :", "]", "[", ":", "=", " ", "\n", "a", "b",
          "note=", "x:", "'", '"', "“", "”", "‘", "’", "„", "«", "»", "Wren's", "dc=7"]
mixes = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(mixes)
@example('[skill_check: skill="Climb" note=a:\'b] She climbs. [skill_check: skill="Climb" '
         "dc=\"7\"] Wren's rope' holds.")
@example("[loot:'grave goods'] [loot: x:\"y] z\"]")
def test_the_scanner_finds_the_tags_the_grammar_quotes(text: str) -> None:
    """The scanner's tags (start, closing bracket) are the reference's, for complete text."""
    found, _ = find_tags(text, True)
    assert reference_tags(text) == [(f.start, f.bracket) for f in found]


def test_a_quote_after_a_colon_inside_a_body_is_a_letter() -> None:
    """The issue's reply: two checks, both found (the ``'`` after ``a:`` opens nothing)."""
    text = ('[skill_check: skill="Climb" note=a:\'b] She climbs. [skill_check: skill="Climb" '
            "dc=\"7\"] Wren's rope' holds.")
    assert 2 == len(find_tags(text, True)[0])
