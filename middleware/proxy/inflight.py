"""Requests with the same retry key answered one at a time (SPEC §3 retries, over HTTP).

A client that retries while its first request is still being answered (a timeout on its side, a
double click) must not make the model write a second reply or see dice that were never stored:
the retry waits for the first to finish, then finds its stored answer (``Engine.retried``). When
the first stored nothing (the upstream failed, the client went away), the next one in line asks
the model itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable

Release = Callable[[], None]


def _nothing() -> None:
    return None


class InFlight:
    """``await claim(key)``: wait until no other request holds ``key``, then hold it; call the
    returned ``release`` (any number of times) when done."""

    def __init__(self) -> None:
        self._running: dict[Hashable, asyncio.Event] = {}

    async def claim(self, key: Hashable | None) -> Release:
        """Hold ``key`` (None: nothing to hold, nothing to wait for)."""
        if key is None:
            return _nothing
        while (running := self._running.get(key)) is not None:
            await running.wait()
        done = self._running[key] = asyncio.Event()

        def release() -> None:
            if self._running.get(key) is done:
                del self._running[key]
            done.set()

        return release

    def __len__(self) -> int:
        return len(self._running)
