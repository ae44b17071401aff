"""Records -> resolved tags spliced into the reply text (SPEC §6).

Text outside tags is copied byte for byte. A tag whose record gives no attributes (ignored, error)
stays exactly as the model wrote it.
"""

from __future__ import annotations

from collections.abc import Sequence

from middleware.records import Record, clean_values, written_clean
from middleware.segments import Segment, Tag


def render_tag(name: str, attrs: Sequence[tuple[str, str]]) -> str:
    """``[name: key="value" ...]`` with every value made record-safe."""
    # Values are nearly always safe already: write them as they are, and clean them one by one
    # only when the written text shows one that is not.
    body = " ".join([f'{key}="{value}"' for key, value in attrs])
    if not written_clean(body, len(attrs)):
        values = clean_values([value for _, value in attrs])
        body = " ".join([f'{key}="{value}"' for (key, _), value in zip(attrs, values, strict=True)])
    return f"[{name}: {body}]" if body else f"[{name}]"


def resolved_text(tag: Tag, record: Record) -> str:
    """What replaces ``tag``: the record's tag(s), joined by a space, or the tag as written."""
    name = record.written_as() or tag.name
    written = [render_tag(name, attrs) for attrs in record.tag_groups() if attrs]
    return " ".join(written) if written else tag.raw


def rewrite(segments: Sequence[Segment], records: Sequence[Record]) -> str:
    """The reply with each tag replaced, in order, by its record's resolved tag."""
    out: list[str] = []
    pending = iter(records)
    for segment in segments:
        if isinstance(segment, Tag):
            out.append(resolved_text(segment, next(pending)))
        else:
            out.append(segment.text)
    return "".join(out)
