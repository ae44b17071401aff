"""The ``branch`` record: which section of a branch block the dice kept, and what was botched."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from middleware.records import Record, Status

Problem = Literal["no-section", "no-result", "no-check", "nested", "repeated", "stray-end"]
"""What can be wrong with a block, each kept readable:

- ``no-section``: no section is written for the result; none is kept.
- ``no-result``: the check before it was not rolled (refused or unreadable); none is kept.
- ``no-check``: markers with no check before them; the block stays as written, tags and all.
- ``nested``: a block inside a section; it is chosen by its own check when its section is kept.
- ``repeated``: a section label written twice; the first is the one that can be kept.
- ``stray-end``: a ``[/branch]`` that closes nothing; it stays in the text as written.
"""


class BranchRecord(Record):
    """One branch block: the sections written, the one kept (by its label as written), how many tags
    the sections not taken held (never resolved), and the problems, the first also the ``reason``.

    It writes no tag into the text: the text shows the kept section only."""

    tag: str = "branch"
    status: Status = "resolved"
    check: str | None = Field(default=None, description="the skill of the check that chose")
    result: str | None = Field(default=None, description="the check's result= that chose")
    outcome: str | None = Field(default=None, description="the check's outcome tier, if any")
    kept: str | None = None
    sections: list[str] = Field(default_factory=list)
    dropped_tags: int = 0
    problems: list[Problem] = Field(default_factory=list)
