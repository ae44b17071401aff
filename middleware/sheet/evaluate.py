"""The evaluated sheet: one character's numbers from definition + build + live state + items.

SHEET-EVAL-01..08. A ``SheetView`` works every number out on demand and caches it for the life of
the view (one evaluation). Maxima and the proficiency bonus are read off ``static``, the same build
with no live state and no items (SHEET-REF-16). Nothing here raises at play time (SHEET-EVAL-08): a
reference that cannot be resolved reads 0, and a re-entrant read (a cycle the import checks should
have refused) reads 0 too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence

from middleware.rules.live import Track
from middleware.rules.refs import ItemStat, ValueRef
from middleware.rules.sheet import (
    EnumTable,
    MinMaxOf,
    Scale,
    Skill,
    StepTable,
    SumOf,
    Untrained,
    UntrainedBy,
)
from middleware.rules.sheet_fields import (
    BooleanField,
    EnumField,
    HideWhen,
    NumberField,
    Scalar,
    blank_value,
)
from middleware.sheet.live import LiveView
from middleware.sheet.numbers import finite, round_by, step_lookup
from middleware.sheet.reading import EffectSource, ItemEffects, SheetReader
from middleware.sheet.rules_view import SheetRules, Tier
from middleware.state import Build, Live


class NoItems:
    """Nobody holds anything: no ability changes, every ``itemStat`` reads its default."""

    def ability_changes(self, ability: str) -> tuple[float, float | None]:
        return 0.0, None

    def stat(self, ref: ItemStat) -> float | None:
        return None

    def sources(self, view: SheetReader) -> Iterable[tuple[str, EffectSource]]:
        return ()


def blank_build(rules: SheetRules) -> Build:
    """SHEET-BLANK-01: every ability at its default, every field at its blank value."""
    sheet = rules.sheet
    return Build(abilities={a.id: a.default for a in sheet.abilities},
                 fields={f.id: blank_value(f) for f in sheet.fields})


class SheetView:
    """One evaluation of one character's sheet (SHEET-EVAL)."""

    def __init__(self, rules: SheetRules, build: Build, live: Live | None = None,
                 items: ItemEffects | None = None,
                 removed: Mapping[str, frozenset[str]] | None = None) -> None:
        self.rules = rules
        self.ix = rules.sheet.by_id
        self.build = build
        self.live_state = live
        self.items = items
        self.removed = removed or {}
        """SHEET-FLD-06: enum values the game's layers took out of each field, by field id."""
        self._memo: dict[Hashable, float] = {}
        self._busy: set[Hashable] = set()
        self._static: SheetView | None = None
        self.live = LiveView(self)

    @property
    def static(self) -> SheetView:
        """SHEET-REF-16: the same build with no live state and no items, for maxima and PB."""
        if self.live_state is None and self.items is None:
            return self
        if self._static is None:
            self._static = SheetView(self.rules, self.build, removed=self.removed)
        return self._static

    def cached(self, key: Hashable, compute: Callable[[], float]) -> float:
        """Compute once per view; a read of a value still being computed reads 0."""
        if key in self._memo:
            return self._memo[key]
        if key in self._busy:
            return 0.0
        self._busy.add(key)
        try:
            value = compute()
        finally:
            self._busy.discard(key)
        self._memo[key] = value if math.isfinite(value) else 0.0
        return self._memo[key]

    # abilities (SHEET-ABL)
    def score(self, ability_id: str) -> float:
        """SHEET-ABL-02/03: the build's score (or default), then item changes held in range."""
        return self.cached(("score", ability_id), lambda: self._score(ability_id))

    def _score(self, ability_id: str) -> float:
        ability = self.ix.abilities.get(ability_id)
        if ability is None:
            return 0.0
        stored = finite(self.build.abilities.get(ability_id))
        score = stored if stored is not None else float(ability.default)
        adds, floor = (self.items or NoItems()).ability_changes(ability_id)
        if adds == 0 and floor is None:
            return score
        score += adds
        if floor is not None:
            score = max(score, floor)
        return float(min(max(score, ability.min), ability.max))

    def modifier(self, ability_id: str) -> float:
        """SHEET-ABL-04: identity, floorHalfMinusTen or a step table."""
        if ability_id not in self.ix.abilities:
            return 0.0
        score = self.score(ability_id)
        if self.rules.modifier_op == "floorHalfMinusTen":
            return float(math.floor((score - 10) / 2))
        if self.rules.modifier_op == "stepTable" and self.rules.modifier_table:
            return step_lookup(self.rules.modifier_table, score)
        return score

    # fields (SHEET-FLD)
    def number_field(self, field_id: str) -> float:
        """SHEET-FLD-03: the stored finite number, else the default, else 0 held in range."""
        field = self.ix.fields.get(field_id)
        if not isinstance(field, NumberField):
            return 0.0
        stored = finite(self.build.fields.get(field_id))
        return stored if stored is not None else field.blank

    def enum_value(self, field_id: str) -> str | None:
        """SHEET-FLD-03: the stored value if offered, else the default, else the first value."""
        field = self.ix.enum_field(field_id)
        if field is None:
            return None
        stored = self.build.fields.get(field_id)
        if isinstance(stored, str) and self._offered(field_id, field.values, stored):
            return stored
        return field.blank

    def _offered(self, field_id: str, values: Sequence[str], stored: str) -> bool:
        """SHEET-FLD-03/06: a stored enum value counts while the field offers it and no chosen
        layer took it out (the build keeps it; it reads again once the layer is off)."""
        return stored in values and stored not in self.removed.get(field_id, ())

    def field_value(self, field_id: str) -> Scalar | None:
        """A field's value as ``hideWhen`` reads it (SHEET-FLD-03/05)."""
        field = self.ix.fields.get(field_id)
        if field is None:
            return None
        if isinstance(field, NumberField):
            return self.number_field(field_id)
        if isinstance(field, EnumField):
            return self.enum_value(field_id)
        stored = self.build.fields.get(field_id)
        if isinstance(field, BooleanField):
            return stored if isinstance(stored, bool) else bool(field.default)
        return stored if isinstance(stored, str) else blank_value(field)

    def hidden(self, hide_when: HideWhen | None) -> bool:
        """SHEET-FLD-05: whether a ``hideWhen`` takes its owner off the sheet."""
        return hide_when is not None and hide_when.hides(self.field_value(hide_when.field))

    # derived values and references (SHEET-DRV, SHEET-REF)
    def derived(self, derived_id: str) -> float:
        """SHEET-DRV-02..07: one derived value."""
        return self.cached(("derived", derived_id), lambda: self._derived(derived_id))

    def _derived(self, derived_id: str) -> float:
        d = self.ix.derived.get(derived_id)
        if isinstance(d, SumOf):
            return sum(self.ref(r) for r in d.of)
        if isinstance(d, MinMaxOf):
            values = [self.ref(r) for r in d.of]
            return min(values) if d.op == "min" else max(values)
        if isinstance(d, Scale):
            return round_by(self.ref(d.of) * d.multiplier, d.round)
        if isinstance(d, StepTable):
            return step_lookup(d.table, self.ref(d.from_))
        if isinstance(d, EnumTable):
            return self._enum_table(d)
        return 0.0

    def _enum_table(self, d: EnumTable) -> float:
        if d.from_.field is not None:
            key = self.enum_value(d.from_.field)
        else:
            key = self.live.state_value(d.from_.live_state or "")
        return d.table.get(key, d.default) if key is not None else d.default

    def ref(self, ref: ValueRef) -> float:
        """SHEET-REF-02..12: read one value reference (0 when it names nothing)."""
        if ref.const is not None:  # exactly one key is set (SHEET-REF-01): this is a const
            return ref.const or 0.0
        if ref.field is not None:
            return self.number_field(ref.field)
        if ref.derived is not None:
            return self.derived(ref.derived)
        if ref.ability_score is not None:
            return self.score(ref.ability_score)
        if ref.ability_mod is not None:
            return self.modifier(ref.ability_mod)
        if ref.ability_mod_from_field is not None:
            return self._mod_from_field(ref.ability_mod_from_field)
        return self._ref_rest(ref)

    def _ref_rest(self, ref: ValueRef) -> float:
        if ref.skill_mod is not None:
            return self.skill_number(ref.skill_mod)
        if ref.save_mod is not None:
            return self.save_number(ref.save_mod)
        if ref.live_track is not None:
            return self.live.track_read(ref.live_track, ref.read or "value")
        if ref.live_pool is not None:
            return float(self.live.declared_pool_value(ref.live_pool))
        if ref.list_sum is not None:
            return self.live.list_sum(ref.list_sum)
        if ref.item_stat is not None:
            read = (self.items or NoItems()).stat(ref.item_stat)
            return read if read is not None else ref.item_stat.default
        return 0.0

    def _mod_from_field(self, field_id: str) -> float:
        """SHEET-REF-07: the stored value if offered, else the declared default; else 0."""
        field = self.ix.enum_field(field_id)
        if field is None:
            return 0.0
        stored = self.build.fields.get(field_id)
        offered = isinstance(stored, str) and self._offered(field_id, field.values, stored)
        value = stored if offered else field.default
        return self.modifier(value) if value in self.ix.abilities else 0.0

    # tiers and skill numbers (SHEET-TIER, SHEET-SKL, SHEET-UNT)
    def proficiency_bonus(self) -> float:
        """SHEET-TIER-03: read off the build alone; 0 without ``proficiency``."""
        pb = self.rules.proficiency
        return self.static.cached(("pb",), lambda: self.static.ref(pb) if pb else 0.0)

    def tier(self, tier_id: str | None) -> Tier | None:
        """SHEET-TIER-05: the declared tier, else the first tier (None without tiers)."""
        tiers = self.rules.tiers
        return next((t for t in tiers if t.id == tier_id), tiers[0] if tiers else None)

    def tier_value(self, tier: Tier | None) -> float:
        """SHEET-TIER-02: round(multiplier x PB) + flat."""
        if tier is None:
            return 0.0
        scaled = round_by(tier.multiplier * self.proficiency_bonus(), tier.round) \
            if tier.multiplier else 0.0
        return scaled + tier.flat

    def untrained_rule(self, entry: Skill, is_save: bool) -> Untrained | None:
        """SHEET-UNT-01: the rule in force, or None when the entry is trained."""
        chosen = (self.build.saves if is_save else self.build.skills).get(entry.id)
        tiers = self.rules.tiers
        if tiers and self.tier(chosen) is not tiers[0]:
            return None
        section = self.ix.sections.get(entry.section or "")
        rule = entry.untrained or (section.untrained if section else None)
        return rule or "normal"

    def uncapped(self, entry: Skill, is_save: bool) -> float:
        """SHEET-SKL-02: ability modifier + tier + free bonus + untrained ``by``."""
        chosen = (self.build.saves if is_save else self.build.skills).get(entry.id)
        own = self.modifier(entry.ability) if entry.ability else 0.0
        bonus = finite(self.build.bonuses.get(entry.id)) or 0.0
        rule = self.untrained_rule(entry, is_save)
        by = rule.by if isinstance(rule, UntrainedBy) else 0
        return own + self.tier_value(self.tier(chosen)) + bonus + by

    def cap(self, entry: Skill) -> float | None:
        """SHEET-SKL-03: the floored cap, read with the live state; None when uncapped."""
        return math.floor(self.ref(entry.cap)) if entry.cap is not None else None

    def entry_number(self, entry: Skill, is_save: bool, swap: str | None = None) -> float:
        """SHEET-SKL-02/05: the number, with ``swap`` replacing the own ability (then capped)."""
        number = self.uncapped(entry, is_save)
        if swap is not None:
            own = self.modifier(entry.ability) if entry.ability else 0.0
            number = number - own + self.modifier(swap)
        cap = self.cap(entry)
        return number if cap is None else min(number, cap)

    def skill_number(self, skill_id: str) -> float:
        entry = self.ix.skills.get(skill_id)
        if entry is None:
            return 0.0
        return self.cached(("skill", skill_id), lambda: self.entry_number(entry, False))

    def save_number(self, save_id: str) -> float:
        entry = self.ix.saves.get(save_id)
        if entry is None:
            return 0.0
        return self.cached(("save", save_id), lambda: self.entry_number(entry, True))

    # adjust (SHEET-ADJ)
    def adjust_total(self, abilities: frozenset[str]) -> int:
        """SHEET-ADJ-02/03: entries that apply to a roll made with ``abilities``, truncated."""
        total = sum(self.ref(a.value) for a in self.rules.adjust
                    if a.abilities is None or a.abilities & abilities)
        return int(total)

    def track_def(self, track_id: str) -> Track | None:
        return self.ix.tracks.get(track_id)
