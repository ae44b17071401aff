"""The live state resolved against the build: pools, tracks, wounds, states (SHEET-LIVE, SHEET-WND).

With no live state at all (``view.live_state is None``) every read is the state play starts in
(SHEET-REF-15). Maxima read the view's ``static`` twin (SHEET-REF-16).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from middleware.rules.live import Level, Track
from middleware.rules.refs import ListSum
from middleware.rules.sheet import SheetList
from middleware.rules.sheet_fields import BooleanField, NumberField
from middleware.sheet.numbers import finite, step_lookup
from middleware.sheet.reading import SheetReader
from middleware.state import Live, Wounds

POOL_CAP = 1_000_000
MAX_BOXES = 64
_NO_WOUNDS = Wounds()
"""An unmarked track (one shared frozen value rather than one per read)."""


@dataclass(frozen=True, slots=True)
class RowPool:
    """SHEET-LST-04: a pool made by a list row."""

    key: str
    name: str
    list_id: str
    max: int
    recharge: str | None


@dataclass(frozen=True, slots=True)
class WoundView:
    """SHEET-WND-06..08: a wound track as this character's build shapes it and marks fill it."""

    levels: tuple[Level, ...]
    length: int
    marks: tuple[str, ...]
    filled: int
    overflow: int
    penalty: int


