"""The rulesets the tests play on, in one place.

The peer's example rulesets (``gravewatch``, ``ember``, ``5e``) are read through ``tests/peer.py``,
so a test that uses one is skipped when they are absent; a test that only needs *a* realistic
ruleset takes a bundled one (``bundled_json``). Catalog entries are found by their
``<catalog>/<entry>`` id, never by position, so a file that gains an entry breaks no test.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from middleware.rules.load import load_ruleset
from middleware.rules.registry import BUNDLED
from middleware.rules.ruleset import Ruleset
from tests.peer import compat_json, compat_path

Raw = dict[str, Any]

FILES = {"gravewatch": "gravewatch.json", "ember": "ember-roads.json",
         "5e": "ruleset-5e-2014.example.json"}
"""Short names of the peer's example files (a file name is accepted as well)."""


def file_of(name: str) -> str:
    """``gravewatch`` or ``gravewatch.json`` -> ``gravewatch.json``."""
    return FILES.get(name, name)


@cache
def compat_ruleset(name: str) -> Ruleset:
    """A peer example ruleset as shipped, loaded once (frozen, so safe to share)."""
    return load_ruleset(compat_path(file_of(name)))


def gravewatch() -> Ruleset:
    """Gravewatch: the peer's dice-pool example (d10, wardens, a market, loot)."""
    return compat_ruleset("gravewatch")


def ember() -> Ruleset:
    """Ember Roads: the peer's 2d6 dice-sum example (travellers, bulk, coins)."""
    return compat_ruleset("ember")


def five_e() -> Ruleset:
    """The peer's 5e (2014) example: d20, proficiency, conditions."""
    return compat_ruleset("5e")


def bundled_path(ruleset_id: str) -> Path:
    """The file of a ruleset bundled with the package, for a test that passes a path."""
    return BUNDLED / f"{ruleset_id}.json"


def bundled_json(ruleset_id: str) -> Raw:
    """A fresh parsed copy of a ruleset bundled with the package (always there)."""
    data: Raw = json.loads(bundled_path(ruleset_id).read_text(encoding="utf-8"))
    return data


def is_peer(name: str) -> bool:
    """Whether ``name`` is one of the peer's example files (short name or file name)."""
    return name in FILES or name in FILES.values()


def raw_json(name: str) -> Raw:
    """A fresh parsed copy of a ruleset, safe to change: a peer example file by its short or file
    name (skipped when the peer's files are absent), else a bundled ruleset by its id."""
    if is_peer(name):
        data: Raw = compat_json(file_of(name))
        return data
    return bundled_json(name)


@cache
def ruleset(name: str) -> Ruleset:
    """A ruleset as shipped (peer example or bundled, as ``raw_json`` names it), loaded once."""
    return compat_ruleset(name) if is_peer(name) else load_ruleset(bundled_json(name))


def changed(name: str, edit: Callable[[Raw], object]) -> Ruleset:
    """A ruleset (peer example or bundled) loaded after ``edit`` changed a fresh parsed copy."""
    data = raw_json(name)
    edit(data)
    return load_ruleset(data)


def _where(raw: Raw, ref: str) -> tuple[int, int]:
    """The positions of catalog entry ``<catalog>/<entry>`` in a parsed ruleset."""
    catalog_id, entry_id = ref.split("/", 1)
    for i, catalog in enumerate(raw["catalogs"]):
        if catalog["id"] == catalog_id:
            for j, found in enumerate(catalog["entries"]):
                if found["id"] == entry_id:
                    return i, j
    raise KeyError(f"no catalog entry {ref!r}")


def entry(raw: Raw, ref: str) -> Raw:
    """The catalog entry ``<catalog>/<entry>`` of a parsed ruleset, to read or change in place."""
    i, j = _where(raw, ref)
    found: Raw = raw["catalogs"][i]["entries"][j]
    return found


def item_of(raw: Raw, ref: str) -> Raw:
    """The ``item`` object of an item-catalog entry, to change in place."""
    found: Raw = entry(raw, ref)["item"]
    return found


def entry_path(name: str, ref: str) -> str:
    """The JSON path the loader blames for entry ``ref`` of a ruleset file."""
    i, j = _where(raw_json(name), ref)
    return f"$.catalogs[{i}].entries[{j}]"


def catalog(raw: Raw, catalog_id: str) -> Raw:
    """The catalog with this id in a parsed ruleset."""
    found: Raw = next(c for c in raw["catalogs"] if c["id"] == catalog_id)
    return found


def by_id(rows: list[Raw], wanted: str) -> Raw:
    """The row of a parsed list (skills, pools, loot tables...) whose ``id`` is ``wanted``."""
    found: Raw = next(r for r in rows if r.get("id") == wanted)
    return found


def index_of(rows: list[Raw], wanted: str) -> int:
    """The position of the row whose ``id`` is ``wanted``, as the product's paths count it."""
    where = next((i for i, r in enumerate(rows) if r.get("id") == wanted), None)
    if where is None:
        raise KeyError(f"no row {wanted!r} among {[r.get('id') for r in rows]}")
    return where


_ENTRY_PATH = re.compile(r"^\$\.catalogs\[(\d+)\](?:\.entries\[(\d+)\])?")


def by_ids(raw: Raw, path: str) -> str:
    """A JSON path with its catalog entry named by id: ``$.catalogs[2].entries[0].item.stats``
    -> ``<outfitter/hand-axe>.item.stats`` (``<outfitter>`` for the catalog itself), so a test's
    expected paths say which entry they mean."""
    def named(found: re.Match[str]) -> str:
        catalog_at = raw["catalogs"][int(found.group(1))]
        if found.group(2) is None:
            return f"<{catalog_at['id']}>"
        return f"<{catalog_at['id']}/{catalog_at['entries'][int(found.group(2))]['id']}>"
    return _ENTRY_PATH.sub(named, path)


_ROW_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[([^\]]+)\]")


def row_path(raw: Raw, path: str) -> str:
    """The JSON path the product prints, from one whose rows are named by id:
    ``$.sheet.abilities[grip].id`` -> ``$.sheet.abilities[0].id`` in a ruleset whose first ability
    is ``grip``, so a test names the row it changed yet asserts the positional path a user reads.
    A number or a quoted key in brackets (``of[2]``, ``table['dim']``) is kept as written."""
    if not path.startswith("$"):
        raise ValueError(f"not a JSON path: {path!r}")
    node: Any = raw
    printed, at = ["$"], 1
    for step in _STEP.finditer(path, 1):
        if step.start() != at:
            raise ValueError(f"cannot read {path!r} at {at}")
        at = step.end()
        key, index = step.groups()
        if key is not None:
            node = node.get(key) if isinstance(node, dict) else None
            printed.append(f".{key}")
        elif index.isdigit():
            node = node[int(index)] if isinstance(node, list) and int(index) < len(node) else None
            printed.append(f"[{index}]")
        elif not _ROW_ID.match(index):
            node = None
            printed.append(f"[{index}]")
        else:
            rows = node if isinstance(node, list) else []
            where = index_of(rows, index)
            node = rows[where]
            printed.append(f"[{where}]")
    if at != len(path):
        raise ValueError(f"cannot read {path!r} at {at}")
    return "".join(printed)
