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

from pydantic import BaseModel, ConfigDict

from middleware.rules.catalogs import CatalogEntry

INVENTED_CATALOG = "invented"
"""The catalog part of an invented item's ref: ``invented/ember-charm``."""

_NOT_SLUG = re.compile(r"[^a-z0-9]+")


class InventedItem(BaseModel):
    """ITM-PROPOSE-13: one GM-invented item, the same name meaning it until the end of the game.

    ``like`` is the ref of the ruleset item it was made from, ``fights_as`` the ruleset weapon it
    fights as when it was given none (ITM-PROPOSE-16); ``changes`` lists every change the engine
    made to the proposal, hidden stats included, for the item's details (ITM-PROPOSE-12).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    ref: str
    entry: CatalogEntry
    like: str | None = None
    fights_as: str | None = None
    changes: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The item's name: the entry's label (ITM-ENTRY-02)."""
        return self.entry.label


def invented_ref(normalize_name: str, taken: Iterable[str]) -> str:
    """A ref for a new invention named ``normalize_name`` (an already normalized name) that no item
    in ``taken`` uses: letters and digits of the name joined by ``-``, numbered when needed."""
    slug = _NOT_SLUG.sub("-", normalize_name.lower()).strip("-")[:48] or "item"
    used = set(taken)
    ref = f"{INVENTED_CATALOG}/{slug}"
    number = 2
    while ref in used:
        ref = f"{INVENTED_CATALOG}/{slug}-{number}"
        number += 1
    return ref
