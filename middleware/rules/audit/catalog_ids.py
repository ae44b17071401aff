"""Catalog ids and entry ids are each named once (as skill ids are): a ruleset naming one twice
is refused with the JSON path of the second (``$.catalogs[2].id``,
``$.catalogs[0].entries[5].id``). A ref ``<catalog>/<entry>`` then always means one entry."""

from __future__ import annotations

from collections.abc import Iterator

from middleware.errors import Problem
from middleware.rules.problems import repeats
from middleware.rules.ruleset import Ruleset


def check_catalog_ids(ruleset: Ruleset) -> Iterator[Problem]:
    """Every catalog id and every entry id within a catalog that was already used."""
    for i, catalog_id in repeats(c.id for c in ruleset.catalogs):
        yield Problem(f"$.catalogs[{i}].id", f"duplicate catalog id {catalog_id!r}")
    for c, catalog in enumerate(ruleset.catalogs):
        for e, entry_id in repeats(entry.id for entry in catalog.entries):
            yield Problem(f"$.catalogs[{c}].entries[{e}].id",
                          f"duplicate entry id {entry_id!r} in catalog {catalog.id!r}")
