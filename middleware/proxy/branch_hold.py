"""Branch blocks in a streamed reply (``serve --branches``): a block is held until it closes.

Prose and tags outside blocks stream as they always do. From a block's first marker on, nothing is
sent until the block closes (its ``[/branch]``; a block left open waits for the end of the reply):
then the check before it has been thrown, and only the section its result keeps is sent, taken from
the reply resolved up to that marker, which is exactly how the stored candidate begins. A block that
holds a tag that waits for the end of the reply (a buy priced where the reply ends) makes the rest
of the reply wait too.
"""

from __future__ import annotations

from collections.abc import Callable

from middleware.resolve.branch import BlockReader
from middleware.segments import Marker, Piece, Segment, Tag

Run = list[Segment] | int | None
"""What to do next: send these pieces as they are; send the reply through this offset (a block
closed there); or (None) hold everything to the end."""


class BranchHold:
    """Routes a streamed reply's pieces: outside blocks, to be sent; inside, held."""

    def __init__(self, waits: Callable[[Tag], bool]) -> None:
        self._waits = waits
        self._block: BlockReader | None = None

    def take(self, pieces: list[Piece]) -> list[Run]:
        """The pieces as runs to send, each block that closed among them as its end."""
        runs: list[Run] = []
        outside: list[Segment] = []
        for piece in pieces:
            if self._block is None and not isinstance(piece, Marker):
                outside.append(piece)
                continue
            if outside:
                runs.append(outside)
                outside = []
            if isinstance(piece, Tag) and self._waits(piece):
                return [*runs, None]
            self._block = self._block or BlockReader()
            self._block.read(piece)
            if isinstance(piece, Marker) and not self._block.depth:
                self._block = None
                runs.append(piece.end)
        return [*runs, outside] if outside else runs
