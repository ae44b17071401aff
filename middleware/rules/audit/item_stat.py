"""Import checks of ``itemStat`` references wherever the file writes one (ITM-IMPORT-05).

- ITM-SHEET-04: ``stat`` names one of the block's item stats; ``sum``/``max``/``min`` need a
  ``number`` stat; ``slot``, ``category`` and ``tag`` name what the block declares.
- ITM-SHEET-07 / SHEET-REF-16: a catalog row's ``scaled`` column and a ``mechanics.scales`` may not
  read items, not even through a derived value. (Pool and track maxima, the proficiency bonus,
  ``binding.max`` and the ``carry`` numbers are refused by the live-read checks of
  ``audit/sheet.py`` and ``audit/items.py``, which count ``itemStat`` as a live read.)

Every reference is found by walking the loaded ruleset: models by their file keys, and the JSON
kept whole (``scaled``, combat) by its ``itemStat`` keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from pydantic import BaseModel, ValidationError

from middleware.errors import Problem
from middleware.rules.items import ItemsBlock, NumberStat
from middleware.rules.refs import ItemStat, ValueRef
from middleware.rules.ruleset import Ruleset
from middleware.rules.sheet_refs import RefGraph

_SCALING = ("scaled", "scales")
"""Keys whose numbers are worked out before play (SHEET-REF-16)."""


def check_item_stats(ruleset: Ruleset) -> Iterable[Problem]:
    """ITM-IMPORT-05 / ITM-SHEET-04/07: every ``itemStat`` the file writes."""
    graph = RefGraph(ruleset.sheet)
    for path, ref in _refs(ruleset, "$"):
        if ref.item_stat is not None:
            yield from _stat_problems(f"{path}.itemStat", ref.item_stat, ruleset.items)
        if _scaling(path) and graph.is_live(ref):
            yield Problem(path, "worked out before play: a scaled number may not read items "
                                "or live state")


def _stat_problems(path: str, ref: ItemStat, block: ItemsBlock | None) -> Iterator[Problem]:
    if block is None:
        yield Problem(path, "itemStat needs the top-level items block")
        return
    stat = block.stat(ref.stat) if ref.stat is not None else None
    if ref.stat is not None and stat is None:
        yield Problem(f"{path}.stat", f"no stat {ref.stat!r} in items.stats")
    elif ref.pick != "count" and not isinstance(stat, NumberStat):
        yield Problem(f"{path}.pick", f"pick {ref.pick!r} needs a number stat")
    for key, plural in (("slot", "slots"), ("category", "categories"), ("tag", "tags")):
        value = getattr(ref, key)
        if value is not None and value not in {n.id for n in getattr(block, plural)}:
            yield Problem(f"{path}.{key}", f"no {key} {value!r} in items.{plural}")


def _scaling(path: str) -> bool:
    return any(f".{key}" in path for key in _SCALING)


def _refs(value: object, path: str) -> Iterator[tuple[str, ValueRef]]:
    """Every value reference below ``value``, with its JSON path (file keys)."""
    if isinstance(value, ValueRef):
        yield path, value
    elif isinstance(value, BaseModel):
        for name, field in type(value).model_fields.items():
            yield from _refs(getattr(value, name), f"{path}.{field.alias or name}")
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _refs(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        yield from _raw_refs(value, path)


def _raw_refs(value: Mapping[object, object], path: str) -> Iterator[tuple[str, ValueRef]]:
    """JSON kept whole: a dict that parses as a reference naming ``itemStat`` or ``derived``."""
    if "itemStat" in value or "derived" in value:
        try:
            yield path, ValueRef.model_validate(value)
            return
        except ValidationError:
            pass  # not a reference after all: look inside
    for key, item in value.items():
        yield from _refs(item, f"{path}.{key}")
