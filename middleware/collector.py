"""The garbage collector's settings for the work this package runs long: one home for them.

Nearly every object a turn makes is freed by its reference count; the cyclic collector still
walks what the process holds, and a full collection walks all of it: the modules, the ruleset,
a transcript's lines, the engine's caches. Two kinds of run pay for that many times over:

- a replay keeps a few objects a turn, and each time they grow by a quarter a full collection
  walked everything made before it (a tenth of a 10,000-turn replay): ``collection_paused``
  while its lines are read, ``existing_objects_frozen`` while it runs;
- ``serve`` makes thousands of short-lived objects a stream, and the collections their count
  sets off walked the proxy's long-lived objects again and again (about a tenth of its CPU at
  200 streams): ``settle_for_serving`` once its app is built.

The first two give the collector back as they found it; the third is for a process that is a
server from then on.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

SERVING_THRESHOLDS: Final = (10_000, 20, 20)
"""``gc.set_threshold`` for a server: the youngest generation collected every 10,000 objects
rather than 700, the older ones every 20 collections of the one below rather than 10. Measured
at 200 streams: the server's CPU a stream 8% lower (the collector off altogether: 10%), its
resident memory as flat."""


@contextmanager
def collection_paused() -> Iterator[None]:
    """No collection while the block runs (a loop that makes many objects in no cycle and keeps
    them all); left as it is when the collector is off. What the block made is then put in the
    oldest generation without a walk (``gc.freeze`` then ``gc.unfreeze``), unless something else
    froze objects: else the first object made after it walked every one of them, to find them
    all alive (6-8 ms after reading a 10,000-turn transcript, about 0.7 % of its replay)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if not gc.get_freeze_count():  # giving back a freeze of our own only
            gc.freeze()
            gc.unfreeze()
        gc.enable()


@contextmanager
def existing_objects_frozen() -> Iterator[None]:
    """Every object made before the block is out of the collector's sight until it ends
    (``gc.freeze``), then given back. Nothing is frozen when something else froze objects first:
    the frozen set is one for the process, and giving it back here would undo that."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def settle_for_serving() -> None:
    """For a process that serves from now on: what exists now (modules, the ruleset, the app) is
    collected once and frozen for good, and the collector runs at ``SERVING_THRESHOLDS``."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SERVING_THRESHOLDS)
