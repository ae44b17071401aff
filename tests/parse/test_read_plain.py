"""A complete reply whose tags are all plain is read in one pass, to what the scanner gives (SPEC §1b).

``parse._read_plain`` finds each tag by the first "]" after its header and reads its body by
``_plain_parts`` (remembered per body); it takes the reply only when every tag's body is plain
and within the reading budget, and any other reply goes to the scanner and the grammar
(``_read_scanned``). Here both meet on plain tags, near misses, and the scanner's own mixes of
quotes, brackets and headers: wherever the quick pass takes a reply, its segments, attributes,
bare words, problems, spans and budget left are the scanner's.
``GM_HUNT_EXAMPLES`` sets how many examples each property runs (default 300).
"""

from __future__ import annotations

import os
from importlib import import_module

from hypothesis import example, given, settings
from hypothesis import strategies as st

from middleware.parse import merge_text, parse, parse_pieces
from middleware.segments import Tag
from tests.parse.test_plain_bodies import FAMILIES, near_miss, plain_body
from tests.parse.test_properties import noise
from tests.parse.test_scanner_agrees import mixes

front = import_module("middleware.parse")  # the module: the package exports its ``parse``

EXAMPLES = int(os.environ.get("GM_HUNT_EXAMPLES", "300"))

prose = st.sampled_from(["", "Rain. ", "[on Win] ", "\n", "a [skill", "[x] ", " ] ", '"', "'",
                         "[loot:", "[ Place :"])


@st.composite
def plain_reply(draw: st.DrawFn) -> str:
    """Tags with plain bodies (or near misses) between runs of prose, stray headers included."""
    tags = draw(st.lists(st.tuples(st.sampled_from(FAMILIES), plain_body() | near_miss()),
                         min_size=1, max_size=4))
    return "".join(draw(prose) + f"[{family}:{body}]" for family, body in tags) + draw(prose)


replies = plain_reply() | mixes | noise


@settings(max_examples=EXAMPLES, deadline=None)  # no timed assertions
@given(replies, st.sampled_from([0, 7, 1_000]), st.integers(0, 80) | st.just(front.READ_BUDGET))
@example('Ada. [skill_check: skill="Reckon" dc="7"] Then quiet.', 0, front.READ_BUDGET)
@example('[loot: a [skill_check: b] c]', 3, front.READ_BUDGET)
@example('[place: name="x"] [place: name="a long name"]', 0, 12)
def test_the_quick_pass_reads_as_the_scanner_does(text: str, offset: int, budget: int) -> None:
    """Where the quick pass takes a reply: the scanner's segments and budget left, exactly."""
    quick = front._read_plain(text, offset, budget)
    if quick is None:
        return
    segments, left = quick
    assert front._read_scanned(text, offset, True, budget, False) == (segments, len(text), left)


@settings(max_examples=EXAMPLES, deadline=None)
@given(replies, st.booleans())
def test_a_complete_reply_has_no_runs_of_prose_to_merge(text: str, branches: bool) -> None:
    """``parse_pieces`` returns its segments unmerged: no run of prose is empty or next to
    another, with or without branch markers."""
    pieces = parse_pieces(text, branches=branches)
    assert merge_text(pieces) == pieces


def test_a_remembered_body_gives_each_tag_its_own_attributes() -> None:
    """Changing one tag's attributes leaves the next reading of the same body as written."""
    text = '[skill_check: skill="Climb" dc="12"]'
    first = parse(text)[0]
    assert isinstance(first, Tag)
    first.attrs["dc"] = "99"
    again = parse(text)[0]
    assert isinstance(again, Tag)
    assert {"skill": "Climb", "dc": "12"} == again.attrs
