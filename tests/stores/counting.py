"""The in-memory store, counting the calls made of it: what a face's request or a table's call
costs in store reads and writes, asserted as counts (never as time)."""

from __future__ import annotations

import inspect
from collections import Counter
from typing import Any, Final

from middleware.stores import MemoryStore, Store

CALLS: Final = frozenset(name for name, value in vars(Store).items()
                         if inspect.iscoroutinefunction(value))
"""Every call of the store protocol that awaits the store."""

WRITES: Final = frozenset({"create_game", "start_turn", "add_candidate", "add_event", "select",
                           "fork"})


class CountingStore(MemoryStore):
    """The in-memory store, counting each call made of it by name (``calls``)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: Counter[str] = Counter()

    def __getattribute__(self, name: str) -> Any:
        if name in CALLS:
            object.__getattribute__(self, "calls")[name] += 1
        return super().__getattribute__(name)

    def writes(self) -> dict[str, int]:
        """The write calls counted, by name."""
        return {name: count for name, count in self.calls.items() if name in WRITES}
