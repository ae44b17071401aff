"""Every CHK-IMPORT refusal of checks.md §13 is cited by a test under ``tests/rules``.

The ids are read from the digest itself at test time, so a refusal added to the page and
forgotten here fails this test. Only a test function's docstring cites an id (no comment, class or
module docstring): one by one (``CHK-IMPORT-14``), as a range (``CHK-IMPORT-04..09``) or as a list
(``CHK-IMPORT-04/09``). The parser is ``tests/coverage.py``; coverage modules cite nothing.
"""

from __future__ import annotations

from pathlib import Path

from tests.coverage import Digest, docstrings_of_test_functions
from tests.peer import spec_path

CHECKS = Digest(spec_path("checks.md"), "CHK")
TESTS = Path(__file__).resolve().parent


def declared_refusals() -> list[str]:
    """The CHK-IMPORT ids the digest lists as requirements, in its order."""
    return [one for one in CHECKS.declared() if one.startswith("CHK-IMPORT-")]


def test_the_digest_lists_the_47_import_refusals() -> None:
    """checks.md §13: CHK-IMPORT-01..47 are found, each once, in order (the parser reads them)."""
    assert [f"CHK-IMPORT-{n:02d}" for n in range(1, 48)] == declared_refusals()


def test_a_range_cites_every_id_in_it() -> None:
    """A docstring citing ``CHK-IMPORT-04..06, CHK-IMPORT-12`` cites 04, 05, 06 and 12."""
    assert {"CHK-IMPORT-04", "CHK-IMPORT-05", "CHK-IMPORT-06", "CHK-IMPORT-12"} == \
        CHECKS.cited("CHK-IMPORT-04..06, CHK-IMPORT-12: pool rules")


def test_every_import_refusal_is_cited_by_a_rules_test() -> None:
    """CHK-IMPORT-01..47: each refusal of the digest is cited by at least one test docstring
    under tests/rules (other than this module), so none is forgotten."""
    cited = CHECKS.cited_under(TESTS, count=docstrings_of_test_functions)
    assert [] == [one for one in declared_refusals() if one not in cited]
