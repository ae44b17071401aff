"""How many stacks a bag holds at once, and how many one reply may start (ITM-GEAR-12, SPEC §8).

The items page speaks of "more stacks than a bag holds at once" (ITM-GEAR-12, ITM-IMPORT-12) and
names no number. Ours:

- ``BAG_STACKS`` (500, in ``items.stack_limits``): a bag holds at most 500 stacks. An add that would need
  more is cut at the limit and the Game Master is told how many were left behind, as the carry
  limit does; an add that fits none is refused ``bag-full``. A purchase that does not fit is
  refused whole (nothing is paid). A starting kit needing more is refused at import.
- ``REPLY_STACKS`` (200): one reply starts at most 200 new stacks in all bags together; what more
  its tags would add is cut the same way.

An item without ``stack`` holding one piece per stack (a bell with charges) therefore costs at
most 200 stacks per reply and 500 per bag, whatever ``count=`` the model wrote: the work and the
memory of a reply are bounded by these numbers, never by the count.
"""

from __future__ import annotations

from middleware.items.bag import Bag, Goods, is_loose, positions
from middleware.rules.stack_limits import BAG_STACKS, REPLY_STACKS
from middleware.state import GameState

__all__ = ["BAG_STACKS", "REPLY_STACKS", "cut_line", "fitting", "new_stacks_left", "stacks_in"]


def fitting(bag: Bag, goods: Goods, count: int, limit: int, new_stacks: int) -> int:
    """How many of ``count`` pieces of ``goods`` fit: the room left in the bag's loose stacks of
    them, plus full stacks of ``limit`` in the stacks the bag and the reply may still start."""
    if count <= 0:
        return 0
    loose = 0
    for i in positions(bag, goods):
        if is_loose(bag[i]):
            loose += max(0, limit - bag[i].count)
            if loose >= count:
                return count
    starts = max(0, min(BAG_STACKS - len(bag), new_stacks))
    return min(count, loose + starts * max(1, limit))


def stacks_in(state: GameState) -> int:
    """Every stack in every bag of the party."""
    return sum(len(member.bag) for member in state.party)


def new_stacks_left(start: GameState, now: GameState) -> int:
    """How many new stacks the reply that began at ``start`` may still start."""
    return max(0, REPLY_STACKS - max(0, stacks_in(now) - stacks_in(start)))


def cut_line(left: int, bag: Bag, new_stacks: int) -> str:
    """What the Game Master is told about the pieces an add could not fit in stacks (``bag`` as
    it was before the add, ``new_stacks`` the reply's allowance then)."""
    why = f"a bag holds at most {BAG_STACKS} stacks" if BAG_STACKS - len(bag) <= new_stacks \
        else f"one reply starts at most {REPLY_STACKS} new stacks"
    return f"{left} left behind: {why}."
