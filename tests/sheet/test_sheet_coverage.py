"""Every requirement of the sheet digest (sheet.md) is cited by a test, or named out of scope.

The ids are read from the digest at test time, so a requirement added to the page and forgotten
here fails. A test cites an id in a docstring or a comment anywhere under ``tests/``: one by one
(``SHEET-ADJ-03``), as a range (``SHEET-REST-01..09``) or as a list (``SHEET-WND-01/02/03``).
The parser is ``tests/coverage.py``; coverage modules cite nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.coverage import Digest, every_docstring_and_comment
from tests.peer import spec_path

SHEET = Digest(spec_path("sheet.md"), "SHEET")
TESTS = Path(__file__).resolve().parents[1]

OUT_OF_SCOPE: dict[str, str] = {
    "SHEET-SEC-01": "[D] grouping under section headings in the editor, the in-game sheet and "
                    "the GM's sheet block: display only (a section's untrained rule, "
                    "SHEET-SEC-02, is in scope)",
    "SHEET-SKL-08": "[D] how the editor and the GM's sheet block print a number (+3, 3 dice)",
    "SHEET-LST-06": "[D] scaled catalog columns are recomputed by the peer's sheet editor; our "
                    "choice: the middleware never recomputes them, a transcript states the number",
    "SHEET-LST-07": "[X] lists read as combat attack rows, abilities and battle skills, and [D] "
                    "the GM sheet block's summary lists",
    "SHEET-LIVE-09": "[X, D] live text (5e concentration) is shown and used in fights only; no "
                     "check or item rule reads it",
    "SHEET-WND-09": "[X] marking a wound track by a fight's blow or [sheet: op=damage]: neither "
                    "is among our four tags",
    "SHEET-BUILD-04": "[D] where the peer keeps sheets (character cards, persona, chat metadata): "
                      "its storage, not ours; transcripts carry the envelope itself",
    "SHEET-BUILD-05": "[X] bestiary creatures written as a sheet: read only by combat",
}

_BOLD = re.compile(r"\*\*SHEET-[A-Z]+-\d+\*\*")


def cited_under_tests() -> set[str]:
    """The ids cited anywhere under tests/: every docstring (module, class, function) and comment."""
    return SHEET.cited_under(TESTS, count=every_docstring_and_comment)


def test_the_parser_finds_every_requirement_once() -> None:
    """Every bold SHEET id of the digest is a numbered requirement, found once."""
    text = SHEET.text()
    declared = SHEET.declared()
    assert (len(_BOLD.findall(text)), len(declared)) == (len(declared), len(set(declared)))


def test_ranges_and_lists_cite_every_id_in_them() -> None:
    """``SHEET-ADJ-01..03``, ``SHEET-WND-01/04`` and ``SHEET-PEN-05`` cite six ids; an
    ``ITM-SHEET-02`` is another digest's id and cites none."""
    expected = {"SHEET-ADJ-01", "SHEET-ADJ-02", "SHEET-ADJ-03", "SHEET-WND-01", "SHEET-WND-04",
                "SHEET-PEN-05"}
    assert expected == SHEET.cited("SHEET-ADJ-01..03, SHEET-WND-01/04 and SHEET-PEN-05; "
                                   "ITM-SHEET-02")


def test_out_of_scope_names_real_requirements_with_reasons() -> None:
    """Each out-of-scope entry is a requirement of the digest and says why."""
    declared = set(SHEET.declared())
    assert [] == [k for k, why in OUT_OF_SCOPE.items() if k not in declared or not why.strip()]


def test_every_requirement_is_cited_or_out_of_scope() -> None:
    """sheet.md: every SHEET id is cited by a test docstring or comment under tests/, or is
    listed in OUT_OF_SCOPE with its reason."""
    cited = cited_under_tests()
    declared = SHEET.declared()
    assert [] == [one for one in declared if one not in cited and one not in OUT_OF_SCOPE]
