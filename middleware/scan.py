"""Where the tags of a reply start and where their bodies end, without reading them (SPEC §1b).

A header is ``[`` + one of the six names + ``:``; the body runs to the first ``]`` that is not
inside a quoted value, and a tag never closed is prose. The quoting rules here must agree with the
grammar's quoted terminals (``grammar/tags.lark``). ``parse.py`` reads the bodies found here.

Limits against hostile input (SPEC §8): the work is linear in the text (a stretch found unclosed is
never walked again).

In a game with branch blocks on, the prose between tags is also searched for branch markers
(``find_markers``): ``[on <label>]`` (``on`` in any case, then spaces, ``:``, ``_`` or ``-``; a
label of one line, no brackets, at most 120 characters) and ``[/branch]``, spaces allowed inside the
brackets. The label is a tag body to the grammar (``parse.py`` reads it).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from typing import Final, NamedTuple

__all__ = ["Found", "MarkerAt", "find_headers", "find_markers", "find_tags", "header_at_start",
           "marker_hold", "tail_hold"]


_NAMES: Final = ("skill_check", "inventory", "place", "loot", "sheet", "dice")
_HEADER: Final = re.compile(
    r"\[[ \t]{0,8}(skill_check|inventory|place|loot|sheet|dice)[ \t]{0,8}:", re.IGNORECASE | re.ASCII
)
_NAME_SET: Final = frozenset(_NAMES)
_NAME_STARTS: Final = frozenset(name[:end] for name in _NAMES for end in range(len(name) + 1))
"""Every start of a name, the empty one and the whole name included (``skill_ch``)."""
_HEADER_SO_FAR: Final = re.compile(r"\[[ \t]{0,8}([A-Za-z_]{0,11})([ \t]{0,8})\Z", re.ASCII)
_BARE_STARTS: Final = frozenset(f"[{start}" for start in _NAME_STARTS)
"""The starts of a header with no spacing (``[skill_ch``), as a streamed header mostly is."""
_BARE_LONGEST: Final = max(map(len, _BARE_STARTS))

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


_QUOTE: Final = re.compile(f"[{''.join(_QUOTES)}]")
"""Any character that opens a value where it stands after whitespace, "=" or ":"."""

_CLOSERS: Final = {(o, final): _closer_pattern(o, final) for o in _QUOTES for final in (True, False)}
"""(opener, whether the text is complete) -> where a value it opens may close."""


def _events(text: str) -> list[int]:
    """Every ``]``, and every quote where it could open a value, in reading order.

    One ``str.find`` per character skips prose at memory speed; a regex over a character class
    steps through every character in turn and took about twice as long.
    """
    events = _positions(text, "]")
    for opener in _QUOTES:
        events += [i for i in _positions(text, opener)
                   if i and (_opens_value(text, i, -1) or _first_in_body(text, i))]
    events.sort()
    return events


def _opens_value(text: str, at: int, body: int) -> bool:
    """Whether the quote at ``at`` opens a value in the body starting at ``body``: after
    whitespace or "=", or first in the body (right after its header's ":"; a ":" anywhere else,
    a nested header's included, is part of a word).

    This must agree with the grammar's quoted terminals (``(?<![^\\s=])``, each body lexed on
    its own so its start counts as a start); ``str.isspace`` is the very test behind re's ``\\s``.
    """
    before = text[at - 1]
    return before.isspace() or before == "=" or at == body


def _first_in_body(text: str, at: int) -> bool:
    """A quote that opens a value only where a body starts (after a ":")."""
    before = text[at - 1]
    return before == ":"


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

    Most tags are settled by a glance at their own body (``_glance``), without listing the events
    of the whole text; from the first tag a glance cannot settle on, every tag is walked.
    """

    def __init__(self, text: str, final: bool) -> None:
        self._text = text
        self._final = final
        self._glancing = True
        self._events: list[int] | None = None
        self._closers: dict[str, list[int]] = {}
        self._dead: set[int] = set()

    def close_of(self, at: int) -> _Closed | str | None:
        """The end of the body starting at ``at``; None when it never closes."""
        if self._glancing:
            if (closed := self._glance(at)) is not None:
                return closed
            self._glancing = False  # for good: failed glances could re-read one stretch per header
        return self._walk(at)

    def _glance(self, at: int) -> _Closed | None:
        """The next ``]``, if every value opened before it also closes before it; else None.

        A glance reads only this body, where listing the events reads the whole text once per quote
        character. Tags do not overlap and the first failed glance is the last, so all the
        glances of a text read it twice at most.
        """
        text, bracket, body = self._text, self._text.find("]", at), at
        if bracket < 0:
            return None
        while (quote := _QUOTE.search(text, at, bracket)) is not None:
            at = quote.end()
            if _opens_value(text, quote.start(), body):
                closer = _CLOSERS[quote.group(), self._final].search(text, at, bracket + 1)
                if closer is None:
                    return None  # the value runs past this "]", or may never close
                at = closer.end()
        return _Closed(bracket, 0)

    def _walk(self, at: int) -> _Closed | str | None:
        """Event by event from ``at``: a quote jumps to its closer, the first ``]`` ends the body."""
        events, path, loose = self._event_list(), [], 0
        i = bisect_left(events, at)
        while i < len(events) and (event := events[i]) not in self._dead:
            char = self._text[event]
            if char != "]" and not _opens_value(self._text, event, at):
                i += 1  # a quote after a ":" that is not this body's start: a letter
                continue
            if event != at:  # the body's own first quote opens only for this body
                path.append(event)
            if char == "]":
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


