"""Items the Game Master invented, kept in the game's state (ITM-PROPOSE-12/13).

An ``InventedItem`` holds a catalog entry in the ruleset's own item shape (``CatalogEntry`` with its
``item``), so worn and carried effects, stats, slots, binding, use and charges work on it exactly as
on a catalog item. Bags store it under its ``ref`` (``invented/<slug>``), just as a ruleset item is
stored under ``<catalog>/<entry>``. The state keeps every invention in ``GameState.invented``; this
module imports nothing from the state so that ``state.py`` can import it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

INVENTED_CATALOG = "invented"
"""The catalog part of an invented item's ref: ``invented/ember-charm``."""

_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def invented_ref(key: str, taken: Iterable[str]) -> str:
    """A ref for a new invention named ``key`` (an already normalized name) that no item
    in ``taken`` uses: letters and digits of the name joined by ``-``, numbered when needed."""
    slug = _NOT_SLUG.sub("-", key.lower()).strip("-")[:48] or "item"
    used = set(taken)
    ref = f"{INVENTED_CATALOG}/{slug}"
    number = 2
    while ref in used:
        ref = f"{INVENTED_CATALOG}/{slug}-{number}"
        number += 1
    return ref
