"""Branch blocks in a streamed reply (``serve --branches``): a block is held until it closes.

Prose and tags outside blocks stream as they always do. From a block's first marker on, nothing is
sent until the block closes (its ``[/branch]``; a block left open waits for the end of the reply):
then the check before it has been thrown, and the block is handed on whole, to be resolved as the
stored candidate resolves it (the section its check's result keeps). One ``BlockReader`` reads the
whole reply, so a block knows the check it belongs to however far back that check closed. A block
that holds a tag that waits for the end of the reply (a buy priced where the reply ends) makes the
rest of the reply wait too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from middleware.resolve.branch import Block, BlockReader
from middleware.segments import Marker, Piece, Segment, Tag

Run = list[Segment] | Block | None
"""What to do next: send these pieces as they are; send this block (it closed); or (None) hold
everything to the end."""


class BranchHold:
    """Routes a streamed reply's pieces: outside blocks, to be sent; inside, held."""

    def __init__(self, waits: Callable[[Tag], bool]) -> None:
        self._waits = waits
        self._reader = BlockReader()

    @property
    def outside(self) -> bool:
        """Whether no block is open: prose read now is sent as it is."""
        return not self._reader.depth

    def take(self, pieces: list[Piece]) -> list[Run]:
        """The pieces as runs to send, each block that closed among them whole."""
        runs: list[Run] = []
        outside: list[Segment] = []
        reader = self._reader
        for piece in pieces:
            if not reader.depth and not isinstance(piece, Marker):
                reader.read(piece)  # the reader keeps the last check a block may belong to
                outside.append(piece)
                continue
            if outside:
                runs.append(outside)
                outside = []
            if isinstance(piece, Tag) and self._waits(piece):
                return [*runs, None]
            reader.read(piece)
            if not reader.depth:  # the block closed (or a [/branch] that closes none was read)
                runs.append(cast(Block, reader.top[-1]))
        if not reader.depth:
            reader.top.clear()  # what was read is handed on: only the last check is kept
        return [*runs, outside] if outside else runs

    def end(self) -> list[Run]:
        """The reply ended: the block still open closed there, as a whole reply's reading closes
        it (``read_blocks``), and handed on; none when no block is open."""
        reader = self._reader
        if not reader.depth:
            return []
        while reader.open:
            reader.close(None)
        return [cast(Block, reader.top[-1])]
