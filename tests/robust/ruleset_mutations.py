"""Mutations of a ruleset's JSON for the mutated-rulesets hunt (SPEC §8), and JSON paths.

A mutation changes one place of a parsed ruleset: deletes a key or a list entry, puts a value of
another type there, an awkward string, a number at the edge of a range, duplicates a list entry
(two rows with one id), renames an id (so what names it dangles), swaps two siblings, points a
reference at another declared id (a thing of another kind), puts there a value of the same
type taken from elsewhere in the file, or grafts in what another ruleset has at the same path (a
block, a key or a list entry). Each is
drawn by hypothesis from the places the file really has (``mutation(doc)``), so it shrinks to a
readable one, and says where it struck (``Mutation.where``) and which names it took away
(``Mutation.names``): what a refusal should blame.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

Step = str | int
Where = tuple[Step, ...]
Doc = Any

OTHER_TYPES: tuple[Any, ...] = (
    "x", "Ward", 7, -3, 10**9, 10**18, 2**64, 1.5, -0.5, 1e300, True, False, None, [], {},
    ["x"], [1], [None], [[]], [{}], {"x": 1}, {"id": "x"},
)
"""A value of another type: strings, small, negative and huge integers, floats, booleans, null,
empty and wrong lists and objects."""
ODD_STRINGS: tuple[str, ...] = (
    "", " ", 'say "hi"', "it's", "[skill_check: dc=1]", "]", "a\nb", "\ud800", "x\udfffy",
    "{{name}}", "a" * 500, "é", "-", "1d6", "0",
)
"""An empty string, quotes, brackets, a line break, a lone surrogate, a template, a long one."""
EDGES: tuple[int | float, ...] = (0, -1, 1, 2, 100, 10**9, -(10**9), 0.5)
"""Numbers at the edge of a range."""


@dataclass(frozen=True)
class Mutation:
    """One change: ``kind`` at ``at`` (the value put there, or the sibling swapped with)."""

    kind: str
    at: Where
    value: Any = None
    other: Step | None = None
    names: frozenset[str] = field(default=frozenset())

    @property
    def where(self) -> Where:
        """The place a refusal should blame: the place itself, or the list or object a delete,
        a duplicate or a swap changed (the positions after it moved)."""
        return self.at[:-1] if self.kind in ("delete", "duplicate", "swap") else self.at

    def __str__(self) -> str:
        shown = f" -> {self.value!r}"[:80] if self.kind not in ("delete", "duplicate", "swap") \
            else f" <-> {self.other!r}" if self.kind == "swap" else ""
        return f"{self.kind} {json_path(self.at)}{shown}"


def apply(doc: Doc, mutation: Mutation) -> Doc:
    """A changed deep copy of ``doc``."""
    out = copy.deepcopy(doc)
    *up, last = mutation.at
    parent = node_at(out, tuple(up))
    if mutation.kind == "delete":
        del parent[last]
    elif mutation.kind == "duplicate":
        parent.insert(int(last) + 1, copy.deepcopy(parent[last]))
    elif mutation.kind == "swap":
        parent[last], parent[mutation.other] = parent[mutation.other], parent[last]
    else:
        parent[last] = copy.deepcopy(mutation.value)
    return out


# --- JSON paths ------------------------------------------------------------------------------


def json_path(where: Where) -> str:
    """``("sheet", "skills", 0)`` -> ``$.sheet.skills[0]``, as ``Problem.path`` writes it."""
    from middleware.rules.base import json_path as product_path

    return product_path(where)


_STEP = re.compile(r"\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\]")


def parse_path(path: str) -> Where | None:
    """The steps of a JSON path as ``Problem.path`` writes it, or None when it is not one."""
    if not path.startswith("$"):
        return None
    steps: list[Step] = []
    at = 1
    while at < len(path):
        found = _STEP.match(path, at)
        if found is None:
            return None
        key, index, quoted = found.groups()
        steps.append(key if key is not None else int(index) if index is not None
                     else ast.literal_eval(quoted))
        at = found.end()
    return tuple(steps)


def _child(node: Doc, step: Step) -> tuple[Doc, ...]:
    if isinstance(node, dict) and isinstance(step, str) and step in node:
        return (node[step],)
    if isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
        return (node[step],)
    return ()


def node_at(doc: Doc, where: Where) -> Doc:
    for step in where:
        doc = doc[step]
    return doc


def names_a_place(doc: Doc, where: Where) -> bool:
    """Whether ``where`` is a place in ``doc``, or a key missing from an object that is."""
    node = doc
    for i, step in enumerate(where):
        child = _child(node, step)
        if not child:
            return i == len(where) - 1 and isinstance(node, dict) and isinstance(step, str)
        node = child[0]
    return True


def places(doc: Doc, where: Where = ()) -> Iterator[tuple[Where, Doc]]:
    """Every place below the root, with its value, parents first."""
    children = doc.items() if isinstance(doc, dict) else enumerate(doc) \
        if isinstance(doc, list) else ()
    for step, value in children:
        yield (*where, step), value
        yield from places(value, (*where, step))


def strings_in(doc: Doc) -> Iterator[str]:
    """Every string in ``doc``: values and object keys."""
    if isinstance(doc, str):
        yield doc
    elif isinstance(doc, dict):
        for key, value in doc.items():
            yield key
            yield from strings_in(value)
    elif isinstance(doc, list):
        for value in doc:
            yield from strings_in(value)


_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


def names_in(doc: Doc) -> frozenset[str]:
    """The ids declared in ``doc`` (the values of its ``id`` keys): what others may name."""
    found = {value for where, value in places(doc) if where[-1] == "id" and isinstance(value, str)}
    if isinstance(doc, dict) and isinstance(doc.get("id"), str):
        found.add(doc["id"])
    return frozenset(n for n in found if _NAME.match(n))


def mentions(doc: Doc, names: frozenset[str]) -> bool:
    """Whether ``doc`` names one of ``names`` (alone, or as a part: ``kit/dawn-bell``,
    ``resolve:1``)."""
    if not names:
        return False
    pattern = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(names))) + r")(?![\w-])")
    return any(pattern.search(s) for s in strings_in(doc))


# --- strategies ------------------------------------------------------------------------------


def mutation(doc: Doc, donors: Sequence[tuple[Where, Doc]] = ()) -> st.SearchStrategy[Mutation]:
    """One mutation of ``doc``, drawn among the places it has (and the places of other rulesets,
    ``donors``, where ``doc`` has the object or list that would hold them)."""
    every = list(places(doc))
    all_at = [w for w, _ in every]
    in_lists = [w for w, _ in every if isinstance(w[-1], int)]
    strings = [w for w, v in every if isinstance(v, str)]
    numbers = [w for w, v in every if isinstance(v, int | float) and not isinstance(v, bool)]
    ids = [(w, v) for w, v in every if w[-1] == "id" and isinstance(v, str)]
    pairs = [(w, other) for w, _ in every for other in _siblings(doc, w)]
    kinds = [
        st.sampled_from(all_at).map(lambda w: Mutation("delete", w, names=taken(doc, w))),
        st.builds(lambda w, v: Mutation("retype", w, v, names=taken(doc, w)),
                  st.sampled_from(all_at), st.sampled_from(OTHER_TYPES)),
    ]
    if strings:
        kinds.append(st.builds(lambda w, v: Mutation("string", w, v, names=taken(doc, w)),
                               st.sampled_from(strings), st.sampled_from(ODD_STRINGS)))
    if numbers:
        kinds.append(st.builds(lambda w, v: Mutation("edge", w, v, names=taken(doc, w)),
                               st.sampled_from(numbers), st.sampled_from(EDGES)))
    if in_lists:
        kinds.append(st.sampled_from(in_lists).map(
            lambda w: Mutation("duplicate", w, names=taken(doc, w))))
    if ids:
        kinds.append(st.sampled_from(ids).map(
            lambda wv: Mutation("rename", wv[0], _renamed(wv[1]), names=frozenset({wv[1]}))))
    if pairs:
        kinds.append(st.sampled_from(pairs).map(lambda p: Mutation(
            "swap", p[0], other=p[1], names=taken(doc, p[0]) | taken(doc, (*p[0][:-1], p[1])))))
    declared = sorted({v for _, v in ids})
    refs = [w for w in strings if w[-1] != "id" and _NAME.match(node_at(doc, w))]
    if declared and refs:
        kinds.append(st.builds(lambda w, v: Mutation("point", w, v, names=taken(doc, w)),
                               st.sampled_from(refs), st.sampled_from(declared)))
    kinds.append(st.builds(lambda w, v: Mutation("transplant", w, v, names=taken(doc, w)),
                           st.sampled_from(all_at), st.sampled_from(all_at))
                 .filter(lambda m: _same_type(node_at(doc, m.at), node_at(doc, m.value)))
                 .map(lambda m: Mutation(m.kind, m.at, copy.deepcopy(node_at(doc, m.value)),
                                         names=m.names)))
    holders = {(): doc, **{w: v for w, v in every if isinstance(v, dict | list)}}
    grafts = [(w, v) for w, v in donors if _fits(holders, w)]
    blocks = [(w, v) for w, v in grafts if isinstance(v, dict | list)]
    for some in (grafts, blocks):  # blocks as often as any key: most places are leaves
        if some:
            kinds.append(st.sampled_from(some).map(lambda wv: Mutation(
                "graft", wv[0], wv[1], names=taken(doc, wv[0]) if _has(doc, wv[0]) else frozenset())))
    return st.one_of(kinds)


def taken(doc: Doc, where: Where) -> frozenset[str]:
    """What others may name that a change at ``where`` can take away: the ids declared in it, and
    the id of the row it is part of (a stat whose ``min`` moved, a track whose levels changed),
    and a name it is itself (an enum's value an ``enumTable`` is keyed by)."""
    node = node_at(doc, where)
    itself = frozenset({node}) if isinstance(node, str) and _NAME.match(node) else frozenset()
    rows = [node_at(doc, where[:i]) for i in range(len(where) - 1, 0, -1)]
    row = next((r["id"] for r in rows if isinstance(r, dict) and isinstance(r.get("id"), str)),
               None)
    return itself | names_in(node) | (names_in({"id": row}) if row else frozenset())


def _fits(holders: dict[Where, Doc], where: Where) -> bool:
    """Whether the object (or the list, at that index) ``where`` would go in is one of
    ``holders`` (the file's objects and lists by place)."""
    parent = holders.get(where[:-1])
    return (isinstance(parent, dict) and isinstance(where[-1], str)) or \
        (isinstance(parent, list) and isinstance(where[-1], int) and where[-1] < len(parent))


def _has(doc: Doc, where: Where) -> bool:
    for step in where:
        found = _child(doc, step)
        if not found:
            return False
        doc = found[0]
    return True


def _same_type(a: Doc, b: Doc) -> bool:
    return type(a) is type(b) or {type(a), type(b)} <= {int, float}


def _siblings(doc: Doc, where: Where) -> list[Step]:
    """The later siblings of ``where`` it may be swapped with."""
    parent = node_at(doc, where[:-1])
    steps: list[Step] = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
    return steps[steps.index(where[-1]) + 1:][:3]


def _renamed(name: str) -> str:
    """Another id of the same shape: what named the old one now names nothing."""
    return (name[:36] + "_zz") if len(name) < 40 else name[:-3] + "_zz"
