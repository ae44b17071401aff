"""Reply text -> ``[Text | Tag]``: the parse front, whole or streamed (SPEC §1b, §2, §7 proxy).

``scan.py`` finds where tags start and end in free text; ``grammar/tags.lark`` reads the tag
bodies. This is the only module that imports lark, and the Lark tree never leaves it (STYLE habit 3).

- ``parse(text)`` covers the reply exactly: ``"".join(s.text if Text else s.raw) == text``.
- ``TagStream`` takes the reply in chunks and hands back, at once, what can no longer become part of
  a tag; only a suffix that could still be a tag (``[skill_ch``, an open body) is held back. The
  segments it returns, with adjacent Text runs merged, equal ``merge_text(parse(whole))``. A tag
  streamed most often closes with a plain body and only prose after it in the chunk: it is read
  by itself (``_read_closed``), at less than half the cost of reading the held text anew.

How a reply is read, cheaply: ``scan.find_tags`` locates the tags, most of them by a
glance at their own body; then one Lark parse reads every body of the reply, our
``_BodyLexer`` feeding the grammar each body on its own, a ``_TAG_END`` after each, so a tag reads
exactly as it would alone. Only when that parse fails is each body read alone, so that the problem
goes to its own tag (``_parse_together``). A plain body, only ``key="value"`` pairs and simple bare
words (the shape almost every tag has), is read by two regex calls instead (``_plain_parts``), to
the same parts the grammar gives it; anything else goes to the grammar. A complete reply whose
tags are all plain skips the scanner and the lists too (``_read_plain``), and what a plain body
says is remembered for the next reply that repeats it (``_said_plainly``).

Limits against hostile input (SPEC §8): text past ``MAX_REPLY_CHARS`` is prose, and the work done is
linear in the reply (the scanner never re-walks a stretch it already found to be unclosed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Final, NamedTuple, TypeVar, cast

from lark import Lark, Token, Transformer
from lark.common import LexerConf
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput
from lark.lexer import BasicLexer, LexerState

from middleware.numbers import bound_numbers
from middleware.scan import (
    Found,
    find_headers,
    find_markers,
    find_tags,
    header_at_start,
    marker_hold,
    tail_hold,
)
from middleware.segments import Marker, Piece, Segment, Tag, Text

__all__ = ["MAX_REPLY_CHARS", "READ_BUDGET", "TagStream", "merge_text", "parse", "parse_pieces",
           "source_of"]

MAX_REPLY_CHARS: Final = 1_000_000
"""Text past this many characters is prose: no tag is looked for there (SPEC §8)."""

READ_BUDGET: Final = 64_000
"""Characters of tag bodies read per reply; a tag past it keeps a problem, unread (SPEC §8)."""

_MAX_LOOSE_QUOTES = 4
"""A body with more never-closed quotes than this is not read (each costs the lexer a full pass)."""

_PLAIN_LABEL: Final = re.compile(r"[^\"'“”‘’„«»=]*")
"""A branch label with nothing in it for the grammar to read but words."""

_HEADER_MAX: Final = 40
"""Longer than any start of a header (``[``, spaces, a name, spaces, ``:``): held text this short
is checked for one before it is read again."""

_LAST_WINS = frozenset({"skill_check"})
_RUNS_TO_NEXT_KEY = frozenset({"inventory"})


def parse(text: str) -> list[Segment]:
    """Split a reply into prose and tags; text outside tags is kept byte for byte (SPEC §1b)."""
    return cast(list[Segment], parse_pieces(text, branches=False))


def parse_pieces(text: str, *, branches: bool) -> list[Piece]:
    """``parse``, and with ``branches`` the branch markers in the prose as ``Marker`` pieces."""
    head = text[:MAX_REPLY_CHARS]
    segments, _, _ = _read(head, offset=0, final=True, budget=READ_BUDGET, branches=branches)
    if len(text) == len(head):
        return segments  # complete text: _read leaves no run of prose empty or next to another
    segments.append(Text(text[len(head) :], len(head), len(text)))
    return merge_text(segments)


def merge_text(segments: Iterable[Piece]) -> list[Piece]:
    """The same segments with adjacent Text runs joined into one."""
    merged: list[Piece] = []
    for segment in segments:
        last = merged[-1] if merged else None
        if isinstance(segment, Text) and isinstance(last, Text):
            merged[-1] = Text(last.text + segment.text, last.start, segment.end)
        elif not isinstance(segment, Text) or segment.text:
            merged.append(segment)
    return merged


def source_of(segments: Iterable[Piece]) -> str:
    """The source text the segments cover: prose as it was, tags exactly as the model wrote them."""
    return "".join(s.text if isinstance(s, Text) else s.raw for s in segments)


class TagStream:
    """A reply read chunk by chunk, for a proxy that passes text on while the model writes.

    ``feed`` returns the segments that are final now; ``held`` is what waits (a possible tag);
    ``close`` flushes it, an unclosed tag becoming prose. Spans index the whole reply. With
    ``branches``, branch markers come as ``Marker`` pieces, and one still being written is held.
    """

    _RESCAN_BELOW = 1024
    """Held text up to this size is re-read on every chunk; past it, only after 1/8 growth."""

    def __init__(self, *, branches: bool = False) -> None:
        self._branches = branches
        self._pending: list[str] = []
        self._held_len = 0
        self._offset = 0
        self._read_at = 0
        self._closed = False
        self._budget = READ_BUDGET
        self._open: tuple[str, int] | None = None
        """The tag the held text starts with, when its header is whole (``[skill_check:``): its
        family and where its body starts. While it is open, only a "]" can close it."""

    @property
    def held(self) -> str:
        """The text held back because it could still become a tag."""
        return "".join(self._pending)

    def feed(self, chunk: str) -> list[Piece]:
        """Take the next chunk; return what is safe to pass on now."""
        if self._open is not None and "]" not in chunk \
                and self._offset + self._held_len + len(chunk) < MAX_REPLY_CHARS:
            self._pending.append(chunk)  # most chunks of a tag: only a "]" can close it
            self._held_len += len(chunk)
            return []
        if self._closed:
            raise ValueError("this TagStream is closed")
        if self._offset >= MAX_REPLY_CHARS:
            return self._prose(chunk)
        start = self._offset
        if not self._pending and self.prose(chunk):
            return [Text(chunk, start, self._offset)] if chunk else []
        self._pending.append(chunk)
        self._held_len += len(chunk)
        if self._offset + self._held_len >= MAX_REPLY_CHARS:
            return self._past_limit()
        if "]" not in chunk and (header := self._header_at()) is not None:
            return self._prose_before(header) if header else []
        if self._held_len > self._RESCAN_BELOW and self._held_len * 8 < self._read_at * 9:
            return []
        return self._release(final=False)

    def prose(self, chunk: str) -> bool:
        """Take ``chunk`` as prose at once, unread, when it can be nothing else: nothing is held
        and no tag or marker starts without a "[". Whether it did (else ``feed`` it)."""
        if self._pending or "[" in chunk or self._closed \
                or self._offset + len(chunk) >= MAX_REPLY_CHARS:
            return False
        self._offset += len(chunk)
        return True

    def _header_at(self) -> int | None:
        """Where a tag may be starting in the held text, a chunk with no ``]`` added, when that is
        all reading it again would tell: 0 when it is all the start of a tag (the start of its
        header, ``[skill_ch``, or an open tag, which only a ``]`` can close); the index of a
        header being written after prose with no ``[`` in it (``s. [skill_ch``). None: read it."""
        if self._open is not None:
            return 0
        if self._held_len > _HEADER_MAX:
            return None
        held = self.held
        if ":" in held and "]" not in held and (header := header_at_start(held)) is not None:
            self._open = header  # a whole header, so no start of one (tail_hold): the tag is open
            return 0
        at = tail_hold(held, 0)
        if at == 0 or (at < len(held) and held.find("[") == at):
            return at
        self._open = header_at_start(held) if "]" not in held else None
        return 0 if self._open is not None else None

    def _prose_before(self, header: int) -> list[Piece]:
        """Pass on the held text before ``header`` as the prose it is (no tag or marker starts
        without a "["), and hold the rest."""
        held = self.held
        self._pending, self._held_len = [held[header:]], len(held) - header
        self._read_at = self._held_len
        return self._prose(held[:header])

    def close(self) -> list[Piece]:
        """The reply is complete: flush what was held (an unclosed tag is prose)."""
        if self._closed:
            return []
        self._closed = True
        return self._release(final=True)

    def _release(self, final: bool) -> list[Piece]:
        held = self.held
        if not final and self._open is not None \
                and (closed := self._tag_closed(held, self._open)) is not None:
            return closed
        segments, hold, self._budget = _read(held, self._offset, final, self._budget,
                                             self._branches)
        self._pending = [held[hold:]] if hold < len(held) else []
        self._held_len = len(held) - hold
        self._offset += hold
        self._read_at = self._held_len
        self._open = header_at_start(self._pending[0]) if not final and self._pending else None
        return merge_text(segments)

    def _tag_closed(self, held: str, header: tuple[str, int]) -> list[Piece] | None:
        """The open tag the held text starts with, now closed, and the prose after it, when that
        is all it holds: the tag read alone (``_read_closed``), the prose passed on, nothing
        held. None when the held text is for ``_read``: a body that is not plain may not have
        closed (a "]" inside a value), a "[" after it may start another tag or a marker."""
        read = _read_closed(held, header, self._offset, self._budget)
        if read is None:
            return None
        pieces, self._budget = read
        self._pending, self._held_len, self._read_at = [], 0, 0
        self._offset += len(held)
        self._open = None
        return pieces

    def _past_limit(self) -> list[Piece]:
        held = self.held
        cut = MAX_REPLY_CHARS - self._offset
        self._pending, self._held_len = [held[:cut]], cut
        segments = self._release(final=True)
        return merge_text([*segments, *self._prose(held[cut:])])

    def _prose(self, text: str) -> list[Piece]:
        start, self._offset = self._offset, self._offset + len(text)
        return [Text(text, start, self._offset)] if text else []


def _read(text: str, offset: int, final: bool, budget: int,
          branches: bool = False) -> tuple[list[Piece], int, int]:
    """Segments covering ``text[:hold]``, ``hold``, and the reading budget left.

    With ``final`` the text is complete and nothing is held. Where the tags are is settled first
    (``find_tags``), what they say after (``_readings``, one parse for all of them); with
    ``branches``, the prose is then split at its markers (``_marked``). Complete text whose tags
    are all plain is read in one pass instead (``_read_plain``), to the same segments.
    """
    if final and (plain := _read_plain(text, offset, budget)) is not None:
        segments, budget = plain
        return (_marked(segments, text, offset) if branches else cast(list[Piece], segments)), \
            len(text), budget
    return _read_scanned(text, offset, final, budget, branches)


def _read_scanned(text: str, offset: int, final: bool, budget: int,
                  branches: bool) -> tuple[list[Piece], int, int]:
    """``_read`` of any text: the scanner's tags, read together."""
    found, hold = find_tags(text, final)
    bodies = [text[tag.body_at : tag.bracket] for tag in found]
    refusals, budget = _refusals(found, bodies, budget)
    segments: list[Segment] = []
    prose_from = 0
    for tag, body, reading in zip(found, bodies, _readings(bodies, refusals), strict=True):
        _with_prose(segments, text, prose_from, tag.start, offset)
        segments.append(_tag_of(tag, text, offset, body, reading))
        prose_from = tag.bracket + 1
    if hold is None:  # no tag left open: hold at most a header still being written
        hold = len(text) if final else tail_hold(text, prose_from)
    if not final and branches:  # nor a marker still being written
        hold = marker_hold(text, prose_from, hold)
    pieces = _with_prose(segments, text, prose_from, hold, offset)
    return (_marked(pieces, text, offset) if branches else list(pieces)), hold, budget


def _read_plain(text: str, offset: int, budget: int) -> tuple[list[Segment], int] | None:
    """``_read`` of complete text whose every tag has a plain body (``_plain_parts``) within the
    budget: the same segments and budget, by one pass over its headers. None: ``_read`` it.

    A plain body ends at the first "]" after its header for the scanner too (``_read_closed``),
    so a tag is found by a ``str.find``, with no scanner, no ``Found`` and no lists of bodies,
    refusals and readings. Nearly every reply is read so: a reply with one ``skill_check`` in
    about 7 µs where ``_read_scanned`` takes 11, and 4 with its body remembered.
    """
    segments: list[Segment] = []
    prose_from = 0
    for header in find_headers(text):
        start, body_at = header.span()
        if start < prose_from:
            continue  # a header written inside an earlier tag's body
        bracket = text.find("]", body_at)
        if bracket < 0 or bracket - body_at > budget:
            return None  # never closed, or over the budget: the scanner says what it is
        body, family = text[body_at:bracket], header.group(1).lower()
        if (said := _said_plainly(family, body)) is None:
            return None
        budget -= len(body)
        attrs, words = said
        _with_prose(segments, text, prose_from, start, offset)
        segments.append(Tag(family, attrs, words, text[start : bracket + 1], offset + start,
                            offset + bracket + 1))
        prose_from = bracket + 1
    return _with_prose(segments, text, prose_from, len(text), offset), budget


def _read_closed(text: str, header: tuple[str, int], offset: int,
                 budget: int) -> tuple[list[Piece], int] | None:
    """``_read`` of ``text``, an open tag a "]" was just added to, when it is that tag with a
    plain body (``_plain_parts``) and then prose with no "[" in it: the same pieces and budget,
    with no search for tags or markers. None: ``_read`` it. ``header``: the tag's family and
    where its body starts (``scan.header_at_start``).

    A body plain up to the first "]" ends there: each quote in it opens a value and closes
    inside it (``_PLAIN_PART``), so the scanner ends it there too, as
    ``tests/parse/test_stream_close.py`` holds. What the body says is read as ``_read_plain``
    reads it, remembered (``_said_plainly``): a stream's tags repeat the game's bodies too."""
    family, body_at = header
    bracket = text.find("]", body_at)
    if bracket < 0 or "[" in text[bracket + 1 :] or bracket - body_at > budget:
        return None  # over the budget: the scanner's reading says why it is not read
    body = text[body_at:bracket]
    if (said := _said_plainly(family, body)) is None:
        return None
    attrs, words = said
    end = bracket + 1
    tag = Tag(family, attrs, words, text[:end], offset, offset + end)
    return _with_prose([tag], text, end, len(text), offset), budget - len(body)


def _tag_of(tag: Found, text: str, offset: int, body: str, reading: _Reading) -> Tag:
    """The ``Tag`` the scanner found, saying what its body says; its span indexes the reply."""
    end = tag.bracket + 1
    attrs, words, problems = _body_of(tag.family, body, reading)
    return Tag(tag.family, attrs, words, text[tag.start : end], offset + tag.start, offset + end,
               problems)


def _marked(segments: list[Segment], text: str, offset: int) -> list[Piece]:
    """The segments with each prose run split at its branch markers; the labels are read by the
    grammar as tag bodies are, in one parse (``grammar/tags.lark``)."""
    pieces: list[Piece] = []
    for segment in segments:
        if not isinstance(segment, Text):
            pieces.append(segment)
            continue
        at = segment.start - offset
        for marker in find_markers(text, at, segment.end - offset):
            _with_prose(pieces, text, at, marker.start, offset)
            pieces.append(Marker(_plain_label(marker.label), text[marker.start:marker.end],
                                 offset + marker.start, offset + marker.end))
            at = marker.end
        _with_prose(pieces, text, at, segment.end - offset, offset)
    return _labelled(pieces)


def _labelled(pieces: list[Piece]) -> list[Piece]:
    """Each ``[on …]`` marker's label as the grammar reads it: a quoted label without its quotes,
    bare words joined by one space, a ``key=value`` by its value; an unreadable one as written.

    A label of plain words (no quote, no "=") was read already (``_plain_label``), with no
    parse."""
    labels = [p.label for p in pieces if isinstance(p, Marker) and p.label is not None
              and _PLAIN_LABEL.fullmatch(p.label) is None]
    if not labels:
        return pieces
    read = iter(_parse_together(labels))
    return [replace(p, label=_label_of(p.label, next(read)))
            if isinstance(p, Marker) and p.label is not None
            and _PLAIN_LABEL.fullmatch(p.label) is None else p for p in pieces]


def _plain_label(label: str | None) -> str | None:
    """A label of plain words as the grammar would read it (its words joined by one space);
    any other label as written, for ``_labelled`` to read."""
    if label is None or _PLAIN_LABEL.fullmatch(label) is None:
        return label
    return " ".join(label.split())


def _label_of(written: str, reading: _Reading) -> str:
    if isinstance(reading, str):
        return written.strip()
    pairs = [part.value for part in reading if part.key is not None]
    return pairs[0] if pairs else " ".join(part.value for part in reading)


_Run = TypeVar("_Run", Segment, Piece)
"""A list of segments, or of pieces once branch markers are split out."""


def _with_prose(
    segments: list[_Run], text: str, start: int, end: int, offset: int
) -> list[_Run]:
    if end > start:
        segments.append(Text(text[start:end], offset + start, offset + end))
    return segments


def _refusals(found: list[Found], bodies: list[str], budget: int) -> tuple[list[str | None], int]:
    """Why each body is not read, or None; the reading budget goes to the tags in reading order."""
    refusals: list[str | None] = []
    for tag, body in zip(found, bodies, strict=True):
        refusals.append(_unread(body, tag.loose, budget))
        budget -= len(body)
    return refusals, budget


def _unread(body: str, loose: int, budget: int) -> str | None:
    """Why a body is not given to the parser at all, or None (SPEC §8 limits)."""
    if len(body) > budget:
        return f"not read: the reply's tags are longer than {READ_BUDGET} characters in all"
    if loose > _MAX_LOOSE_QUOTES:
        return f"not read: {loose} quotes are opened and never closed"
    return None


_Reading = list["_Part"] | str
"""One body as the grammar read it: its parts, or the problem that kept it from being read."""

_Body = tuple[dict[str, str], tuple[str, ...], tuple[str, ...]]
"""What one tag body says: its attributes, its bare words, its problems."""


def _readings(bodies: list[str], refusals: list[str | None]) -> list[_Reading]:
    """Each body's reading: the refusal if it is not read, else what the grammar made of it."""
    if refusals.count(None) == len(refusals):  # nearly always: every body is read as it is
        return _parse_together(bodies) if bodies else []
    readable = [body for body, refusal in zip(bodies, refusals, strict=True) if refusal is None]
    parsed = iter(_parse_together(readable) if readable else [])
    return [next(parsed) if refusal is None else refusal for refusal in refusals]


def _parse_together(bodies: list[str]) -> list[_Reading]:
    """Every body as the grammar reads it: the plain ones by ``_plain_parts``, the others through
    the grammar in one parse (SPEC §1b).

    Each body reads alone in that parse too, so taking the plain ones out changes no reading.
    """
    plain = [_plain_parts(body) for body in bodies]
    if None not in plain:
        return cast(list[_Reading], plain)
    others = iter(_parse_grammar([body for body, parts in zip(bodies, plain, strict=True)
                                  if parts is None]))
    return [next(others) if parts is None else parts for parts in plain]


def _parse_grammar(bodies: list[str]) -> list[_Reading]:
    """All the bodies through the grammar in one parse.

    One parse costs a fifth less than a parse per body. When it fails, each body is read
    alone, so that the problem goes to the tag that has it and its neighbours are still read.
    """
    try:
        return cast(list[_Reading], _parser().parse(bodies))  # the inline _Reader gives the parts
    except LarkError:  # which body is unreadable: reading each alone tells, and says why
        return [_parse_alone(body) for body in bodies]


def _parse_alone(body: str) -> _Reading:
    try:
        return cast(list[_Reading], _parser().parse([body]))[0]
    except LarkError as exc:  # the one place a lark error becomes ours: a problem on the tag
        return _problem(exc, body)


_GAP: Final = r"[ \t\f\r\n]"
"""The spacing the grammar skips (``WS``); any other whitespace is left to the grammar."""

_KEY: Final = r"[A-Za-z_][A-Za-z0-9_\-]*+"
"""A key as the grammar's ``KEY_IS`` starts."""

_PLAIN_PART: Final = (rf"({_KEY}){_GAP}*+={_GAP}*+\"([^\"]*+)\""
                      rf"|({_KEY}){_GAP}*+=(?={_GAP}*+\Z|{_GAP}++{_KEY}{_GAP}*+=)"
                      r"|(\"[^\"]*+\")|([^\s=\]\"'“”‘’„«»]++)")
"""A pair ``key="value"`` (free spacing around "="), a bare ``key=`` last or before the next key,
a bare ``"quoted"`` word, or a bare word with no quote, "=" or "]" in it. In a plain body the
grammar reads each as one token or two (``KEY_IS``, ``QUOTED``): the quote follows "=" or
spacing, so it opens a value; a bare word starts with no quote, and a ``KEY_IS`` would need an
"=" after it, which only ever follows a key; a ``KEY_IS`` followed by another has no value."""

_PLAIN_BODY: Final = re.compile(
    rf"{_GAP}*+(?:(?:{_PLAIN_PART})(?:{_GAP}++(?:{_PLAIN_PART}))*+)?{_GAP}*+")
"""A body of plain parts, each set apart by spacing (``"a""b"`` is one word to the grammar)."""

_PLAIN_PARTS: Final = re.compile(_PLAIN_PART)


def _plain_parts(body: str) -> list[_Part] | None:
    """A plain body's parts, exactly as the grammar reads them; None for any other body.

    Its parts carry no tokens: only ``_run_on`` reads them, after an unquoted value, and a plain
    body has none. ``tests/parse/test_plain_bodies.py`` holds the two readings equal.
    """
    if _PLAIN_BODY.fullmatch(body) is None:
        return None
    return [_Part(key.lower(), value) if key else _Part(bare_key.lower(), "") if bare_key
            else _Part(None, quoted[1:-1] if quoted else word)
            for key, value, bare_key, quoted, word in _PLAIN_PARTS.findall(body)]


_CACHED_BODY_MAX: Final = 256
"""Plain bodies up to this long are remembered (``_said_plainly``); longer ones are rare."""


def _said_plainly(family: str, body: str) -> tuple[dict[str, str], tuple[str, ...]] | None:
    """What a plain body says under its family's rules (``_attributes``); None if not plain.

    It depends on the two strings alone, and a game repeats its bodies (``skill="Climb"
    dc="12"``): a remembered one costs a dict copy instead of three regex calls and the rules.
    """
    if len(body) > _CACHED_BODY_MAX:
        return _plain_said(family, body)
    said = _remembered(family, body)
    return None if said is None else (dict(said[0]), said[1])  # each Tag owns its attrs


def _plain_said(family: str, body: str) -> tuple[dict[str, str], tuple[str, ...]] | None:
    parts = _plain_parts(body)
    return None if parts is None else _attributes(family, body, parts)


_remembered: Final = lru_cache(maxsize=1024)(_plain_said)


def _body_of(family: str, body: str, reading: _Reading) -> _Body:
    """What a body says, under its family's rules; an unread body says nothing but its problem."""
    if isinstance(reading, str):
        return {}, (), (reading,)
    attrs, words = _attributes(family, body, reading)
    return attrs, words, ()


def _problem(exc: LarkError, body: str) -> str:
    if isinstance(exc, UnexpectedInput) and exc.pos_in_stream is not None:
        return f"unreadable at column {exc.column}:\n{exc.get_context(body).rstrip()}"
    return f"unreadable: {exc}"


def _attributes(
    family: str, body: str, parts: list[_Part]
) -> tuple[dict[str, str], tuple[str, ...]]:
    """The family rules over the parts the grammar read (SPEC §1b)."""
    if family in _RUNS_TO_NEXT_KEY:
        parts = _run_on(parts, body)
    attrs: dict[str, str] = {}
    words: list[str] = []
    for part in parts:
        if part.key is None:
            words.append(bound_numbers(part.value))
        elif part.value.strip() and (family in _LAST_WINS or part.key not in attrs):
            attrs[part.key] = bound_numbers(part.value)  # a bare or blank `key=` declares nothing
    return attrs, tuple(words)


class _Part(NamedTuple):
    """One pair or bare word as the grammar read it; ``value`` unquoted, "" when not given.

    A named tuple, not a frozen dataclass: there is one per pair of every tag, and it builds faster.
    """

    key: str | None
    value: str
    first: Token | None = None
    last: Token | None = None

    @property
    def unquoted(self) -> bool:
        return self.first is not None and self.first.type == "WORD"


def _given(key: str | None, token: Token) -> _Part:
    """A part whose value (or bare word) is ``token``: a WORD as written, a QUOTED without quotes."""
    value = str(token) if token.type == "WORD" else token[1:-1]
    return _Part(key, value, token, token)


class _Reader(Transformer[Token, list[list[_Part]]]):
    """Reads each rule of grammar/tags.lark as the parser reduces it, so no tree is ever built.

    ``start`` gets the parts of each body in turn (a list per body); ``pair`` gets its ``KEY_IS``
    token (the key, any spacing, the "=") and the value token if any; ``bare`` its one token.
    """

    def start(self, bodies: list[list[_Part]]) -> list[list[_Part]]:
        return bodies

    def body(self, parts: list[_Part]) -> list[_Part]:
        return parts

    def pair(self, children: list[Token]) -> _Part:
        key = children[0][:-1].rstrip().lower()  # the spacing is what WS would have skipped
        return _given(key, children[1]) if len(children) > 1 else _Part(key, "")

    def bare(self, children: list[Token]) -> _Part:
        return _given(None, children[0])


def _run_on(parts: list[_Part], body: str) -> list[_Part]:
    """Inventory: an unquoted value runs on to the next ``key=`` (``item=Bronze Key``: one name)."""
    result: list[_Part] = []
    for part in parts:
        runs_on = result and result[-1].key is not None and result[-1].unquoted
        if runs_on and part.key is None and part.unquoted:
            held = result[-1]
            assert held.first is not None and part.last is not None
            value = body[held.first.start_pos : part.last.start_pos] + part.last  # a WORD as written
            result[-1] = _Part(held.key, value, held.first, part.last)
        else:
            result.append(part)
    return result


class _BodyLexer(BasicLexer):
    """Lark's basic lexer, over a list of tag bodies with a ``_TAG_END`` after each.

    Each body is matched on its own, as if it were the whole text, against the grammar's terminals
    in the order Lark's basic lexer tries them (its ``__init__`` sorts them by priority); tokens
    index their body. Per token it costs a third less than Lark's: it counts no line and
    column (nothing reads them but an error, which counts its own), makes one regex call, and
    builds the token without keywords.
    """

    __future_interface__ = 2  # lark hands lex() its state as is, holding our list of bodies

    def __init__(self, conf: LexerConf) -> None:
        super().__init__(conf)
        # a string terminal would need Lark's per-token callbacks, which this lexer leaves out
        assert all(t.pattern.type == "re" for t in self.terminals), "tags.lark: regexps only"
        either = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in self.terminals)
        self._match = self.re.compile(either, self.g_regex_flags).match

    def lex(self, lexer_state: LexerState, parser_state: object) -> Iterator[Token]:
        for body in cast(list[str], lexer_state.text):
            yield from self._tokens(body, parser_state)
            yield Token("_TAG_END", "")

    def _tokens(self, body: str, parser_state: object) -> Iterator[Token]:
        at = 0
        while at < len(body):
            found = self._match(body, at)
            if found is None:
                raise self._unexpected(body, at, parser_state)
            if found.lastgroup not in self.ignore_types:
                yield Token(found.lastgroup, found.group(), at)
            at = found.end()

    def _unexpected(self, body: str, at: int, parser_state: object) -> UnexpectedCharacters:
        """Lark's error where no terminal matches, with the line and column Lark would count."""
        line, column = body.count("\n", 0, at) + 1, at - body.rfind("\n", 0, at)
        allowed = {t.name for t in self.terminals} - self.ignore_types
        return UnexpectedCharacters(  # type: ignore[no-untyped-call]
            body, at, line, column, allowed=allowed, state=parser_state,
            terminals_by_name=self.terminals_by_name)


@cache
def _parser() -> Lark:
    """The tag-body parser, built once on first use (STYLE habit 2); ``parse`` takes a list of bodies.

    Fast by construction: one parse reads all the bodies of a reply; the ``_BodyLexer``
    counts no lines; the ``_Reader`` runs inline, so the parser hands back parts rather than a
    tree; and tokens carry their own positions, so no tree positions are propagated.
    """
    grammar = _grammar_path().read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", lexer=_BodyLexer, transformer=_Reader(),
                maybe_placeholders=False)


def _grammar_path() -> Path:
    installed = Path(__file__).parent / "grammar" / "tags.lark"
    return installed if installed.exists() else Path(__file__).parents[1] / "grammar" / "tags.lark"
