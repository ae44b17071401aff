"""The plain-body reading gives exactly what the grammar gives (SPEC §1b).

A body of ``key="value"`` pairs and simple bare words is read without the grammar
(``parse._plain_parts``); every other body goes to the grammar. Here both readings meet on bodies
of the plain shape (which must take the quick reading) and on near misses (any quote but ``"``,
unquoted values, a bare ``key=``, parts run together, stray "=" or "]", spacing the grammar does
not skip, unclosed quotes), which may take it only where they read the same.
"""

from __future__ import annotations

from importlib import import_module
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from middleware.parse import TagStream, merge_text, parse
from middleware.segments import Segment, Text

front = import_module("middleware.parse")  # the module: the package exports its ``parse``

FAMILIES = ("skill_check", "inventory", "place", "loot", "sheet", "dice")

# ── the plain shape ────────────────────────────────────────────────────────────────────────────

key = st.from_regex(r"[A-Za-z_][A-Za-z0-9_\-]{0,7}", fullmatch=True)
spacing = st.text(alphabet=" \t\n\r\f", max_size=3)
gap = st.text(alphabet=" \t\n\r\f", min_size=1, max_size=3)
inside = st.text(st.characters(exclude_characters='"', codec="utf-8"), max_size=12) | st.text(
    alphabet="ab ]['‘’“”«»=:\n\v\xa0", max_size=8)
double_quoted = inside.map(lambda text: f'"{text}"')
word = st.text(st.characters(exclude_characters="\"'“”‘’„«»=]", exclude_categories=["Z", "C"],
                             codec="utf-8"), min_size=1, max_size=8).filter(
    lambda w: not any(c.isspace() for c in w)) | st.sampled_from(
    ["advantage", "disadvantage", "pay", "grave_goods", "4d6kh3", "+", "-2", "2d6+1", "x:y"])
pair = st.builds(lambda k, s1, s2, v: f"{k}{s1}={s2}{v}", key, spacing, spacing, double_quoted)
bare_key = st.builds(lambda k, s: f"{k}{s}=", key, spacing)  # plain only last or before a key
plain_part = pair | double_quoted | word


@st.composite
def plain_body(draw: st.DrawFn) -> str:
    parts: list[str] = []
    for part in reversed(draw(st.lists(plain_part | bare_key, max_size=6))):
        if not part.endswith("=") or not parts or ("=" in parts[0] and parts[0][0] != '"'):
            parts.insert(0, part)
    return draw(spacing) + "".join(p + draw(gap) for p in parts) + draw(spacing)


# ── near misses: the plain shape with one thing or more the quick reading must not take ────────

other_quoted = st.sampled_from(["'", "‘", "“", "„", "«"]).flatmap(
    lambda q: st.builds(lambda text, close: q + text + close,
                        st.text(alphabet="ab 's]", max_size=5), st.sampled_from(
                            ["'", "’", "”", "»", '"', "“", ""])))
odd_value = other_quoted | word | st.sampled_from(["", " ", '"open', '"a""b"', "'Ada's axe'"])
odd_pair = st.builds(lambda k, s, v: f"{k}{s}={v}", key, spacing, odd_value)
odd_part = odd_pair | other_quoted | st.sampled_from(
    ["=", "= x", "]", "a]", "x=", '"', "a'b", "Ada’s", "k\v=\"v\"", "\xa0", "\v", "\u2003",
     'a="x"b="y"', '"q"w', '"a""b"', "a==\"b\"", "a-b=\"c\"", "_=\"\""])
joint = gap | st.sampled_from(["", "\v", "\xa0", "\u3000", "=", " = "])


@st.composite
def near_miss(draw: st.DrawFn) -> str:
    parts = draw(st.lists(plain_part | odd_part, min_size=1, max_size=6))
    return draw(spacing) + "".join(p + draw(joint) for p in parts)


# ── the two readings ───────────────────────────────────────────────────────────────────────────


def by_grammar(body: str) -> front._Reading:
    return front._parse_alone(body)


def assert_reads_alike(body: str) -> bool:
    """The quick reading, where it takes the body, equals the grammar's, part by part and under
    every family's rules; whether it took the body."""
    quick, grammar = front._plain_parts(body), by_grammar(body)
    if quick is None:
        return False
    assert isinstance(grammar, list), grammar
    assert [(p.key, p.value) for p in grammar] == [(p.key, p.value) for p in quick]
    for family in FAMILIES:
        assert front._body_of(family, body, grammar) == front._body_of(family, body, quick)
    return True


@settings(max_examples=600, deadline=None)  # no timed assertions: a slow machine is not a failure
@given(plain_body())
def test_a_plain_body_is_read_quickly_and_as_the_grammar_reads_it(body: str) -> None:
    assert assert_reads_alike(body)


@settings(max_examples=1500, deadline=None)
@given(near_miss())
def test_a_near_miss_is_read_quickly_only_where_the_grammar_agrees(body: str) -> None:
    assert_reads_alike(body)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=' \t\n\v\xa0ab=]"\'“”‘’„«»:', max_size=16))
def test_any_body_is_read_quickly_only_where_the_grammar_agrees(body: str) -> None:
    assert_reads_alike(body)


@pytest.mark.parametrize("body", [
    "skill='Ward'", "who=‘Bram’", "who=“Bram”", "who=„Bram”", "who=«Bram»", "dc=2",
    "skill= advantage", 'skill= "a"b', "skill=dc=\"2\"", 'skill="Ward"dc="2"', '"a""b"',
    'adv"x"', "Ada's", "= x", "a]",
    "a\vb", "a\xa0b", 'skill="open', 'a="x" =', "item=Bronze Key", 'x="1"\u2003y="2"',
])
def test_near_misses_go_to_the_grammar(body: str) -> None:
    """Each of these is left to the grammar, which reads it (or finds it unreadable) as ever."""
    assert front._plain_parts(body) is None


def without_quick_reading(text: str) -> list[Segment]:
    """The reply read by the scanner and the grammar alone (the quick pass remembers bodies)."""
    with patch.object(front, "_plain_parts", lambda body: None), \
            patch.object(front, "_read_plain", lambda text, offset, budget: None):
        return parse(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(FAMILIES), plain_body() | near_miss()), max_size=5),
       st.sampled_from(["", "Rain. ", "[on Win] ", "\n"]))
def test_a_reply_parses_the_same_with_and_without_the_quick_reading(
        tags: list[tuple[str, str]], prose: str) -> None:
    """What a user sees: the same segments, attributes, bare words and problems."""
    text = prose.join(f"[{family}:{body}]" for family, body in tags) + prose
    assert without_quick_reading(text) == parse(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(FAMILIES), plain_body() | near_miss()), max_size=4),
       st.sampled_from(["", "Rain. ", "a [skill", "[x] ", "[lo", " [ place "]), st.integers(1, 9))
def test_streamed_in_small_pieces_a_reply_reads_as_whole(
        tags: list[tuple[str, str]], prose: str, size: int) -> None:
    """Fed as a proxy feeds it, a piece at a time and prose first where it can be, the stream hands
    out what the whole parse gives: prose before a header still being written goes out at once."""
    text = prose.join(f"[{family}:{body}]" for family, body in tags) + prose
    stream, got = TagStream(), []
    for piece in (text[i:i + size] for i in range(0, len(text), size)):
        got += [Text(piece, stream_at(got), stream_at(got) + len(piece))] \
            if stream.prose(piece) else stream.feed(piece)
    assert merge_text(parse(text)) == merge_text([*got, *stream.close()])


def stream_at(pieces: list[Segment]) -> int:
    return pieces[-1].end if pieces else 0
