"""The numbers of stacks a bag and a reply may hold or start (ITM-GEAR-12, SPEC §8).

Kept apart with no imports so the bag, the import checks and the resolvers read one source; what
they mean is told in ``items.stack_room``.
"""

from __future__ import annotations

BAG_STACKS = 500
"""ITM-GEAR-12 / ITM-IMPORT-12: the most stacks one bag holds at once (the page names no number)."""

REPLY_STACKS = 200
"""The most new stacks one reply may start, in all bags together."""
