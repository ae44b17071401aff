"""Reply text -> ``[Text | Tag]``: the parse front, whole or streamed (SPEC §1b, §2, §7 proxy).

The scanner here finds where tags start and end in free text; ``grammar/tags.lark`` reads each tag
body. This is the only module that imports lark, and the Lark tree never leaves it (STYLE habit 3).

- ``parse(text)`` covers the reply exactly: ``"".join(s.text if Text else s.raw) == text``.
- ``TagStream`` takes the reply in chunks and hands back, at once, what can no longer become part of
  a tag; only a suffix that could still be a tag (``[skill_ch``, an open body) is held back. The
  segments it returns, with adjacent Text runs merged, equal ``merge_text(parse(whole))``.

Limits against hostile input (SPEC §8): text past ``MAX_REPLY_CHARS`` is prose, and the work done is
linear in the reply (the scanner never re-walks a stretch it already found to be unclosed).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Final, NamedTuple, cast

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedInput

from middleware.segments import Segment, Tag, Text

__all__ = ["MAX_REPLY_CHARS", "READ_BUDGET", "TagStream", "merge_text", "parse", "source_of"]

MAX_REPLY_CHARS: Final = 1_000_000
"""Text past this many characters is prose: no tag is looked for there (SPEC §8)."""

READ_BUDGET: Final = 64_000
"""Characters of tag bodies read per reply; a tag past it keeps a problem, unread (SPEC §8)."""

_MAX_LOOSE_QUOTES = 4
"""A body with more never-closed quotes than this is not read (each costs the lexer a full pass)."""

_LAST_WINS = frozenset({"skill_check"})
_RUNS_TO_NEXT_KEY = frozenset({"inventory"})


def parse(text: str) -> list[Segment]:
    """Split a reply into prose and tags; text outside tags is kept byte for byte (SPEC §1b)."""
    head = text[:MAX_REPLY_CHARS]
    segments, _, _ = _read(head, offset=0, final=True, budget=READ_BUDGET)
    if len(text) > len(head):
        segments.append(Text(text[len(head) :], len(head), len(text)))
    return merge_text(segments)


def merge_text(segments: Iterable[Segment]) -> list[Segment]:
    """The same segments with adjacent Text runs joined into one."""
    merged: list[Segment] = []
    for segment in segments:
        last = merged[-1] if merged else None
        if isinstance(segment, Text) and isinstance(last, Text):
            merged[-1] = Text(last.text + segment.text, last.start, segment.end)
        elif not isinstance(segment, Text) or segment.text:
            merged.append(segment)
    return merged


def source_of(segments: Iterable[Segment]) -> str:
    """The source text the segments cover: prose as it was, tags exactly as the model wrote them."""
    return "".join(s.text if isinstance(s, Text) else s.raw for s in segments)


class TagStream:
    """A reply read chunk by chunk, for a proxy that passes text on while the model writes.

    ``feed`` returns the segments that are final now; ``held`` is what waits (a possible tag);
    ``close`` flushes it, an unclosed tag becoming prose. Spans index the whole reply.
    """

    _RESCAN_BELOW = 1024
    """Held text up to this size is re-read on every chunk; past it, only after 1/8 growth."""

    def __init__(self) -> None:
        self._pending: list[str] = []
        self._held_len = 0
        self._offset = 0
        self._read_at = 0
        self._closed = False
        self._budget = READ_BUDGET

    @property
    def held(self) -> str:
        """The text held back because it could still become a tag."""
        return "".join(self._pending)

    def feed(self, chunk: str) -> list[Segment]:
        """Take the next chunk; return what is safe to pass on now."""
        if self._closed:
            raise ValueError("this TagStream is closed")
        if self._offset >= MAX_REPLY_CHARS:
            return self._prose(chunk)
        self._pending.append(chunk)
        self._held_len += len(chunk)
        if self._offset + self._held_len >= MAX_REPLY_CHARS:
            return self._past_limit()
        if self._held_len > self._RESCAN_BELOW and self._held_len * 8 < self._read_at * 9:
            return []
        return self._release(final=False)

    def close(self) -> list[Segment]:
        """The reply is complete: flush what was held (an unclosed tag is prose)."""
        if self._closed:
            return []
        self._closed = True
        return self._release(final=True)

    def _release(self, final: bool) -> list[Segment]:
        held = self.held
        segments, hold, self._budget = _read(held, self._offset, final, self._budget)
        self._pending = [held[hold:]] if hold < len(held) else []
        self._held_len = len(held) - hold
        self._offset += hold
        self._read_at = self._held_len
        return merge_text(segments)

    def _past_limit(self) -> list[Segment]:
        held = self.held
        cut = MAX_REPLY_CHARS - self._offset
        self._pending, self._held_len = [held[:cut]], cut
        segments = self._release(final=True)
        return merge_text([*segments, *self._prose(held[cut:])])

    def _prose(self, text: str) -> list[Segment]:
        start, self._offset = self._offset, self._offset + len(text)
        return [Text(text, start, self._offset)] if text else []


# ── the scanner: where a tag starts and where its body ends ──────────────────────────────────────

_NAMES: Final = ("skill_check", "inventory", "place", "loot")
_HEADER: Final = re.compile(
    r"\[[ \t]{0,8}(skill_check|inventory|place|loot)[ \t]{0,8}:", re.IGNORECASE | re.ASCII
)
_HEADER_SO_FAR: Final = re.compile(r"\[[ \t]{0,8}([A-Za-z_]{0,11})([ \t]{0,8})\Z", re.ASCII)

_QUOTES: Final[dict[str, tuple[str, bool]]] = {
    '"': ('"', False),
    "'": ("'", True),
    "“": ('”"', False),
    "‘": ("’'", True),
    "„": ("”“", False),
    "«": ("»", False),
}
"""opener -> (closing characters, whether a closer must stand before whitespace or the end)."""


def _closer_pattern(opener: str, final: bool) -> re.Pattern[str]:
    chars, apostrophe = _QUOTES[opener]
    end = r"|\Z" if final else ""  # more text could put a letter after the quote
    follow = rf"(?=[\s\]]{end})" if apostrophe else ""
    return re.compile(f"[{chars}]{follow}")


_CLOSERS: Final = {(o, final): _closer_pattern(o, final) for o in _QUOTES for final in (True, False)}
"""(opener, whether the text is complete) -> where a value it opens may close."""


def _events(text: str) -> list[int]:
    """Every ``]``, and every quote where it could open a value, in reading order.

    One ``str.find`` per character skips prose at memory speed; a regex over a character class
    steps through every character in turn and took about twice as long (issue 2).
    """
    events = _positions(text, "]")
    for opener in _QUOTES:
        events += [i for i in _positions(text, opener) if i and _opens_value(text[i - 1])]
    events.sort()
    return events


def _opens_value(before: str) -> bool:
    """Whether a quote after ``before`` opens a value: after whitespace, "=" or the header's ":".

    This must agree with the grammar's quoted terminals (``(?<![^\\s=])``); ``str.isspace`` is
    the very test behind re's ``\\s``.
    """
    return before.isspace() or before in "=:"


def _positions(text: str, char: str) -> list[int]:
    found: list[int] = []
    at = text.find(char)
    while at >= 0:
        found.append(at)
        at = text.find(char, at + 1)
    return found


class _Closed(NamedTuple):
    """Where a tag body ends: the index of its ``]``; how many quotes on the way never closed."""

    bracket: int
    loose: int


_OPEN: Final = "open"
"""The body has not ended yet, and more text may still end it (streaming only)."""


class _Scanner:
    """Finds the first ``]`` not inside a quoted value, in time linear over all the tags of a text.

    A quote with no closer anywhere later is a plain character. What a walk meets depends only on
    the position it has reached, so a stretch found unclosed once (``_dead``) is never walked again.
    With ``final`` false the text may continue, and any doubt answers ``_OPEN``.
    """

    def __init__(self, text: str, final: bool) -> None:
        self._text = text
        self._final = final
        self._events: list[int] | None = None
        self._closers: dict[str, list[int]] = {}
        self._dead: set[int] = set()

    def close_of(self, at: int) -> _Closed | str | None:
        """The end of the body starting at ``at``; None when it never closes."""
        events, path, loose = self._event_list(), [], 0
        i = bisect_left(events, at)
        while i < len(events) and (event := events[i]) not in self._dead:
            path.append(event)
            if (char := self._text[event]) == "]":
                return _Closed(event, loose)
            closer = self._next_closer(char, event)
            if closer is None and not self._final:
                return _OPEN  # its closing quote may still come
            loose += closer is None
            i = i + 1 if closer is None else bisect_left(events, closer + 1, i)
        if not self._final:
            return _OPEN
        self._dead.update(path)
        return None

    def _event_list(self) -> list[int]:
        if self._events is None:
            self._events = _events(self._text)
        return self._events

    def _next_closer(self, opener: str, at: int) -> int | None:
        if opener not in self._closers:
            pattern = _CLOSERS[opener, self._final]
            self._closers[opener] = [m.start() for m in pattern.finditer(self._text)]
        positions = self._closers[opener]
        i = bisect_left(positions, at + 1)
        return positions[i] if i < len(positions) else None


def _tail_hold(text: str, start: int) -> int:
    """Where a header may be starting at the end of ``text`` (``[skill_ch``), else its length."""
    at = text.rfind("[", start)
    so_far = _HEADER_SO_FAR.match(text, at) if at >= 0 else None
    if so_far is None:
        return len(text)
    word, spaced = so_far.group(1).lower(), bool(so_far.group(2))
    could = any(name == word if spaced else name.startswith(word) for name in _NAMES)
    return at if could else len(text)


class _Found(NamedTuple):
    """One tag the scanner found: its family, where it starts, its body's span, its loose quotes."""

    family: str
    start: int
    body_at: int
    bracket: int
    loose: int


def _find(text: str, final: bool) -> tuple[list[_Found], int | None]:
    """The closed tags of ``text`` in order, and where a tag still open starts (streaming only)."""
    scanner = _Scanner(text, final)
    found: list[_Found] = []
    prose_from = 0
    for header in _HEADER.finditer(text):
        start = header.start()
        if start < prose_from:
            continue  # a header written inside an earlier tag's quoted value
        closed = scanner.close_of(header.end())
        if isinstance(closed, str):
            return found, start
        if closed is None:
            continue  # never closed: prose, and later headers inside it are still tags
        family = header.group(1).lower()
        found.append(_Found(family, start, header.end(), closed.bracket, closed.loose))
        prose_from = closed.bracket + 1
    return found, None


def _read(text: str, offset: int, final: bool, budget: int) -> tuple[list[Segment], int, int]:
    """Segments covering ``text[:hold]``, ``hold``, and the reading budget left.

    With ``final`` the text is complete and nothing is held. Where the tags are is settled first
    (``_find``), what each one says after; the reading budget goes to them in reading order.
    """
    found, hold = _find(text, final)
    segments: list[Segment] = []
    prose_from = 0
    for tag in found:
        body, end = text[tag.body_at : tag.bracket], tag.bracket + 1
        _with_prose(segments, text, prose_from, tag.start, offset)
        attrs, words, problems = _read_body(tag.family, body, _unread(body, tag.loose, budget))
        raw, span = text[tag.start : end], (offset + tag.start, offset + end)
        segments.append(Tag(tag.family, attrs, words, raw, *span, problems))
        budget, prose_from = budget - len(body), end
    if hold is None:  # no tag left open: hold at most a header still being written
        hold = len(text) if final else _tail_hold(text, prose_from)
    return _with_prose(segments, text, prose_from, hold, offset), hold, budget


def _with_prose(
    segments: list[Segment], text: str, start: int, end: int, offset: int
) -> list[Segment]:
    if end > start:
        segments.append(Text(text[start:end], offset + start, offset + end))
    return segments


def _unread(body: str, loose: int, budget: int) -> str | None:
    """Why a body is not given to the parser at all, or None (SPEC §8 limits)."""
    if len(body) > budget:
        return f"not read: the reply's tags are longer than {READ_BUDGET} characters in all"
    if loose > _MAX_LOOSE_QUOTES:
        return f"not read: {loose} quotes are opened and never closed"
    return None


_Body = tuple[dict[str, str], tuple[str, ...], tuple[str, ...]]
"""What one tag body reads as: its attributes, its bare words, its problems."""


def _read_body(family: str, body: str, refusal: str | None) -> _Body:
    """One body through the grammar; an unreadable body gives a problem instead (SPEC §1b, §8)."""
    if refusal is not None:
        return {}, (), (refusal,)
    try:
        parts = cast(list[_Part], _parser().parse(body))  # the inline _Reader gives the parts
    except LarkError as exc:  # the one place a lark error becomes ours: a problem on the tag
        return {}, (), (_problem(exc, body),)
    attrs, words = _attributes(family, body, parts)
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
            words.append(part.value)
        elif part.value.strip() and (family in _LAST_WINS or part.key not in attrs):
            attrs[part.key] = part.value  # a bare or blank `key=` declares nothing
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


class _Reader(Transformer[Token, list[_Part]]):
    """Reads each rule of grammar/tags.lark as the parser reduces it, so no tree is ever built.

    ``pair`` gets its ``KEY_IS`` token (the key, any spacing, the "=") and the value token if any;
    ``bare`` gets its one token.
    """

    def start(self, parts: list[_Part]) -> list[_Part]:
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
            value = body[held.first.start_pos : part.last.end_pos]
            result[-1] = _Part(held.key, value, held.first, part.last)
        else:
            result.append(part)
    return result


@cache
def _parser() -> Lark:
    """The tag-body parser, built once on first use (STYLE habit 2).

    Fast by construction (issue 2): the ``_Reader`` runs inline, so the parser hands back parts
    rather than a tree; tokens carry their own positions, so no tree positions are propagated; and
    the basic lexer, since no state of this grammar needs a narrower set of terminals.
    """
    grammar = _grammar_path().read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", lexer="basic", transformer=_Reader(),
                maybe_placeholders=False)


def _grammar_path() -> Path:
    installed = Path(__file__).parent / "grammar" / "tags.lark"
    return installed if installed.exists() else Path(__file__).parents[1] / "grammar" / "tags.lark"
