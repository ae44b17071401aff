"""A parsed reply's runs of prose and tags are frozen values (STYLE habit 3).

``Text`` and ``Tag`` set their slots through the slots' own setters (``segments._setters``), a
cheaper ``__init__`` than a frozen dataclass's; they stay frozen dataclasses all the same.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, fields, replace

import pytest

from middleware.segments import Tag, Text


def test_a_text_is_a_frozen_value() -> None:
    """A Text equals another with the same fields, hashes alike, and refuses a change."""
    run = Text("Rain.", 3, 8)
    assert ("Rain.", 3, 8) == (run.text, run.start, run.end)
    assert Text("Rain.", 3, 8) == run
    assert hash(Text("Rain.", 3, 8)) == hash(run)
    assert Text(text="Rain.", start=0, end=5) == replace(run, start=0, end=5)
    with pytest.raises(FrozenInstanceError):
        run.text = "Sun."  # type: ignore[misc]


def test_a_tag_is_a_frozen_value() -> None:
    """A Tag has its seven fields in order, no problems unless given, and refuses a change."""
    tag = Tag("skill_check", {"dc": "7"}, ("advantage",), "[skill_check: dc=7 advantage]", 0, 29)
    assert ["name", "attrs", "words", "raw", "start", "end", "problems"] == [
        f.name for f in fields(tag)]
    assert () == tag.problems
    assert Tag(name="skill_check", attrs={"dc": "7"}, words=("advantage",),
               raw="[skill_check: dc=7 advantage]", start=0, end=29, problems=()) == tag
    assert ("x",) == replace(tag, problems=("x",)).problems
    assert "7" == tag.get("difficulty", "dc")
    with pytest.raises(FrozenInstanceError):
        tag.start = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        Tag("skill_check", {}, (), "[skill_check:]", 0)  # type: ignore[call-arg]
