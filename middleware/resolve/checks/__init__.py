"""``[skill_check:]``: the shared parts of a check beside one folder per ``resolution.kind``.

- ``resolve.py``: the resolver; ``ask.py``: what the GM asked and the difficulty;
  ``kind.py``: the contract a kind follows; ``kinds.py``: the one table from ``resolution.kind``
  to its kind (how it rolls and its exact odds); ``record.py``: the record and its resolved tag.
- shared rules of every kind: ``outcome.py`` (tiers), ``overrides.py`` (CHK-OVR), ``spend.py``
  (CHK-SPEND), ``charms.py`` (CHK-CHARM), ``changes.py`` (item and condition effects), ``odds.py``.
- one folder per kind: ``dice_sum/``, ``dice_pool/``, ``dice_highest/``, ``roll_against/``,
  ``symbol_pool/``, each with its reading and throw, verdict and exact odds.
- ``chance.py``: the exact odds of a tag before it is rolled (``check_chance``).
"""

from __future__ import annotations

from middleware.resolve.checks.ask import Difficulty, pick_difficulty, read_ask
from middleware.resolve.checks.kind import Kind, Roll, Rolled
from middleware.resolve.checks.kinds import KINDS, CheckKind
from middleware.resolve.checks.record import Ask, CheckRecord, format_chance
from middleware.resolve.checks.resolve import resolve_check

__all__ = ["KINDS", "Ask", "CheckKind", "CheckRecord", "Difficulty", "Kind", "Roll", "Rolled",
           "format_chance", "pick_difficulty", "read_ask", "resolve_check"]
