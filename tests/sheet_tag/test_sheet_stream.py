"""The new tags in a streamed reply (SPEC §7 proxy): prose passes at once, a ``[sheet:`` or
``[dice:`` header being written is held until its tag closes, and the segments equal the whole
reply's parse."""

from __future__ import annotations

from middleware.parse import TagStream, merge_text, parse
from middleware.segments import Tag, Text

REPLY = 'Ouch. [sheet: op="damage" pool="grit" amount="2"] She rolls [dice: 2d6+3] coins.'


def test_a_sheet_header_is_held_until_its_tag_closes() -> None:
    """``[she`` may become a tag: it is held; prose before it goes out at once."""
    stream = TagStream()
    assert [Text("Ouch. ", 0, 6)] == stream.feed("Ouch. [she")
    assert "[she" == stream.held
    assert [] == stream.feed('et: op="damage" pool="grit"')
    released = stream.feed(' amount="2"] She')
    assert isinstance(released[0], Tag) and "sheet" == released[0].name


def test_streamed_in_small_chunks_equals_the_whole_parse() -> None:
    """Chunks of three characters give the segments of the whole reply."""
    stream = TagStream()
    segments = []
    for at in range(0, len(REPLY), 3):
        segments += stream.feed(REPLY[at:at + 3])
    segments += stream.close()
    assert merge_text(parse(REPLY)) == merge_text(segments)
    assert ["sheet", "dice"] == [s.name for s in segments if isinstance(s, Tag)]
