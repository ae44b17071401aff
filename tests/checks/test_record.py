"""The skill_check record and its rewritten tag (SPEC §6, CHK-REC)."""

from __future__ import annotations

from middleware.resolve.checks.record import CheckRecord, format_chance


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