def find_headers(text: str) -> Iterator[re.Match[str]]:
    """Every header in ``text`` in order, each with its family as written in group 1 (one inside
    an earlier tag's body included: ``find_tags`` skips those)."""
    return _HEADER.finditer(text)


def header_at_start(text: str) -> tuple[str, int] | None:
    """The family of the header ``text`` starts with (``[skill_check:``) and where its body
    starts; None when it starts with none. Once it is whole, only a ``]`` can close the tag."""
    header = _HEADER.match(text)
    return None if header is None else (header.group(1).lower(), header.end())


def tail_hold(text: str, start: int) -> int:
    """Where a header may be starting at the end of ``text`` (``[skill_ch``), else its length."""
    at = text.rfind("[", start)
    tail = text[at : at + _BARE_LONGEST + 1] if at >= 0 else ""  # one more: a longer one is none
    if tail.isascii() and tail.lower() in _BARE_STARTS:
        return at  # most often; ASCII only, as the regex reads it
    so_far = _HEADER_SO_FAR.match(text, at) if at >= 0 else None
    if so_far is None:
        return len(text)
    word, spaced = so_far.group(1).lower(), bool(so_far.group(2))
    return at if word in (_NAME_SET if spaced else _NAME_STARTS) else len(text)


_MARKER: Final = re.compile(
    r"\[[ \t]{0,8}(?:on(?:[ \t]{1,8}|[ \t]{0,8}[:_-][ \t]{0,8})(?P<label>[^\[\]\r\n]{1,120}?)"
    r"|/[ \t]{0,8}branch)[ \t]{0,8}\]", re.IGNORECASE)
_MARKER_SO_FAR: Final = re.compile(
    r"\[[ \t]{0,8}(?:on?|on(?:[ \t]{1,8}|[ \t]{0,8}[:_-][ \t]{0,8})[^\[\]\r\n]{0,128}"
    r"|/[ \t]{0,8}(?:b(?:r(?:a(?:n(?:c(?:h[ \t]{0,8})?)?)?)?)?)?)?\Z", re.IGNORECASE)


class MarkerAt(NamedTuple):
    """One branch marker in prose: its span and its label as written (None on ``[/branch]``)."""

    start: int
    end: int
    label: str | None


def find_markers(text: str, start: int, end: int) -> list[MarkerAt]:
    """The branch markers that lie whole in the prose ``text[start:end]``, in order."""
    return [MarkerAt(m.start(), m.end(), m.group("label"))
            for m in _MARKER.finditer(text, start, end)]


def marker_hold(text: str, start: int, end: int) -> int:
    """Where a branch marker may be starting at the end of ``text[start:end]`` (``[on Succ``),
    else ``end``."""
    at = text.rfind("[", start, end)
    return at if at >= 0 and _MARKER_SO_FAR.match(text, at, end) else end


class Found(NamedTuple):
    """One tag the scanner found: its family, where it starts, its body's span, its loose quotes."""

    family: str
    start: int
    body_at: int
    bracket: int
    loose: int


def find_tags(text: str, final: bool) -> tuple[list[Found], int | None]:
    """The closed tags of ``text`` in order, and where a tag still open starts (streaming only)."""
    scanner = _Scanner(text, final)
    found: list[Found] = []
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
        found.append(Found(family, start, header.end(), closed.bracket, closed.loose))
        prose_from = closed.bracket + 1
    return found, None
