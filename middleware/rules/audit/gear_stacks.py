"""ITM-GEAR-12 / ITM-IMPORT-12: a starting kit never needs more stacks than a bag holds at once.

A kit's stacks are counted as taking it into an empty bag makes them: each line ``count`` pieces
in stacks of the item's ``stack`` (1 for an item with charges; coins and plain items fill one
stack of the standard capacity), the largest item of a ``oneOf``, and for each choice its option
needing the most. A kit needing more than ``items.stack_limits.BAG_STACKS`` is refused with its JSON path.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import ceil

from middleware.errors import Problem
from middleware.rules.audit.item_entries import Vocab
from middleware.rules.items import GearLine, ItemsBlock
from middleware.rules.stack_limits import BAG_STACKS

BLOCK = "$.items"


def gear_stacks(block: ItemsBlock, vocab: Vocab) -> Iterator[Problem]:
    """Every kit whose lines, with any choice of options, need more stacks than a bag holds."""
    for i, kit in enumerate(block.starting_gear):
        needed = sum(_line_stacks(line, vocab) for line in kit.lines)
        needed += sum(max(sum(_line_stacks(line, vocab) for line in option.lines)
                          for option in choice.options) for choice in kit.choices)
        if needed > BAG_STACKS:
            yield Problem(f"{BLOCK}.startingGear[{i}]",
                          f"needs {needed} stacks; a bag holds at most {BAG_STACKS} at once")


def _line_stacks(line: GearLine, vocab: Vocab) -> int:
    refs = [line.item] if line.item else list(line.one_of or ())
    if not refs:
        return 1  # coins and plain items: one stack of the standard capacity holds 999 pieces
    return max(ceil(line.count / _stack_of(vocab, ref)) for ref in refs)


def _stack_of(vocab: Vocab, ref: str) -> int:
    item = vocab.items.get(ref)
    if item is None or (item.charges is None and item.stack is None):
        return _WHOLE_LINE  # an unknown ref is reported by its own check
    return 1 if item.charges is not None else item.stack or _WHOLE_LINE


_WHOLE_LINE = 999
"""A line's count is at most 999: an item of the standard stack holds it in one stack."""
