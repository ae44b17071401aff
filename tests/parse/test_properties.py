"""Properties of the parse front, with strategies that mirror grammar/tags.lark rule by rule.

SPEC §1b (the tag language), §2 (text outside tags is preserved byte for byte), §7 (the stream
holds back only a possible tag), §8 (model output never crashes the pipeline).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from middleware.parse import TagStream, merge_text, parse, source_of
from middleware.segments import Segment, Tag, Text

# ── strategies, one per grammar rule ───────────────────────────────────────────────────────────

NAMES = ["skill_check", "inventory", "place", "loot"]
QUOTES = [('"', '"'), ("'", "'"), ("“", "”"), ("‘", "’"), ("„", "”"), ("«", "»")]
QUOTE_CHARS = "\"'“”‘’„«»"


def any_case(word: str) -> st.SearchStrategy[str]:
    """The tag name in any case (SPEC §1b)."""
    flips = st.lists(st.booleans(), min_size=len(word), max_size=len(word))
    return flips.map(lambda ups: "".join(map(cased, word, ups)))


def cased(letter: str, up: bool) -> str:
    return letter.upper() if up else letter


tag_name = st.sampled_from(NAMES).flatmap(any_case)

# KEY: a word that "=" follows, in any case
key = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,7}", fullmatch=True)

# %ignore WS: free spacing and newlines around "=" and between parts
spacing = st.text(alphabet=" \t\n", max_size=3)
gap = st.text(alphabet=" \t\n", min_size=1, max_size=3)

# QUOTED: DOUBLE | SINGLE | CURLY_DOUBLE | CURLY_SINGLE | LOW_DOUBLE | GUILLEMETS
inside = st.text(
    alphabet=st.characters(exclude_characters=QUOTE_CHARS, codec="utf-8"),
    max_size=12,
)
quoted = st.tuples(st.sampled_from(QUOTES), inside).map(lambda q: q[0][0] + q[1] + q[0][1])

# WORD: an unquoted value or bare word, to the next whitespace
word = st.from_regex(r"[A-Za-z0-9+\-.,;]{1,10}", fullmatch=True)

# the value of a pair: WORD | QUOTED (or nothing: a bare `key=`)
value = word | quoted | st.just("")

# pair: KEY_IS [WORD | QUOTED]   (KEY_IS is the key with its "=", any spacing between)
pair = st.builds(lambda k, s1, s2, v: f"{k}{s1}={s2}{v}", key, spacing, spacing, value)

# bare: WORD | quoted
bare = st.sampled_from(["advantage", "disadvantage", "pay", "buy", "grave_goods"]) | quoted


@st.composite
def body(draw: st.DrawFn) -> str:
    """body: (pair | bare)*, parts separated by whitespace."""
    parts = draw(st.lists(pair | bare, max_size=6))
    return "".join(draw(gap) + part for part in parts) + draw(spacing)


@st.composite
def tag(draw: st.DrawFn) -> str:
    """A whole tag as the model writes it: `[name:` body `]`."""
    return f"[{draw(tag_name)}:{draw(body())}]"


# Prose with stray brackets, quotes, colons and equals signs, but no tag name in it.
prose = st.text(alphabet="ab xyz\n\t[]:=\"'“”‘’«»", max_size=20)

# Fragments that put tag starts, halves of names and quotes next to each other at random.
noise = st.lists(
    st.sampled_from(
        ["[", "]", '"', "'", "“", "”", "‘", "’", " ", "\n", "=", ":", "a", "x=", "skill_check",
         "[loot:", "[SKILL_CHECK:", "[ place :", "[inv", "entory:", " dc=", '="2"', "advantage"]
    ),
    max_size=40,
).map("".join)


@st.composite
def reply(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """A reply as (prose runs, tags): prose, tag, prose, ..., prose."""
    tags = draw(st.lists(tag(), max_size=4))
    runs = draw(st.lists(prose, min_size=len(tags) + 1, max_size=len(tags) + 1))
    return runs, tags


def joined(runs: list[str], tags: list[str]) -> str:
    return runs[0] + "".join(t + r for t, r in zip(tags, runs[1:], strict=True))


def cuts(text: str) -> st.SearchStrategy[list[str]]:
    """Any chunking of ``text``."""
    points = st.lists(st.integers(0, len(text)), max_size=8).map(sorted)
    return points.map(lambda ps: split_at(text, ps))


def split_at(text: str, points: list[int]) -> list[str]:
    bounds = [0, *points, len(text)]
    return [text[a:b] for a, b in pairwise(bounds)]


def streamed(chunks: list[str]) -> list[Segment]:
    stream = TagStream()
    out = [s for chunk in chunks for s in stream.feed(chunk)]
    return merge_text([*out, *stream.close()])


def contiguous(segments: list[Segment], text: str) -> bool:
    ends = [0, *(s.end for s in segments)]
    starts = [*(s.start for s in segments), len(text)]
    return ends == starts and all(s.end > s.start for s in segments)


# ── properties ─────────────────────────────────────────────────────────────────────────────────


@settings(deadline=None)  # no timed assertions: a slow machine is not a failure
@given(st.text() | noise)
def test_parsing_never_raises_and_covers_the_text(text: str) -> None:
    """SPEC §8: any text parses; the segments cover it exactly, in order, with true spans."""
    segments = parse(text)
    assert text == source_of(segments)
    assert contiguous(segments, text)


@settings(deadline=None)  # no timed assertions: a slow machine is not a failure
@given(reply())
def test_text_outside_tags_is_preserved_byte_for_byte(written: tuple[list[str], list[str]]) -> None:
    """SPEC §2: the prose runs come back exactly as written, and each tag as its own segment."""
    runs, tags = written
    segments = parse(joined(runs, tags))
    assert [r for r in runs if r] == [s.text for s in segments if isinstance(s, Text)]
    assert tags == [s.raw for s in segments if isinstance(s, Tag)]


@settings(deadline=None)  # no timed assertions: a slow machine is not a failure
@given(reply())
def test_every_tag_written_is_read(written: tuple[list[str], list[str]]) -> None:
    """SPEC §1b: a well-formed tag of any name case and spacing is read without problems."""
    runs, tags = written
    found = [s for s in parse(joined(runs, tags)) if isinstance(s, Tag)]
    assert [t.split(":")[0][1:].lower() for t in tags] == [t.name for t in found]
    assert all(not t.problems for t in found)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_chunking_gives_what_the_whole_reply_gives(data: st.DataObject) -> None:
    """SPEC §7: feeding a reply in any chunks yields the same segments as parsing it whole."""
    text = data.draw(reply().map(lambda w: joined(*w)) | noise | st.text(max_size=30))
    chunks = data.draw(cuts(text))
    assert merge_text(parse(text)) == streamed(chunks)


@settings(deadline=None)  # no timed assertions: a slow machine is not a failure
@given(tag())
def test_rendering_the_attributes_and_parsing_again_gives_them_back(written: str) -> None:
    """STYLE habit 9: a tag's attrs rendered as key="value" read back as the same attrs."""
    first = parse(written)[0]
    assert isinstance(first, Tag)
    rendered = " ".join(f'{k}="{v}"' for k, v in first.attrs.items())
    again = parse(f"[{first.name}: {rendered}]")[0]
    assert isinstance(again, Tag)
    assert first.attrs == again.attrs


@settings(deadline=None)  # no timed assertions: a slow machine is not a failure
@given(reply().map(lambda w: joined(*w)) | noise)
def test_a_tag_reads_the_same_in_any_reply(text: str) -> None:
    """SPEC §1b, §8: the tags of a reply are read together, yet each reads (problems included)
    exactly as it would alone, so nothing of one tag leaks into its neighbours."""
    for tag in (s for s in parse(text) if isinstance(s, Tag)):
        assert [replace(tag, start=0, end=len(tag.raw))] == parse(tag.raw)
