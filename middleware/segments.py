"""What a parsed reply is made of: runs of text and tags, each with its source span.

The Lark tree never leaves ``parse.py``; these frozen values are what the rest of the package sees.
"""

from __future__ import annotations

from dataclasses import dataclass, field

TagName = str
"""One of ``skill_check``, ``inventory``, ``place``, ``loot``, ``sheet``, ``dice`` (lowercased)."""


@dataclass(frozen=True, slots=True)
class Text:
    """A run of prose, preserved byte for byte."""

    text: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
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

    def get(self, *keys: str) -> str | None:
        """The first of ``keys`` that the tag declares, else None."""
        for key in keys:
            if key in self.attrs:
                return self.attrs[key]
        return None


Segment = Text | Tag


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
