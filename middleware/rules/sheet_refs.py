"""What value references read, for the import checks (SHEET-IMPORT-08/10/11/12/13/14)."""

from __future__ import annotations

from collections.abc import Iterator

from middleware.errors import Problem
from middleware.rules.refs import ValueRef
from middleware.rules.sheet import Derived, EnumTable, MinMaxOf, Scale, SheetBlock, StepTable, SumOf
from middleware.rules.sheet_fields import BooleanField, EnumField, NumberField


def refs_of_derived(derived: Derived) -> list[tuple[str, ValueRef]]:
    """Each reference a derived value reads, with its path below the derived value."""
    if isinstance(derived, SumOf | MinMaxOf):
        return [(f".of[{i}]", ref) for i, ref in enumerate(derived.of)]
    if isinstance(derived, Scale):
        return [(".of", derived.of)]
    if isinstance(derived, StepTable):
        return [(".from", derived.from_)]
    return []


class RefGraph:
    """Answers "does this reference (through derived values and caps) read X?" for one sheet."""

    def __init__(self, sheet: SheetBlock) -> None:
        self.sheet = sheet
        self.ix = sheet.by_id

    def _derived_reads(self, derived_id: str, seen: frozenset[str]) -> Iterator[ValueRef]:
        derived = self.ix.derived.get(derived_id)
        if derived is None or derived_id in seen:
            return
        for _, ref in refs_of_derived(derived):
            yield ref
            if ref.derived is not None:
                yield from self._derived_reads(ref.derived, seen | {derived_id})

    def _closure(self, ref: ValueRef) -> list[ValueRef]:
        return [ref, *(self._derived_reads(ref.derived, frozenset()) if ref.derived else ())]

    def reads_skill(self, ref: ValueRef) -> bool:
        """SHEET-IMPORT-12/14: a skill or save number, directly or through derived values."""
        return any(r.skill_mod is not None or r.save_mod is not None for r in self._closure(ref))

    def is_live(self, ref: ValueRef, depth: int = 0) -> bool:
        """SHEET-REF-14: a live read directly, through derived values or through a capped skill."""
        for r in self._closure(ref):
            if r.live_pool or r.live_track or r.item_stat:
                return True
            derived = self.ix.derived.get(r.derived or "")
            if isinstance(derived, EnumTable) and derived.from_.live_state is not None:
                return True
            entry = self.ix.skills.get(r.skill_mod or "") or self.ix.saves.get(r.save_mod or "")
            if entry and entry.cap is not None and depth < 8 and self.is_live(entry.cap, depth + 1):
                return True
        return False

    def static_problems(self, path: str, ref: ValueRef) -> Iterator[Problem]:
        """SHEET-IMPORT-13: maxima and the proficiency bonus may not read the live state."""
        yield from self.target_problems(path, ref)
        if self.is_live(ref):
            yield Problem(path, "worked out before there is a live state: no live reads here")

    def target_problems(self, path: str, ref: ValueRef, before: int | None = None
                        ) -> Iterator[Problem]:
        """SHEET-IMPORT-08/10: the reference names something that exists (and is above)."""
        message = self._target_problem(ref, before)
        if message:
            yield Problem(path, message)

    def _target_problem(self, ref: ValueRef, before: int | None) -> str | None:
        ix = self.ix
        if ref.field is not None and not isinstance(ix.fields.get(ref.field), NumberField):
            return f"{ref.field!r} is not a number field"
        if ref.derived is not None:
            at = ix.derived_order.get(ref.derived)
            if at is None:
                return f"no derived value {ref.derived!r}"
            if before is not None and at >= before:
                return f"{ref.derived!r} is not declared above this derived value"
        for name in (ref.ability_score, ref.ability_mod):
            if name is not None and name not in ix.abilities:
                return f"no ability {name!r}"
        if ref.ability_mod_from_field is not None and ix.enum_field(
                ref.ability_mod_from_field) is None:
            return f"{ref.ability_mod_from_field!r} is not an enum field"
        if ref.skill_mod is not None and ref.skill_mod not in ix.skills:
            return f"no skill {ref.skill_mod!r}"
        if ref.save_mod is not None and ref.save_mod not in ix.saves:
            return f"no save {ref.save_mod!r}"
        return self._live_target_problem(ref)

    def _live_target_problem(self, ref: ValueRef) -> str | None:
        ix = self.ix
        if ref.live_pool is not None and ref.live_pool not in ix.pools:
            return f"no declared pool {ref.live_pool!r}"
        if ref.live_track is not None:
            track = ix.tracks.get(ref.live_track)
            if track is None:
                return f"no track {ref.live_track!r}"
            if ref.read == "penalty" and not track.wound:
                return "read 'penalty' needs a wound track"
        if ref.list_sum is not None:
            sheet_list = ix.lists.get(ref.list_sum.list)
            if sheet_list is None:
                return f"no list {ref.list_sum.list!r}"
            if not isinstance(sheet_list.column(ref.list_sum.column), NumberField):
                return f"{ref.list_sum.column!r} is not a number column"
            gate = ref.list_sum.only_when
            if gate is not None and not isinstance(sheet_list.column(gate), BooleanField):
                return f"onlyWhen {gate!r} is not a boolean column"
        return None

    def enum_table_problems(self, path: str, derived: EnumTable) -> Iterator[Problem]:
        """SHEET-IMPORT-11: an enum field or a declared state, keys it can hold."""
        source = derived.from_
        values: list[str] | None = None
        if source.field is not None:
            field = self.ix.fields.get(source.field)
            if not isinstance(field, EnumField):
                yield Problem(f"{path}.from.field", f"{source.field!r} is not an enum field")
                return
            values = field.values
        else:
            state = self.ix.states.get(source.live_state or "")
            if state is None:
                yield Problem(f"{path}.from.liveState", f"no state {source.live_state!r}")
                return
            values = state.values
        for key in derived.table:
            if key not in values:
                yield Problem(f"{path}.table[{key!r}]", f"{key!r} is not a value of the source")
