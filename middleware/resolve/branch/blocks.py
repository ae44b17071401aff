"""A reply's pieces grouped into branch blocks: which check each block belongs to, its sections.

A block opens at an ``[on <label>]`` marker and belongs to the last ``[skill_check:]`` before it
that no block has claimed yet (prose and other tags may stand between them); the next ``[on …]``
starts its next section; ``[/branch]`` closes it, and a block still open when the reply ends closes
there (a forgotten ``[/branch]`` at the end is no fault). Inside a section, a check followed by a
marker opens a block inside that section (``nested``), chosen by that check; at most ``MAX_DEPTH``
blocks deep, a further marker is the next section of the innermost block.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from middleware.names import normalize_name
from middleware.resolve.branch.record import Problem
from middleware.segments import Marker, Piece, Tag, Text

MAX_DEPTH: Final = 4
"""Blocks inside blocks, at most: a deeper marker is read as a section of the innermost block."""


@dataclass(frozen=True, slots=True)
class Section:
    """One ``[on <label>]`` and what follows it up to the next marker of its block."""

    marker: Marker
    body: tuple[Item, ...]

    @property
    def label(self) -> str:
        return self.marker.label or ""


@dataclass(frozen=True, slots=True)
class Block:
    """A branch block: ``check`` is the start of the check tag that chooses (None: no check before
    it), ``end`` its ``[/branch]`` (None when the reply ended first). A ``[/branch]`` that closes
    nothing is a block with no sections."""

    check: int | None
    sections: tuple[Section, ...]
    end: Marker | None
    problems: tuple[Problem, ...] = ()


Item = Text | Tag | Block
"""A reply read into blocks: prose and tags outside any block, and the blocks."""


@dataclass(slots=True)
class _Open:
    """A block being read: its sections so far and the check its current section holds."""

    check: int | None
    problems: list[Problem]
    sections: list[tuple[Marker, list[Item]]] = field(default_factory=list)
    labels: set[str] = field(default_factory=set)
    unclaimed: int | None = None

    def section(self, marker: Marker) -> None:
        label = normalize_name(marker.label or "")
        if label in self.labels and "repeated" not in self.problems:
            self.problems.append("repeated")
        self.labels.add(label)
        self.sections.append((marker, []))
        self.unclaimed = None

    def done(self, end: Marker | None) -> Block:
        sections = tuple(Section(marker, tuple(body)) for marker, body in self.sections)
        return Block(self.check, sections, end, tuple(self.problems))


class BlockReader:
    """Reads pieces in order into blocks: the blocks open, innermost last, over the items read at
    the top. A streamed reply feeds one piece at a time and asks ``depth`` whether a block is open."""

    def __init__(self) -> None:
        self.top: list[Item] = []
        self.open: list[_Open] = []
        self.unclaimed: int | None = None  # the top level's last check not yet claimed

    @property
    def depth(self) -> int:
        """How many blocks are open now."""
        return len(self.open)

    def read(self, piece: Piece) -> None:
        """Take the next piece of the reply."""
        if isinstance(piece, Marker):
            self.marker(piece)
        else:
            self.add(piece)

    def items(self) -> list[Item]:
        return self.open[-1].sections[-1][1] if self.open else self.top

    def add(self, piece: Text | Tag) -> None:
        self.items().append(piece)
        if isinstance(piece, Tag) and piece.name == "skill_check":
            if self.open:
                self.open[-1].unclaimed = piece.start
            else:
                self.unclaimed = piece.start

    def marker(self, marker: Marker) -> None:
        if marker.label is None:
            self.close(marker)
        elif self.open and (self.open[-1].unclaimed is None or len(self.open) >= MAX_DEPTH):
            self.open[-1].section(marker)
        elif self.open:
            check, self.open[-1].unclaimed = self.open[-1].unclaimed, None
            self._start(check, ["nested"], marker)
        else:
            check, self.unclaimed = self.unclaimed, None
            self._start(check, [] if check is not None else ["no-check"], marker)

    def close(self, end: Marker | None) -> None:
        if not self.open:  # a [/branch] that closes nothing
            self.top.append(Block(None, (), end, ("stray-end",)))
            return
        block = self.open.pop().done(end)
        self.items().append(block)

    def _start(self, check: int | None, problems: list[Problem], marker: Marker) -> None:
        self.open.append(_Open(check, problems))
        self.open[-1].section(marker)


def read_blocks(pieces: Iterable[Piece]) -> list[Item]:
    """The pieces of a reply with every branch block gathered up (see the module docstring)."""
    reader = BlockReader()
    for piece in pieces:
        reader.read(piece)
    while reader.open:
        reader.close(None)
    return reader.top
