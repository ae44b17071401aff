"""What the parts of a sheet read of one another, as Protocols: the view, its live half, the
sources of check effects and the seam items plug into.

``SheetView`` (``evaluate.py``) evaluates a build; its live half (``live.py``) and the effect
readers (``effects.py``) read it back, and it reads them. They name each other through these
Protocols, which ``SheetView``, ``LiveView`` and the items' ``HeldItems`` meet as they are, so the
modules import only downwards.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Protocol

from middleware.rules.combat import Modifier as ModifierRule
from middleware.rules.refs import ItemStat, ValueRef
from middleware.rules.sheet import SheetIndex
from middleware.rules.sheet_fields import HideWhen
from middleware.sheet.rules_view import SheetRules
from middleware.state import Build, Live


class EffectSource(Protocol):
    """The check parts a condition, a level or an item shares (SHEET-COND, ITM-CHECK-03)."""

    @property
    def effects(self) -> Sequence[str]: ...
    @property
    def modifiers(self) -> Sequence[ModifierRule]: ...
    @property
    def fails_saves(self) -> Sequence[str]: ...
    @property
    def skills(self) -> Sequence[str] | None: ...
    @property
    def saves(self) -> Sequence[str] | None: ...


class LiveReads(Protocol):
    """What the effect readers ask of a view's live half (SHEET-COND-01, SHEET-WND)."""

    def active_conditions(self) -> tuple[str, ...]: ...
    def track_read(self, track_id: str, read: str) -> float: ...


class ItemEffects(Protocol):
    """The seam items plug into (SHEET-ABL-03, SHEET-REF-12, SHEET-COND-07); implemented by
    ``middleware.items.effects.HeldItems``."""

    def ability_changes(self, ability: str) -> tuple[float, float | None]:
        """The sum of ``add`` changes and the highest ``set`` (None when no item sets it)."""
        ...

    def stat(self, ref: ItemStat) -> float | None:
        """An ``itemStat`` read, or None to read the reference's ``default``."""
        ...

    def sources(self, view: SheetReader) -> Iterable[tuple[str, EffectSource]]:
        """Check sources by name: worn/carried effects and unmet requirements (ITM-CHECK)."""
        ...


class SheetReader(Protocol):
    """One evaluated sheet, as its live half and the effect readers read it (SHEET-EVAL)."""

    rules: SheetRules
    ix: SheetIndex
    build: Build
    live_state: Live | None
    items: ItemEffects | None

    @property
    def static(self) -> SheetReader: ...
    @property
    def live(self) -> LiveReads: ...
    def cached(self, key: Hashable, compute: Callable[[], float]) -> float: ...
    def hidden(self, hide_when: HideWhen | None) -> bool: ...
    def derived(self, derived_id: str) -> float: ...
    def ref(self, ref: ValueRef) -> float: ...
