"""A game state written in parts, so a candidate stores what changed (SPEC §2, §3).

States are immutable and a resolver rebuilds only what it changes: a reply that touches one bag
leaves every other character, and every other stack of that bag, the very objects it started with.
``StateWriter`` writes each character and each run of bag stacks as a fragment (``codec.Parted``),
remembering the text of every object it has written, so an unchanged part costs a lookup, is
stored once, and is shared by every candidate, turn and fork that holds it.

A bag is cut into runs where a stack's own text says so (its checksum), not every N stacks: a stack
added, sold or spent in the middle changes the run it sits in, and the runs after it keep their
keys. Runs are capped in length, so a run never grows past ``MAX_RUN`` stacks.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Generic, TypeVar

from cachetools import LRUCache

from middleware.records import model_json
from middleware.state import Character, GameState, InventedItem, Stack
from middleware.stores.codec import Parted, part_key, reference

_RUN_MASK = 31
"""A run ends after a stack whose text's checksum has these bits all set: about 32 stacks."""

MAX_RUN = 128

_T = TypeVar("_T")


class _ById(Generic[_T]):
    """What was worked out for an object, by identity: the object is kept with its entry, so its
    id cannot pass to another object while the entry lives."""

    __slots__ = ("_cache",)

    def __init__(self, size: int) -> None:
        self._cache: LRUCache[int, tuple[object, _T]] = LRUCache(maxsize=size)

    def get(self, obj: object) -> _T | None:
        hit = self._cache.get(id(obj))
        return hit[1] if hit is not None and hit[0] is obj else None

    def put(self, obj: object, value: _T) -> _T:
        self._cache[id(obj)] = (obj, value)
        return value


Written = tuple[str, dict[str, str]]
"""A part written: the text that stands for it, and every fragment that text refers to."""


class StateWriter:
    """Writes states as ``Parted`` values, reusing the text of parts written before."""

    def __init__(self, *, characters: int = 4096, stacks: int = 65536) -> None:
        self._characters: _ById[Written] = _ById(characters)
        self._invented: _ById[Written] = _ById(256)
        self._stacks: _ById[tuple[str, bool]] = _ById(stacks)
        self._runs: LRUCache[tuple[int, ...], tuple[tuple[Stack, ...], Written]] = \
            LRUCache(maxsize=stacks // 8)

    def write(self, state: GameState) -> Parted:
        """``state`` in parts: its own fields inline, each character and the invented items as
        references; the assembled text decodes to ``state.model_dump(mode="json")``."""
        parts: dict[str, str] = {}
        party = ",".join(_merge(self._character(c), parts) for c in state.party)
        invented = _merge(self._invented_items(state.invented), parts)
        head = state.__pydantic_serializer__.to_json(
            state, exclude={"party": True, "invented": True}).decode()
        root = f'{head[:-1]}{"," if len(head) > 2 else ""}"party":[{party}],"invented":[{invented}]}}'
        return Parted(root, parts)

    def _character(self, character: Character) -> Written:
        if (known := self._characters.get(character)) is not None:
            return known
        parts: dict[str, str] = {}
        runs = ",".join(_merge(self._run(run), parts) for run in self._bag_runs(character.bag))
        head = character.__pydantic_serializer__.to_json(
            character, exclude={"bag": True}).decode()
        text = f'{head[:-1]}{"," if len(head) > 2 else ""}"bag":[{runs}]}}'
        return self._characters.put(character, _fragment(text, parts))

    def _invented_items(self, invented: tuple[InventedItem, ...]) -> Written:
        if not invented:
            return "", {}
        if (known := self._invented.get(invented)) is not None:
            return known
        text = ",".join(model_json(item) for item in invented)
        return self._invented.put(invented, _fragment(text, {}))

    def _bag_runs(self, bag: Sequence[Stack]) -> list[tuple[Stack, ...]]:
        runs: list[tuple[Stack, ...]] = []
        start = 0
        for at, stack in enumerate(bag):
            if self._stack(stack)[1] or at + 1 - start == MAX_RUN:
                runs.append(tuple(bag[start:at + 1]))
                start = at + 1
        if start < len(bag):
            runs.append(tuple(bag[start:]))
        return runs

    def _run(self, run: tuple[Stack, ...]) -> Written:
        ids = tuple(id(stack) for stack in run)
        hit = self._runs.get(ids)
        if hit is not None and all(a is b for a, b in zip(hit[0], run, strict=True)):
            return hit[1]
        written = _fragment(",".join(self._stack(stack)[0] for stack in run), {})
        self._runs[ids] = (run, written)
        return written

    def _stack(self, stack: Stack) -> tuple[str, bool]:
        """The stack's text, and whether a run ends after it."""
        if (known := self._stacks.get(stack)) is not None:
            return known
        text = model_json(stack)
        return self._stacks.put(stack, (text, zlib.crc32(text.encode()) & _RUN_MASK == _RUN_MASK))


def _fragment(text: str, parts: dict[str, str]) -> Written:
    """``text`` stored as a fragment of its own: its reference, and it with what it refers to."""
    key = part_key(text)
    return reference(key), {**parts, key: text}


def _merge(written: Written, parts: dict[str, str]) -> str:
    parts.update(written[1])
    return written[0]
