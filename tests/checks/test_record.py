"""The skill_check record and its rewritten tag (SPEC §6, CHK-REC)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from middleware.resolve.checks.record import (
    _FIELD,
    EXTRAS,
    CheckRecord,
    _extra_text,
    format_chance,
)


def test_attributes_follow_the_peer_order() -> None:
    """SPEC §6: head ``skill dc rolls used modifier total result mode resolution dice`` then the
    extras in order (who, with, penalty, difficulty, adjust, effects, outcome, unmodified,
    chance), each only when it applies; ``adjust`` signed."""
    record = CheckRecord(
        status="resolved", skill="Percentile", who="Bram", dc=100, rolls=[66], used=66,
        modifier=-3, total=63, success=False, mode="normal", dice="1d100", with_="Nerve",
        penalty=-1, difficulty="Hard", adjust=2, effects="Rattled", outcome="Failure",
        unmodified=66, chance=0.25)
    assert [("skill", "Percentile"), ("dc", "100"), ("rolls", "66"), ("used", "66"),
            ("modifier", "-3"), ("total", "63"), ("result", "failure"), ("mode", "normal"),
            ("resolution", "sum"), ("dice", "1d100"), ("who", "Bram"), ("with", "Nerve"),
            ("penalty", "-1"), ("difficulty", "Hard"), ("adjust", "+2"), ("effects", "Rattled"),
            ("outcome", "Failure"), ("unmodified", "66"), ("chance", "0.2500"),
            ] == record.tag_attrs()


def test_unmodified_face_on_the_tag() -> None:
    """CHK-SUM-09, CHK-REC-09: ``unmodified="66"`` is written; absent when no listed face."""
    base = {"status": "resolved", "skill": "X", "dc": 50, "rolls": [65], "used": 65,
            "total": 65, "success": True, "dice": "1d100"}
    assert "66" == dict(CheckRecord(**base, unmodified=66).tag_attrs())["unmodified"]
    assert "unmodified" not in dict(CheckRecord(**base).tag_attrs())


def test_result_words() -> None:
    """SPEC §6: ``result`` is success, failure, critical_success or critical_failure."""
    def result(success: bool, critical: str | None) -> str | None:
        return CheckRecord(status="resolved", success=success, critical=critical).result

    assert ["success", "failure", "critical_success", "critical_failure"] == [
        result(True, None), result(False, None), result(True, "success"),
        result(False, "failure")]


def test_error_and_ignored_records_leave_the_tag_as_written() -> None:
    """SPEC §8: an error record renders no attributes, so rewrite keeps the model's text."""
    assert [] == CheckRecord(status="error", skill="X").tag_attrs()


def test_chance_is_never_rounded_to_a_false_certainty() -> None:
    """Our ``chance``: four decimals; a tiny chance is ``<0.0001``, a near-sure one ``>0.9999``."""
    assert ["0.5833", "<0.0001", ">0.9999", "0.0000", "1.0000"] == [
        format_chance(7 / 12), format_chance(1e-7), format_chance(1 - 1e-7), format_chance(0.0),
        format_chance(1.0)]


@given(st.data())
def test_extras_are_every_set_extra_in_the_peer_order(data: st.DataObject) -> None:
    """SPEC §6: the extras written are exactly the extras a record sets (not None), in the order
    of ``EXTRAS``, each written as its own value says (read in one call, ``_extras``)."""
    names = data.draw(st.lists(st.sampled_from(EXTRAS), unique=True))
    fields = {_field(name): data.draw(_EXTRA_VALUES[_field(name)]) for name in names}
    record = CheckRecord(status="resolved", **fields)
    expected = [(name, _extra_text(name, getattr(record, _field(name)))) for name in EXTRAS
                if getattr(record, _field(name)) is not None]
    assert expected == record.tag_attrs()[10:]


def test_an_extra_set_to_a_false_value_is_written() -> None:
    """SPEC §6: an extra set to 0, False or "" applies, and is written beside a true one."""
    record = CheckRecord(status="resolved", pool=0, complication=False, against="", chance=0.5)
    assert [("pool", "0"), ("complication", "false"), ("against", ""), ("chance", "0.5000")] == \
        record.tag_attrs()[10:]


@given(st.floats(min_value=0.0, max_value=1.0))
def test_a_chance_on_the_tag_is_written_as_format_chance_writes_it(chance: float) -> None:
    """Our ``chance`` on the tag (kept per value) is ``format_chance`` of that value, 0 included."""
    record = CheckRecord(status="resolved", chance=chance)
    assert [("chance", format_chance(chance))] == record.tag_attrs()[10:]
    assert [("chance", format_chance(chance))] == record.tag_attrs()[10:]  # from the cache


def _field(name: str) -> str:
    """The record's field for an extra's name (the module's own mapping: one home for it)."""
    return _FIELD.get(name, name)


_TEXTS = st.text(alphabet=st.characters(codec="ascii", exclude_characters='"[]\r\n'), max_size=8)
_EXTRA_VALUES: dict[str, st.SearchStrategy[object]] = {
    name: (st.booleans() | st.none() if field.annotation == bool | None
           else st.integers(-99, 99) | st.none() if field.annotation == int | None
           else st.floats(0.0, 1.0) | st.none() if field.annotation == float | None
           else _TEXTS | st.none())
    for name, field in CheckRecord.model_fields.items()}
