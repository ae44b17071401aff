"""Ruleset layers a game turns on when it is created: what they take out and the ladder they bring.

A layer (``Ruleset.layers``, kept as the file's JSON) only narrows and appends. What this module
reads of it:

- ``conflicts``: layer ids that cannot be on together with it (either side's list refuses the pair);
- ``currencies.removeUnits``: coin unit ids no longer in the game (ITM-LOOT-08, ITM-GEAR-10,
  ITM-MARKET-13);
- ``catalogs[].hide`` ``{filter, above | below | equals}``: entries of a catalog hidden by the value
  they carry for one of the catalog's filters (ITM-BAG-02, ITM-MARKET-13), as ``<catalog>/<entry>``;
- ``difficultyLadder``: replaces the resolution's ladder while the layer is on, in the resolution
  kind's own rung shape; the last chosen layer with a ladder wins;
- ``fields[].removeValues``: enum values of a sheet field a layer took out (SHEET-FLD-06).

Everything is worked out once per ruleset object and choice of layers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import JsonValue, TypeAdapter, ValidationError

from middleware.cache import IdentityCache, per_ruleset
from middleware.rules.catalogs import Catalog, CatalogEntry, Scalar
from middleware.rules.common import Rung
from middleware.rules.ruleset import Ruleset

Layer = Mapping[str, JsonValue]
"""A layer, or a part of one, as the file gives it (layers are kept whole as JSON)."""


@dataclass(frozen=True, slots=True)
class Removed:
    """What the chosen layers take out of a game: item refs (``<catalog>/<entry>``) and coin ids."""

    items: frozenset[str] = frozenset()
    coins: frozenset[str] = frozenset()

    @property
    def all(self) -> frozenset[str]:
        """Item refs and coin ids together, the shape ``draw_table``/``take_kit`` read."""
        return self.items | self.coins


NOTHING = Removed()

_REMOVED: IdentityCache[Removed] = IdentityCache()
_LADDERS: IdentityCache[tuple[Rung, ...] | None] = IdentityCache()
_VALUES: IdentityCache[Mapping[str, frozenset[str]]] = IdentityCache()


def layer_ids(ruleset: Ruleset) -> tuple[str, ...]:
    """The ids of the layers the ruleset declares, in file order."""
    return tuple(str(layer.get("id")) for layer in ruleset.layers)


def layer_problem(ruleset: Ruleset, layers: Sequence[str]) -> tuple[int, str] | None:
    """The first chosen layer that cannot be on (index in ``layers``, why), or None.

    Refused: an id the ruleset does not declare, an id chosen twice, and a layer that ``conflicts``
    with another chosen one (named in either layer's list).
    """
    known = layer_ids(ruleset)
    for i, chosen in enumerate(layers):
        if chosen not in known:
            offered = ", ".join(known) or "none"
            return i, f"no layer {chosen!r} in ruleset {ruleset.id!r} (layers: {offered})"
        if chosen in layers[:i]:
            return i, f"layer {chosen!r} is chosen twice"
        clash = next((other for other in layers[:i] if _conflict(ruleset, chosen, other)), None)
        if clash is not None:
            return i, f"layer {chosen!r} conflicts with layer {clash!r}"
    return None


def removed(ruleset: Ruleset, layers: Sequence[str]) -> Removed:
    """ITM-LOOT-08, ITM-GEAR-10, ITM-MARKET-13: the items and coins the chosen layers take out."""
    if not layers:
        return NOTHING
    return _REMOVED.get((ruleset,), tuple(layers), lambda: _removed(ruleset, tuple(layers)))


def ladder_of(ruleset: Ruleset, layers: tuple[str, ...]) -> tuple[Rung, ...]:
    """The difficulty ladder checks read: the last chosen layer's ``difficultyLadder`` that fits the
    resolution kind's rungs, else the resolution's own (CHK-COMMON-08 with a layer on)."""
    if not layers:
        return _own_ladder(ruleset)
    found = _LADDERS.get((ruleset,), layers, lambda: _layer_ladder(ruleset, layers))
    return _own_ladder(ruleset) if found is None else found


@per_ruleset
def _own_ladder(ruleset: Ruleset) -> tuple[Rung, ...]:
    """The resolution's own ladder as one tuple per ruleset object (every check reads it)."""
    return tuple(ruleset.resolution.difficulty_ladder)


def removed_values(ruleset: Ruleset, layers: Sequence[str]) -> Mapping[str, frozenset[str]]:
    """SHEET-FLD-06: the enum values each sheet field lost to the chosen layers, by field id."""
    if not layers:
        return {}
    return _VALUES.get((ruleset,), tuple(layers), lambda: _values(ruleset, tuple(layers)))


def _chosen(ruleset: Ruleset, layers: tuple[str, ...]) -> list[Layer]:
    by_id = {str(layer.get("id")): layer for layer in ruleset.layers}
    return [by_id[i] for i in layers if i in by_id]


def _conflict(ruleset: Ruleset, one: str, other: str) -> bool:
    by_id = {str(layer.get("id")): layer for layer in ruleset.layers}
    return other in _strings(by_id[one].get("conflicts")) or \
        one in _strings(by_id[other].get("conflicts"))


def _removed(ruleset: Ruleset, layers: tuple[str, ...]) -> Removed:
    coins: set[str] = set()
    items: set[str] = set()
    catalogs = {c.id: c for c in ruleset.catalogs}
    for layer in _chosen(ruleset, layers):
        currencies = layer.get("currencies")
        if isinstance(currencies, Mapping):
            coins.update(_strings(currencies.get("removeUnits")))
        for hiding in _list(layer.get("catalogs")):
            catalog = catalogs.get(str(hiding.get("id")))
            hide = hiding.get("hide")
            if catalog is not None and isinstance(hide, Mapping):
                items.update(_hidden(catalog, hide))
    return Removed(items=frozenset(items), coins=frozenset(coins))


def _hidden(catalog: Catalog, hide: Layer) -> list[str]:
    """The refs of ``catalog``'s entries whose value for ``hide.filter`` the rule hides."""
    name = str(hide.get("filter"))
    return [f"{catalog.id}/{e.id}" for e in catalog.entries if _hides(hide, _value(e, name))]


def _value(entry: CatalogEntry, name: str) -> Scalar | list[str] | None:
    return entry.filters.get(name)


def _hides(hide: Layer, value: Scalar | list[str] | None) -> bool:
    """``above``/``below`` compare a number filter; ``equals`` a text one (tags: any of them)."""
    if "equals" in hide:
        wanted = str(hide["equals"]).casefold()
        values = value if isinstance(value, list) else [value]
        return any(str(v).casefold() == wanted for v in values if v is not None)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    above, below = hide.get("above"), hide.get("below")
    return (isinstance(above, int | float) and value > above) or \
        (isinstance(below, int | float) and value < below)


def _layer_ladder(ruleset: Ruleset, layers: tuple[str, ...]) -> tuple[Rung, ...] | None:
    """The last chosen layer's ladder read as the resolution kind's rungs; a ladder that does not
    fit them is ignored (the file's own ladder stays)."""
    field = type(ruleset.resolution).model_fields.get("difficulty_ladder")
    if field is None or field.annotation is None:
        return None
    shape: TypeAdapter[tuple[Rung, ...]] = TypeAdapter(field.annotation)
    for layer in reversed(_chosen(ruleset, layers)):
        if "difficultyLadder" in layer:
            try:
                return tuple(shape.validate_python(layer["difficultyLadder"]))
            except ValidationError:
                continue
    return None


def _values(ruleset: Ruleset, layers: tuple[str, ...]) -> Mapping[str, frozenset[str]]:
    lost: dict[str, set[str]] = {}
    for layer in _chosen(ruleset, layers):
        for field in _list(layer.get("fields")):
            lost.setdefault(str(field.get("id")), set()).update(_strings(field.get("removeValues")))
    return {k: frozenset(v) for k, v in lost.items()}


def _strings(value: JsonValue) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _list(value: JsonValue) -> list[Layer]:
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []
