"""One writer at a time per store, and batches that hold the store until they end (SPEC §3, §8).

A batch (a transcript replay) must store everything or nothing, so while it runs no other task may
slip a write into it. The task that opened the batch, and tasks it starts, pass the gate freely:
they share its context, where the held gates are kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar

# Module level on purpose: a ContextVar made per instance is never freed.
_HELD: ContextVar[tuple[Gate, ...]] = ContextVar("gm_middleware_store_gates", default=())


class Gate:
    """An asyncio lock that the holder of a batch passes through."""

    __slots__ = ("_lock",)

    def __init__(self) -> None:
        self._lock = asyncio.Lock()

    def held(self) -> bool:
        """Whether the current task is inside a batch of this gate."""
        return self in _HELD.get()  # a Gate equals only itself

    async def wait(self) -> None:
        """Wait while another task holds a batch; for stores whose calls may run side by side, or
        never await once they have started (the memory store)."""
        if self._lock.locked() and not self.held():
            async with self._lock:
                pass

    def one(self) -> _Pass:
        """Pass for one store call: wait for other writers, unless this task holds the batch."""
        return _Pass(self._lock, self.held())

    @asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        """Hold the gate until the block ends; a nested hold joins the outer one."""
        if self.held():
            yield
            return
        async with self._lock:
            token = _HELD.set((*_HELD.get(), self))
            try:
                yield
            finally:
                _HELD.reset(token)


class _Pass:
    """``Gate.one``: a plain context manager, as every store call passes it (a generator-based
    one costs more than the memory store's work)."""

    __slots__ = ("_free", "_lock")

    def __init__(self, lock: asyncio.Lock, free: bool) -> None:
        self._lock = lock
        self._free = free

    async def __aenter__(self) -> None:
        if not self._free:
            await self._lock.acquire()

    async def __aexit__(self, *exc: object) -> None:
        if not self._free:
            self._lock.release()