class LiveView:
    """The live half of a ``SheetView`` (any ``SheetReader``)."""

    def __init__(self, view: SheetReader) -> None:
        self.view = view
        self.stored = view.live_state if view.live_state is not None else Live()

    # pools
    def declared_pool_max(self, pool_id: str) -> int:
        """SHEET-LIVE-02: floored, capped at 1,000,000, worked out without live state."""
        pool = self.view.ix.pools.get(pool_id)
        if pool is None:
            return 0
        static = self.view.static
        value = static.cached(("pool_max", pool_id), lambda: static.ref(pool.max))
        return min(math.floor(value), POOL_CAP)

    def has_pool(self, pool_id: str) -> bool:
        """SHEET-LIVE-03: not hidden and a maximum above 0."""
        pool = self.view.ix.pools.get(pool_id)
        return pool is not None and not self.view.hidden(pool.hide_when) \
            and self.declared_pool_max(pool_id) > 0

    def declared_pool_value(self, pool_id: str) -> int:
        """SHEET-REF-10 / SHEET-LIVE-04: what is left (0 when the pool does not exist)."""
        if not self.has_pool(pool_id):
            return 0
        pool = self.view.ix.pools[pool_id]
        return self._value(pool_id, self.declared_pool_max(pool_id), pool.start == "full")

    def _value(self, key: str, maximum: int, full: bool) -> int:
        stored = self.stored.pools.get(key)
        if stored is None:
            return maximum if full else 0
        return min(max(stored.value, 0), maximum)

    def row_pools(self) -> dict[str, RowPool]:
        """SHEET-LST-04: every row pool of every shown list; the first row of a name wins."""
        out: dict[str, RowPool] = {}
        for sheet_list in self.view.rules.sheet.lists:
            if sheet_list.pools is None or self.view.hidden(sheet_list.hide_when):
                continue
            for pool in self._list_pools(sheet_list):
                out.setdefault(pool.key, pool)
        return out

    def _list_pools(self, sheet_list: SheetList) -> list[RowPool]:
        spec = sheet_list.pools
        assert spec is not None
        column = sheet_list.column(spec.max_column)
        default = column.default if isinstance(column, NumberField) else None
        out = []
        for row in self.view.build.lists.get(sheet_list.id, []):
            name = row.get(spec.name_column)
            cell = finite(row.get(spec.max_column))
            top = cell if cell is not None else (default or 0.0)
            if not isinstance(name, str) or not name.strip() or math.floor(top) <= 0:
                continue
            recharge = row.get(spec.recharge_column or "")
            out.append(RowPool(key=f"{sheet_list.id}:{name.strip().lower()}", name=name.strip(),
                               list_id=sheet_list.id, max=min(math.floor(top), POOL_CAP),
                               recharge=recharge if isinstance(recharge, str) else None))
        return out

    def pools(self) -> dict[str, tuple[int, int]]:
        """Every pool this character has: key -> (value, max), declared first then rows."""
        out = {p.id: (self.declared_pool_value(p.id), self.declared_pool_max(p.id))
               for p in self.view.rules.sheet.live.pools if self.has_pool(p.id)}
        for key, row in self.row_pools().items():
            out.setdefault(key, (self._value(key, row.max, True), row.max))
        return out

    # tracks
    def track_range(self, track: Track) -> tuple[int, int]:
        """SHEET-LIVE-07: ``min`` and a maximum never below it, at most 1,000,000."""
        if isinstance(track.max, int):
            return track.min, track.max
        static = self.view.static
        value = static.cached(("track_max", track.id), lambda: static.ref(track.max))  # type: ignore[arg-type]
        return track.min, min(max(math.floor(value), track.min), POOL_CAP)

    def plain_value(self, track: Track) -> int:
        """SHEET-LIVE-08: stored value clamped, else the default clamped."""
        low, high = self.track_range(track)
        stored = self.stored.tracks.get(track.id)
        value = stored if stored is not None else (track.default if track.default is not None
                                                   else low)
        return min(max(value, low), high)

    def track_read(self, track_id: str, read: str) -> float:
        """SHEET-REF-09: value, filled, remaining or (wound tracks) penalty; hidden reads 0."""
        track = self.view.ix.tracks.get(track_id)
        if track is None:
            return 0.0
        if track.wound:
            wound = self.wound(track_id)
            assert wound is not None
            reads = {"value": wound.filled, "filled": wound.filled,
                     "remaining": wound.length - wound.filled, "penalty": wound.penalty}
            return float(reads.get(read, wound.filled))
        if self.view.hidden(track.hide_when) or read == "penalty":
            return 0.0
        low, high = self.track_range(track)
        value = self.plain_value(track)
        return float({"filled": value - low, "remaining": high - value}.get(read, value))

    def wound(self, track_id: str) -> WoundView | None:
        """SHEET-WND-04..08 for this character."""
        track = self.view.ix.tracks.get(track_id)
        if track is None or not track.wound:
            return None
        levels = self._levels(track)
        length = len(levels) if track.levels is not None else self._box_count(track)
        marks, overflow = self._marks(track, length)
        filled = sum(1 for m in marks if m)
        return WoundView(levels=levels, length=length, marks=marks, filled=filled,
                         overflow=overflow, penalty=self._penalty(track, levels, marks, length))

    def _box_count(self, track: Track) -> int:
        _, high = self.track_range(track)
        return min(max(high, 0), MAX_BOXES)

    def _levels(self, track: Track) -> tuple[Level, ...]:
        """SHEET-WND-05: the declared levels with the rows of ``extra`` inserted."""
        levels = list(track.levels or ())
        extra = track.extra
        sheet_list = self.view.ix.lists.get(extra.list) if extra else None
        if extra is None or sheet_list is None or self.view.hidden(sheet_list.hide_when):
            return tuple(levels)
        count_default = _column_default(sheet_list, extra.count_column)
        penalty_default = _column_default(sheet_list, extra.penalty_column)
        for row in self.view.build.lists.get(sheet_list.id, []):
            count = _cell(row.get(extra.count_column), count_default)
            penalty = _cell(row.get(extra.penalty_column), penalty_default)
            levels = _insert(levels, min(max(math.floor(count), 0), 16),
                             min(max(math.floor(penalty + 0.5), -1000), 0))
        return tuple(levels[:MAX_BOXES])

    def _marks(self, track: Track, length: int) -> tuple[tuple[str, ...], int]:
        """SHEET-WND-06: stored marks cleaned up; what does not fit is overflow."""
        stored = self.stored.wounds.get(track.id) or _NO_WOUNDS
        severity = {k.id: k.severity for k in track.kinds or ()}
        if track.indexed:
            cells = [m if m in severity else "" for m in stored.marks]
            spill = sum(1 for m in cells[length:] if m)
            kept = cells[:length]
            while kept and not kept[-1]:
                kept.pop()
            return tuple(kept), stored.overflow + spill
        known = sorted((m for m in stored.marks if m in severity), key=lambda m: -severity[m])
        return tuple(known[:length]), stored.overflow + max(len(known) - length, 0)

    def _penalty(self, track: Track, levels: tuple[Level, ...], marks: tuple[str, ...],
                 length: int) -> int:
        """SHEET-WND-08: the lowest marked level's penalty, or the box table."""
        filled = sum(1 for m in marks if m)
        if track.boxes is not None:
            spec = track.boxes.penalty
            at = filled if spec.by == "filled" else length - filled
            return math.floor(step_lookup(spec.table, at))
        lowest = max((i for i, m in enumerate(marks) if m), default=None)
        return levels[lowest].penalty if lowest is not None and lowest < len(levels) else 0

    # states, conditions, lists
    def state_value(self, state_id: str) -> str | None:
        """SHEET-LIVE-12: stored if still offered, else the default, else the first value;
        a hidden state has no value."""
        state = self.view.ix.states.get(state_id)
        if state is None or self.view.hidden(state.hide_when):
            return None
        stored = self.stored.states.get(state_id)
        return stored if stored in state.values else state.start

    def active_conditions(self) -> tuple[str, ...]:
        """SHEET-LIVE-10: declared conditions that are on, each once, in stored order."""
        declared = self.view.ix.conditions
        return tuple(dict.fromkeys(c for c in self.stored.conditions if c in declared))

    def list_sum(self, spec: ListSum) -> float:
        """SHEET-REF-11: a number column summed over the rows (where ``onlyWhen`` holds)."""
        sheet_list = self.view.ix.lists.get(spec.list)
        if sheet_list is None or self.view.hidden(sheet_list.hide_when):
            return 0.0
        default = _column_default(sheet_list, spec.column)
        gate = sheet_list.column(spec.only_when) if spec.only_when else None
        total = 0.0
        for row in self.view.build.lists.get(spec.list, []):
            if gate is not None and not _flag(row.get(gate.id), gate):
                continue
            total += _cell(row.get(spec.column), default)
        return total


def _column_default(sheet_list: SheetList, column_id: str) -> float:
    column = sheet_list.column(column_id)
    return column.default or 0.0 if isinstance(column, NumberField) else 0.0


def _cell(value: object, default: float) -> float:
    number = finite(value)
    return number if number is not None else default


def _flag(value: object, column: object) -> bool:
    if isinstance(value, bool):
        return value
    return bool(column.default) if isinstance(column, BooleanField) else False


def _insert(levels: list[Level], count: int, penalty: int) -> list[Level]:
    """SHEET-WND-05: after the last level at least as good; its label if equal, else the number."""
    if count == 0:
        return levels
    at = max((i for i, lv in enumerate(levels) if lv.penalty >= penalty), default=-1)
    same = at >= 0 and levels[at].penalty == penalty
    label = levels[at].label if same else str(penalty)
    new = [Level(label=label, penalty=penalty) for _ in range(count)]
    return levels[:at + 1] + new + levels[at + 1:]
